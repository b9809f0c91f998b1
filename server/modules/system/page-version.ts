import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

/**
 * The version of everything a visitor's page shows (ADR 0025). Triggers on the
 * catalogue, hire and delivery tables add one to `page_versions` in the same
 * transaction as the change, whoever makes it: the services, the staff CLI, a
 * seed or psql. A reader that sees the old sum cannot see the new data either.
 *
 * Concurrent callers share reads, but each caller waits for a read that
 * started after it asked: a change committed before the request arrived is
 * always seen. Under load that is one small query per round trip, not per page.
 */
export function createPageVersion(db: Db) {
  let running: Promise<string> | undefined;
  let queued: Promise<string> | undefined;

  const read = async (): Promise<string> => {
    const result = (await db.execute(sql`select coalesce(sum(n), 0)::text as v from page_versions`)) as unknown as { rows: { v: string }[] };
    return result.rows[0]!.v;
  };
  const start = (): Promise<string> => {
    const reading = read().finally(() => {
      if (running === reading) running = undefined;
    });
    running = reading;
    return reading;
  };

  return {
    current(): Promise<string> {
      if (!running) return start();
      // The read under way may have started before this request: wait for the next.
      queued ??= running
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return start();
        });
      return queued;
    },
  };
}

export type PageVersion = ReturnType<typeof createPageVersion>;
