import { describe, expect, it } from "vitest";
import { DEFAULT_PRICING, addDays, dayNumber, hireCost, hireDays, isWeekendHire, londonDate, quote, vatOn, weekday } from "./pricing.ts";

// A breaker: £40/day, £60/weekend, £120/week (pence, ex VAT).
const rates = { day: 4000, weekend: 6000, week: 12000 };
// 2026-11-23 is a Monday.
const MON = "2026-11-23";
const at = (days: number) => addDays(MON, days);

describe("calendar dates", () => {
  it("knows real dates from impossible ones", () => {
    expect(dayNumber("2026-02-28")).not.toBeNull();
    expect(dayNumber("2028-02-29")).not.toBeNull();
    expect(dayNumber("2026-02-29")).toBeNull();
    expect(dayNumber("2026-13-01")).toBeNull();
    expect(dayNumber("26-1-1")).toBeNull();
    expect(dayNumber("2026-11-23T00:00")).toBeNull();
  });

  it("counts weekdays", () => {
    expect(weekday(MON)).toBe(1);
    expect(weekday(at(4))).toBe(5);
  });

  it("lasts max(1, return − start) days", () => {
    expect(hireDays(MON, MON)).toBe(1);
    expect(hireDays(MON, at(1))).toBe(1);
    expect(hireDays(MON, at(3))).toBe(3);
    expect(() => hireDays(at(1), MON)).toThrow(RangeError);
  });

  it("is not fooled by the clocks changing (Europe/London)", () => {
    // Clocks go forward on 2026-03-29 and back on 2026-10-25.
    expect(hireDays("2026-03-28", "2026-03-30")).toBe(2);
    expect(hireDays("2026-10-24", "2026-10-26")).toBe(2);
    expect(hireDays("2026-03-01", "2026-04-01")).toBe(31);
  });

  it("takes today's date in London, not in the server's zone", () => {
    // 23:30 UTC on 30 June is already 1 July in London (BST).
    expect(londonDate(new Date("2026-06-30T23:30:00Z"))).toBe("2026-07-01");
    // 23:30 UTC on 30 December is still 30 December in London (GMT).
    expect(londonDate(new Date("2026-12-30T23:30:00Z"))).toBe("2026-12-30");
  });
});

describe("the weekend rate", () => {
  it("applies out Friday or Saturday and back Monday", () => {
    expect(isWeekendHire(at(4), at(7))).toBe(true); // Fri → Mon
    expect(isWeekendHire(at(5), at(7))).toBe(true); // Sat → Mon
    expect(hireCost(rates, at(4), at(7))).toBe(6000);
    expect(hireCost(rates, at(5), at(7))).toBe(6000);
  });

  it("does not apply to other spans", () => {
    expect(isWeekendHire(at(3), at(7))).toBe(false); // Thu → Mon
    expect(isWeekendHire(at(4), at(6))).toBe(false); // Fri → Sun
    expect(isWeekendHire(at(4), at(14))).toBe(false); // Fri → Mon a week later
    expect(isWeekendHire(at(6), at(7))).toBe(false); // Sun → Mon
  });

  it("follows the settings", () => {
    const saturdayOnly = { ...DEFAULT_PRICING, weekendOutDays: [6] };
    expect(isWeekendHire(at(4), at(7), saturdayOnly)).toBe(false);
    expect(isWeekendHire(at(5), at(7), saturdayOnly)).toBe(true);
  });
});

describe("the hire charge", () => {
  it.each([
    ["1 day", MON, at(1), 4000],
    ["same-day return counts as 1 day", MON, MON, 4000],
    ["2 days", MON, at(2), 8000],
    ["3 days, the day rate is cheaper", MON, at(3), 12000],
    ["4 days, the week rate is cheaper", MON, at(4), 12000],
    ["exactly a week", MON, at(7), 12000],
    ["8 days: a week and 1/7 of a week", MON, at(8), 12000 + 1714],
    ["10 days", MON, at(10), 12000 + 5143],
    ["13 days: the extra never passes another week", MON, at(13), 12000 + 10286],
    ["14 days: two weeks", MON, at(14), 24000],
    ["15 days", MON, at(15), 24000 + 1714],
    ["a month (30 days)", MON, at(30), 4 * 12000 + 3429],
    ["31 days over a clock change", "2026-03-01", "2026-04-01", 4 * 12000 + 5143],
  ])("%s", (_label, start, end, pence) => {
    expect(hireCost(rates, start, end)).toBe(pence);
  });

  it("caps the extra days at one more week when the day fraction is generous", () => {
    const settings = { ...DEFAULT_PRICING, extraDayFraction: 0.5 };
    expect(hireCost(rates, MON, at(13), settings)).toBe(24000);
    expect(hireCost(rates, MON, at(8), settings)).toBe(18000);
  });

  it("never charges more for a longer hire than for the next whole week", () => {
    for (let d = 1; d <= 60; d++) {
      const cost = hireCost(rates, MON, at(d));
      expect(cost).toBeLessThanOrEqual(Math.ceil(d / 7) * rates.week);
    }
  });
});

describe("a quote", () => {
  it("charges VAT on the hire, none on the deposit, and multiplies by the quantity", () => {
    const q = quote({ rates, depositPerUnit: 5000, quantity: 2, start: MON, end: at(3) });
    expect(q).toEqual({ days: 3, weekend: false, unitHireCost: 12000, hireCost: 24000, vat: 4800, deposit: 10000, total: 38800 });
  });

  it("rounds VAT half up to the penny", () => {
    expect(vatOn(1714, 20)).toBe(343); // 342.8
    expect(vatOn(1, 20)).toBe(0); // 0.2
    expect(vatOn(3, 20)).toBe(1); // 0.6
    expect(vatOn(25, 20)).toBe(5);
  });
});
