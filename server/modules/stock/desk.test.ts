// The stock desk of the counter (issue 34): the lookup behind each row and
// the scanner field (exact SKU or barcode first, names and SKU prefixes, the
// stock at the chosen branch), and a many-row booking that is all or nothing
// with each refusal naming its row.
import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { productVariants, products } from "../catalog/schema.ts";
import { branchStock, stockMovements } from "./schema.ts";
import { staffTestShop } from "../../test/staff-browsers.ts";

const { as, shop } = staffTestShop("198.51.105");
const db = () => shop().database.db;

async function variants(count: number, offset: number) {
  return db()
    .select({ id: productVariants.id, sku: productVariants.sku, name: products.name, stock: productVariants.stock })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(sql`${products.status} = 'published' and ${productVariants.options} = '{}'::jsonb and ${products.sku} not like 'GEN-%'`)
    .orderBy(asc(productVariants.id))
    .offset(offset)
    .limit(count);
}

describe("GET /api/admin/stock/lookup", () => {
  it("finds a scanned barcode or an exact SKU first, with the stock at the branch", async () => {
    const [v] = await variants(1, 0);
    await db().update(productVariants).set({ barcode: "5012345678900" }).where(eq(productVariants.id, v!.id));
    const byBarcode = await as.warehouse.get("/api/admin/stock/lookup?q=5012345678900");
    expect(byBarcode.statusCode, byBarcode.body).toBe(200);
    expect(byBarcode.headers["cache-control"]).toBe("no-store");
    const atDefault = (await db().select({ stock: branchStock.stock }).from(branchStock).where(sql`${branchStock.variantId} = ${v!.id} and ${branchStock.branchId} = 1`))[0]?.stock ?? 0;
    expect(byBarcode.json()).toMatchObject({ branch: { id: 1 }, data: [{ sku: v!.sku, name: v!.name, barcode: "5012345678900", stock: atDefault, total: v!.stock, exact: true }] });
    const bySku = (await as.warehouse.get(`/api/admin/stock/lookup?q=${encodeURIComponent(v!.sku.toLowerCase())}`)).json().data;
    expect(bySku[0]).toMatchObject({ sku: v!.sku, exact: true });
    // At another branch: that branch's stock.
    const leeds = (await as.warehouse.get(`/api/admin/stock/lookup?q=${encodeURIComponent(v!.sku)}&branch_id=2`)).json();
    expect(leeds.branch.id).toBe(2);
    expect(typeof leeds.data[0].stock).toBe("number");
  });

  it("finds by words of the name and the start of a SKU, never an archived product, at most eight", async () => {
    const [v] = await variants(1, 1);
    const word = v!.name.split(/\s+/).find((w) => w.length >= 4)!;
    const named = await as.warehouse.get(`/api/admin/stock/lookup?q=${encodeURIComponent(word.toLowerCase())}`);
    expect(named.statusCode, named.body).toBe(200);
    const byName = named.json().data as { sku: string; name: string; exact: boolean }[];
    expect(byName.length).toBeGreaterThan(0);
    expect(byName.length).toBeLessThanOrEqual(8);
    expect(byName.every((r) => r.name.toLowerCase().includes(word.toLowerCase()))).toBe(true);
    expect(byName.map((r) => r.sku)).toContain(v!.sku);
    const prefix = v!.sku.slice(0, Math.max(2, v!.sku.length - 2));
    expect((await as.warehouse.get(`/api/admin/stock/lookup?q=${encodeURIComponent(prefix)}`)).json().data.map((r: { sku: string }) => r.sku)).toContain(v!.sku);
    // LIKE's wildcards are taken as typed.
    expect((await as.warehouse.get("/api/admin/stock/lookup?q=%25%25")).json().data).toEqual([]);
    await db().update(products).set({ status: "archived" }).where(eq(products.sku, v!.sku));
    expect((await as.warehouse.get(`/api/admin/stock/lookup?q=${encodeURIComponent(v!.sku)}`)).json().data).toEqual([]);
    await db().update(products).set({ status: "published" }).where(eq(products.sku, v!.sku));
    expect((await as.warehouse.get("/api/admin/stock/lookup?q=")).json().data).toEqual([]);
  });

  it("is the back office's: a guest is refused, an unknown branch is named", async () => {
    expect((await as.guest.get("/api/admin/stock/lookup?q=abc")).statusCode).toBe(401);
    const bad = await as.warehouse.get("/api/admin/stock/lookup?q=abc&branch_id=999");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.branch_id[0]).toMatch(/no branch 999/i);
  });
});

describe("a delivery of many rows", () => {
  it("books twenty rows in one go, and one bad row refuses them all, named by its row", async () => {
    const rows = await variants(20, 4);
    expect(rows).toHaveLength(20);
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(stockMovements);
    const lines = rows.map((r, i) => ({ sku: r.sku, quantity: i + 1 }));
    const refused = await as.warehouse.post("/api/admin/stock/deliveries", { reference: "DN-20", lines: [...lines.slice(0, 12), { sku: "NO-SUCH-SKU", quantity: 1 }, ...lines.slice(12)] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors["lines.12.sku"][0]).toMatch(/^Row 13: no product has the SKU NO-SUCH-SKU/);
    expect((await db().select({ n: sql<number>`count(*)::int` }).from(stockMovements))[0]!.n).toBe(before[0]!.n);

    const done = await as.warehouse.post("/api/admin/stock/deliveries", { reference: "DN-20", lines });
    expect(done.statusCode, done.body).toBe(200);
    const booked = done.json().products as { sku: string; before: number; after: number }[];
    expect(booked).toHaveLength(20);
    booked.forEach((b, i) => expect(b.after - b.before).toBe(i + 1));
    const after = await variants(20, 4);
    after.forEach((v, i) => expect(v.stock).toBe(rows[i]!.stock + i + 1));
  });
});
