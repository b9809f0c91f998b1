import { asc, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { products } from "../catalog/schema.ts";
import { orderLines } from "../orders/schema.ts";
import { type MovementKind, stockMovements } from "./schema.ts";

/**
 * The one place a product's stock changes (ADR 0035): every change is a row in
 * `stock_movements` written by the same statement that moves `products.stock`,
 * so the stock is always the sum of its movements. Callers run these inside
 * their own transaction.
 */
export interface Movement {
  productId: number;
  change: number;
  kind: MovementKind;
  reason?: string;
  staffId?: number | null;
  orderId?: number | null;
}

/**
 * Applies the movements (several of one product are summed) in one statement.
 * A product whose stock would go below zero, or that does not exist, is left
 * untouched and named in `refused`: the caller throws, and its transaction
 * takes back whatever else moved. `stock` is each moved product's new stock.
 */
export async function applyMovements(tx: Db, movements: Movement[]): Promise<{ stock: Map<number, number>; refused: number[] }> {
  if (movements.length === 0) return { stock: new Map(), refused: [] };
  const rows = movements.map((m, ord) => ({ product_id: m.productId, change: m.change, kind: m.kind, reason: m.reason ?? "", staff_id: m.staffId ?? null, order_id: m.orderId ?? null, ord }));
  // Rows go in product order so two writers lock the same products in the same order.
  const result = (await tx.execute(sql`
    with m as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as m(product_id int, change int, kind text, reason text, staff_id int, order_id int, ord int)
    ),
    totals as (select product_id, sum(change)::int as change from m group by product_id),
    moved as (
      update ${products} p set stock = p.stock + t.change, updated_at = now()
      from (select * from totals order by product_id) t
      where p.id = t.product_id and p.stock + t.change >= 0
      returning p.id, p.stock
    ),
    written as (
      insert into ${stockMovements} (product_id, change, kind, reason, staff_id, order_id, stock_after)
      select m.product_id, m.change, m.kind, m.reason, m.staff_id, m.order_id,
             moved.stock - coalesce(sum(m.change) over (partition by m.product_id order by m.ord rows between 1 following and unbounded following), 0)
      from m join moved on moved.id = m.product_id
      order by m.ord
      returning 1
    )
    select t.product_id, moved.stock from totals t left join moved on moved.id = t.product_id`)) as unknown as { rows: { product_id: number; stock: number | null }[] };
  const stock = new Map<number, number>();
  const refused: number[] = [];
  for (const r of result.rows) {
    if (r.stock === null) refused.push(r.product_id);
    else stock.set(r.product_id, r.stock);
  }
  return { stock, refused };
}

/**
 * Brings products to counted figures: each difference from the books becomes a
 * `counted` movement, worked out under the row lock so a sale during the count
 * is not undone. Answers each product's stock before and after.
 */
export async function countTo(tx: Db, counts: { productId: number; counted: number }[], reason: string, staffId: number | null = null) {
  if (counts.length === 0) return [];
  const counted = new Map(counts.map((c) => [c.productId, c.counted]));
  const rows = await tx
    .select({ id: products.id, stock: products.stock })
    .from(products)
    .where(inArray(products.id, [...counted.keys()]))
    .orderBy(asc(products.id))
    .for("update");
  const diffs = rows.map((r) => ({ productId: r.id, before: r.stock, after: counted.get(r.id)! }));
  await applyMovements(
    tx,
    diffs.filter((d) => d.after !== d.before).map((d) => ({ productId: d.productId, change: d.after - d.before, kind: "counted" as const, reason, staffId })),
  );
  return diffs;
}

/**
 * An order's goods back on the shelf (cancelled, or its payment never came):
 * each line's quantity returns to its product as a `cancelled` movement. Lines
 * whose product was since removed have nowhere to go.
 */
export async function putOrderStockBack(tx: Db, orderId: number, staffId: number | null = null): Promise<void> {
  const lines = await tx
    .select({ productId: orderLines.productId, quantity: sql<number>`sum(${orderLines.quantity})::int` })
    .from(orderLines)
    .where(sql`${orderLines.orderId} = ${orderId} and ${orderLines.productId} is not null and exists (select 1 from ${products} where ${products.id} = ${orderLines.productId})`)
    .groupBy(orderLines.productId);
  await applyMovements(
    tx,
    lines.map((l) => ({ productId: l.productId!, change: l.quantity, kind: "cancelled" as const, orderId, staffId })),
  );
}

/** Every product with stock gets an `opening` movement for it: the seeds' catalogues start their ledgers here. */
export async function recordOpeningStock(tx: Db): Promise<void> {
  await tx.execute(sql`
    insert into ${stockMovements} (product_id, change, kind, reason, stock_after)
    select p.id, p.stock, 'opening', 'Stock when the shop was set up', p.stock from ${products} p
    where p.stock <> 0 and not exists (select 1 from ${stockMovements} s where s.product_id = p.id)`);
}
