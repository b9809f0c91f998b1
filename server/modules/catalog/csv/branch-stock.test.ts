// The catalogue CSV's stock@ columns (issue 30): the export writes each open
// branch's stock beside the total when the shop has more than one branch, the
// import counts a branch to its column's figure in the ledger, a header naming
// no open branch refuses the file, and a one-branch shop's file is unchanged.
import { Readable } from "node:stream";
import { and, desc, eq, sql } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client.ts";
import { type TestDatabase, createTestDatabase } from "../../../test/database.ts";
import { databaseInvariantViolations } from "../../../test/invariants.ts";
import { auditLog } from "../../audit/schema.ts";
import { branches } from "../../branches/schema.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { createStaffService } from "../../staff/service.ts";
import { countTo } from "../../stock/ledger.ts";
import { branchStock, stockMovements } from "../../stock/schema.ts";
import { productVariants } from "../schema.ts";
import { exportCatalogueCsv } from "./export.ts";
import { type ImportOptions, runImport } from "./import.ts";

let database: TestDatabase;
let db: Db;
let system: StaffActor;
const ids: Record<string, number> = {};

const source = (data: string) => () => Readable.from([Buffer.from(data, "utf8")]);
const run = (data: string, options: Partial<ImportOptions> = {}) => runImport(db, system, source(data), { fileName: "branches.csv", dryRun: false, ...options });

/** The export as rows of cells: the header, then the row of `sku`. */
async function exported(): Promise<{ header: string[]; row: string[] }> {
  const chunks: Buffer[] = [];
  for await (const c of await exportCatalogueCsv(db, system, { q: sku })) chunks.push(Buffer.from(c));
  const [header, ...rows] = parse(Buffer.concat(chunks).toString("utf8"), { bom: true }) as string[][];
  return { header: header!, row: rows.find((r) => r[0] === sku)! };
}

/** A variant's stock at each branch that holds a row for it, by slug. */
async function stockAt(sku: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ slug: branches.slug, stock: branchStock.stock })
    .from(branchStock)
    .innerJoin(branches, eq(branches.id, branchStock.branchId))
    .innerJoin(productVariants, eq(productVariants.id, branchStock.variantId))
    .where(eq(productVariants.sku, sku));
  return Object.fromEntries(rows.map((r) => [r.slug, r.stock]));
}

const totalOf = async (sku: string) => (await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.sku, sku)))[0]!.stock;

let sku: string;
let variantId: number;

beforeAll(async () => {
  database = await createTestDatabase({ seeded: true });
  db = database.db;
  system = await createStaffService(db, { appName: "Tradecounter", publicUrl: "http://shop.test", requireTotp: false }).systemActor();
  for (const b of await db.select().from(branches)) ids[b.slug] = b.id;
  // A product with one variant, with known stock at Leeds (the default) and York.
  const [first] = (
    (await db.execute(sql`select v.id, v.sku from product_variants v where (select count(*) from product_variants o where o.product_id = v.product_id) = 1 order by v.id limit 1`)) as unknown as {
      rows: { id: number; sku: string }[];
    }
  ).rows;
  sku = first!.sku;
  variantId = first!.id;
  await db.transaction(async (t) => {
    await countTo(t as unknown as Db, [
      { variantId, branchId: ids.leeds!, counted: 10 },
      { variantId, branchId: ids.york!, counted: 4 },
      { variantId, branchId: ids.harrogate!, counted: 0 },
      { variantId, branchId: ids.manchester!, counted: 0 },
    ], "Test set-up");
  });
}, 120_000);
afterAll(() => database?.destroy());

