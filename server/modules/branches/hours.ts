import { addDays } from "../hire/pricing.ts";
import { bankHolidays } from "../trade/calendar.ts";

/**
 * A branch's opening hours (issue 30): plain rules with no database code, so
 * the branch pages, the finder and the collection ready time agree. Times are
 * London wall-clock times ("07:30"); days are London calendar dates
 * (`YYYY-MM-DD`). A bank holiday in England and Wales is closed unless an
 * exception for that date opens the branch.
 */

/** One weekday's hours: `day` 1 is Monday … 7 Sunday. A weekday without an entry is closed. */
export interface DayHours {
  day: number;
  opens: string;
  closes: string;
}

/** A dated exception: other hours that day, or closed (no `opens`), with a note ("Stocktake"). */
export interface HoursException {
  date: string;
  opens?: string;
  closes?: string;
  note?: string;
}

export interface BranchHours {
  weekly: readonly DayHours[];
  exceptions: readonly HoursException[];
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
export const validTime = (t: string) => TIME.test(t);
const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** 1 (Monday) … 7 (Sunday) of a London date. */
export const isoWeekday = (date: string) => ((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;

const LONDON = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** The London date and time of an instant. */
export function londonClock(at: Date): { date: string; time: string } {
  const parts = Object.fromEntries(LONDON.formatToParts(at).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * A London wall-clock time on a date as an ISO date-time with that day's
 * offset (+00:00 in GMT, +01:00 in BST; read at noon, as shop hours never
 * fall in the hour the clocks change).
 */
export function londonIso(date: string, time: string): string {
  const noon = londonClock(new Date(`${date}T12:00:00Z`)).time;
  return `${date}T${time}:00${noon.startsWith("13") ? "+01:00" : "+00:00"}`;
}

/** The hours a branch keeps on a date, or null when it is closed (a weekday without hours, a bank holiday, a closure). */
export function hoursOn(hours: BranchHours, date: string): { opens: string; closes: string; note?: string } | null {
  const exception = hours.exceptions.find((e) => e.date === date);
  if (exception) return exception.opens && exception.closes ? { opens: exception.opens, closes: exception.closes, ...(exception.note ? { note: exception.note } : {}) } : null;
  if (bankHolidays(Number(date.slice(0, 4))).has(date)) return null;
  const day = hours.weekly.find((d) => d.day === isoWeekday(date));
  return day ? { opens: day.opens, closes: day.closes } : null;
}

/** Looks this many days ahead for the next opening: a branch closed for longer says so. */
const LOOKAHEAD_DAYS = 21;

export type OpenState = { open: true; closes: string } | { open: false; next: { date: string; opens: string } | null };

/** Whether the branch is open at an instant, until when, or when it next opens. */
export function openState(hours: BranchHours, at: Date): OpenState {
  const now = londonClock(at);
  const today = hoursOn(hours, now.date);
  if (today && minutes(now.time) >= minutes(today.opens) && minutes(now.time) < minutes(today.closes)) return { open: true, closes: today.closes };
  if (today && minutes(now.time) < minutes(today.opens)) return { open: false, next: { date: now.date, opens: today.opens } };
  for (let i = 1; i <= LOOKAHEAD_DAYS; i++) {
    const date = addDays(now.date, i);
    const day = hoursOn(hours, date);
    if (day) return { open: false, next: { date, opens: day.opens } };
  }
  return { open: false, next: null };
}

/** "today", "tomorrow", "Thursday" (within the week) or "Thursday 3 December". */
export function dayName(date: string, today: string): string {
  if (date === today) return "today";
  if (date === addDays(today, 1)) return "tomorrow";
  const weekday = WEEKDAYS[isoWeekday(date) - 1]!;
  if (date <= addDays(today, 6)) return weekday;
  return `${weekday} ${new Date(`${date}T12:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "long", timeZone: "UTC" })}`;
}

/** "Open until 17:00", "Closed: opens tomorrow at 07:00", "Closed". */
export function openLabel(state: OpenState, at: Date): string {
  if (state.open) return `Open until ${state.closes}`;
  if (!state.next) return "Closed";
  return `Closed: opens ${dayName(state.next.date, londonClock(at).date)} at ${state.next.opens}`;
}

/**
 * When a collection ordered at `at` is ready, with the stock at the branch:
 * `lead` minutes after the order while the branch is open, if that is at
 * least `cutoff` minutes before it closes; otherwise `lead` after it next
 * opens (never after closing that day). Stock that comes from another branch
 * by transfer arrives `transferDays` days later, so is ready `lead` after
 * the branch opens on the first open day from then. Answers the London date
 * and time, or null when the branch does not open within three weeks of that.
 */
export function collectReadyAt(hours: BranchHours, at: Date, lead: number, cutoff: number, transferDays = 0): { date: string; time: string } | null {
  const now = londonClock(at);
  for (let i = transferDays; i <= transferDays + LOOKAHEAD_DAYS; i++) {
    const date = addDays(now.date, i);
    const day = hoursOn(hours, date);
    if (!day) continue;
    const start = i === 0 ? Math.max(minutes(now.time), minutes(day.opens)) : minutes(day.opens);
    const ready = start + lead;
    const closes = minutes(day.closes);
    // The order must be in before the cut-off, and ready before closing: said to the next quarter hour, unless that is after closing.
    const quarter = Math.ceil(ready / 15) * 15;
    if (start <= closes - cutoff && ready <= closes) return { date, time: clock(quarter > closes ? ready : quarter) };
  }
  return null;
}
