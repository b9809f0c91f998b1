import { type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/**
 * Writes whose answers are not needed, sent as one statement (the first ones
 * as data-modifying WITH queries): one round trip instead of one each, which
 * inside a transaction holding locks is what counts (issue 35). They all see
 * the snapshot the statement starts with and none sees another's rows, so only
 * writes that do not read one another's belong together (an order's lines,
 * addresses and first status; emptying a basket). None may have a WITH of its own.
 */
export async function writeAtOnce(tx: Db, writes: readonly SQLWrapper[]): Promise<void> {
  if (writes.length === 0) return;
  // getSQL(): embedded as it is, a query builder would be put in parentheses, which a WITH query may not be.
  const [last, ...first] = [...writes].reverse().map((w) => w.getSQL());
  const ctes = first.reverse().map((w, i) => sql`${sql.raw(`w${i}`)} as (${w})`);
  await tx.execute(ctes.length ? sql`with ${sql.join(ctes, sql`, `)} ${last}` : last!);
}
