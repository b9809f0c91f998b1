// The catalogue desk's API over HTTP, signed in as the demo staff: the product
// list and its filters, the PATCH contract, creating and publishing, slugs that
// move, bulk changes with their preview, and who may do which.
import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { TestBrowser } from "../../../test/browser.ts";
import { databaseInvariantViolations } from "../../../test/invariants.ts";
import { auditLog } from "../../audit/schema.ts";
import { stockMovements } from "../../stock/schema.ts";
import { categories, manufacturers, productCategories, productVariants, products } from "../schema.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";

const PASSWORD = "demo-password-2026";
const { as, shop, address } = staffTestShop<"customer">("198.51.102");
const db = () => shop().database.db;

/** A published demo product with stock, chosen by offset so each test has its own. */
async function product(offset: number) {
  const [p] = await db().select().from(products).where(sql`sku not like 'GEN-%'`).orderBy(products.id).offset(offset).limit(1);
  return p!;
}

beforeAll(async () => {
  as.customer = new TestBrowser(shop().app, address());
  await as.customer.signIn("customer@example.com", PASSWORD);
}, 120_000);

describe("the product list", () => {
  it("searches by name words or SKU, pages by keyset, and answers no-store", async () => {
    const p = await product(3);
    const bySku = await as.sales.get(`/api/admin/products?q=${encodeURIComponent(p.sku.toLowerCase())}`);
    expect(bySku.statusCode, bySku.body).toBe(200);
    expect(bySku.headers["cache-control"]).toBe("no-store");
    expect(bySku.json().data.map((r: { sku: string }) => r.sku)).toContain(p.sku);
    const words = p.name.split(" ").reverse().slice(0, 2).join(" ");
    const byName = (await as.sales.get(`/api/admin/products?q=${encodeURIComponent(words)}`)).json();
    expect(byName.data.map((r: { sku: string }) => r.sku)).toContain(p.sku);

    const first = (await as.manager.get("/api/admin/products?limit=5")).json();
    expect(first.data).toHaveLength(5);
    const second = (await as.manager.get(`/api/admin/products?limit=5&cursor=${first.next_cursor}`)).json();
    const names = [...first.data, ...second.data].map((r: { name: string }) => r.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set([...first.data, ...second.data].map((r: { sku: string }) => r.sku)).size).toBe(10);
    expect((await as.manager.get("/api/admin/products?cursor=bm9wZQ")).statusCode).toBe(422);
  });

  it("filters by category (with its subcategories), brand, stock, status and missing photos", async () => {
    const [parent] = await db().select().from(categories).where(sql`parent_id is null and exists (select 1 from categories c where c.parent_id = categories.id)`).limit(1);
    const inCategory = (await as.manager.get(`/api/admin/products?category=${parent!.id}&limit=100`)).json().data as { sku: string }[];
    expect(inCategory.length).toBeGreaterThan(0);
    const [expected] = await db()
      .select({ n: sql<number>`count(distinct pc.product_id)::int` })
      .from(sql`product_categories pc join categories c on c.id = pc.category_id`)
      .where(sql`c.path = ${parent!.path} or c.path like ${`${parent!.path}/%`}`);
    expect(inCategory.length).toBe(Math.min(100, expected!.n));

    const [brand] = await db().select().from(manufacturers).limit(1);
    const byBrand = (await as.manager.get(`/api/admin/products?brand=${brand!.id}&limit=100`)).json().data as { brand: { id: number } }[];
    expect(byBrand.length).toBeGreaterThan(0);
    expect(byBrand.every((r) => r.brand.id === brand!.id)).toBe(true);

    const p = await product(4);
    await as.warehouse.patch(`/api/admin/products/${p.sku}`, { stock: 2, reorder_level: 3 });
    const low = (await as.manager.get(`/api/admin/products?stock=low&q=${p.sku}`)).json().data;
    expect(low.map((r: { sku: string }) => r.sku)).toEqual([p.sku]);
    expect(low[0].low_stock).toBe(true);
    expect((await as.manager.get(`/api/admin/products?stock=out&q=${p.sku}`)).json().data).toEqual([]);
    // The CSV export reads the list's own filters.
    const lowList = (await as.manager.get("/api/admin/products?stock=low&limit=100")).json().data.map((r: { sku: string }) => r.sku).sort();
    const csv = (await as.sales.get("/api/admin/products/export.csv?stock=low&status=active")).body;
    const exported = csv.replace(/^\uFEFF/, "").trim().split(/\r?\n/).slice(1).map((line) => line.split(",")[0]).sort();
    // A row per variant on sale of each product the list shows (a product's own SKU is its first variant's).
    const variantsOfListed = await db()
      .select({ sku: productVariants.sku })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(sql`${products.sku} in ${lowList} and ${productVariants.status} = 'active'`);
    expect(exported).toEqual(variantsOfListed.map((v) => v.sku).sort());

    // The demo's products show only the drawn picture: no photo. One with a photo leaves the filter.
    expect((await as.manager.get(`/api/admin/products?no_photo=1&q=${p.sku}`)).json().data.map((r: { sku: string }) => r.sku)).toEqual([p.sku]);
    await db().update(products).set({ images: [{ id: "ph1", src: "/media/photos/ph1/960w-x.webp", alt: "A photo" }] }).where(eq(products.id, p.id));
    expect((await as.manager.get(`/api/admin/products?no_photo=1&q=${p.sku}`)).json().data).toEqual([]);
    expect((await as.manager.get(`/api/admin/products?q=${p.sku}`)).json().data[0].photos).toBe(1);

    // Archived products leave the default list; the tab counts them.
    await as.manager.patch(`/api/admin/products/${p.sku}`, { status: "archived" });
    expect((await as.manager.get(`/api/admin/products?q=${p.sku}`)).json().data).toEqual([]);
    expect((await as.manager.get(`/api/admin/products?q=${p.sku}&status=archived`)).json().data).toHaveLength(1);
    expect((await as.manager.get(`/api/admin/products/counts?q=${p.sku}`)).json().data).toEqual({ draft: 0, published: 0, archived: 1 });
  });
});

