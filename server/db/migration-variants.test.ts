// Migration 0030 (variants) on a shop that already trades: a database at 0029
// with products, their stock ledger, a guest's basket and a placed order is
// upgraded, and every product becomes one variant that its basket line, order
// line and stock movements point at, every invariant holding after; the
// basket, the order's stock coming back and a new checkout's figures still work.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBasketService } from "../modules/basket/service.ts";
import { putOrderStockBack } from "../modules/stock/ledger.ts";
import { databaseInvariantViolations } from "../test/invariants.ts";
import { type MigratingDatabase, databaseBefore } from "../test/migrations.ts";
import type { Database, Db } from "./client.ts";

let shop: MigratingDatabase;
let database: Database;
const rows = <T,>(query: ReturnType<typeof sql>) => shop.rows<T>(query);

beforeAll(async () => {
  shop = await databaseBefore("0030_product_variants");
  database = shop.database;

  // A shop at 0029: two products with their opening stock, one sold on an order, a guest's basket holding both.
  const db = database.db;
  await db.execute(sql`insert into products (sku, slug, name, price_pence, vat_rate, stock, reorder_level) values
    ('OLD-HAM', 'old-hammer', 'Claw hammer', 1250, 20, 10, 3), ('OLD-LVL', 'old-level', 'Spirit level', 2000, 20, 4, 5)`);
  await db.execute(sql`insert into stock_movements (product_id, change, kind, reason, stock_after)
    select id, case sku when 'OLD-HAM' then 12 else 4 end, 'opening', 'Stock when the shop was set up', case sku when 'OLD-HAM' then 12 else 4 end from products`);
  await db.execute(sql`insert into orders (number, email, status, delivery_method, delivery_name, subtotal, vat, delivery, total, payment_method)
    values ('TC-000001', 'old@example.com', 'processing', 'collect', 'Click & collect', 2500, 500, 0, 3000, 'bank_transfer')`);
  await db.execute(sql`insert into order_lines (order_id, product_id, sku, name, slug, quantity, unit_price, vat_rate, line_total, line_vat)
    select o.id, p.id, p.sku, p.name, p.slug, 2, 1250, 20, 2500, 500 from orders o, products p where p.sku = 'OLD-HAM'`);
  await db.execute(sql`insert into stock_movements (product_id, change, kind, stock_after, order_id)
    select p.id, -2, 'sold', 10, o.id from orders o, products p where p.sku = 'OLD-HAM'`);
  await db.execute(sql`insert into baskets (guest_token_hash) values ('guest-hash-1')`);
  await db.execute(sql`insert into basket_items (basket_id, product_id, quantity) select b.id, p.id, 1 from baskets b, products p`);

  await shop.upgrade();
}, 120_000);

afterAll(() => shop?.close());

describe("migration 0030 on a shop that already trades", () => {
  it("makes each product one variant with its SKU, prices, stock and reorder level", async () => {
    const variants = await rows<Record<string, unknown>>(sql`
      select p.sku as product_sku, v.sku, v.price_pence, v.stock, v.reorder_level, v.options, v.status, p.unit
      from product_variants v join products p on p.id = v.product_id order by p.sku`);
    expect(variants).toEqual([
      { product_sku: "OLD-HAM", sku: "OLD-HAM", price_pence: 1250, stock: 10, reorder_level: 3, options: {}, status: "active", unit: "each" },
      { product_sku: "OLD-LVL", sku: "OLD-LVL", price_pence: 2000, stock: 4, reorder_level: 5, options: {}, status: "active", unit: "each" },
    ]);
  });

  it("points every basket line, order line and stock movement at its product's variant, and every invariant holds", async () => {
    const unlinked = await rows(sql`
      select 'basket' as t, id from basket_items where variant_id is null
      union all select 'order line', id from order_lines where variant_id is null
      union all select 'movement', id from stock_movements where variant_id is null`);
    expect(unlinked).toEqual([]);
    expect(await databaseInvariantViolations(database.db)).toEqual([]);
  });

  it("keeps the guest's basket and the order working: the basket reads, a cancellation puts the stock back on the variant", async () => {
    const cart = await createBasketService(database.db).cart({ guestHash: "guest-hash-1" });
    expect(cart.items.map((i) => [i.sku, i.quantity, i.options, i.unit_price])).toEqual([
      ["OLD-HAM", 1, {}, 15],
      ["OLD-LVL", 1, {}, 24],
    ]);
    const [order] = await rows<{ id: number }>(sql`select id from orders where number = 'TC-000001'`);
    await database.db.transaction((tx) => putOrderStockBack(tx as unknown as Db, order!.id));
    const [hammer] = await rows<{ product: number; variant: number }>(sql`
      select p.stock as product, v.stock as variant from products p join product_variants v on v.product_id = p.id where p.sku = 'OLD-HAM'`);
    expect(hammer).toEqual({ product: 12, variant: 12 });
    expect(await databaseInvariantViolations(database.db)).toEqual([]);
  });
});
