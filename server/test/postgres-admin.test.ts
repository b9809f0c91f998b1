import { spawnSync } from "node:child_process";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { databaseUrl, dropLeftoverTestDatabases, leftoverTestDatabases, withAdmin } from "./postgres-admin.ts";

describe("test databases left behind by runs that ended", () => {
  it("are the test databases named after a process that is no longer running, and nothing else", () => {
    const names = [
      "tc_test_101_ab12cd34",
      "tc_test_202_ab12cd34",
      "tc_origin_101_a1b2c3_migrated",
      "tc_origin_101_a1b2c3_seeded",
      "tc_prof",
      "tc_test_bench",
      "tradecounter_bench",
      "tc_test_101_ab12cd34; drop table users",
    ];
    expect(leftoverTestDatabases(names, (pid) => pid === 202)).toEqual(["tc_test_101_ab12cd34", "tc_origin_101_a1b2c3_migrated", "tc_origin_101_a1b2c3_seeded"]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("are dropped on PostgreSQL, except one still in use (PostgreSQL)", async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    // A process id that has just ended.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const [idle, inUse] = [`tc_test_${gone}_0ddba11e`, `tc_test_${gone}_5eed5eed`];
    await withAdmin(adminUrl, async (c) => {
      for (const name of [idle, inUse]) await c.query(`CREATE DATABASE ${name}`);
    });
    const holder = new pg.Client({ connectionString: databaseUrl(adminUrl, inUse) });
    await holder.connect();
    try {
      const dropped = await dropLeftoverTestDatabases(adminUrl);
      expect(dropped).toContain(idle);
      expect(dropped).not.toContain(inUse);
      const { rows } = await withAdmin(adminUrl, (c) => c.query<{ datname: string }>("select datname from pg_database where datname = any($1)", [[idle, inUse]]));
      expect(rows.map((r) => r.datname)).toEqual([inUse]);
    } finally {
      await holder.end();
      await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${inUse} WITH (FORCE)`));
    }
  });
});