describe("PATCH /api/admin/products/{sku}", () => {
  it("changes the price, VAT rate, stock, reorder level and published state, and the storefront's next request shows it", async () => {
    const p = await product(6);
    const res = await as.manager.patch(`/api/admin/products/${p.sku}`, { name: "Renamed Impact Driver", price_ex_vat: 99.99, vat_rate: 5, stock: 42, reorder_level: 7, published: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ sku: p.sku, name: "Renamed Impact Driver", price_ex_vat: 99.99, price_inc_vat: 104.99, vat_rate: 5, stock: 42, reorder_level: 7, published: true, status: "published" });

    const front = (await as.guest.get(`/api/products/${p.slug}`)).json().data;
    expect(front).toMatchObject({ name: "Renamed Impact Driver", price: 104.99, price_ex_vat: 99.99, stock: 42 });
    // The search index follows the new name.
    const found = (await as.guest.get("/api/products?q=renamed%20impact")).json();
    expect(found.items.map((r: { sku: string }) => r.sku)).toContain(p.sku);

    // The stock figure went into the ledger as a count, by whom.
    const [move] = await db().select().from(stockMovements).where(eq(stockMovements.productId, p.id)).orderBy(desc(stockMovements.id)).limit(1);
    expect(move).toMatchObject({ kind: "counted", change: 42 - p.stock, stockAfter: 42 });
    expect(move!.staffId).not.toBeNull();
    // Audited with what changed.
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.entity, "product"), eq(auditLog.entityId, p.sku))).orderBy(desc(auditLog.id)).limit(1);
    expect(entry!.action).toBe("product.updated");
    expect(entry!.after).toMatchObject({ price_ex_vat: 99.99, vat_rate: 5, name: "Renamed Impact Driver" });
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("refuses bad values naming each field, and changes nothing", async () => {
    const p = await product(7);
    const res = await as.manager.patch(`/api/admin/products/${p.sku}`, { price_ex_vat: -1, vat_rate: 17, stock: 1.5, name: "" });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(["name", "price_ex_vat", "stock", "vat_rate"]);
    expect(res.json().errors.price_ex_vat[0]).toMatch(/cannot be negative/);
    expect((await as.manager.patch(`/api/admin/products/${p.sku}`, { price_ex_vat: "12.345" })).json().errors.price_ex_vat[0]).toMatch(/2 decimals/);
    expect((await as.manager.patch(`/api/admin/products/${p.sku}`, { colour: "red" })).statusCode).toBe(422);
    const [after] = await db().select().from(products).where(eq(products.id, p.id));
    expect(after).toMatchObject({ name: p.name, pricePence: p.pricePence, vatRate: p.vatRate, stock: p.stock });
  });

  it("refuses a SKU or slug another product has, naming the field", async () => {
    const a = await product(8);
    const b = await product(9);
    const sku = await as.manager.patch(`/api/admin/products/${a.sku}`, { sku: b.sku.toLowerCase() });
    expect(sku.statusCode).toBe(422);
    expect(sku.json().errors.sku[0]).toContain(b.name);
    const slug = await as.manager.patch(`/api/admin/products/${a.sku}`, { slug: b.slug });
    expect(slug.statusCode).toBe(422);
    expect(slug.json().errors.slug[0]).toContain(`/product/${b.slug}`);
  });

  it("keeps an old slug answering with a 301 to the new one", async () => {
    const p = await product(10);
    const res = await as.manager.patch(`/api/admin/products/${p.sku}`, { slug: `${p.slug}-mk2` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().old_slugs).toEqual([p.slug]);
    const old = await as.guest.get(`/api/products/${p.slug}`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/api/products/${p.slug}-mk2`);
    expect((await as.guest.get(`/api/products/${p.slug}-mk2`)).statusCode).toBe(200);
    // Moving back makes the old address live again, and the newer one redirects.
    await as.manager.patch(`/api/admin/products/${p.sku}`, { slug: p.slug });
    expect((await as.guest.get(`/api/products/${p.slug}`)).statusCode).toBe(200);
    expect((await as.guest.get(`/api/products/${p.slug}-mk2`)).headers.location).toBe(`/api/products/${p.slug}`);
  });

  it("takes a product off sale: gone from the storefront, its listings, search and baskets, but kept for staff", async () => {
    const p = await product(11);
    const [cat] = await db().select({ path: categories.path }).from(productCategories).innerJoin(categories, eq(categories.id, productCategories.categoryId)).where(eq(productCategories.productId, p.id));
    const listed = async () => (await as.guest.get(`/api/products?category=${cat!.path}&per_page=96`)).json().items.map((r: { sku: string }) => r.sku);
    expect(await listed()).toContain(p.sku);
    expect((await as.manager.patch(`/api/admin/products/${p.sku}`, { published: false })).json().status).toBe("draft");
    expect((await as.guest.get(`/api/products/${p.slug}`)).statusCode).toBe(404);
    expect(await listed()).not.toContain(p.sku);
    expect((await as.guest.get(`/api/products?q=${encodeURIComponent(p.sku)}`)).json().items).toEqual([]);
    const b = new TestBrowser(shop().app, address());
    await b.csrf();
    const add = await b.post("/api/basket", { product_id: p.id, quantity: 1 });
    expect(add.statusCode).toBe(422);
    expect(add.json().errors.product_id[0]).toMatch(/no longer on sale/);
    expect((await as.sales.get(`/api/admin/products/${p.sku}`)).json().status).toBe("draft");
    // Published again, it is back.
    await as.manager.patch(`/api/admin/products/${p.sku}`, { published: true });
    expect(await listed()).toContain(p.sku);
  });

  it("lets the warehouse count stock but not change prices, sales read but not write, and the hire desk neither", async () => {
    const p = await product(12);
    expect((await as.warehouse.patch(`/api/admin/products/${p.sku}`, { stock: 11 })).statusCode).toBe(200);
    expect((await as.warehouse.patch(`/api/admin/products/${p.sku}`, { price_ex_vat: 1 })).statusCode).toBe(403);
    expect((await as.warehouse.patch(`/api/admin/products/${p.sku}`, { stock: 12, name: "Sneaky" })).statusCode).toBe(403);
    expect((await as.sales.get(`/api/admin/products/${p.sku}`)).statusCode).toBe(200);
    expect((await as.sales.patch(`/api/admin/products/${p.sku}`, { price_ex_vat: 1 })).statusCode).toBe(403);
    expect((await as.sales.patch(`/api/admin/products/${p.sku}`, { stock: 1 })).statusCode).toBe(403);
    expect((await as.hire.get(`/api/admin/products/${p.sku}`)).statusCode).toBe(403);
    expect((await as.guest.get(`/api/admin/products/${p.sku}`)).statusCode).toBe(401);
    expect((await as.customer.get("/api/admin/products")).statusCode).toBe(401);
    const [after] = await db().select().from(products).where(eq(products.id, p.id));
    expect(after).toMatchObject({ stock: 11, pricePence: p.pricePence, name: p.name });
  });
});

describe("creating a product", () => {
  it("makes a draft that only staff see, then publishes it to the storefront and its search", async () => {
    const [cat] = await db().select().from(categories).where(sql`parent_id is not null`).limit(1);
    const [brand] = await db().select().from(manufacturers).limit(1);
    const res = await as.manager.post("/api/admin/products", {
      sku: "NEW-0001",
      name: "Quasar Laser Level",
      price_ex_vat: "149.50",
      vat_rate: 20,
      stock: 8,
      brand_id: brand!.id,
      category_ids: [cat!.id],
      summary: "Self-levelling cross-line laser.",
      description_html: '<p>Bright <strong>green</strong> lines.</p><script>alert(1)</script><img src=x onerror="alert(2)">',
      attributes: [{ name: "Beam", value: "Green" }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({ sku: "NEW-0001", slug: "quasar-laser-level", status: "draft", price_ex_vat: 149.5, price_inc_vat: 179.4, stock: 8 });
    expect(made.description_html).toBe("<p>Bright <strong>green</strong> lines.</p>");
    expect(made.stock_movements[0]).toMatchObject({ kind: "opening", change: 8 });
    expect((await as.guest.get("/api/products/quasar-laser-level")).statusCode).toBe(404);

    const published = await as.manager.patch("/api/admin/products/NEW-0001", { published: true });
    expect(published.statusCode, published.body).toBe(200);
    const front = (await as.guest.get("/api/products/quasar-laser-level")).json().data;
    expect(front).toMatchObject({ name: "Quasar Laser Level", price: 179.4, attributes: [{ name: "Beam", value: "Green" }] });
    expect((await as.guest.get("/api/products?q=quasar")).json().items.map((r: { sku: string }) => r.sku)).toEqual(["NEW-0001"]);
    expect((await as.guest.get(`/api/products?category=${cat!.path}&attr=Beam:Green`)).json().items.map((r: { sku: string }) => r.sku)).toContain("NEW-0001");

    const twice = await as.manager.post("/api/admin/products", { sku: "new-0001", name: "Another", price_ex_vat: 1 });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.sku[0]).toContain("Quasar Laser Level");
    const missing = await as.manager.post("/api/admin/products", { name: "No SKU" });
    expect(Object.keys(missing.json().errors).sort()).toEqual(["price_ex_vat", "sku"]);
    expect((await as.sales.post("/api/admin/products", { sku: "NEW-0002", name: "Sales made", price_ex_vat: 1 })).statusCode).toBe(403);
  });

  it("will not publish a product whose photos have no alt text", async () => {
    await as.manager.post("/api/admin/products", { sku: "NEW-0003", name: "Unnamed Photo Saw", price_ex_vat: 10 });
    await db().update(products).set({ images: [{ src: "/media/x.webp", alt: " " }] }).where(eq(products.sku, "NEW-0003"));
    const res = await as.manager.patch("/api/admin/products/NEW-0003", { published: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.published[0]).toMatch(/alt text/);
  });
});

describe("bulk changes", () => {
  it("previews each product's old and new price and writes nothing, then applies in one go", async () => {
    const a = await product(13);
    const b = await product(14);
    const preview = await as.manager.post("/api/admin/products/bulk", { skus: [a.sku, b.sku], action: "price_percent", percent: 10, preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ applied: false, products: 2 });
    expect(preview.json().changes[0]).toMatchObject({ sku: a.sku, field: "price_ex_vat", from: (a.pricePence / 100).toFixed(2), to: (Math.round(a.pricePence * 1.1) / 100).toFixed(2) });
    expect((await db().select().from(products).where(eq(products.id, a.id)))[0]!.pricePence).toBe(a.pricePence);

    const applied = (await as.manager.post("/api/admin/products/bulk", { skus: [a.sku, b.sku], action: "price_percent", percent: 10 })).json();
    expect(applied.applied).toBe(true);
    const [after] = await db().select().from(products).where(eq(products.id, a.id));
    expect(after!.pricePence).toBe(Math.round(a.pricePence * 1.1));
    expect(applied.changes[0].to).toBe((after!.pricePence / 100).toFixed(2));
    expect((await as.guest.get(`/api/products/${a.slug}`)).json().data.price_ex_vat).toBe(after!.pricePence / 100);
  });

  it("sets VAT, moves category and archives; refuses unknown SKUs, nonsense and roles without catalogue.manage", async () => {
    const a = await product(15);
    const [cat] = await db().select().from(categories).where(sql`parent_id is not null`).orderBy(desc(categories.id)).limit(1);
    expect((await as.manager.post("/api/admin/products/bulk", { skus: [a.sku], action: "set_vat", vat_rate: 0 })).json().changes).toHaveLength(a.vatRate === 0 ? 0 : 1);
    await as.manager.post("/api/admin/products/bulk", { skus: [a.sku], action: "move_category", category_id: cat!.id });
    expect((await as.manager.get(`/api/admin/products/${a.sku}`)).json()).toMatchObject({ vat_rate: 0, categories: [{ id: cat!.id }] });
    await as.manager.post("/api/admin/products/bulk", { skus: [a.sku], action: "archive" });
    expect((await as.guest.get(`/api/products/${a.slug}`)).statusCode).toBe(404);

    const unknown = await as.manager.post("/api/admin/products/bulk", { skus: [a.sku, "NOPE-1"], action: "archive" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.skus[0]).toContain("nope-1");
    expect((await as.manager.post("/api/admin/products/bulk", { skus: [a.sku], action: "price_percent", percent: -95 })).statusCode).toBe(422);
    expect((await as.sales.post("/api/admin/products/bulk", { skus: [a.sku], action: "archive", preview: true })).statusCode).toBe(403);
  });
});