describe("stock@ columns", () => {
  it("the export writes each open branch's stock after the total, in the merchant's order", async () => {
    const { header, row } = await exported();
    const open = await db.select({ slug: branches.slug }).from(branches).where(eq(branches.status, "open")).orderBy(branches.position, branches.id);
    expect(open.length).toBeGreaterThan(1);
    const at = header.indexOf("stock");
    expect(header.slice(at, at + 2 + open.length)).toEqual(["stock", ...open.map((b) => `stock@${b.slug}`), "reorder_level"]);
    expect(row.slice(at, at + 1 + open.length)).toEqual(["14", ...open.map((b) => (b.slug === "leeds" ? "10" : b.slug === "york" ? "4" : "0"))]);
  });

  it("counts each branch to its column's figure through the ledger, reads no total, and reports the change per branch", async () => {
    const movements = await db.$count(stockMovements);
    const file = `sku,stock,stock@york,stock@Harrogate\n${sku},999,7,2\n`;
    const dry = await run(file, { dryRun: true });
    expect(dry.refused).toEqual([]);
    expect(dry.changes).toEqual([
      {
        row: 2,
        sku,
        action: "update",
        fields: [
          { field: "stock@york", old: "4", new: "7" },
          { field: "stock@harrogate", old: "0", new: "2" },
        ],
      },
    ]);
    expect(await db.$count(stockMovements)).toBe(movements);

    const report = await run(file);
    expect(report).toMatchObject({ applied: true, updated: 1, refused: [] });
    // Leeds as it was; the total the branches' sum, the file's 999 not read.
    expect(await stockAt(sku)).toMatchObject({ leeds: 10, york: 7, harrogate: 2 });
    expect(await totalOf(sku)).toBe(19);
    const moved = await db.select().from(stockMovements).where(eq(stockMovements.variantId, variantId)).orderBy(desc(stockMovements.id)).limit(2);
    expect(moved.map((m) => [m.branchId, m.kind, m.change, m.stockAfter, m.reason, m.staffId]).sort()).toEqual(
      [
        [ids.york, "counted", 3, 7, "CSV import: branches.csv", system.staffId],
        [ids.harrogate, "counted", 2, 2, "CSV import: branches.csv", system.staffId],
      ].sort(),
    );
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "product.imported")).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ entityId: "branches.csv" });

    // The same file again changes nothing; a figure below what a branch holds is a count down.
    expect(await run(file)).toMatchObject({ applied: true, updated: 0, unchanged: 1 });
    expect(await run(`sku,stock@york\n${sku},0\n`)).toMatchObject({ applied: true, updated: 1 });
    expect(await stockAt(sku)).toMatchObject({ leeds: 10, york: 0, harrogate: 2 });
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });

  it("gives a new product its opening stock at each branch named, and refuses a figure that is not a whole number", async () => {
    const report = await run("sku,name,price_ex_vat,stock@leeds,stock@manchester,stock@york\nBR-NEW-1,Branch test product,5.00,3,6,\n");
    expect(report).toMatchObject({ applied: true, created: 1, refused: [] });
    expect(report.changes[0]!.fields).toEqual(expect.arrayContaining([{ field: "stock@leeds", old: "", new: "3" }, { field: "stock@manchester", old: "", new: "6" }]));
    expect(await stockAt("BR-NEW-1")).toEqual({ leeds: 3, manchester: 6 });
    expect(await totalOf("BR-NEW-1")).toBe(9);
    const opening = await db.select().from(stockMovements).innerJoin(productVariants, eq(productVariants.id, stockMovements.variantId)).where(and(eq(productVariants.sku, "BR-NEW-1"), eq(stockMovements.kind, "opening")));
    expect(opening).toHaveLength(2);

    const bad = await run(`sku,stock@york\n${sku},-2\n${sku}-none,1.5\n`, { dryRun: true });
    expect(bad.refused).toEqual(expect.arrayContaining([expect.objectContaining({ row: 2, column: "stock@york" })]));
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });

  it("refuses a file whose stock@ column names no branch, or a closed one, naming the column; nothing is applied", async () => {
    const before = await stockAt(sku);
    const unknown = await run(`sku,price_ex_vat,stock@leds\n${sku},1.00,5\n`, { validOnly: true });
    expect(unknown).toMatchObject({ fatal: true, applied: false });
    expect(unknown.refused).toEqual([{ row: 1, column: "stock@leds", message: expect.stringContaining('No branch has the web address "leds"') }]);
    expect(unknown.refused[0]!.message).toContain("leeds");
    expect((await run(`sku,stock@\n${sku},5\n`)).refused).toEqual([expect.objectContaining({ row: 1, column: "stock@", message: "Name the branch after stock@, such as stock@leeds." })]);
    expect((await run(`sku,stock@york,STOCK@York\n${sku},5,5\n`)).fatal).toBe(true);

    await db.update(branches).set({ status: "closed" }).where(eq(branches.slug, "manchester"));
    const closed = await run(`sku,stock@manchester\n${sku},5\n`);
    expect(closed).toMatchObject({ fatal: true, applied: false });
    expect(closed.refused).toEqual([expect.objectContaining({ column: "stock@manchester", message: expect.stringContaining("closed") })]);
    await db.update(branches).set({ status: "open" }).where(eq(branches.slug, "manchester"));
    expect(await stockAt(sku)).toEqual(before);
  });
});

describe("a shop with one branch", () => {
  it("exports no stock@ column, and its stock column is counted at the default branch as before; stock@ is still accepted", async () => {
    // Only Leeds open: empty the others first (a closed branch keeps its stock out of the file).
    const others = ["york", "harrogate", "manchester"].map((s) => ids[s]!);
    await db.transaction(async (t) => {
      const held = await t.select().from(branchStock).where(sql`${branchStock.branchId} in ${others} and ${branchStock.stock} > 0`);
      await countTo(t as unknown as Db, held.map((h) => ({ variantId: h.variantId, branchId: h.branchId, counted: 0 })), "Test: one branch");
    });
    await db.update(branches).set({ status: "closed" }).where(sql`${branches.id} in ${others}`);

    const { header, row } = await exported();
    expect(header.filter((h) => h.startsWith("stock@"))).toEqual([]);
    const at = header.indexOf("stock");
    expect(header.slice(at - 1, at + 2)).toEqual(["vat_rate", "stock", "reorder_level"]);
    expect(row[at]).toBe("10");

    expect(await run(`sku,stock\n${sku},12\n`)).toMatchObject({ applied: true, updated: 1 });
    expect(await stockAt(sku)).toMatchObject({ leeds: 12 });
    expect(await run(`sku,stock@leeds\n${sku},8\n`)).toMatchObject({ applied: true, updated: 1 });
    expect(await stockAt(sku)).toMatchObject({ leeds: 8 });
    expect(await totalOf(sku)).toBe(8);
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });
});
