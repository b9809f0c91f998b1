/** A PostgreSQL unique violation (23505), as pg raises it or as Drizzle wraps it: a concurrent writer got there first. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}
