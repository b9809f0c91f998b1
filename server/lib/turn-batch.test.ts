import { describe, expect, it } from "vitest";
import { turnBatch } from "./turn-batch.ts";

describe("a batch per turn of the event loop", () => {
  it("loads the keys asked for in one turn once, together, each asked key once, and answers each caller its own", async () => {
    const loads: number[][] = [];
    const read = turnBatch(async (keys: number[]) => {
      loads.push(keys);
      return new Map(keys.filter((k) => k !== 3).map((k) => [k, `v${k}`]));
    });
    const answers = await Promise.all([read(1), read(2), read(1), read(3)]);
    expect(answers).toEqual(["v1", "v2", "v1", undefined]);
    expect(loads).toEqual([[1, 2, 3]]);
  });

  it("starts a new load for a caller who asks after the turn's load began", async () => {
    let loads = 0;
    let version = 1;
    const read = turnBatch(async (keys: string[]) => {
      loads++;
      return new Map(keys.map((k) => [k, version]));
    });
    const first = read("v");
    version = 2; // committed before the first load runs: the first caller sees it too
    expect(await first).toBe(2);
    version = 3;
    expect(await read("v")).toBe(3);
    expect(loads).toBe(2);
  });

  it("rejects every caller of a failed load, and the next turn loads afresh", async () => {
    let fail = true;
    const read = turnBatch(async (keys: number[]) => {
      if (fail) throw new Error("database away");
      return new Map(keys.map((k) => [k, k * 2]));
    });
    const results = await Promise.allSettled([read(1), read(2)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await read(2)).toBe(4);
  });
});
