/**
 * Calendar dates (`YYYY-MM-DD`, Europe/London) for hire: a plain module of its
 * own, so the back office's planner can count days without loading the
 * pricing engine.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Days since the epoch for a calendar date `YYYY-MM-DD`; null when it is not a real date. */
export function dayNumber(date: string): number | null {
  const m = DATE.exec(date);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Reject dates that roll over, such as 2026-02-30.
  if (new Date(ms).toISOString().slice(0, 10) !== date) return null;
  return ms / DAY_MS;
}

export function weekday(date: string): number {
  const n = dayNumber(date);
  if (n === null) throw new RangeError(`not a date: ${date}`);
  return new Date(n * DAY_MS).getUTCDay();
}

/** Calendar days between the dates: counted on dates, so a clock change never adds or loses one. */
export function hireDays(start: string, end: string): number {
  const a = dayNumber(start);
  const b = dayNumber(end);
  if (a === null || b === null) throw new RangeError(`not a date range: ${start} to ${end}`);
  if (b < a) throw new RangeError("the return date is before the start date");
  return Math.max(1, b - a);
}

/** Today's date in Europe/London, whatever the server's time zone. */
export function londonDate(now: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

export function addDays(date: string, days: number): string {
  const n = dayNumber(date);
  if (n === null) throw new RangeError(`not a date: ${date}`);
  return new Date((n + days) * DAY_MS).toISOString().slice(0, 10);
}
