// When a showroom offers design consultations (issue 30): slots of its length
// within its own hours, none on a closed day, a bank holiday or a closure,
// none in the past (nor within the hour's notice), none beyond four weeks,
// London's offset in summer and winter, and the week-at-a-time window.
import { describe, expect, it } from "vitest";
import type { BranchHours } from "../branches/hours.ts";
import { HORIZON_DAYS, bookingWindow, slotAt, slotsOn, weekFrom } from "./slots.ts";

const york: BranchHours = {
  weekly: [...[1, 2, 3, 4, 5].map((day) => ({ day, opens: "09:00", closes: "17:00" })), { day: 6, opens: "08:00", closes: "13:00" }],
  exceptions: [
    { date: "2026-05-27", note: "Showroom refit" },
    { date: "2026-05-28", opens: "12:00", closes: "15:00" },
  ],
};
/** Friday 22 May 2026, 07:00 in London (BST). */
const FRIDAY_EARLY = new Date("2026-05-22T07:00:00+01:00");
const times = (date: string, length: number, at: Date) => slotsOn(york, date, length, at).map((s) => s.time);

describe("slots on a day", () => {
  it("runs from opening in the showroom's length, each ending by closing, in London's offset", () => {
    const slots = slotsOn(york, "2026-05-22", 60, FRIDAY_EARLY);
    expect(slots.map((s) => s.time)).toEqual(["09:00", "10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00"]);
    expect(slots[0]).toEqual({ time: "09:00", start: "2026-05-22T09:00:00+01:00", end: "2026-05-22T10:00:00+01:00" });
    // 90 minutes: the last starts at 15:00 and ends at 16:30; one at 16:30 would run past closing.
    expect(times("2026-05-22", 90, FRIDAY_EARLY)).toEqual(["09:00", "10:30", "12:00", "13:30", "15:00"]);
    expect(times("2026-05-23", 60, FRIDAY_EARLY)).toEqual(["08:00", "09:00", "10:00", "11:00", "12:00"]); // Saturday's shorter hours
  });

  it("offers nothing on a day without hours, a bank holiday or a closure, and the other hours an exception gives", () => {
    expect(times("2026-05-24", 60, FRIDAY_EARLY)).toEqual([]); // Sunday
    expect(times("2026-05-25", 60, FRIDAY_EARLY)).toEqual([]); // the spring bank holiday
    expect(times("2026-05-27", 60, FRIDAY_EARLY)).toEqual([]); // the refit
    expect(times("2026-05-28", 60, FRIDAY_EARLY)).toEqual(["12:00", "13:00", "14:00"]);
  });

  it("leaves out times already past, and those within the hour's notice", () => {
    // 10:20 in London: 10:00 has started and 11:00 is within the hour, so 12:00 is the first.
    expect(times("2026-05-22", 60, new Date("2026-05-22T10:20:00+01:00"))[0]).toBe("12:00");
    expect(times("2026-05-22", 60, new Date("2026-05-22T16:30:00+01:00"))).toEqual([]);
    expect(times("2026-05-21", 60, FRIDAY_EARLY)).toEqual([]); // yesterday
  });

  it("offers four weeks ahead and no further", () => {
    const { first, last } = bookingWindow(FRIDAY_EARLY);
    expect([first, last]).toEqual(["2026-05-22", "2026-06-18"]);
    expect(HORIZON_DAYS).toBe(28);
    expect(times("2026-06-18", 60, FRIDAY_EARLY)).toHaveLength(8); // a Thursday, the last day
    expect(times("2026-06-19", 60, FRIDAY_EARLY)).toEqual([]);
  });

  it("reads winter times in GMT", () => {
    const at = new Date("2026-11-20T08:00:00Z");
    expect(slotsOn(york, "2026-11-23", 60, at)[0]).toEqual({ time: "09:00", start: "2026-11-23T09:00:00+00:00", end: "2026-11-23T10:00:00+00:00" });
  });
});

describe("the slot a booking names", () => {
  it("is one offered, by its instant in any offset; a time between slots, past or closed is none", () => {
    expect(slotAt(york, new Date("2026-05-26T08:00:00Z"), 60, FRIDAY_EARLY)?.time).toBe("09:00");
    expect(slotAt(york, new Date("2026-05-26T09:30:00+01:00"), 60, FRIDAY_EARLY)).toBeNull();
    expect(slotAt(york, new Date("2026-05-25T09:00:00+01:00"), 60, FRIDAY_EARLY)).toBeNull();
    expect(slotAt(york, new Date("2026-05-22T09:00:00+01:00"), 60, new Date("2026-05-22T09:30:00+01:00"))).toBeNull();
  });
});

describe("a week at a time", () => {
  it("starts today when no date (or an earlier one) is given, and steps by a week inside the four", () => {
    expect(weekFrom(undefined, FRIDAY_EARLY)).toEqual({ dates: ["2026-05-22", "2026-05-23", "2026-05-24", "2026-05-25", "2026-05-26", "2026-05-27", "2026-05-28"], previous: null, next: "2026-05-29" });
    expect(weekFrom("2020-01-01", FRIDAY_EARLY).dates[0]).toBe("2026-05-22");
    expect(weekFrom("2026-05-25", FRIDAY_EARLY).previous).toBe("2026-05-22");
    const last = weekFrom("2026-06-12", FRIDAY_EARLY);
    expect(last).toEqual({ dates: ["2026-06-12", "2026-06-13", "2026-06-14", "2026-06-15", "2026-06-16", "2026-06-17", "2026-06-18"], previous: "2026-06-05", next: null });
    expect(weekFrom("2027-01-01", FRIDAY_EARLY).dates).toEqual(["2026-06-18"]);
  });
});
