import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { type Database, openPglite, openPostgres } from "../db/client.ts";
import { seedDemo } from "../db/seed/index.ts";
import { databaseUrl, withAdmin } from "./postgres-admin.ts";

export interface TestDatabase extends Database {
  /** Closes the connection and drops the database made for this run. */
  destroy(): Promise<void>;
  /** The database's connection URL on PostgreSQL; undefined on PGlite. */
  url?: string;
}

/** Where each file's database starts (scripts/vitest-databases.ts): dump files on PGlite, template database names on PostgreSQL. */
export interface TestDatabaseOrigins {
  kind: "pglite" | "postgres";
  migrated: string;
  seeded: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseOrigins: TestDatabaseOrigins;
  }
}

/** The run's ready-made databases; undefined outside that setup, when each file builds its own. */
function origins(): TestDatabaseOrigins | undefined {
  const made = inject("testDatabaseOrigins");
  const wanted = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
  return made?.kind === wanted ? made : undefined;
}

/** A database not copied from a ready-made one gets the migrations, and the demo shop when asked. */
async function build(database: Database, options: { seeded?: boolean }): Promise<void> {
  await database.migrate();
  if (options.seeded) await seedDemo(database.db);
}

/**
 * A fresh, migrated database for one test file, `seeded` with the demo shop
 * when asked: in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL, made for this run and dropped
 * after it. Each is a copy of the run's ready-made one where there is one.
 */
export async function createTestDatabase(options: { seeded?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const origin = origins();
  const from = origin && (options.seeded ? origin.seeded : origin.migrated);
  if (!adminUrl) {
    const database = await openPglite(undefined, from ? { from: new Blob([readFileSync(from)]) } : {});
    if (!from) await build(database, options);
    return { ...database, destroy: () => database.close() };
  }
  const name = `tc_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await withAdmin(adminUrl, (c) => c.query(from ? `CREATE DATABASE ${name} TEMPLATE ${from}` : `CREATE DATABASE ${name}`));
  const url = databaseUrl(adminUrl, name);
  const database = await openPostgres(url, { max: 10 });
  if (!from) await build(database, options);
  return {
    ...database,
    url,
    async destroy() {
      await database.close();
      await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
