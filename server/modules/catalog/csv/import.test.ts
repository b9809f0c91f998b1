// The catalogue CSV import and export (issue 20, ADR 0036) at service level, on
// the demo shop: columns by header, encodings, malformed quoting, formulas,
// empty cells, the dry run, all or nothing, valid rows only, the stock ledger,
// slugs and their redirects, and the export read back unchanged.
import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client.ts";
import { seedScale } from "../../../db/seed/scale.ts";
import { escapeFormula, unescapeFormula } from "../../../lib/csv.ts";
import { type TestDatabase, createTestDatabase } from "../../../test/database.ts";
import { databaseInvariantViolations } from "../../../test/invariants.ts";
import { auditLog } from "../../audit/schema.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { createStaffService } from "../../staff/service.ts";
import { stockMovements } from "../../stock/schema.ts";
import { createProductService } from "../products/products.ts";
import { productSlugRedirects, productVariants, products } from "../schema.ts";
import { matchHeaders } from "./columns.ts";
import { CATALOGUE_EXPORT_BATCH, exportCatalogueCsv } from "./export.ts";
import { type ImportOptions, runImport } from "./import.ts";
import { detectEncoding } from "./read.ts";

let database: TestDatabase;
let db: Db;
let system: StaffActor;
const sales: StaffActor = { staffId: 1, name: "Sales", email: "sales@example.com", role: "sales", via: "api" };

const source = (data: string | Buffer) => () => Readable.from([typeof data === "string" ? Buffer.from(data, "utf8") : data]);
const run = (data: string | Buffer, options: Partial<ImportOptions> = {}) => runImport(db, system, source(data), { fileName: "test.csv", dryRun: false, ...options });

/** Every product's every imported field, its categories and attributes, as one hash: "the catalogue as it was". */
async function checksum(): Promise<string> {
  const result = (await db.execute(sql`
    select md5(coalesce(string_agg(row_to_json(x)::text, '|' order by x.id), '')) as sum from (
      select p.id, p.sku, p.slug, p.name, p.status, p.price_pence, p.was_price_pence, p.vat_rate, p.stock, p.reorder_level, p.manufacturer_id,
             p.summary, p.description_html, p.heavy, p.featured, p.seo_title, p.seo_description, p.search_text,
             (select array_agg(category_id order by category_id) from product_categories where product_id = p.id) as cats,
             (select array_agg(name || '=' || value order by name) from product_attributes where product_id = p.id) as attrs
      from products p) x`)) as unknown as { rows: { sum: string }[] };
  return result.rows[0]!.sum;
}

async function product(sku: string) {
  const [p] = await db.select().from(products).where(eq(products.sku, sku));
  return p!;
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString("utf8");
}

let demo: { sku: string; slug: string; name: string; price: number; stock: number };

beforeAll(async () => {
  database = await createTestDatabase({ seeded: true });
  db = database.db;
  system = await createStaffService(db, { appName: "Tradecounter", publicUrl: "http://shop.test", requireTotp: false }).systemActor();
  const [p] = await db.select().from(products).where(eq(products.status, "published")).orderBy(products.id).limit(1);
  demo = { sku: p!.sku, slug: p!.slug, name: p!.name, price: p!.pricePence, stock: p!.stock };
}, 120_000);
afterAll(() => database?.destroy());

