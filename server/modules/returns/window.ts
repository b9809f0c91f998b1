import { addDays, londonDate } from "../hire/calendar.ts";
import { isWorkingDay } from "../trade/calendar.ts";

/**
 * How long a customer has to send goods back (issue 31).
 *
 * The right to cancel (Consumer Contracts Regulations 2013, reg. 30–31): 14
 * calendar days after the day the goods came into the customer's hands,
 * counted on London dates. A period whose last day is a Saturday, Sunday or
 * bank holiday ends at the end of the next working day (the EU rule on
 * periods, Regulation 1182/71, that the Regulations were written under).
 * The shop may give longer (`RETURNS_DAYS`): the later of the two applies.
 */
export const RIGHT_TO_CANCEL_DAYS = 14;

/** The last London date goods delivered (or collected) on `deliveredOn` may be returned. */
export function returnDeadline(deliveredOn: string, shopDays: number): string {
  let legal = addDays(deliveredOn, RIGHT_TO_CANCEL_DAYS);
  while (!isWorkingDay(legal)) legal = addDays(legal, 1);
  const shop = addDays(deliveredOn, Math.max(0, Math.trunc(shopDays)));
  return shop > legal ? shop : legal;
}

/** Whether a return may still be asked for on `now` (inclusive of the deadline's whole day). */
export function withinWindow(deliveredAt: Date, shopDays: number, now: Date = new Date()): boolean {
  return londonDate(now) <= returnDeadline(londonDate(deliveredAt), shopDays);
}

/** "Friday 11 December 2026". */
export function deadlineLabel(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}
