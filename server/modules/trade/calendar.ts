import { addDays } from "../hire/pricing.ts";

/**
 * Calendar rules of the trade desk's monthly work, on London calendar dates
 * (`YYYY-MM-DD`). A working day is Monday to Friday and not a bank holiday in
 * England and Wales. The bank holidays are worked out from their rules
 * (New Year's Day, Good Friday, Easter Monday, the early May, spring and
 * summer Mondays, Christmas and Boxing Day, each moved off a weekend as
 * gov.uk moves them); one-off days (a coronation, a jubilee) and the rare
 * years a holiday moved (early May 2020) are not in it: on such a day the
 * statements go out a day early, which is harmless.
 */

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A calendar month, `YYYY-MM`, or null when `month` is not one. */
export function parseMonth(month: string): { year: number; month: number } | null {
  const m = MONTH.exec(month);
  return m ? { year: Number(m[1]), month: Number(m[2]) } : null;
}

/** The first and last day of a month `YYYY-MM`. */
export function monthRange(month: string): { start: string; end: string } {
  const m = parseMonth(month);
  if (!m) throw new RangeError(`not a month: ${month}`);
  const end = new Date(Date.UTC(m.year, m.month, 0)).toISOString().slice(0, 10);
  return { start: `${month}-01`, end };
}

/** The month before the one `day` is in, `YYYY-MM`. */
export function previousMonth(day: string): string {
  return addDays(`${day.slice(0, 7)}-01`, -1).slice(0, 7);
}

/** "November 2026". */
export function monthLabel(month: string): string {
  const { start } = monthRange(month);
  return new Date(`${start}T12:00:00Z`).toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
}

/** "30 November 2026". */
export function dayLabel(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

const weekday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();
const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

/** Easter Sunday (the anonymous Gregorian algorithm). */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return iso(year, month, day);
}

/** The first (n = 1) or last (n = -1) Monday of a month. */
function monday(year: number, month: number, n: 1 | -1): string {
  if (n === 1) {
    const first = iso(year, month, 1);
    return addDays(first, (8 - weekday(first)) % 7);
  }
  const last = iso(year, month + 1, 0);
  return addDays(last, -((weekday(last) + 6) % 7));
}

/** England and Wales bank holidays of a year, by their rules. */
export function bankHolidays(year: number): Set<string> {
  const easter = easterSunday(year);
  const days = [addDays(easter, -2), addDays(easter, 1), monday(year, 5, 1), monday(year, 5, -1), monday(year, 8, -1)];
  // New Year's Day on a weekend is taken the Monday after.
  const newYear = iso(year, 1, 1);
  days.push(weekday(newYear) === 6 ? addDays(newYear, 2) : weekday(newYear) === 0 ? addDays(newYear, 1) : newYear);
  // Christmas and Boxing Day: a weekend day moves to the next weekdays not already taken.
  const christmas = iso(year, 12, 25);
  const cw = weekday(christmas);
  if (cw === 5) days.push(christmas, addDays(christmas, 3));
  else if (cw === 6) days.push(addDays(christmas, 2), addDays(christmas, 3));
  else if (cw === 0) days.push(addDays(christmas, 1), addDays(christmas, 2));
  else days.push(christmas, addDays(christmas, 1));
  return new Set(days);
}

export function isWorkingDay(day: string): boolean {
  const w = weekday(day);
  return w !== 0 && w !== 6 && !bankHolidays(Number(day.slice(0, 4))).has(day);
}

/** The first working day of the month `day` is in. */
export function firstWorkingDay(day: string): string {
  let d = `${day.slice(0, 7)}-01`;
  while (!isWorkingDay(d)) d = addDays(d, 1);
  return d;
}
