import pg from "pg";
import { isAlive } from "../db/client.ts";

/** One statement's worth of admin work (creating, copying, dropping databases) on its own connection. */
export async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The same server's URL for the database `name`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The test databases a run makes: `tc_test_<pid>_<hex>` per file, `tc_origin_<pid>_<hex>_…` per run. */
const TEST_DATABASE = /^tc_(?:test|origin)_(\d+)_[0-9a-f]+(?:_migrated|_seeded)?$/;

/** Of these database names, the test databases whose run has ended: its process is no longer running. */
export function leftoverTestDatabases(names: string[], isRunning: (pid: number) => boolean = isAlive): string[] {
  return names.filter((name) => {
    const pid = TEST_DATABASE.exec(name)?.[1];
    return pid !== undefined && !isRunning(Number(pid));
  });
}

/**
 * Drops the test databases that runs ended without dropping (a worker that
 * died, a run stopped with Ctrl-C), so they do not pile up on a long-lived
 * server. Only on a server on this machine, where the process ids mean
 * something; never one that is in use (no FORCE: a connected one stays).
 */
export async function dropLeftoverTestDatabases(adminUrl: string): Promise<string[]> {
  if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(adminUrl).hostname)) return [];
  return withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 'tc\\_%'");
    const dropped: string[] = [];
    for (const name of leftoverTestDatabases(rows.map((r) => r.datname))) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        dropped.push(name);
      } catch {
        // In use after all, or another run dropped it first: leave it.
      }
    }
    return dropped;
  });
}
