import { type SQL, sql } from "drizzle-orm";

/** Today in Europe/London, worked out by the database so every process agrees. */
export const LONDON_TODAY = sql`(now() at time zone 'Europe/London')::date`;

/** The instant a London calendar day (`YYYY-MM-DD`) starts, worked out by the database (it knows the clock changes). */
export function londonDayStart(day: string): SQL {
  return sql`(${day}::date::timestamp at time zone 'Europe/London')`;
}

/** The instant the London calendar day after `day` starts: a range ends before it. */
export function londonDayAfter(day: string): SQL {
  return sql`((${day}::date + 1)::timestamp at time zone 'Europe/London')`;
}

const DAY_TEXT = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" });

/** A calendar day (`YYYY-MM-DD`) as the shop writes dates everywhere: `27 Nov 2026`. */
export function dayText(day: string): string {
  return DAY_TEXT.format(new Date(`${day}T00:00:00Z`));
}
