import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client.ts";

const dialect = new PgDialect();

/**
 * `db.execute(query)`, as a named prepared statement on PostgreSQL: planned
 * once per connection instead of at every call. For hot statements that a
 * query builder cannot prepare (data-modifying WITH queries, raw SQL), whose
 * text never changes: every value a parameter, lists passed as one JSON or
 * array parameter. A name is one text; PostgreSQL's driver refuses the same
 * name with another. PGlite runs it as an ordinary query.
 */
export function executeNamed<T = unknown>(db: Db, name: string, query: SQL): Promise<T> {
  return db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute() as Promise<T>;
}
