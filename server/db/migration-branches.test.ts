// Migration 0034 (stock per branch) on a shop that already trades and has no
// branches: a database at 0033 with products, their stock ledger, an order that
// took stock and a guest's basket is upgraded. It gains a default "Main branch"
// that holds all the stock, every movement and order is at it, every invariant
// holds, and the ledger, a cancellation and a second branch work after.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBranchService } from "../modules/branches/service.ts";
import { builtInProvider } from "../modules/postcode/service.ts";
import { applyMovements, putOrderStockBack } from "../modules/stock/ledger.ts";
import { databaseInvariantViolations } from "../test/invariants.ts";
import { type MigratingDatabase, databaseBefore } from "../test/migrations.ts";
import type { Db } from "./client.ts";

let shop: MigratingDatabase;
const rows = <T,>(query: ReturnType<typeof sql>) => shop.rows<T>(query);
const db = () => shop.database.db;

beforeAll(async () => {
  shop = await databaseBefore("0034_branch_stock");
  // A shop at 0033: two products (each made one variant by its trigger) with their opening stock, one sold on an order.
  await db().execute(sql`insert into products (sku, slug, name, price_pence, vat_rate, stock, reorder_level) values
    ('OLD-HAM', 'old-hammer', 'Claw hammer', 1250, 20, 10, 3), ('OLD-LVL', 'old-level', 'Spirit level', 2000, 20, 4, 5)`);
  await db().execute(sql`insert into stock_movements (product_id, variant_id, change, kind, reason, stock_after)
    select p.id, v.id, case p.sku when 'OLD-HAM' then 12 else 4 end, 'opening', 'Stock when the shop was set up', case p.sku when 'OLD-HAM' then 12 else 4 end
    from products p join product_variants v on v.product_id = p.id`);
  await db().execute(sql`insert into orders (number, email, status, delivery_method, delivery_name, subtotal, vat, delivery, total, payment_method)
    values ('TC-000001', 'old@example.com', 'processing', 'standard', 'Standard delivery', 2500, 500, 0, 3000, 'bank_transfer')`);
  await db().execute(sql`insert into order_lines (order_id, product_id, variant_id, sku, name, slug, quantity, unit_price, vat_rate, line_total, line_vat)
    select o.id, p.id, v.id, p.sku, p.name, p.slug, 2, 1250, 20, 2500, 500 from orders o, products p join product_variants v on v.product_id = p.id where p.sku = 'OLD-HAM'`);
  await db().execute(sql`insert into stock_movements (product_id, variant_id, change, kind, stock_after, order_id)
    select p.id, v.id, -2, 'sold', 10, o.id from orders o, products p join product_variants v on v.product_id = p.id where p.sku = 'OLD-HAM'`);
  await shop.upgrade();
}, 120_000);

afterAll(() => shop?.close());

describe("migration 0034 on a shop without branches", () => {
  it("makes one default branch, Main branch, holding all the stock, with every movement and order at it", async () => {
    const branches = await rows<{ slug: string; name: string; is_default: boolean }>(sql`select slug, name, is_default from branches`);
    expect(branches).toEqual([{ slug: "main", name: "Main branch", is_default: true }]);
    expect(await rows(sql`select v.sku, s.stock from branch_stock s join product_variants v on v.id = s.variant_id join branches b on b.id = s.branch_id where b.slug = 'main' order by v.sku`)).toEqual([
      { sku: "OLD-HAM", stock: 10 },
      { sku: "OLD-LVL", stock: 4 },
    ]);
    expect(await rows(sql`select count(*)::int as n from stock_movements where branch_id is distinct from (select id from branches where is_default)`)).toEqual([{ n: 0 }]);
    expect(await rows(sql`select number from orders where branch_id = (select id from branches where is_default)`)).toEqual([{ number: "TC-000001" }]);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("keeps Main branch off the public branch pages until it has an address", async () => {
    const service = createBranchService(db(), { postcodes: builtInProvider(db()) });
    expect((await service.list()).data).toEqual([]);
    await expect(service.bySlug("main")).rejects.toMatchObject({ statusCode: 404 });
  });

  it("puts a cancelled order's stock back at the branch it came from, and keeps a second branch's stock apart", async () => {
    const [order] = await rows<{ id: number }>(sql`select id from orders where number = 'TC-000001'`);
    await db().transaction((tx) => putOrderStockBack(tx as unknown as Db, order!.id));
    const [york] = await rows<{ id: number }>(sql`insert into branches (slug, name, line_1, town, postcode) values ('york', 'York', '1 Foss Road', 'York', 'YO31 7UL') returning id`);
    const [hammer] = await rows<{ id: number }>(sql`select id from product_variants where sku = 'OLD-HAM'`);
    const moved = await db().transaction((tx) => applyMovements(tx as unknown as Db, [{ variantId: hammer!.id, branchId: york!.id, change: 5, kind: "received" }]));
    expect(moved.refused).toEqual([]);
    expect(moved.stock.get(hammer!.id)).toBe(17);
    expect(await rows(sql`select b.slug, s.stock from branch_stock s join branches b on b.id = s.branch_id where s.variant_id = ${hammer!.id} order by b.slug`)).toEqual([
      { slug: "main", stock: 12 },
      { slug: "york", stock: 5 },
    ]);
    // Taking more than York holds is refused, though the total would cover it.
    const short = await db().transaction((tx) => applyMovements(tx as unknown as Db, [{ variantId: hammer!.id, branchId: york!.id, change: -6, kind: "adjusted", reason: "Damaged" }]));
    expect(short.refusedAt).toEqual([{ variantId: hammer!.id, branchId: york!.id }]);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});
