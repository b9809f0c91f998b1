import { describe, expect, it } from "vitest";
import { backoffSeconds, checkSchedule, lastCronOccurrence, nextCronOccurrence } from "./runner.ts";

describe("cron times, read in Europe/London", () => {
  it("finds the next and the last occurrence either side of the clock change", () => {
    // 07:00 in London is 07:00 UTC in winter and 06:00 UTC in summer (the clocks went forward on 29 March 2026).
    expect(nextCronOccurrence("0 7 * * *", new Date("2026-03-28T08:00:00Z")).toISOString()).toBe("2026-03-29T06:00:00.000Z");
    expect(lastCronOccurrence("0 7 * * *", new Date("2026-03-29T05:59:00Z")).toISOString()).toBe("2026-03-28T07:00:00.000Z");
  });

  it("counts an occurrence on the moment itself as the last one, and a job sent within the minute stands for it", () => {
    expect(lastCronOccurrence("0 6 * * *", new Date("2026-12-01T06:00:00Z")).toISOString()).toBe("2026-12-01T06:00:00.000Z");
    expect(lastCronOccurrence("0 6 * * *", new Date("2026-12-01T06:00:41Z")).toISOString()).toBe("2026-12-01T06:00:00.000Z");
  });

  it("refuses an expression that is not five fields, or not cron", () => {
    expect(() => checkSchedule("test.a", { cron: "0 0 7 * * *" })).toThrow(/five fields/);
    expect(() => checkSchedule("test.b", { cron: "at seven" })).toThrow();
    expect(() => checkSchedule("test.c", { cron: "*/10 * * * *" })).not.toThrow();
  });
});

describe("backoff", () => {
  it("doubles the delay from one retry to the next, up to its bound", () => {
    const retry = { limit: 5, delaySeconds: 30, delayMaxSeconds: 100 };
    expect([1, 2, 3, 4].map((attempt) => backoffSeconds(retry, attempt))).toEqual([30, 60, 100, 100]);
  });
});
