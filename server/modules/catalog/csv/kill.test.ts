// All or nothing, proven the hard way (issue 20): a catalogue import running
// in a child process on PostgreSQL is killed with SIGKILL after some of its
// batches were written inside its transaction; the products, their categories,
// attributes and stock ledger are exactly as before, and the database's
// invariants hold. PostgreSQL only (PGlite lives inside the process):
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/catalog/csv/kill.test.ts
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedScale } from "../../../db/seed/scale.ts";
import { type TestDatabase, createTestDatabase } from "../../../test/database.ts";
import { databaseInvariantViolations } from "../../../test/invariants.ts";
import { createStaffService } from "../../staff/service.ts";
import { exportCatalogueCsv } from "./export.ts";

const onPostgres = !!process.env.TEST_DATABASE_URL;
let database: TestDatabase;
let folder: string;

/** The catalogue as one hash: products (every column but the generated vector), categories, attributes, the ledger, redirects. */
async function checksum(): Promise<string> {
  const result = (await database.db.execute(sql`
    select md5(
      (select coalesce(string_agg((to_jsonb(p) - 'search_vector')::text, '|' order by p.id), '') from products p) ||
      (select coalesce(string_agg(product_id || ':' || category_id, ',' order by product_id, category_id), '') from product_categories) ||
      (select coalesce(string_agg(product_id || ':' || name || '=' || value, ',' order by product_id, name), '') from product_attributes) ||
      (select coalesce(string_agg(id || ':' || change, ',' order by id), '') from stock_movements) ||
      (select coalesce(string_agg(slug, ',' order by slug), '') from product_slug_redirects)) as sum`)) as unknown as { rows: { sum: string }[] };
  return result.rows[0]!.sum;
}

describe.skipIf(!onPostgres)("an import killed halfway (PostgreSQL)", () => {
  beforeAll(async () => {
    database = await createTestDatabase({ seeded: true });
    await seedScale(database.db, 4_000);
    folder = mkdtempSync(path.join(tmpdir(), "tc-kill-"));
  }, 180_000);
  afterAll(async () => {
    await database?.destroy();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("leaves the catalogue exactly as it was", async () => {
    const system = await createStaffService(database.db, { appName: "Tradecounter", publicUrl: "http://shop.test", requireTotp: false }).systemActor();
    const chunks: Buffer[] = [];
    for await (const c of await exportCatalogueCsv(database.db, system)) chunks.push(Buffer.from(c));
    // Every price and stock figure changed: products, listings and the ledger would all move.
    const original = Buffer.concat(chunks).toString("utf8");
    const changed = original.replace(/^([^,\n]+,[^,\n]*,[^,\n]*,[^,\n]*,)(\d+)\.(\d\d),([^,\n]*),(\d+),(\d+),/gm, (_m, head: string, pounds: string, pence: string, was: string, vat: string, stock: string) => `${head}${pounds}.${pence === "99" ? "98" : "99"},${was},${vat},${Number(stock) + 1},`);
    const lines = original.split("\n");
    expect(changed.split("\n").filter((line, i) => line !== lines[i]).length).toBeGreaterThan(4_000);
    const file = path.join(folder, "changed.csv");
    writeFileSync(file, changed);
    const before = await checksum();

    // The project's Node 24 (it runs the child's TypeScript as the shop's scripts run theirs).
    const node = path.resolve(import.meta.dirname, "../../../../node_modules/.bin/node");
    const child = spawn(node, [path.join(import.meta.dirname, "kill-child.ts"), database.url!, file], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
    // Killed once two batches (1,000 rows) are written inside its open transaction.
    const reached = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const done = [...out.matchAll(/progress (\d+)/g)].map((m) => Number(m[1])).at(-1) ?? 0;
        if (done >= 1_000) resolve(done);
        if (out.includes("finished")) reject(new Error("The import finished before it could be killed."));
      });
      void exited.then(() => reject(new Error(`The import ended by itself: ${stderr}`)));
    });
    expect(reached).toBeGreaterThanOrEqual(1_000);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    // Its connection's transaction is rolled back by the server once the socket closes.
    for (let i = 0; i < 50; i++) {
      const open = (await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`)) as unknown as { rows: { n: number }[] };
      if (open.rows[0]!.n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await checksum()).toBe(before);
    expect(await databaseInvariantViolations(database.db)).toEqual([]);
  }, 180_000);
});
