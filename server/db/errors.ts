import { type FieldErrors, ValidationError } from "../http-errors.ts";

/** A PostgreSQL unique violation (23505), as pg raises it or as Drizzle wraps it: a concurrent writer got there first. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/** What a unique violation says it broke (`Key (slug)=(x) already exists.`), or "" for any other error: which field a racing writer took. */
export function uniqueViolationDetail(error: unknown): string {
  if (!isUniqueViolation(error)) return "";
  const e = error as { detail?: string; cause?: { detail?: string } };
  return String(e.detail ?? e.cause?.detail ?? "");
}

/**
 * Runs `work`; a unique violation it raises (a racing writer took the SKU or
 * name first) becomes a refusal by field, `refusal` saying which from the
 * violation's detail, like any other clash. Other errors pass through.
 */
export async function refusingUniqueClash<T>(work: () => Promise<T>, refusal: (detail: string) => FieldErrors): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError(refusal(uniqueViolationDetail(error)));
    throw error;
  }
}
