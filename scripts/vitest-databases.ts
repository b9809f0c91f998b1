// Vitest's global setup: the test databases' starting points, made once per
// run. A test file used to make its database from nothing: initdb on PGlite
// (about three seconds), thirty migrations, and for most files the demo seed
// (about six seconds), which was most of the unit suites' time. Now each file
// copies a ready one (server/test/database.ts): on PGlite a dump loaded into a
// fresh in-memory database, on PostgreSQL `CREATE DATABASE … TEMPLATE`. Every
// file still has a database of its own.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../server/db/client.ts";
import { seedDemo } from "../server/db/seed/index.ts";
import type { TestDatabaseOrigins } from "../server/test/database.ts";
import { databaseUrl, dropLeftoverTestDatabases, withAdmin } from "../server/test/postgres-admin.ts";

async function onPostgres(adminUrl: string): Promise<{ origins: TestDatabaseOrigins; teardown: () => Promise<void> }> {
  // What earlier runs left behind when they were cut short.
  await dropLeftoverTestDatabases(adminUrl);
  const stem = `tc_origin_${process.pid}_${randomBytes(3).toString("hex")}`;
  const origins: TestDatabaseOrigins = { kind: "postgres", migrated: `${stem}_migrated`, seeded: `${stem}_seeded` };
  const drop = () => withAdmin(adminUrl, async (c) => {
    for (const name of [origins.migrated, origins.seeded]) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
  try {
    for (const [name, seed] of [[origins.migrated, false], [origins.seeded, true]] as const) {
      await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
      const database = await openPostgres(databaseUrl(adminUrl, name), { max: 2 });
      try {
        await database.migrate();
        if (seed) await seedDemo(database.db);
      } finally {
        // A template must have no connections while it is copied.
        await database.close();
      }
    }
  } catch (error) {
    await drop();
    throw error;
  }
  return { origins, teardown: drop };
}

async function onPglite(): Promise<{ origins: TestDatabaseOrigins; teardown: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "tc-test-origins-"));
  const origins: TestDatabaseOrigins = { kind: "pglite", migrated: path.join(dir, "migrated.tar"), seeded: path.join(dir, "seeded.tar") };
  const database = await openPglite(undefined);
  try {
    await database.migrate();
    writeFileSync(origins.migrated, Buffer.from(await (await database.dump()).arrayBuffer()));
    await seedDemo(database.db);
    writeFileSync(origins.seeded, Buffer.from(await (await database.dump()).arrayBuffer()));
  } finally {
    await database.close();
  }
  return { origins, teardown: async () => rmSync(dir, { recursive: true, force: true }) };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const { origins, teardown } = adminUrl ? await onPostgres(adminUrl) : await onPglite();
  project.provide("testDatabaseOrigins", origins);
  return teardown;
}
