// product_listing and listing_facets are kept by triggers: these tests change
// the catalogue tables directly and check that listings and their counts follow.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/database.ts";
import { seedScale } from "../../../db/seed/scale.ts";
import { createProductService, type ProductQuery } from "./products.ts";

let database: TestDatabase;
let db: Db;
let service: ReturnType<typeof createProductService>;

beforeAll(async () => {
  database = await createTestDatabase({ seeded: true });
  db = database.db;
  await seedScale(db, 300);
  service = createProductService(db);
}, 120_000);
afterAll(() => database.close());

type Listing = NonNullable<Awaited<ReturnType<typeof service.list>>>;

/** The same listing counted live: a price floor of 0 keeps every product but skips the stored counts. */
async function both(query: ProductQuery): Promise<[Listing, Listing]> {
  const stored = await service.list(query);
  const live = await service.list({ ...query, priceMin: 0 });
  return [stored!, live!];
}

const facetsOf = (l: Listing) => ({ total: l.total, in_stock: l.facets.in_stock, price: l.facets.price, manufacturers: l.facets.manufacturers, attributes: l.facets.attributes });

async function expectStoredMatchesLive(query: ProductQuery) {
  const [stored, live] = await both(query);
  expect(stored.total).toBeGreaterThan(0);
  expect(facetsOf(stored)).toEqual(facetsOf(live));
  expect(stored.items.map((i) => i.id)).toEqual(live.items.map((i) => i.id));
}

async function one(query: string) {
  const result = (await db.execute(sql.raw(query))) as unknown as { rows: Record<string, unknown>[] };
  return result.rows[0]!;
}

describe("the listing index", () => {
  it("agree with live counts for the whole catalogue, a top category and a leaf", async () => {
    await expectStoredMatchesLive({});
    await expectStoredMatchesLive({ category: "power-tools" });
    await expectStoredMatchesLive({ category: "power-tools/cordless-drills", sort: "price_asc" });
    await expectStoredMatchesLive({ inStock: true });
    await expectStoredMatchesLive({ category: "power-tools", inStock: true, manufacturer: [1, 2, 3, 4, 5] });
    await expectStoredMatchesLive({ category: "power-tools", inStock: true, attributes: { Size: ["Small"] } });
  });

  it("give the price range of what the listing holds", async () => {
    const leaf = (await service.list({ category: "power-tools/cordless-drills", perPage: 96 }))!;
    expect(leaf.total).toBeLessThanOrEqual(96);
    const prices = leaf.items.map((i) => i.price);
    expect(leaf.facets.price).toEqual({ min: Math.min(...prices), max: Math.max(...prices) });
    const inStock = (await service.list({ category: "power-tools/cordless-drills", perPage: 96, inStock: true }))!;
    const stocked = inStock.items.map((i) => i.price);
    expect(inStock.facets.price).toEqual({ min: Math.min(...stocked), max: Math.max(...stocked) });
  });

  it("follow a product that sells out and comes back into stock", async () => {
    const before = (await service.list({ category: "power-tools" }))!.facets.in_stock;
    const { id } = await one(
      "select p.id from products p join product_listing l on l.product_id = p.id where p.stock > 0 and l.category_ids @> array[(select id from categories where path = 'power-tools')] limit 1",
    );
    await db.execute(sql`update products set stock = 0 where id = ${id}`);
    expect((await service.list({ category: "power-tools" }))!.facets.in_stock).toBe(before - 1);
    expect((await service.list({ category: "power-tools", inStock: true }))!.items.some((i) => i.id === id)).toBe(false);
    await expectStoredMatchesLive({ category: "power-tools", inStock: true });
    await db.execute(sql`update products set stock = 5 where id = ${id}`);
    expect((await service.list({ category: "power-tools" }))!.facets.in_stock).toBe(before);
    await expectStoredMatchesLive({ category: "power-tools" });
    await expectStoredMatchesLive({ category: "power-tools", inStock: true });
  });

  it("follow a sale that leaves stock above zero without touching the counts", async () => {
    const { id, stock } = await one("select id, stock from products where stock > 3 limit 1");
    await db.execute(sql`update products set stock = stock - 1 where id = ${id}`);
    const { stock: listed } = await one(`select stock from product_listing where product_id = ${id}`);
    expect(listed).toBe(Number(stock) - 1);
    await expectStoredMatchesLive({});
  });

  it("follow a price change in price order and price filters", async () => {
    const { id } = await one("select id from products where sku like 'GEN-%' order by id limit 1");
    await db.execute(sql`update products set price_pence = 1, vat_rate = 0 where id = ${id}`);
    const cheapest = await service.list({ sort: "price_asc", perPage: 1 });
    expect(cheapest!.items[0]!.id).toBe(id);
    expect(cheapest!.items[0]!.price).toBe(0.01);
    expect((await service.list({ priceMax: 0.01 }))!.items.map((i) => i.id)).toEqual([id]);
  });

  it("follow a product moved to another category, a changed attribute and a new brand", async () => {
    const { id } = await one("select product_id as id from product_categories pc join categories c on c.id = pc.category_id where c.path like 'power-tools/%' limit 1");
    const { target } = await one("select id as target from categories where path = 'garden' ");
    await db.execute(sql`update product_categories set category_id = ${target} where product_id = ${id}`);
    await db.execute(sql`insert into product_attributes (product_id, name, value, position) values (${id}, 'Test finish', 'Matt', 9)`);
    const garden = await service.list({ category: "garden", attributes: { "Test finish": ["Matt"] } });
    expect(garden!.items.map((i) => i.id)).toEqual([id]);
    expect((await service.list({ category: "power-tools", perPage: 96, attributes: { "Test finish": ["Matt"] } }))!.total).toBe(0);
    await expectStoredMatchesLive({ category: "garden" });
    await expectStoredMatchesLive({ category: "power-tools" });

    await db.execute(sql`delete from product_attributes where product_id = ${id} and name = 'Test finish'`);
    const [stored] = await both({ category: "garden" });
    expect(stored.facets.attributes.some((a) => a.name === "Test finish")).toBe(false);
  });

  it("forget a deleted product", async () => {
    const { id } = await one("select id from products where sku like 'GEN-%' order by id desc limit 1");
    const before = (await service.list({}))!.total;
    await db.execute(sql`delete from products where id = ${id}`);
    expect((await service.list({}))!.total).toBe(before - 1);
    await expectStoredMatchesLive({});
  });

  it("sort only what remains after the filters", async () => {
    const filtered = await service.list({ category: "power-tools", attributes: { Size: ["Small", "Large"] }, inStock: true, sort: "price_desc" });
    const ids = filtered!.items.map((i) => i.id);
    expect(ids.length).toBeGreaterThan(0);
    const prices = filtered!.items.map((i) => i.price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });
});