describe("columns", () => {
  it("matches headers case-insensitively and trimmed, reports unknown columns, and refuses a file without sku or with a column twice", () => {
    const { columns, problems } = matchHeaders([" SKU ", "Price_Ex_VAT", "Attribute: Colour ", "colour", "NAME"]);
    expect(columns).toEqual([{ kind: "field", field: "sku" }, { kind: "field", field: "price_ex_vat" }, { kind: "attribute", name: "Colour" }, null, { kind: "field", field: "name" }]);
    expect(problems).toEqual([{ column: "colour", message: expect.stringContaining('Unknown column "colour"'), fatal: false }]);
    expect(matchHeaders(["name"]).problems).toEqual([expect.objectContaining({ column: "sku", fatal: true })]);
    expect(matchHeaders(["sku", "Name", "name "]).problems).toEqual([expect.objectContaining({ column: "name", fatal: true })]);
  });

  it("escapes formulas on the way out and undoes exactly that escape on the way in", () => {
    for (const cell of ["=cmd|' /c calc'!A1", "+44", "-5", "@SUM(A1)", "\tx", "\rx"]) {
      expect(escapeFormula(cell)).toBe(`'${cell}`);
      expect(unescapeFormula(escapeFormula(cell))).toBe(cell);
    }
    expect(unescapeFormula("'quoted'")).toBe("'quoted'");
    expect(escapeFormula("Plain")).toBe("Plain");
  });
});

describe("reading files", () => {
  it("reads UTF-8 with a byte order mark", async () => {
    const report = await run(`\uFEFFsku,name,price_ex_vat\nBOM-1,Café £5 widget,5.00\n`, { dryRun: true });
    expect(report).toMatchObject({ encoding: "utf-8", rows: 1, created: 1, refused: [] });
    expect(report.changes[0]!.fields).toContainEqual({ field: "name", old: "", new: "Café £5 widget" });
  });

  it("reads the Windows-1252 files Excel writes (£ is 0xA3, é is 0xE9)", async () => {
    const bytes = Buffer.concat([Buffer.from("sku,name,price_ex_vat\nWIN-1,Caf"), Buffer.from([0xe9, 0x20, 0xa3]), Buffer.from("5 widget,5.00\n")]);
    expect(await detectEncoding(source(bytes))).toBe("windows-1252");
    const report = await run(bytes);
    expect(report).toMatchObject({ encoding: "windows-1252", applied: true, created: 1 });
    expect((await product("WIN-1")).name).toBe("Café £5 widget");
  });

  it("names the row and column of malformed quoting, and writes nothing", async () => {
    const before = await checksum();
    const report = await run(`sku,name,price_ex_vat\nQ-1,Fine,1.00\nQ-2,"Broken" quote,1.00\nQ-3,Fine,1.00\n`);
    expect(report).toMatchObject({ fatal: true, applied: false, refused: [{ row: 3, column: "name", message: expect.stringContaining("closing quote") }] });
    const open = await run(`sku,name,price_ex_vat\nQ-1,Fine,1.00\nQ-2,"never closed,1.00\n`);
    expect(open.refused).toEqual([{ row: 3, column: "name", message: expect.stringContaining("never comes") }]);
    expect(await checksum()).toBe(before);
  });

  it("refuses a row too large to be a product's, naming it", async () => {
    const report = await run(`sku,name,price_ex_vat\nBIG-1,Fine,1.00\nBIG-2,"${"x".repeat(1_100_000)}",1.00\n`, { dryRun: true });
    expect(report).toMatchObject({ fatal: true, refused: [{ row: 3, column: "name", message: expect.stringContaining("over 1,000,000 characters") }] });
  });

  it("reports an unknown column and refuses the file for it, unless only the valid rows are wanted", async () => {
    const file = `sku,name,price_ex_vat,colour\nUNK-1,Thing,1.00,Red\n`;
    const report = await run(file);
    expect(report).toMatchObject({ applied: false, created: 0, would_create: 1, refused: [{ row: 1, column: "colour", message: expect.stringContaining("Unknown column") }] });
    const valid = await run(file, { validOnly: true });
    expect(valid).toMatchObject({ applied: true, created: 1 });
  });
});

