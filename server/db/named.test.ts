import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/database.ts";
import type { Db } from "./client.ts";
import { executeNamed } from "./named.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

describe("executeNamed", () => {
  it("answers as db.execute does, with each call's own values", async () => {
    const twice = (n: number) => sql`select ${n}::int * 2 as doubled`;
    const first = await executeNamed<{ rows: { doubled: number }[] }>(database.db, "test_doubled", twice(2));
    const second = await executeNamed<{ rows: { doubled: number }[] }>(database.db, "test_doubled", twice(21));
    expect(first.rows).toEqual([{ doubled: 4 }]);
    expect(second.rows).toEqual([{ doubled: 42 }]);
  });

  it.runIf(process.env.TEST_DATABASE_URL)("is a prepared statement of that name on PostgreSQL, planned once for the connection", async () => {
    // One connection (a transaction), so the statement and the catalogue read share it.
    const names = await database.db.transaction(async (tx) => {
      await executeNamed(tx as unknown as Db, "test_named_once", sql`select ${1}::int as one`);
      await executeNamed(tx as unknown as Db, "test_named_once", sql`select ${2}::int as one`);
      const result = (await tx.execute(sql`select name from pg_prepared_statements where name like 'test_named%'`)) as unknown as { rows: { name: string }[] };
      return result.rows.map((r) => r.name);
    });
    expect(names).toEqual(["test_named_once"]);
  });
});
