// A database taken to an earlier migration and then upgraded, for the tests of
// a migration on a shop that already trades (PGlite, or a new database on the
// PostgreSQL server named by TEST_DATABASE_URL).
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { type Database, openPglite, openPostgres } from "../db/client.ts";
import { databaseUrl, withAdmin } from "./postgres-admin.ts";

const migrations = fileURLToPath(new URL("../../drizzle", import.meta.url));

export interface MigratingDatabase {
  database: Database;
  /** Every migration from the one named on. */
  upgrade(): Promise<void>;
  rows<T>(query: ReturnType<typeof sql>): Promise<T[]>;
  close(): Promise<void>;
}

/** A new database with the migrations before `tag` (the journal cut there), to be filled as a shop of that time and then upgraded. */
export async function databaseBefore(tag: string): Promise<MigratingDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "tc-migrations-"));
  cpSync(migrations, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at < 1) throw new Error(`No migration ${tag}`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));

  const adminUrl = process.env.TEST_DATABASE_URL;
  let database: Database;
  let drop = async () => {};
  if (adminUrl) {
    const name = `tc_test_${process.pid}_${randomBytes(4).toString("hex")}`;
    await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
    database = await openPostgres(databaseUrl(adminUrl, name), { max: 4 });
    drop = () => withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);
  } else {
    database = await openPglite(undefined);
  }
  const migrate = async (folder: string) => {
    if (database.kind === "pglite") await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    else await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder: folder });
  };
  await migrate(dir);
  return {
    database,
    upgrade: () => migrate(migrations),
    rows: async <T,>(query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows,
    async close() {
      await database.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