describe("importing", () => {
  it("a dry run says what would change, field by field, and writes nothing", async () => {
    const before = await checksum();
    const movements = await db.$count(stockMovements);
    const report = await run(`sku,price_ex_vat,stock\n${demo.sku},${((demo.price + 100) / 100).toFixed(2)},${demo.stock + 3}\nDRY-NEW,,\n`, { dryRun: true });
    expect(report).toMatchObject({ dry_run: true, applied: false, rows: 2, updated: 1, created: 0, refused_rows: 1 });
    expect(report.changes).toEqual([
      {
        row: 2,
        sku: demo.sku,
        action: "update",
        fields: [
          { field: "price_ex_vat", old: (demo.price / 100).toFixed(2), new: ((demo.price + 100) / 100).toFixed(2) },
          { field: "stock", old: String(demo.stock), new: String(demo.stock + 3) },
        ],
      },
    ]);
    // A new product needs its name and price.
    expect(report.refused).toEqual(expect.arrayContaining([expect.objectContaining({ row: 3, column: "name", sku: "DRY-NEW" }), expect.objectContaining({ row: 3, column: "price_ex_vat" })]));
    expect(await checksum()).toBe(before);
    expect(await db.$count(stockMovements)).toBe(movements);
  });

  it("leaves a field as it is when its cell is empty", async () => {
    const before = await product(demo.sku);
    const report = await run(`sku,name,summary,price_ex_vat,stock,brand,categories\n${demo.sku},,,,,,\n`);
    expect(report).toMatchObject({ applied: true, rows: 1, unchanged: 1, updated: 0 });
    expect(await product(demo.sku)).toEqual(before);
  });

  it("is all or nothing: one refused row and nothing changes; with valid rows only, the rest is applied", async () => {
    const before = await checksum();
    const file = [
      "sku,name,price_ex_vat,vat_rate,stock,heavy",
      "AON-1,First new thing,10.00,20,4,no",
      "AON-2,Second new thing,-3,20,1,no",
      `${demo.sku},,9.99,,,maybe`,
      "AON-3,Third new thing,12.345,7,2,yes",
    ].join("\r\n");
    const report = await run(file);
    expect(report).toMatchObject({ applied: false, created: 0, updated: 0, would_create: 1, refused_rows: 3 });
    expect(report.refused).toEqual([
      { row: 3, column: "price_ex_vat", sku: "AON-2", message: "The price cannot be negative." },
      { row: 4, column: "heavy", sku: demo.sku, message: "Say yes or no for heavy." },
      { row: 5, column: "vat_rate", sku: "AON-3", message: "The VAT rate is 20, 5 or 0 per cent." },
      { row: 5, column: "price_ex_vat", sku: "AON-3", message: expect.stringContaining("at most 2 decimals") },
    ]);
    expect(await checksum()).toBe(before);

    const valid = await run(file, { validOnly: true });
    expect(valid).toMatchObject({ applied: true, created: 1, updated: 0, refused_rows: 3 });
    const made = await product("AON-1");
    expect(made).toMatchObject({ name: "First new thing", slug: "first-new-thing", pricePence: 1000, stock: 4, status: "draft", heavy: false });
    const [opening] = await db.select().from(stockMovements).where(eq(stockMovements.productId, made.id));
    expect(opening).toMatchObject({ kind: "opening", change: 4, stockAfter: 4, staffId: system.staffId });
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "product.imported")).orderBy(sql`${auditLog.id} desc`).limit(1);
    expect(audit).toMatchObject({ via: "cli", after: expect.objectContaining({ file: "test.csv", created: 1, updated: 0, refused: 3 }) });
  });

  it("refuses a SKU twice in a file, an unknown brand or category, and a slug another product uses", async () => {
    const [other] = await db.select().from(products).where(sql`${products.sku} <> ${demo.sku}`).orderBy(products.id).limit(1);
    const report = await run(
      [
        "sku,name,price_ex_vat,brand,categories,slug",
        "DUP-1,Dup,1.00,,,",
        "DUP-1,Dup again,1.00,,,",
        "REF-1,Ref,1.00,No Such Brand,,",
        "REF-2,Ref,1.00,,nowhere/at-all,",
        `REF-3,Ref,1.00,,,${other!.slug}`,
      ].join("\n"),
      { dryRun: true },
    );
    expect(report.refused.map((r) => [r.row, r.column])).toEqual([
      [3, "sku"],
      [4, "brand"],
      [5, "categories"],
      [6, "slug"],
    ]);
  });

  it("changes prices, stock (as counted movements), categories, attributes and slugs; the storefront's next read shows them; the old slug redirects", async () => {
    const storefront = createProductService(db);
    const newSlug = `${demo.slug}-renamed`;
    const report = await run(
      `sku,slug,price_ex_vat,stock,categories,attribute:Finish\n${demo.sku},${newSlug},123.45,${demo.stock + 7},power-tools/impact-drivers|power-tools/sds-drills,Matt\n`,
      { dryRun: false },
    );
    expect(report.refused, JSON.stringify(report.refused)).toEqual([]);
    expect(report).toMatchObject({ applied: true, updated: 1 });
    const card = await storefront.bySlug(newSlug);
    expect(card).toMatchObject({ sku: demo.sku, stock: demo.stock + 7 });
    expect((await product(demo.sku)).pricePence).toBe(12_345);
    expect(await storefront.movedSlug(demo.slug)).toBe(newSlug);
    const [redirect] = await db.select().from(productSlugRedirects).where(eq(productSlugRedirects.slug, demo.slug));
    expect(redirect).toBeDefined();
    const moves = await db.select().from(stockMovements).where(eq(stockMovements.productId, (await product(demo.sku)).id)).orderBy(sql`${stockMovements.id} desc`).limit(1);
    expect(moves[0]).toMatchObject({ kind: "counted", change: 7, stockAfter: demo.stock + 7, reason: "CSV import: test.csv" });
    expect(await databaseInvariantViolations(db)).toEqual([]);
    demo.slug = newSlug;
  });

  it("checks and writes a category's typed attributes as the product screen does", async () => {
    const [power] = ((await db.execute(sql`select id from categories where path = 'power-tools'`)) as unknown as { rows: { id: number }[] }).rows;
    await db.execute(sql`insert into category_attributes (category_id, name, kind, unit) values (${power!.id}, 'Run time', 'number', 'min'), (${power!.id}, 'Brushless', 'yes_no', '') on conflict do nothing`);
    const refused = await run(`sku,attribute:run time,attribute:Brushless\n${demo.sku},forty,perhaps\n`, { dryRun: true });
    expect(refused.refused).toEqual([
      expect.objectContaining({ row: 2, column: "attribute:run time", message: "Run time: give a number (in min)." }),
      expect.objectContaining({ row: 2, column: "attribute:Brushless", message: "Brushless: answer Yes or No." }),
    ]);
    const report = await run(`sku,attribute:run time,attribute:Brushless\n${demo.sku},45 min,y\n`);
    expect(report.refused).toEqual([]);
    const stored = ((await db.execute(sql`select name, value from product_attributes where product_id = ${(await product(demo.sku)).id} and name in ('Run time', 'Brushless') order by name`)) as unknown as { rows: unknown[] }).rows;
    expect(stored).toEqual([
      { name: "Brushless", value: "Yes" },
      { name: "Run time", value: "45min" },
    ]);
  });

  it("refuses a sales member (catalogue.manage)", async () => {
    await expect(runImport(db, sales, source("sku\n"), { fileName: "x.csv", dryRun: true })).rejects.toMatchObject({ statusCode: 403 });
  });
});

