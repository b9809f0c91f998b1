import { addDays } from "../hire/pricing.ts";
import { type BranchHours, hoursOn, londonClock, londonIso } from "../branches/hours.ts";

/**
 * When a showroom offers design consultations (issue 30): plain rules with no
 * database code. A showroom sees customers in its own opening hours (the
 * branch's, with its closures and bank holidays, from hours.ts): slots of its
 * appointment length from opening, each ending by closing time, from a
 * little after now to four weeks ahead.
 */

/** How far ahead a customer may book: today and the 27 days after it. */
export const HORIZON_DAYS = 28;
/** A designer needs a little warning: a slot starting sooner than this is not offered. */
export const NOTICE_MINUTES = 60;
/** The slots answer one week at a time. */
export const WEEK_DAYS = 7;

const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

export interface Slot {
  /** The London wall-clock time it starts, "09:00". */
  time: string;
  /** The instant it starts, as an ISO date-time in London's offset that day. */
  start: string;
  /** The instant it ends. */
  end: string;
}

/** The first and last day a customer may book from `at`. */
export function bookingWindow(at: Date): { first: string; last: string } {
  const first = londonClock(at).date;
  return { first, last: addDays(first, HORIZON_DAYS - 1) };
}

/** The slots a showroom offers on a London date, ignoring bookings: none when it is closed, outside the window, or already past (with notice). */
export function slotsOn(hours: BranchHours, date: string, lengthMinutes: number, at: Date): Slot[] {
  const { first, last } = bookingWindow(at);
  if (date < first || date > last) return [];
  const day = hoursOn(hours, date);
  if (!day) return [];
  const earliest = at.getTime() + NOTICE_MINUTES * 60_000;
  const slots: Slot[] = [];
  for (let m = minutes(day.opens); m + lengthMinutes <= minutes(day.closes); m += lengthMinutes) {
    const start = londonIso(date, clock(m));
    if (new Date(start).getTime() < earliest) continue;
    slots.push({ time: clock(m), start, end: londonIso(date, clock(m + lengthMinutes)) });
  }
  return slots;
}

/** The offered slot that starts at an instant, if there is one: what a booking or a change must name. */
export function slotAt(hours: BranchHours, start: Date, lengthMinutes: number, at: Date): Slot | null {
  const date = londonClock(start).date;
  return slotsOn(hours, date, lengthMinutes, at).find((s) => new Date(s.start).getTime() === start.getTime()) ?? null;
}

/** The week of dates from `from`, kept inside the booking window, with the weeks either side (null at the window's ends). */
export function weekFrom(from: string | undefined, at: Date): { dates: string[]; previous: string | null; next: string | null } {
  const { first, last } = bookingWindow(at);
  const start = !from || from < first ? first : from > last ? last : from;
  const dates: string[] = [];
  for (let d = start; d <= last && dates.length < WEEK_DAYS; d = addDays(d, 1)) dates.push(d);
  const after = addDays(start, WEEK_DAYS);
  const before = addDays(start, -WEEK_DAYS);
  return { dates, previous: start > first ? (before < first ? first : before) : null, next: after <= last ? after : null };
}
