import { describe, expect, it } from "vitest";
import { axisLabel, longMonth, niceScale } from "./spend-chart.tsx";

describe("niceScale", () => {
  it("rounds the top up to a round step of 1, 2, 2.5 or 5 times a power of ten", () => {
    expect(niceScale(2000)).toEqual({ max: 2000, step: 500, ticks: [0, 500, 1000, 1500, 2000] });
    expect(niceScale(1234.56)).toEqual({ max: 1500, step: 500, ticks: [0, 500, 1000, 1500] });
    expect(niceScale(2001)).toEqual({ max: 3000, step: 1000, ticks: [0, 1000, 2000, 3000] });
    expect(niceScale(9000)).toEqual({ max: 10000, step: 2500, ticks: [0, 2500, 5000, 7500, 10000] });
    expect(niceScale(37)).toEqual({ max: 40, step: 10, ticks: [0, 10, 20, 30, 40] });
  });

  it("keeps the top at or above the highest value, with about four steps, for any size", () => {
    for (const highest of [0.07, 0.5, 3, 19.99, 99, 101, 777, 4321.5, 65_000, 1_234_567]) {
      const s = niceScale(highest);
      expect(s.max).toBeGreaterThanOrEqual(highest);
      expect(s.ticks[0]).toBe(0);
      expect(s.ticks.at(-1)).toBe(s.max);
      expect(s.ticks.length).toBeGreaterThanOrEqual(3);
      expect(s.ticks.length).toBeLessThanOrEqual(6);
      const mantissa = s.step / 10 ** Math.floor(Math.log10(s.step));
      expect([1, 2, 2.5, 5]).toContain(Math.round(mantissa * 100) / 100);
      // No float dust: every tick is a whole number of pence.
      for (const t of s.ticks) expect(Math.round(t * 100) / 100).toBe(t);
    }
  });

  it("draws an axis even when there is no spend", () => {
    expect(niceScale(0)).toEqual({ max: 100, step: 25, ticks: [0, 25, 50, 75, 100] });
    expect(niceScale(Number.NaN).max).toBe(100);
  });
});

describe("labels", () => {
  it("shortens thousands on the axis and names months in full for the table", () => {
    expect(axisLabel(0)).toBe("£0");
    expect(axisLabel(750)).toBe("£750");
    expect(axisLabel(1500)).toBe("£1.5k");
    expect(axisLabel(20000)).toBe("£20k");
    expect(axisLabel(2.5)).toBe("£2.5");
    expect(longMonth("2026-01")).toBe("January 2026");
  });
});
