import { asc, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { productVariants } from "../catalog/schema.ts";
import { orderLines } from "../orders/schema.ts";
import { type MovementKind, stockMovements } from "./schema.ts";

/**
 * The one place stock changes (ADR 0035): every change is a row in
 * `stock_movements` written by the same statement that moves the variant's
 * stock, so a variant's stock is always the sum of its movements (and its
 * product's, the total of its variants', by trigger: ADR 0046). Callers run
 * these inside their own transaction.
 */
export interface Movement {
  variantId: number;
  change: number;
  kind: MovementKind;
  reason?: string;
  staffId?: number | null;
  orderId?: number | null;
}

/**
 * Applies the movements (several of one variant are summed) in one statement.
 * A variant whose stock would go below zero, or that does not exist, is left
 * untouched and named in `refused`: the caller throws, and its transaction
 * takes back whatever else moved. `stock` is each moved variant's new stock.
 */
export async function applyMovements(tx: Db, movements: Movement[]): Promise<{ stock: Map<number, number>; refused: number[] }> {
  if (movements.length === 0) return { stock: new Map(), refused: [] };
  const rows = movements.map((m, ord) => ({ variant_id: m.variantId, change: m.change, kind: m.kind, reason: m.reason ?? "", staff_id: m.staffId ?? null, order_id: m.orderId ?? null, ord }));
  // Variants are moved in (product, id) order, so two writers lock the same
  // variants, and then their products (the summary trigger), in one order.
  const result = (await tx.execute(sql`
    with m as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as m(variant_id int, change int, kind text, reason text, staff_id int, order_id int, ord int)
    ),
    totals as (select variant_id, sum(change)::int as change from m group by variant_id),
    moved as (
      update ${productVariants} v set stock = v.stock + t.change, updated_at = now()
      from (select totals.*, pv.product_id from totals join ${productVariants} pv on pv.id = totals.variant_id order by pv.product_id, totals.variant_id) t
      where v.id = t.variant_id and v.stock + t.change >= 0
      returning v.id, v.product_id, v.stock
    ),
    written as (
      insert into ${stockMovements} (product_id, variant_id, change, kind, reason, staff_id, order_id, stock_after)
      select moved.product_id, m.variant_id, m.change, m.kind, m.reason, m.staff_id, m.order_id,
             moved.stock - coalesce(sum(m.change) over (partition by m.variant_id order by m.ord rows between 1 following and unbounded following), 0)
      from m join moved on moved.id = m.variant_id
      order by m.ord
      returning 1
    )
    select t.variant_id, moved.stock from totals t left join moved on moved.id = t.variant_id`)) as unknown as { rows: { variant_id: number; stock: number | null }[] };
  const stock = new Map<number, number>();
  const refused: number[] = [];
  for (const r of result.rows) {
    if (r.stock === null) refused.push(r.variant_id);
    else stock.set(r.variant_id, r.stock);
  }
  return { stock, refused };
}

/**
 * Brings variants to counted figures: each difference from the books becomes a
 * `counted` movement, worked out under the row lock so a sale during the count
 * is not undone. Answers each variant's stock before and after.
 */
export async function countTo(tx: Db, counts: { variantId: number; counted: number }[], reason: string, staffId: number | null = null) {
  if (counts.length === 0) return [];
  const counted = new Map(counts.map((c) => [c.variantId, c.counted]));
  const rows = await tx
    .select({ id: productVariants.id, stock: productVariants.stock })
    .from(productVariants)
    .where(inArray(productVariants.id, [...counted.keys()]))
    .orderBy(asc(productVariants.productId), asc(productVariants.id))
    .for("update");
  const diffs = rows.map((r) => ({ variantId: r.id, before: r.stock, after: counted.get(r.id)! }));
  await applyMovements(
    tx,
    diffs.filter((d) => d.after !== d.before).map((d) => ({ variantId: d.variantId, change: d.after - d.before, kind: "counted" as const, reason, staffId })),
  );
  return diffs;
}

/**
 * An order's goods back on the shelf (cancelled, or its payment never came):
 * each line's quantity returns to its variant as a `cancelled` movement. Lines
 * whose variant was since removed have nowhere to go.
 */
export async function putOrderStockBack(tx: Db, orderId: number, staffId: number | null = null): Promise<void> {
  const lines = await tx
    .select({ variantId: orderLines.variantId, quantity: sql<number>`sum(${orderLines.quantity})::int` })
    .from(orderLines)
    .where(sql`${orderLines.orderId} = ${orderId} and ${orderLines.variantId} is not null and exists (select 1 from ${productVariants} where ${productVariants.id} = ${orderLines.variantId})`)
    .groupBy(orderLines.variantId);
  await applyMovements(
    tx,
    lines.map((l) => ({ variantId: l.variantId!, change: l.quantity, kind: "cancelled" as const, orderId, staffId })),
  );
}

/** Every variant with stock gets an `opening` movement for it: the seeds' catalogues start their ledgers here. */
export async function recordOpeningStock(tx: Db): Promise<void> {
  await tx.execute(sql`
    insert into ${stockMovements} (product_id, variant_id, change, kind, reason, stock_after)
    select v.product_id, v.id, v.stock, 'opening', 'Stock when the shop was set up', v.stock from ${productVariants} v
    where v.stock <> 0 and not exists (select 1 from ${stockMovements} s where s.variant_id = v.id)`);
}

/**
 * Counts products that have one variant each (the tools' and tests' stock
 * for demo products): a product with several is refused, as its stock is
 * its variants' to count.
 */
export async function countSoleVariantsTo(tx: Db, counts: { productId: number; counted: number }[], reason: string) {
  const variants = counts.length
    ? await tx
        .select({ id: productVariants.id, productId: productVariants.productId })
        .from(productVariants)
        .where(sql`${productVariants.productId} in ${counts.map((c) => c.productId)} and ${productVariants.status} = 'active'`)
    : [];
  return countTo(
    tx,
    counts.map((c) => {
      const own = variants.filter((v) => v.productId === c.productId);
      if (own.length !== 1) throw new Error(`Product ${c.productId} has ${own.length} variants: count each.`);
      return { variantId: own[0]!.id, counted: c.counted };
    }),
    reason,
  );
}
