import { describe, expect, it } from "vitest";
import {
  add,
  clear,
  COMPARE_MESSAGE_MS,
  compareCookieString,
  compareListFromCookieHeader,
  createCompareStore,
  parseCompareCookie,
  remove,
} from "./compare.ts";

describe("compare list", () => {
  it("adds a product with a short message", () => {
    expect(add([], 7)).toEqual({ list: [7], message: "Added to compare.", level: "success" });
    expect(add([1, 2], 3).list).toEqual([1, 2, 3]);
  });

  it("refuses a product already listed, as information", () => {
    expect(add([1, 2], 2)).toEqual({ list: [1, 2], message: "Product is already in the comparison list.", level: "info" });
  });

  it("refuses a fifth product with a warning", () => {
    expect(add([1, 2, 3, 4], 5)).toEqual({ list: [1, 2, 3, 4], message: "You can only compare up to 4 products.", level: "warning" });
  });

  it("a listed product is reported as listed even when the list is full", () => {
    expect(add([1, 2, 3, 4], 4).message).toBe("Product is already in the comparison list.");
  });

  it("removes and clears", () => {
    expect(remove([1, 2, 3], 2)).toEqual({ list: [1, 3], message: "Removed from compare.", level: "success" });
    expect(remove([1], 9).list).toEqual([1]);
    expect(clear()).toEqual({ list: [], message: "Comparison list cleared.", level: "success" });
  });

  it("never changes the list it was given", () => {
    const list = [1, 2];
    add(list, 3);
    remove(list, 1);
    expect(list).toEqual([1, 2]);
  });
});

describe("compare cookie", () => {
  it("keeps whole positive ids, without repeats, at most 4", () => {
    expect(parseCompareCookie("3,1,2")).toEqual([3, 1, 2]);
    expect(parseCompareCookie("3%2C1")).toEqual([3, 1]);
    expect(parseCompareCookie("1,1,x,-2,0,2.5, 4 ,5,6,7")).toEqual([1, 4, 5, 6]);
    expect(parseCompareCookie("")).toEqual([]);
    expect(parseCompareCookie(undefined)).toEqual([]);
  });

  it("is found in a Cookie header", () => {
    expect(compareListFromCookieHeader("a=1; compare=5,6; b=2")).toEqual([5, 6]);
    expect(compareListFromCookieHeader("comparex=1")).toEqual([]);
    expect(compareListFromCookieHeader(null)).toEqual([]);
  });

  it("is readable by the page and the server, and removed when empty", () => {
    expect(compareCookieString([1, 2], false)).toBe("compare=1,2; Path=/; Max-Age=31536000; SameSite=Lax");
    expect(compareCookieString([1], true)).toContain("; Secure");
    expect(compareCookieString([], false)).toContain("Max-Age=0");
    expect(compareCookieString([1], false)).not.toMatch(/HttpOnly/i);
  });
});

describe("compare store", () => {
  function setup(initial: number[] = []) {
    let cookie = [...initial];
    const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
    const store = createCompareStore({
      read: () => [...cookie],
      write: (list) => {
        cookie = [...list];
      },
      setTimer: (fn, ms) => {
        const t = { fn, ms, cleared: false };
        timers.push(t);
        return t;
      },
      clearTimer: (t) => {
        (t as { cleared: boolean }).cleared = true;
      },
    });
    return { store, timers, cookie: () => cookie, setCookie: (list: number[]) => (cookie = list) };
  }

  it("writes the cookie and shows a message that goes after 3 seconds", () => {
    const { store, timers, cookie } = setup();
    store.add(1);
    expect(cookie()).toEqual([1]);
    expect(store.getList()).toEqual([1]);
    expect(store.getNotice()).toMatchObject({ message: "Added to compare.", level: "success" });
    expect(timers[0]!.ms).toBe(COMPARE_MESSAGE_MS);
    timers[0]!.fn();
    expect(store.getNotice()).toBeNull();
  });

  it("a new message restarts the 3 seconds", () => {
    const { store, timers } = setup();
    store.add(1);
    store.add(1);
    expect(timers[0]!.cleared).toBe(true);
    expect(store.getNotice()?.message).toBe("Product is already in the comparison list.");
  });

  it("respects a list changed in another tab", () => {
    const { store, setCookie } = setup([1]);
    store.sync();
    setCookie([1, 2, 3, 4]);
    expect(store.add(5).level).toBe("warning");
    expect(store.getList()).toEqual([1, 2, 3, 4]);
    setCookie([1, 2, 3, 4, 5].slice(0, 4));
    expect(store.add(2).level).toBe("info");
  });

  it("tells subscribers about changes", () => {
    const { store } = setup();
    let calls = 0;
    const stop = store.subscribe(() => (calls += 1));
    store.add(1);
    store.remove(1);
    stop();
    store.clear();
    expect(calls).toBe(2);
  });
});