describe("export", () => {
  it("escapes formulas in what it writes, and reads back unchanged", async () => {
    await db.update(products).set({ name: "=cmd|' /c calc'!A1", summary: "-5 degrees" }).where(eq(products.sku, demo.sku));
    const csv = await text(await exportCatalogueCsv(db, system));
    expect(csv.startsWith("\uFEFFsku,name,slug,status,price_ex_vat,")).toBe(true);
    expect(csv).toContain(`'=cmd|' /c calc'!A1`);
    expect(csv).toContain(`'-5 degrees`);
    const before = await checksum();
    const report = await run(csv, { fileName: "round-trip.csv" });
    expect(report.refused).toEqual([]);
    expect(report).toMatchObject({ applied: true, created: 0, updated: 0, unchanged: report.rows });
    expect(await checksum()).toBe(before);
  });

  it("streams the catalogue in keyset batches; filters narrow it; a changed price comes back in", async () => {
    await seedScale(db, CATALOGUE_EXPORT_BATCH + 500);
    // A row per variant on sale.
    const all = await db.$count(productVariants, eq(productVariants.status, "active"));
    const stream = await exportCatalogueCsv(db, system);
    expect(stream).toBeInstanceOf(Readable);
    const csv = await text(stream);
    const lines = csv.trim().split("\n");
    expect(lines.length - 1).toBe(all);
    const only = (await text(await exportCatalogueCsv(db, system, { q: "GEN-1000" }))).trim().split("\n");
    expect(only.slice(1).every((l) => l.startsWith("GEN-1000"))).toBe(true);
    // Every price up by a penny, read back: each product updated, the ledger untouched.
    const movements = await db.$count(stockMovements);
    const changed = csv.replace(/^(GEN-\d+,[^,]*,[^,]*,[^,]*,)(\d+)\.(\d\d)/gm, (_m, head: string, pounds: string, pence: string) => `${head}${((Number(pounds) * 100 + Number(pence) + 1) / 100).toFixed(2)}`);
    const report = await run(changed, { fileName: "prices.csv", batchSize: 700 });
    expect(report.refused).toEqual([]);
    expect(report).toMatchObject({ applied: true, updated: CATALOGUE_EXPORT_BATCH + 500 });
    expect(await db.$count(stockMovements)).toBe(movements);
    expect(await databaseInvariantViolations(db)).toEqual([]);
  }, 120_000);

  it("writes a row per variant with its option columns, and reads a variant's own figures back onto that variant alone", async () => {
    const [paint] = ((await db.execute(sql`select id, slug from products where sku = 'TCL-EMUL'`)) as unknown as { rows: { id: number; slug: string }[] }).rows;
    const csv = await text(await exportCatalogueCsv(db, system, { q: "Trade vinyl matt emulsion" }));
    const lines = csv.trim().split("\n");
    expect(lines[0]).toContain(",unit,coverage_per_unit,coverage_unit,option1_name,option1_value,option2_name,option2_value,option3_name,option3_value,barcode,weight_grams");
    expect(lines).toHaveLength(1 + 24);
    expect(lines[1]).toMatch(/^TCL-EMUL,Trade vinyl matt emulsion,/);
    expect(lines[1]).toContain(",each,,,Size,2.5 L,Colour,Brilliant White,,,,,");
    const grey = lines.find((l) => l.startsWith("TCL-EMUL-5L-SOFTGREY,"))!;
    expect(grey).toContain(",Size,5 L,Colour,Soft Grey,");

    // The 5 L Soft Grey dearer, with a barcode; the rest of the file as it was.
    const [variant] = await db.select().from(productVariants).where(eq(productVariants.sku, "TCL-EMUL-5L-SOFTGREY"));
    const siblings = await db.select({ sku: productVariants.sku, price: productVariants.pricePence }).from(productVariants).where(sql`product_id = ${paint!.id} and sku <> 'TCL-EMUL-5L-SOFTGREY'`);
    const edited = csv.replace(grey, grey.replace(/^(TCL-EMUL-5L-SOFTGREY,[^,]*,[^,]*,[^,]*,)[\d.]+/, "$1" + "33.50").replace("Soft Grey,,,,,", "Soft Grey,,,5012345678900,5200,"));
    const report = await run(edited, { fileName: "paint.csv" });
    expect(report.refused).toEqual([]);
    expect(report).toMatchObject({ applied: true, updated: 1, unchanged: 23 });
    const [after] = await db.select().from(productVariants).where(eq(productVariants.id, variant!.id));
    expect(after).toMatchObject({ pricePence: 3350, barcode: "5012345678900", weightGrams: 5200 });
    expect(await db.select({ sku: productVariants.sku, price: productVariants.pricePence }).from(productVariants).where(sql`product_id = ${paint!.id} and sku <> 'TCL-EMUL-5L-SOFTGREY'`)).toEqual(siblings);

    // A variant's options are not changed from a file.
    const moved = await run(`sku,name,price_ex_vat,option1_name,option1_value,option2_name,option2_value\nTCL-EMUL-5L-SOFTGREY,,,Size,2.5 L,Colour,Soft Grey\n`, { dryRun: true });
    expect(moved.refused).toEqual([
      expect.objectContaining({ row: 2, column: "option1_value", message: "TCL-EMUL-5L-SOFTGREY is Size 5 L, Colour Soft Grey: a variant's options change in the back office, not from a file." }),
    ]);
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });

  it("needs catalogue.view", async () => {
    await expect(exportCatalogueCsv(db, { ...sales, role: "hire" })).rejects.toMatchObject({ statusCode: 403 });
  });
});

