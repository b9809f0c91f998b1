// A store's listeners: subscribed, told of each change, unsubscribed.
import { describe, expect, it } from "vitest";
import { createListeners } from "./listeners.ts";

describe("createListeners", () => {
  it("calls each subscribed listener on emit, and none once it has unsubscribed", () => {
    const { subscribe, emit } = createListeners();
    const calls: string[] = [];
    const stopA = subscribe(() => calls.push("a"));
    subscribe(() => calls.push("b"));
    emit();
    stopA();
    emit();
    expect(calls).toEqual(["a", "b", "b"]);
  });

  it("still calls a listener that an earlier one unsubscribes during the same emit", () => {
    const { subscribe, emit } = createListeners();
    const calls: string[] = [];
    let stopB = () => {};
    subscribe(() => {
      calls.push("a");
      stopB();
    });
    stopB = subscribe(() => calls.push("b"));
    emit();
    emit();
    expect(calls).toEqual(["a", "b", "a"]);
  });
});
