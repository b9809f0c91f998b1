import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogService } from "../modules/catalog/service.ts";
import { createTestDatabase, type TestDatabase } from "../test/database.ts";
import { DatabaseLockedError, acquireLock, openDatabase, openPglite } from "./client.ts";
import { categories } from "./schema.ts";
import { isEmpty, seedDemo } from "./seed/index.ts";

describe("the PGlite lock file", () => {
  it("stops a second opener of the same directory with a clear error, and frees it on close", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tc-lock-"));
    const release = acquireLock(dir);
    const lockFile = path.join(dir, "tradecounter.lock");
    // Another live process holds it: pid 1 is always alive.
    writeFileSync(lockFile, "1");
    expect(() => acquireLock(dir)).toThrow(DatabaseLockedError);
    expect(() => acquireLock(dir)).toThrow(/already open in another process \(pid 1\)/);
    release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it("takes over a lock left by a process that died", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tc-lock-"));
    writeFileSync(path.join(dir, "tradecounter.lock"), "999999999");
    const release = acquireLock(dir);
    expect(readFileSync(path.join(dir, "tradecounter.lock"), "utf8")).toBe(String(process.pid));
    release();
  });

  it("persists data across a close and reopen", { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tc-pglite-"));
    const first = await openPglite(dir);
    await first.migrate();
    // One row is enough to show the data survives.
    await first.db.insert(categories).values({ slug: "kept", path: "kept", name: "Kept" });
    await first.close();
    expect(existsSync(path.join(dir, "tradecounter.lock"))).toBe(false);
    const second = await openPglite(dir);
    try {
      await second.migrate();
      expect(await isEmpty(second.db)).toBe(false);
    } finally {
      await second.close();
    }
  });
});

describe("migrations and the demo seed", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it("load the extensions the shop relies on", async () => {
    const rows = await database.db.execute<{ extname: string }>(sql`select extname from pg_extension order by extname`);
    const names = (rows as unknown as { rows: { extname: string }[] }).rows.map((r) => r.extname);
    expect(names).toEqual(expect.arrayContaining(["btree_gist", "citext", "pg_trgm"]));
  });

  it("apply again without harm", async () => {
    await database.migrate();
    expect(await database.ping()).toBe(true);
  });

  it("seed an empty database once, three levels deep", async () => {
    expect(await isEmpty(database.db)).toBe(true);
    const seeded = await seedDemo(database.db);
    expect(seeded.categories).toBeGreaterThanOrEqual(25);
    expect(await isEmpty(database.db)).toBe(false);

    const catalog = createCatalogService(database.db);
    const found = await catalog.categoryByPath("power-tools/cordless-drills/combi-drills");
    expect(found?.category.name).toBe("Combi Drills");
    expect(found?.ancestors.map((a) => a.path)).toEqual(["power-tools", "power-tools/cordless-drills"]);
    expect(await catalog.categoryByPath("power-tools/nothing")).toBeNull();

    const tree = await catalog.categoryTree();
    expect(tree.map((c) => c.name)).toContain("Power Tools");
    expect(tree[0]?.children.length).toBeGreaterThan(0);
  });
});

describe("the scale generator", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ seeded: true });
  });
  afterAll(() => database.destroy());

  it("adds products spread over leaf categories and brands, with attributes, and can run again", async () => {
    const { seedScale } = await import("./seed/scale.ts");
    const count = async (q: string) =>
      ((await database.db.execute(sql.raw(q))) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    const before = await count("select count(*)::int as n from products");
    expect(await seedScale(database.db, 120)).toBe(120);
    expect(await seedScale(database.db, 30)).toBe(30);
    expect(await count("select count(*)::int as n from products")).toBe(before + 150);
    expect(await count("select count(*)::int as n from products p where p.sku like 'GEN-%' and not exists (select 1 from product_categories pc where pc.product_id = p.id)")).toBe(0);
    expect(await count("select count(distinct pc.category_id)::int as n from product_categories pc join products p on p.id = pc.product_id where p.sku like 'GEN-%'")).toBeGreaterThan(10);
    expect(await count("select count(*)::int as n from product_attributes pa join products p on p.id = pa.product_id where p.sku like 'GEN-%'")).toBe(300);
    // Generous: on PostgreSQL each generated product fires the catalogue's listing, search, variant and
    // branch-stock triggers, and 150 of them took 25–30 s on a busy 2-core runner (never a measure of speed: that is `npm run bench`).
  }, 90_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the pool's size (DATABASE_POOL_SIZE, PostgreSQL)", () => {
  it("opens at most that many connections, however many queries are waiting", async () => {
    const database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: "unused", databasePoolSize: 3 });
    try {
      const pids = await Promise.all(
        Array.from({ length: 9 }, async () => {
          // The Db type spans both drivers; on PostgreSQL execute() answers node-postgres's result.
          const result = (await database.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.2)`)) as unknown as { rows: { pid: number }[] };
          return result.rows[0]!.pid;
        }),
      );
      expect(new Set(pids).size).toBe(3);
    } finally {
      await database.close();
    }
  });
});
