import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** One type for both drivers: services take this (or a transaction of it). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
const extensions = { pg_trgm, btree_gist, citext };

export class DatabaseLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already open in another process (pid ${pid}). ` +
        `Stop that process, or set DATA_DIR to another folder.`,
    );
    this.name = "DatabaseLockedError";
  }
}

/** Whether a process with this id is running on this machine (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite allows one process per directory; a second one would corrupt it.
 * The lock file holds the owner's pid; a lock left by a dead process is taken over.
 */
export function acquireLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "tradecounter.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) throw new DatabaseLockedError(dir, pid);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

/** An embedded PGlite database, with `dump()`: a copy of its data folder that `openPglite(undefined, {from})` opens again. */
export interface PgliteDatabase extends Database {
  kind: "pglite";
  dump(): Promise<Blob>;
}

/**
 * An embedded PGlite database; in memory when `dataDir` is undefined (tests).
 * `from`: start from a dump instead of an empty cluster, which skips initdb
 * (about three seconds) and whatever the dump already holds (migrations, seed).
 */
export async function openPglite(dataDir: string | undefined, options: { from?: Blob } = {}): Promise<PgliteDatabase> {
  const release = dataDir ? acquireLock(dataDir) : () => {};
  let client: PGlite;
  try {
    client = await PGlite.create({ dataDir: dataDir ? path.join(dataDir, "pglite") : undefined, extensions, loadDataDir: options.from });
  } catch (error) {
    release();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    ping: () => ping(db),
    dump: () => client.dumpDataDir("none"),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

export async function openPostgres(
  url: string,
  options: {
    max?: number;
    /** Sees every query, e.g. for the bench to EXPLAIN them. */
    logQuery?: (query: string, params: unknown[]) => void;
    /** How long a request waits for a connection before it gives up (and answers 503). */
    connectionTimeoutMillis?: number;
    /**
     * How long a query may wait for its answer: a connection that goes silent
     * (a network that drops packets, not connections) fails the query instead
     * of hanging the request. Unset: no bound, for scripts' long statements.
     */
    queryTimeoutMillis?: number;
  } = {},
): Promise<Database> {
  // A bound on connecting: a database that does not answer (not even to refuse) fails the request instead of hanging it.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
    query_timeout: options.queryTimeoutMillis,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on("error", () => {});
  const logQuery = options.logQuery;
  const db = drizzlePg(pool, { schema, ...(logQuery ? { logger: { logQuery } } : {}) }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: "postgres",
    migrate: () => migratePg(drizzlePg(pool, { schema }), { migrationsFolder }),
    ping: () => ping(db),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** The server's bound on one query's answer (see openPostgres); the longest of the shop's own takes well under a second. */
export const SERVER_QUERY_TIMEOUT_MS = 30_000;

export function openDatabase(
  config: { databaseUrl: string | undefined; dataDir: string; databasePoolSize?: number },
  options: { queryTimeoutMillis?: number } = {},
): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, { ...options, max: config.databasePoolSize }) : openPglite(config.dataDir);
}
