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
