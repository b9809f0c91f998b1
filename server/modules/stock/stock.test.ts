// The stock desk over HTTP and the ledger under it: every change a movement
// with who and when, the stock always their sum, each call all or nothing, and
// the guard against selling or taking what is not there under concurrency
// (on PostgreSQL in `npm run test:db`, where requests really run side by side).
import { asc, desc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "../../test/browser.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { products } from "../catalog/schema.ts";
import { stockMovements } from "./schema.ts";
import { staffTestShop } from "../../test/staff-browsers.ts";

const { as, shop, address } = staffTestShop("198.51.103");
const db = () => shop().database.db;

async function product(offset: number) {
  const [p] = await db().select().from(products).where(sql`sku not like 'GEN-%'`).orderBy(asc(products.id)).offset(offset).limit(1);
  return p!;
}
/** The demo's default branch, where stock moves when no branch is named. */
const leeds = { id: 1, slug: "leeds", name: "Leeds, Canal Wharf" };
const stockOf = async (id: number) => (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;

describe("the ledger", () => {
  it("starts each seeded product's stock with an opening movement, so stock is the sum of movements", async () => {
    const p = await product(0);
    const moves = await db().select().from(stockMovements).where(eq(stockMovements.productId, p.id));
    expect(moves.reduce((n, m) => n + m.change, 0)).toBe(p.stock);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});

describe("POST /api/admin/stock/movements", () => {
  it("applies every row or none, naming the bad rows", async () => {
    const a = await product(1);
    const b = await product(2);
    const bad = await as.warehouse.post("/api/admin/stock/movements", {
      movements: [
        { sku: a.sku, change: 5, reason: "Found on the wrong shelf" },
        { sku: "NO-SUCH-SKU", change: 1, reason: "?" },
        { sku: b.sku, change: -(b.stock + 1), reason: "Damaged" },
      ],
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(["movements.1.sku"]);
    expect(bad.json().errors["movements.1.sku"][0]).toMatch(/Row 2: no product has the SKU NO-SUCH-SKU/);
    expect(await stockOf(a.id)).toBe(a.stock);

    const below = await as.warehouse.post("/api/admin/stock/movements", {
      movements: [
        { sku: a.sku, change: 5, reason: "Found" },
        { sku: b.sku, change: -(b.stock + 1), reason: "Damaged" },
      ],
    });
    expect(below.statusCode).toBe(422);
    expect(below.json().errors["movements.1.change"][0]).toMatch(/Row 2: .* would leave less than none/);
    expect(await stockOf(a.id)).toBe(a.stock);

    const noReason = await as.warehouse.post("/api/admin/stock/movements", { movements: [{ sku: a.sku, change: -1 }] });
    expect(noReason.json().errors["movements.0.reason"][0]).toMatch(/say why/);

    const ok = await as.warehouse.post("/api/admin/stock/movements", {
      movements: [
        { sku: a.sku, change: 5, reason: "Found on the wrong shelf" },
        { sku: b.sku, change: 2, kind: "returned", reason: "Customer return" },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().products).toEqual(
      expect.arrayContaining([
        { sku: a.sku, name: a.name, branch: leeds, before: a.stock, after: a.stock + 5 },
        { sku: b.sku, name: b.name, branch: leeds, before: b.stock, after: b.stock + 2 },
      ]),
    );
    const [last] = await db().select().from(stockMovements).where(eq(stockMovements.productId, b.id)).orderBy(desc(stockMovements.id)).limit(1);
    expect(last).toMatchObject({ kind: "returned", change: 2, reason: "Customer return", stockAfter: b.stock + 2 });
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("is the warehouse's and managers', not sales' or the hire desk's", async () => {
    const a = await product(3);
    const body = { movements: [{ sku: a.sku, change: 1, reason: "x" }] };
    expect((await as.sales.post("/api/admin/stock/movements", body)).statusCode).toBe(403);
    expect((await as.hire.post("/api/admin/stock/movements", body)).statusCode).toBe(403);
    expect((await as.guest.post("/api/admin/stock/movements", body)).statusCode).toBe(401);
    expect((await as.manager.post("/api/admin/stock/movements", body)).statusCode).toBe(200);
  });
});

describe("deliveries and counts", () => {
  it("receives a delivery of several SKUs with its reference, and shows it in each product's history", async () => {
    const a = await product(4);
    const b = await product(5);
    const res = await as.warehouse.post("/api/admin/stock/deliveries", { reference: "PO-4471", lines: [{ sku: a.sku, quantity: 12 }, { sku: b.sku.toLowerCase(), quantity: 3 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(a.id)).toBe(a.stock + 12);
    const history = (await as.warehouse.get(`/api/admin/products/${a.sku}/stock-movements`)).json();
    expect(history.data[0]).toMatchObject({ sku: a.sku, change: 12, kind: "received", kind_label: "Received", reason: "Delivery PO-4471", stock_after: a.stock + 12, staff: expect.any(String) });
    expect((await as.warehouse.post("/api/admin/stock/deliveries", { lines: [{ sku: a.sku, quantity: 0 }] })).json().errors["lines.0.quantity"]).toBeDefined();
  });

  it("records a count's difference under the lock, and a count that matches records nothing", async () => {
    const a = await product(6);
    const b = await product(7);
    const res = await as.warehouse.post("/api/admin/stock/counts", { note: "Aisle 4", counts: [{ sku: a.sku, counted: a.stock + 3 }, { sku: b.sku, counted: b.stock }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().products).toEqual(
      expect.arrayContaining([
        { sku: a.sku, name: a.name, branch: leeds, before: a.stock, after: a.stock + 3, difference: 3 },
        { sku: b.sku, name: b.name, branch: leeds, before: b.stock, after: b.stock, difference: 0 },
      ]),
    );
    const moves = await db().select().from(stockMovements).where(eq(stockMovements.productId, b.id));
    expect(moves.every((m) => m.kind !== "counted")).toBe(true);
    const twice = await as.warehouse.post("/api/admin/stock/counts", { counts: [{ sku: a.sku, counted: 1 }, { sku: a.sku.toLowerCase(), counted: 2 }] });
    expect(twice.json().errors["counts.1.sku"][0]).toMatch(/counted twice/);
  });

  it("shows every variant's movements of a product by any of its SKUs, and one variant's by its own", async () => {
    const variants = (await db().execute(sql`
      select v.sku from product_variants v where v.product_id = (select product_id from product_variants group by product_id having count(*) > 1 order by product_id limit 1)
      order by v.position, v.id`)) as unknown as { rows: { sku: string }[] };
    const [first, second] = variants.rows.map((r) => r.sku);
    expect((await as.warehouse.post("/api/admin/stock/deliveries", { reference: "PO-VARIANTS", lines: [{ sku: second, quantity: 2 }] })).statusCode).toBe(200);
    const all = (await as.warehouse.get(`/api/admin/stock/movements?product=${first}`)).json().data as { sku: string; reason: string }[];
    expect(all.find((m) => m.reason === "Delivery PO-VARIANTS")?.sku).toBe(second);
    const own = (await as.warehouse.get(`/api/admin/stock/movements?sku=${first}`)).json().data as { sku: string }[];
    expect(own.every((m) => m.sku === first)).toBe(true);
    expect((await as.warehouse.get("/api/admin/stock/movements?product=NO-SUCH")).statusCode).toBe(404);
  });

  it("pages the whole history newest first with a keyset cursor", async () => {
    const first = (await as.manager.get("/api/admin/stock/movements?limit=3")).json();
    expect(first.data).toHaveLength(3);
    const second = (await as.manager.get(`/api/admin/stock/movements?limit=3&cursor=${first.next_cursor}`)).json();
    const ids = [...first.data, ...second.data].map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(new Set(ids).size).toBe(6);
    const sold = (await as.manager.get("/api/admin/stock/movements?kind=received")).json().data;
    expect(sold.every((m: { kind: string }) => m.kind === "received")).toBe(true);
  });
});

describe("concurrency", () => {
  it("never takes stock below zero when many adjustments and a checkout race for the last units", async () => {
    const a = await product(8);
    await as.manager.post("/api/admin/stock/counts", { counts: [{ sku: a.sku, counted: 6 }] });
    const customer = new TestBrowser(shop().app, address());
    await customer.csrf();
    expect((await customer.post("/api/basket", { product_id: a.id, quantity: 2 })).statusCode).toBe(200);
    const takes = Array.from({ length: 8 }, () => as.warehouse.post("/api/admin/stock/movements", { movements: [{ sku: a.sku, change: -1, reason: "Breakage" }] }));
    const checkout = customer.post("/api/checkout", {
      email: "race@example.com",
      phone: "0113 496 0000",
      delivery_method: "standard",
      delivery_address: { name: "Test Recipient", line_1: "1 Race Lane", town: "Leeds", postcode: "ls1 1ab" },
      payment_method: "bank_transfer",
    });
    const [answers, placed] = await Promise.all([Promise.all(takes), checkout]);
    const taken = answers.filter((r) => r.statusCode === 200).length;
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 422)).toBe(true);
    const sold = placed.statusCode === 201 ? 2 : 0;
    expect([201, 422]).toContain(placed.statusCode);
    expect(taken + sold).toBeLessThanOrEqual(6);
    expect(await stockOf(a.id)).toBe(6 - taken - sold);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});