describe("products with options", () => {
  const header = "sku,name,slug,status,unit,price_ex_vat,stock,option1_name,option1_value,option2_name,option2_value,barcode";
  // Decking boards in three lengths and two finishes: the product's columns on its first row, empty on the rest.
  const decking = [
    "DECK-24-G,Grooved decking board,decking-board,published,each,4.20,10,Length,2.4 m,Finish,Green,",
    "DECK-36-G,,,,,6.10,8,Length,3.6 m,Finish,Green,",
    "DECK-48-G,,,,,8.00,0,Length,4.8 m,Finish,Green,",
    "DECK-24-B,,,,,4.60,5,Length,2.4 m,Finish,Brown,",
    "DECK-36-B,,,,,6.50,5,Length,3.6 m,Finish,Brown,",
    "DECK-48-B,,,,,8.40,2,Length,4.8 m,Finish,Brown,",
  ];
  const variantsOf = (slug: string) =>
    db
      .select({ sku: productVariants.sku, options: productVariants.options, price: productVariants.pricePence, stock: productVariants.stock, status: productVariants.status, position: productVariants.position })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(products.slug, slug))
      .orderBy(productVariants.position);
  const optionsOf = async (slug: string) =>
    ((await db.execute(sql`select o.name, o.values from product_options o join products p on p.id = o.product_id where p.slug = ${slug} order by o.position`)) as unknown as { rows: { name: string; values: string[] }[] }).rows;

  it("creates a product with two options and six variants from its rows: the dry run says what each variant would be, the import makes them all", async () => {
    const file = [header, ...decking].join("\n");
    const dry = await run(file, { dryRun: true });
    expect(dry.refused).toEqual([]);
    expect(dry).toMatchObject({ applied: false, would_create: 6 });
    expect(dry.changes[0]).toMatchObject({ sku: "DECK-24-G", action: "create", fields: expect.arrayContaining([{ field: "options", old: "", new: "Length: 2.4 m, 3.6 m, 4.8 m; Finish: Green, Brown" }, { field: "variant", old: "", new: "Length 2.4 m, Finish Green" }]) });
    expect(dry.changes[5]).toMatchObject({ sku: "DECK-48-B", action: "create", fields: expect.arrayContaining([{ field: "product", old: "", new: "Grooved decking board" }, { field: "variant", old: "", new: "Length 4.8 m, Finish Brown" }, { field: "price_ex_vat", old: "", new: "8.40" }, { field: "stock", old: "", new: "2" }]) });
    expect(await variantsOf("decking-board")).toEqual([]);

    const report = await run(file);
    expect(report.refused).toEqual([]);
    expect(report).toMatchObject({ applied: true, created: 6 });
    expect(await optionsOf("decking-board")).toEqual([
      { name: "Length", values: ["2.4 m", "3.6 m", "4.8 m"] },
      { name: "Finish", values: ["Green", "Brown"] },
    ]);
    const made = await variantsOf("decking-board");
    expect(made.map((v) => [v.sku, v.options, v.price, v.stock, v.position])).toEqual([
      ["DECK-24-G", { Length: "2.4 m", Finish: "Green" }, 420, 10, 0],
      ["DECK-36-G", { Length: "3.6 m", Finish: "Green" }, 610, 8, 1],
      ["DECK-48-G", { Length: "4.8 m", Finish: "Green" }, 800, 0, 2],
      ["DECK-24-B", { Length: "2.4 m", Finish: "Brown" }, 460, 5, 3],
      ["DECK-36-B", { Length: "3.6 m", Finish: "Brown" }, 650, 5, 4],
      ["DECK-48-B", { Length: "4.8 m", Finish: "Brown" }, 840, 2, 5],
    ]);
    // The product's summary: its first SKU, cheapest price and whole stock; opening stock in the ledger per variant.
    expect(await product("DECK-24-G")).toMatchObject({ slug: "decking-board", status: "published", pricePence: 420, stock: 30 });
    const opening = await db.select({ change: stockMovements.change }).from(stockMovements).innerJoin(productVariants, eq(productVariants.id, stockMovements.variantId)).where(sql`${productVariants.sku} like 'DECK-%' and ${stockMovements.kind} = 'opening'`);
    expect(opening.map((m) => m.change).sort((a, b) => a - b)).toEqual([2, 5, 5, 8, 10]);
    expect(await databaseInvariantViolations(db)).toEqual([]);

    // Its export reads back unchanged.
    const again = await run(await text(await exportCatalogueCsv(db, system, { q: "Grooved decking board" })));
    expect(again.refused).toEqual([]);
    expect(again.rows).toBeGreaterThanOrEqual(6);
    expect(again).toMatchObject({ unchanged: again.rows, created: 0, updated: 0 });
  });

  it("adds a variant to a product in the shop by its slug, its new value joining the option; a combination it has is refused", async () => {
    const file = [header, "DECK-54-G,,decking-board,,,9.90,4,Length,5.4 m,Finish,green,"].join("\n");
    const report = await run(file);
    expect(report.refused).toEqual([]);
    expect(report.changes[0]).toMatchObject({ sku: "DECK-54-G", action: "create", fields: expect.arrayContaining([{ field: "product", old: "", new: "Grooved decking board (decking-board)" }, { field: "variant", old: "", new: "Length 5.4 m, Finish Green" }]) });
    expect((await optionsOf("decking-board"))[0]).toEqual({ name: "Length", values: ["2.4 m", "3.6 m", "4.8 m", "5.4 m"] });
    expect((await variantsOf("decking-board")).at(-1)).toMatchObject({ sku: "DECK-54-G", options: { Length: "5.4 m", Finish: "Green" }, price: 990, stock: 4, position: 6 });

    const twin = await run([header, "DECK-54-G2,,decking-board,,,9.90,4,Length,5.4 M,Finish,Green,"].join("\n"), { dryRun: true });
    expect(twin.refused).toEqual([expect.objectContaining({ row: 2, column: "option1_value", message: "DECK-24-G's product already has a variant 5.4 m, Green: update that variant's row instead." })]);
    const wrongOption = await run([header, "DECK-54-X,,decking-board,,,9.90,4,Width,5 cm,,,"].join("\n"), { dryRun: true });
    expect(wrongOption.refused).toEqual([expect.objectContaining({ row: 2, column: "option1_name", message: "Give this product's options, Length, Finish, on each of its rows." })]);
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });

  it("refuses a product's rows together: with only the valid rows wanted, the other products go in and this one not at all", async () => {
    const before = await checksum();
    const file = [
      header,
      "SHED-6,Garden shed,garden-shed,draft,each,300,1,Size,6x4,,,",
      "SHED-8,,,,,not a price,1,Size,8x6,,,",
      "SHED-10,Garden shed XL,garden-shed,,,500,1,Size,10x8,,,",
      "PLAIN-1,Plain product,,draft,each,2.00,1,,,,,",
    ].join("\n");
    const report = await run(file, { validOnly: true });
    expect(report.refused).toEqual([
      expect.objectContaining({ row: 3, column: "price_ex_vat" }),
      expect.objectContaining({ row: 4, column: "name", message: 'This product\'s name is "Garden shed" on row 2: a product\'s rows give its columns once, the same on each row or empty.' }),
      expect.objectContaining({ row: 2, message: "Refused with the rest of its product, as row 3 was: a product's variants are imported together." }),
    ]);
    expect(report).toMatchObject({ applied: true, created: 1, refused_rows: 3 });
    expect(await variantsOf("garden-shed")).toEqual([]);
    expect(await product("PLAIN-1")).toMatchObject({ name: "Plain product" });
    expect(before).not.toBe(await checksum());

    // A product's rows one after another: a second run of them is refused.
    const split = await run([header, "RACK-1,Bike rack,bike-rack,draft,each,20,0,Bikes,1,,,", "PLAIN-2,Other,,draft,each,2.00,1,,,,,", "RACK-2,,bike-rack,,,30,0,Bikes,2,,,"].join("\n"), { dryRun: true });
    expect(split.refused).toEqual(expect.arrayContaining([expect.objectContaining({ row: 4, column: "sku", message: "This product's rows began at row 2: keep a product's rows together, one after another." })]));
    expect(split.refused.every((r) => r.row === 4)).toBe(true);
  });

  it("archives a variant counted to 0, never the last on sale; a barcode is one variant's", async () => {
    const withStock = await run("sku,variant_status\nDECK-24-G,archived\n", { dryRun: true });
    expect(withStock.refused).toEqual([expect.objectContaining({ row: 2, column: "variant_status", message: "DECK-24-G has 10 in stock: count it to 0 (a stock of 0 on this row) before archiving it." })]);
    const report = await run("sku,stock,variant_status\nDECK-24-G,0,archived\nDECK-48-G,,archived\n");
    expect(report.refused).toEqual([]);
    expect((await variantsOf("decking-board")).filter((v) => v.status === "archived").map((v) => [v.sku, v.stock])).toEqual([
      ["DECK-24-G", 0],
      ["DECK-48-G", 0],
    ]);
    const [summary] = await db.select().from(products).where(eq(products.slug, "decking-board"));
    expect(summary).toMatchObject({ sku: "DECK-36-G", pricePence: 460 });
    const again = await run("sku,variant_status\nDECK-24-G,active\n", { dryRun: true });
    expect(again.refused).toEqual([expect.objectContaining({ column: "variant_status" })]);

    const plain = await run("sku,stock,variant_status\nPLAIN-1,0,archived\n", { dryRun: true });
    expect(plain.refused).toEqual([expect.objectContaining({ row: 2, message: expect.stringContaining("This would archive every variant of Plain product") })]);

    expect((await run("sku,barcode\nDECK-36-G,5012345678917\n")).refused).toEqual([]);
    const clash = await run("sku,barcode\nDECK-36-B,5012345678917\nDECK-48-B,4006381333948\nDECK-54-G,4006381333948\nPLAIN-1,5012345678900\n", { dryRun: true });
    expect(clash.refused).toEqual([
      expect.objectContaining({ row: 2, column: "barcode", message: "The barcode 5012345678917 is already on DECK-36-G." }),
      expect.objectContaining({ row: 4, column: "barcode", message: "The barcode 4006381333948 is already on DECK-48-B." }),
      expect.objectContaining({ row: 5, column: "barcode", message: "The barcode 5012345678900 is already on TCL-EMUL-5L-SOFTGREY." }),
      // The decking's rows are its variants, changed together.
      expect.objectContaining({ row: 3, message: "Refused with the rest of its product, as row 2 was: a product's variants are imported together." }),
    ]);
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });
});
