import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { turnBatch } from "../../lib/turn-batch.ts";

/**
 * The version of everything a visitor's page shows (ADR 0025). Triggers on the
 * catalogue, hire and delivery tables add one to `page_versions` in the same
 * transaction as the change, whoever makes it: the services, the staff CLI, a
 * seed or psql. A reader that sees the old sum cannot see the new data either.
 *
 * Concurrent callers share reads, but each caller waits for a read that
 * started after it asked: a change committed before the request arrived is
 * always seen. Under load that is one small query per turn of the event loop,
 * not per page.
 */
export function createPageVersion(db: Db) {
  // One key: the requests of a turn share one read of the sum (server/lib/turn-batch.ts).
  const read = turnBatch(async (): Promise<Map<"sum", string>> => {
    const result = (await db.execute(sql`select coalesce(sum(n), 0)::text as v from page_versions`)) as unknown as { rows: { v: string }[] };
    return new Map([["sum", result.rows[0]!.v]]);
  });

  return {
    /**
     * Requests that arrive in one turn of the event loop share one read, started
     * in that turn's check phase (after every one of them arrived); the reads of
     * successive turns overlap on the pool rather than queue behind each other.
     */
    current: async (): Promise<string> => (await read("sum"))!,
  };
}

export type PageVersion = ReturnType<typeof createPageVersion>;
