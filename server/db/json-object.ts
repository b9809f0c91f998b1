import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * `json_build_object` of the given columns, keyed by their names here (as a
 * select answers them), so rows of several tables can be read in one
 * statement with `json_agg` (issue 35: each statement is a round trip). Only
 * for values JSON carries as they are: numbers, text, booleans, arrays and
 * jsonb. Timestamps come back as text: the caller makes them Dates again.
 */
export function jsonObject(columns: Record<string, SQLWrapper>): SQL {
  // The keys are our own property names, never input: safe to write as literals.
  const pairs = Object.entries(columns).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`);
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}
