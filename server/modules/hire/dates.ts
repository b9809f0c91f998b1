import { ValidationError } from "../../http-errors.ts";
import { dayNumber } from "./pricing.ts";

export const MAX_HIRE_DAYS = 90;

/** The rules every hire's dates follow: not in the past, return not before start, at most 90 days. */
export function checkHireDates(start: string, end: string, today: string): void {
  const s = dayNumber(start)!;
  const e = dayNumber(end)!;
  const errors: Record<string, string[]> = {};
  if (s < dayNumber(today)!) errors.start_date = ["The hire cannot start in the past."];
  if (e < s) errors.end_date = ["The return date must not be before the start date."];
  else if (e - s > MAX_HIRE_DAYS) errors.end_date = [`A hire can last at most ${MAX_HIRE_DAYS} days.`];
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

