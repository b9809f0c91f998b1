/**
 * The calendar invite sent with an appointment's emails: an iCalendar object
 * (RFC 5545) carried as an iTIP message (RFC 5546). METHOD:REQUEST adds or
 * updates the event; METHOD:CANCEL removes it. A calendar matches the three by
 * the UID and takes the highest SEQUENCE, so the UID never changes and each
 * change or cancellation goes up by one. Times are in UTC (the `Z` form),
 * which every calendar reads without a time zone definition.
 */

export interface CalendarEvent {
  method: "REQUEST" | "CANCEL";
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  /** When this version of the invite was made. */
  stamp: Date;
  summary: string;
  location: string;
  description: string;
  url: string;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
}

/** 20260601T080000Z */
export function utcStamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** TEXT values escape backslash, semicolon, comma and line breaks (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** A parameter value (a CN) is quoted, and may not hold a double quote or a control character. */
function paramValue(value: string): string {
  return `"${value.replace(/["\p{Cc}]/gu, "")}"`;
}

/**
 * Folds a content line at 75 octets (RFC 5545 3.1): each further line starts
 * with one space. Octets, not characters: a multi-byte UTF-8 character is
 * never split.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, "utf8");
    // The first line holds 75 octets; a continuation's leading space counts among its 75.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** The invite, with CRLF line ends, ready to attach as `text/calendar; method=…`. */
export function calendarInvite(event: CalendarEvent): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Tradecounter//Showroom appointments//EN",
    "CALSCALE:GREGORIAN",
    `METHOD:${event.method}`,
    "BEGIN:VEVENT",
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART:${utcStamp(event.start)}`,
    `DTEND:${utcStamp(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `LOCATION:${escapeText(event.location)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `URL:${event.url}`,
    `ORGANIZER;CN=${paramValue(event.organizer.name)}:mailto:${event.organizer.email}`,
    `ATTENDEE;CN=${paramValue(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${event.attendee.email}`,
    `STATUS:${event.method === "CANCEL" ? "CANCELLED" : "CONFIRMED"}`,
    "TRANSP:OPAQUE",
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}

/** The MIME type a mail client reads as an invite to act on. */
export const calendarContentType = (method: CalendarEvent["method"]) => `text/calendar; charset=utf-8; method=${method}`;
