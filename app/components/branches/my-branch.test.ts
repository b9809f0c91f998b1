import { describe, expect, it } from "vitest";
import { londonToday, readyLabel } from "./my-branch.ts";

describe("when a collection is ready, as the page says it", () => {
  it("says today, tomorrow, a weekday within the week, and the date beyond", () => {
    expect(readyLabel("2026-12-01T14:00:00+00:00", "2026-12-01")).toBe("today from 14:00");
    expect(readyLabel("2026-12-02T08:00:00+00:00", "2026-12-01")).toBe("tomorrow from 08:00");
    expect(readyLabel("2026-12-03T08:00:00+00:00", "2026-12-01")).toBe("Thursday from 08:00");
    expect(readyLabel("2026-12-09T08:00:00+00:00", "2026-12-01")).toBe("Wednesday 9 December from 08:00");
  });

  it("reads today in London, not UTC: the hour after midnight in summer is already tomorrow", () => {
    expect(londonToday(new Date("2027-06-01T23:30:00Z"))).toBe("2027-06-02");
    expect(londonToday(new Date("2026-12-01T23:30:00Z"))).toBe("2026-12-01");
  });
});
