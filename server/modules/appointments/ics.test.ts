// The calendar invite (RFC 5545 / 5546): CRLF line ends, lines folded at 75
// octets without splitting a character, text escaped, times in UTC, the one
// UID with its SEQUENCE, and METHOD:CANCEL with STATUS:CANCELLED.
import { describe, expect, it } from "vitest";
import { type CalendarEvent, calendarContentType, calendarInvite, escapeText, foldLine, utcStamp } from "./ics.ts";

const event: CalendarEvent = {
  method: "REQUEST",
  uid: "appointment-7@shop.example",
  sequence: 0,
  start: new Date("2026-06-01T09:00:00+01:00"),
  end: new Date("2026-06-01T10:00:00+01:00"),
  stamp: new Date("2026-05-20T14:03:09.123Z"),
  summary: "Design consultation at York, Foss Islands",
  location: "Foss Islands Road, York, North Yorkshire, YO31 7UL",
  description: "Your free design consultation; bring plans.\nChange or cancel: https://shop.example/appointments/abc",
  url: "https://shop.example/appointments/abc",
  organizer: { name: "Tradecounter, York", email: "york@shop.example" },
  attendee: { name: 'Jo "JJ" Fitter', email: "jo@example.com" },
};

/** Unfolds content lines (RFC 5545 3.1) into a map of name → value (names with parameters kept whole). */
function unfold(ics: string): string[] {
  return ics.replace(/\r\n /g, "").split("\r\n");
}

describe("the calendar invite", () => {
  it("is a VCALENDAR with METHOD:REQUEST, one VEVENT, UTC times and the stable UID", () => {
    const ics = calendarInvite(event);
    const lines = unfold(ics);
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(lines).toContain("METHOD:REQUEST");
    expect(lines).toContain("UID:appointment-7@shop.example");
    expect(lines).toContain("SEQUENCE:0");
    expect(lines).toContain("DTSTART:20260601T080000Z");
    expect(lines).toContain("DTEND:20260601T090000Z");
    expect(lines).toContain("DTSTAMP:20260520T140309Z");
    expect(lines).toContain("LOCATION:Foss Islands Road\\, York\\, North Yorkshire\\, YO31 7UL");
    expect(lines).toContain("DESCRIPTION:Your free design consultation\\; bring plans.\\nChange or cancel: https://shop.example/appointments/abc");
    expect(lines).toContain('ORGANIZER;CN="Tradecounter, York":mailto:york@shop.example');
    expect(lines).toContain('ATTENDEE;CN="Jo JJ Fitter";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:jo@example.com');
    expect(lines).toContain("STATUS:CONFIRMED");
    expect(lines.filter((l) => l === "BEGIN:VEVENT")).toHaveLength(1);
    expect(lines.at(-2)).toBe("END:VCALENDAR");
    expect(lines.at(-1)).toBe("");
    // Every line ends CRLF: no bare LF anywhere.
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  });

  it("folds every line at 75 octets", () => {
    const ics = calendarInvite({ ...event, description: "A long note. ".repeat(30) });
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
    expect(ics.split("\r\n").filter((l) => l.startsWith(" ")).length).toBeGreaterThan(3);
    expect(unfold(ics)).toContain(`DESCRIPTION:${"A long note. ".repeat(30)}`);
  });

  it("never splits a multi-byte character when it folds", () => {
    const text = `DESCRIPTION:${"é".repeat(50)}£€`;
    const folded = foldLine(text);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
      expect(Buffer.from(part, "utf8").toString("utf8")).toBe(part);
    }
    expect(folded.replace(/\r\n /g, "")).toBe(text);
    expect(foldLine("SHORT:line")).toBe("SHORT:line");
  });

  it("escapes backslashes, semicolons, commas and line breaks in text", () => {
    expect(escapeText("a\\b;c,d\r\ne\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
  });

  it("cancels with METHOD:CANCEL, STATUS:CANCELLED, the same UID and a higher SEQUENCE", () => {
    const lines = unfold(calendarInvite({ ...event, method: "CANCEL", sequence: 2 }));
    expect(lines).toContain("METHOD:CANCEL");
    expect(lines).toContain("STATUS:CANCELLED");
    expect(lines).toContain("UID:appointment-7@shop.example");
    expect(lines).toContain("SEQUENCE:2");
    expect(calendarContentType("CANCEL")).toBe("text/calendar; charset=utf-8; method=CANCEL");
  });

  it("writes instants in UTC", () => {
    expect(utcStamp(new Date("2026-12-01T09:00:00+00:00"))).toBe("20261201T090000Z");
  });
});
