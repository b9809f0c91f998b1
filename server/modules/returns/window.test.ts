// The returns window (issue 31): 14 days from delivery by the Consumer
// Contracts Regulations, to the next working day when the 14th is not one,
// or the shop's longer period; counted on London dates.
import { describe, expect, it } from "vitest";
import { returnDeadline, withinWindow } from "./window.ts";

describe("returnDeadline", () => {
  it("is 14 days after the day of delivery when the shop gives no more", () => {
    // Delivered Monday 2 November 2026: the 14th day after is Monday 16 November.
    expect(returnDeadline("2026-11-02", 14)).toBe("2026-11-16");
  });

  it("runs on to the next working day when the 14th falls on a weekend", () => {
    // Delivered Saturday 7 November: the 14th day after is Saturday the 21st, so Monday the 23rd.
    expect(returnDeadline("2026-11-07", 14)).toBe("2026-11-23");
    expect(returnDeadline("2026-11-08", 14)).toBe("2026-11-23");
  });

  it("runs past bank holidays too: Christmas and Boxing Day", () => {
    // Delivered Friday 11 December 2026: the 14th day after is Friday 25 December; 28 December is the Boxing Day holiday (moved off Saturday), so Tuesday the 29th.
    expect(returnDeadline("2026-12-11", 14)).toBe("2026-12-29");
  });

  it("gives the shop's longer period when it has one, and never less than the law", () => {
    expect(returnDeadline("2026-11-02", 30)).toBe("2026-12-02");
    expect(returnDeadline("2026-11-07", 15)).toBe("2026-11-23");
    expect(returnDeadline("2026-11-02", 0)).toBe("2026-11-16");
  });
});

describe("withinWindow", () => {
  it("counts London dates: delivered late on the last night of British Summer Time still starts on that day", () => {
    // 23:30 on Saturday 24 October 2026 in London is 22:30 UTC.
    const delivered = new Date("2026-10-24T22:30:00Z");
    // 14 days on is Saturday 7 November, so the period ends on Monday 9 November.
    expect(withinWindow(delivered, 14, new Date("2026-11-09T23:59:00Z"))).toBe(true);
    expect(withinWindow(delivered, 14, new Date("2026-11-10T00:01:00Z"))).toBe(false);
  });
});
