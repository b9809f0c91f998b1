// A branch's hours (issue 30): the week, bank holidays and dated exceptions,
// open now or when next, in London's time whatever the season, and when a
// collection is ready.
import { describe, expect, it } from "vitest";
import { type BranchHours, collectReadyAt, dayName, hoursOn, openLabel, openState } from "./hours.ts";

const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, opens: "07:00", closes: "17:30" }));
const leeds: BranchHours = {
  weekly: [...weekdays, { day: 6, opens: "08:00", closes: "12:00" }],
  exceptions: [
    { date: "2026-12-28", opens: "09:00", closes: "13:00", note: "Christmas week" },
    { date: "2026-12-01", note: "Stocktake" },
  ],
};
/** A London wall-clock time as an instant (the test names the offset: GMT in winter, BST in summer). */
const at = (iso: string) => new Date(iso);

describe("hours on a day", () => {
  it("keeps the weekday's hours, closes where the week has none, on bank holidays and on a closure, and opens where an exception says", () => {
    expect(hoursOn(leeds, "2026-11-27")).toEqual({ opens: "07:00", closes: "17:30" }); // a Friday
    expect(hoursOn(leeds, "2026-11-28")).toEqual({ opens: "08:00", closes: "12:00" }); // Saturday
    expect(hoursOn(leeds, "2026-11-29")).toBeNull(); // Sunday
    expect(hoursOn(leeds, "2026-12-25")).toBeNull(); // Christmas Day, a Friday
    expect(hoursOn(leeds, "2026-12-01")).toBeNull(); // the stocktake
    // Boxing Day falls on a Saturday in 2026: the bank holiday is Monday 28th, which the branch opens anyway.
    expect(hoursOn(leeds, "2026-12-28")).toEqual({ opens: "09:00", closes: "13:00", note: "Christmas week" });
  });
});

describe("open now", () => {
  it("is open between opening and closing, London time in winter (GMT) and summer (BST)", () => {
    expect(openState(leeds, at("2026-11-27T16:00:00Z"))).toEqual({ open: true, closes: "17:30" });
    // 06:30 UTC on 1 July is 07:30 in London: open.
    expect(openState(leeds, at("2026-07-01T06:30:00Z"))).toEqual({ open: true, closes: "17:30" });
    // 17:10 UTC on 1 July is 18:10 in London: closed until tomorrow.
    expect(openState(leeds, at("2026-07-01T17:10:00Z"))).toEqual({ open: false, next: { date: "2026-07-02", opens: "07:00" } });
  });

  it("says when it next opens: later today, tomorrow, or after the weekend and a closure", () => {
    expect(openState(leeds, at("2026-11-27T06:00:00Z"))).toEqual({ open: false, next: { date: "2026-11-27", opens: "07:00" } });
    expect(openLabel(openState(leeds, at("2026-11-27T06:00:00Z")), at("2026-11-27T06:00:00Z"))).toBe("Closed: opens today at 07:00");
    expect(openLabel(openState(leeds, at("2026-11-26T18:00:00Z")), at("2026-11-26T18:00:00Z"))).toBe("Closed: opens tomorrow at 07:00");
    // Saturday afternoon: Sunday is closed, so Monday.
    const saturday = at("2026-11-28T13:00:00Z");
    expect(openState(leeds, saturday)).toEqual({ open: false, next: { date: "2026-11-30", opens: "07:00" } });
    expect(openLabel(openState(leeds, saturday), saturday)).toBe("Closed: opens Monday at 07:00");
    // Monday evening: Tuesday is the stocktake, so Wednesday.
    const monday = at("2026-11-30T18:00:00Z");
    expect(openLabel(openState(leeds, monday), monday)).toBe("Closed: opens Wednesday at 07:00");
    expect(openLabel(openState(leeds, at("2026-11-27T12:00:00Z")), at("2026-11-27T12:00:00Z"))).toBe("Open until 17:30");
  });

  it("says closed with no next opening for a branch closed for weeks", () => {
    expect(openState({ weekly: [], exceptions: [] }, at("2026-11-27T12:00:00Z"))).toEqual({ open: false, next: null });
    expect(openLabel({ open: false, next: null }, at("2026-11-27T12:00:00Z"))).toBe("Closed");
  });
});

describe("collection ready time", () => {
  it("is the lead time after the order while open, to the next quarter hour", () => {
    expect(collectReadyAt(leeds, at("2026-11-27T10:05:00Z"), 60, 30)).toEqual({ date: "2026-11-27", time: "11:15" });
  });

  it("is the lead time after the next opening once past the cut-off, or when closed", () => {
    // 17:10 on Friday, 20 minutes before closing, inside the 30-minute cut-off: Saturday at 09:00.
    expect(collectReadyAt(leeds, at("2026-11-27T17:10:00Z"), 60, 30)).toEqual({ date: "2026-11-28", time: "09:00" });
    // Saturday 11:30: an hour's lead would run past noon's closing, and Sunday is closed: Monday at 08:00.
    expect(collectReadyAt(leeds, at("2026-11-28T11:30:00Z"), 60, 30)).toEqual({ date: "2026-11-30", time: "08:00" });
    // Monday 17:10: past the cut-off, and Tuesday is the stocktake: Wednesday.
    expect(collectReadyAt(leeds, at("2026-11-30T17:10:00Z"), 60, 30)).toEqual({ date: "2026-12-02", time: "08:00" });
    // Before opening: the lead runs from opening.
    expect(collectReadyAt(leeds, at("2026-11-27T05:00:00Z"), 120, 30)).toEqual({ date: "2026-11-27", time: "09:00" });
  });

  it("waits for a transfer: the lead after opening on the first open day once the stock has arrived", () => {
    // Friday morning, a day's transfer: Saturday, an hour after opening.
    expect(collectReadyAt(leeds, at("2026-11-27T10:05:00Z"), 60, 30, 1)).toEqual({ date: "2026-11-28", time: "09:00" });
    // Monday, a day's transfer: Tuesday is the stocktake, so Wednesday.
    expect(collectReadyAt(leeds, at("2026-11-30T09:00:00Z"), 60, 30, 1)).toEqual({ date: "2026-12-02", time: "08:00" });
    // Thursday 24 December, a day's transfer: Christmas Day (Friday) is closed; Boxing Day, a Saturday, keeps Saturday hours (its bank holiday is the Monday).
    expect(collectReadyAt(leeds, at("2026-12-24T10:00:00Z"), 60, 30, 1)).toEqual({ date: "2026-12-26", time: "09:00" });
    // No transfer needed: the same as before.
    expect(collectReadyAt(leeds, at("2026-11-27T10:05:00Z"), 60, 30, 0)).toEqual({ date: "2026-11-27", time: "11:15" });
  });

  it("is null for a branch that does not open within three weeks", () => {
    expect(collectReadyAt({ weekly: [], exceptions: [] }, at("2026-11-27T10:00:00Z"), 60, 30)).toBeNull();
  });
});

describe("a day's name", () => {
  it("is today, tomorrow, the weekday within the week, and the weekday and date beyond", () => {
    expect(dayName("2026-12-01", "2026-12-01")).toBe("today");
    expect(dayName("2026-12-02", "2026-12-01")).toBe("tomorrow");
    expect(dayName("2026-12-03", "2026-12-01")).toBe("Thursday");
    expect(dayName("2026-12-09", "2026-12-01")).toBe("Wednesday 9 December");
  });
});
