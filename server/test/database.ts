import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openPglite, openPostgres } from "../db/client.ts";

export interface TestDatabase extends Database {
  /** Closes the connection and drops the database made for this run. */
  destroy(): Promise<void>;
  /** The database's connection URL on PostgreSQL; undefined on PGlite. */
  url?: string;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default,
 * or a new database on the PostgreSQL server named by TEST_DATABASE_URL,
 * made for this run and dropped after it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = await openPglite(undefined);
    await database.migrate();
    return { ...database, destroy: () => database.close() };
  }
  const name = `tc_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), { max: 10 });
  await database.migrate();
  return {
    ...database,
    url: url.toString(),
    async destroy() {
      await database.close();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
