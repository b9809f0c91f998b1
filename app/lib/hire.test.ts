import { describe, expect, it } from "vitest";
import { addDays, daysLabel, formatDayMonth, formatHireDate, formatHireDateLong, isCalendarDate, londonToday, weekdayOf, withVat } from "./hire.ts";

describe("hire helpers", () => {
  it("knows a real calendar date", () => {
    expect(isCalendarDate("2026-11-23")).toBe(true);
    expect(isCalendarDate("2026-02-30")).toBe(false);
    expect(isCalendarDate("23/11/2026")).toBe(false);
    expect(isCalendarDate(null)).toBe(false);
  });

  it("adds days across months, years and the clock change", () => {
    expect(addDays("2026-11-30", 1)).toBe("2026-12-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-28", 2)).toBe("2026-03-30");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("takes today from London, not the machine's zone", () => {
    // 23:30 UTC on 31 May is already 1 June in London (BST).
    expect(londonToday(new Date("2026-05-31T23:30:00Z"))).toBe("2026-06-01");
    expect(londonToday(new Date("2026-12-31T23:30:00Z"))).toBe("2026-12-31");
  });

  it("adds VAT rounded half-up to the penny", () => {
    expect(withVat(22)).toBe(26.4);
    expect(withVat(0.125)).toBe(0.16);
    expect(withVat(10, 0)).toBe(10);
    expect(withVat(10, 5)).toBe(10.5);
  });

  it("names weekdays and formats dates for people", () => {
    expect(weekdayOf("2026-11-23")).toBe(1);
    expect(formatHireDate("2026-11-23")).toBe("Mon, 23 Nov 2026");
    expect(daysLabel(1)).toBe("1 day");
    expect(daysLabel(3)).toBe("3 days");
  });

  it("writes every day of two years as en-GB Intl does", () => {
    const opts = { timeZone: "UTC" } as const;
    const short = new Intl.DateTimeFormat("en-GB", { ...opts, weekday: "short", day: "numeric", month: "short", year: "numeric" });
    const long = new Intl.DateTimeFormat("en-GB", { ...opts, weekday: "long", day: "numeric", month: "long", year: "numeric" });
    const dayMonth = new Intl.DateTimeFormat("en-GB", { ...opts, day: "numeric", month: "short" });
    for (let day = "2026-01-01"; day < "2028-01-01"; day = addDays(day, 1)) {
      const date = new Date(`${day}T00:00:00Z`);
      expect(formatHireDate(day)).toBe(short.format(date));
      expect(formatHireDateLong(day)).toBe(long.format(date));
      expect(formatDayMonth(day)).toBe(dayMonth.format(date));
    }
    // Not a date: shown as given.
    expect(formatHireDate("2026-02-30")).toBe("2026-02-30");
  });
});
