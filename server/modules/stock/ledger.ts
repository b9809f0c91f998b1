import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { executeNamed } from "../../db/named.ts";
import { branches } from "../branches/schema.ts";
import { productVariants } from "../catalog/schema.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { settleOrderTransfers } from "./order-transfers.ts";
import { type MovementKind, branchStock, stockMovements } from "./schema.ts";

/**
 * The one place stock changes (ADR 0035, ADR 0047): every change is a row in
 * `stock_movements` at a branch, written by the same statement that moves the
 * variant's stock there (`branch_stock`) and its total (`product_variants.stock`),
 * so each is always the sum of its movements (and the product's stock the
 * total of its variants', by trigger: ADR 0046). Callers run these inside
 * their own transaction.
 *
 * Locks are always taken in one order: the variants (by product, then id),
 * then their branch rows, then (by trigger) their products. A variant's lock
 * guards its stock at every branch, so what a caller reads of `branch_stock`
 * after `lockVariants` stays true until it commits.
 */
export interface Movement {
  variantId: number;
  /** The branch where the stock moves; the default branch when not given. */
  branchId?: number | null;
  change: number;
  kind: MovementKind;
  reason?: string;
  staffId?: number | null;
  orderId?: number | null;
}

/** A variant's stock at one branch: `${variantId}:${branchId}`. */
export const atBranch = (variantId: number, branchId: number) => `${variantId}:${branchId}`;

/**
 * The editors' one stock figure (the product and variant forms, the API's
 * `stock`): the variant's total, brought there by counting its default
 * branch, the others left as they are. Answers the stock the other branches
 * hold when that is more than `total` (nothing is moved then), else null.
 */
export async function countTotalTo(tx: Db, variantId: number, total: number, reason: string, staffId: number | null = null): Promise<number | null> {
  const held = await lockVariants(tx, [variantId]);
  const home = await defaultBranchId(tx);
  const elsewhere = held.filter((h) => h.branchId !== home).reduce((sum, h) => sum + h.stock, 0);
  if (elsewhere > total) return elsewhere;
  const before = held.find((h) => h.branchId === home)?.stock ?? 0;
  const counted = total - elsewhere;
  if (counted !== before) await applyMovements(tx, [{ variantId, branchId: home, change: counted - before, kind: "counted", reason, staffId }], { variantsLocked: true });
  return null;
}

/** Why an editor's stock figure was refused: the other branches hold more. */
export const stockElsewhere = (held: number) => `Other branches hold ${held}, so the total cannot be less: count those branches on the stock desk.`;

/** The default branch's id: where stock and orders are when none is named. */
export const DEFAULT_BRANCH = sql`(select ${branches.id} from ${branches} where ${branches.isDefault})`;

/**
 * Locks the variants for the rest of the transaction (in the ledger's order)
 * and answers their stock at each branch that has a row for them.
 */
export async function lockVariants(tx: Db, variantIds: number[]): Promise<{ variantId: number; branchId: number; stock: number }[]> {
  if (variantIds.length === 0) return [];
  const ids = [...new Set(variantIds)];
  await lockVariantRows(tx, ids);
  // Read once the locks are held: a statement's snapshot is taken when it starts, so the
  // same statement would see the branches as they were before the lock was granted.
  return branchStockOf(tx, ids);
}

/** lockVariants' lock alone, for a caller that reads the branch stock (in a statement of its own, after it) with more besides. */
export async function lockVariantRows(tx: Db, ids: readonly number[]): Promise<void> {
  await tx.execute(sql`select 1 from ${productVariants} where ${productVariants.id} in ${ids} order by ${productVariants.productId}, ${productVariants.id} for update`);
}

/** The variants' stock at each branch that has a row for them: true until commit when the caller holds their locks. */
export async function branchStockOf(tx: Db, variantIds: number[]): Promise<{ variantId: number; branchId: number; stock: number }[]> {
  if (variantIds.length === 0) return [];
  const rows = await tx.select().from(branchStock).where(inArray(branchStock.variantId, [...new Set(variantIds)]));
  return rows.map((r) => ({ variantId: r.variantId, branchId: r.branchId, stock: r.stock }));
}

/**
 * Applies the movements (several of one variant at one branch are summed).
 * Stock at a branch that would go below zero, or of a variant that does not
 * exist, is left untouched and named in `refused`: the caller throws, and its
 * transaction takes back whatever else moved. `stock` is each moved variant's
 * new total; `branchStock` its new stock at each branch it moved at.
 * `variantsLocked`: the caller has already called `lockVariants` for them.
 */
export async function applyMovements(
  tx: Db,
  movements: Movement[],
  options: { variantsLocked?: boolean } = {},
): Promise<{ stock: Map<number, number>; branchStock: Map<string, number>; refused: number[]; refusedAt: { variantId: number; branchId: number }[] }> {
  const none = { stock: new Map<number, number>(), branchStock: new Map<string, number>(), refused: [], refusedAt: [] };
  if (movements.length === 0) return none;
  if (!options.variantsLocked) await lockVariants(tx, movements.map((m) => m.variantId));
  const rows = movements.map((m, ord) => ({ variant_id: m.variantId, branch_id: m.branchId ?? null, change: m.change, kind: m.kind, reason: m.reason ?? "", staff_id: m.staffId ?? null, order_id: m.orderId ?? null, ord }));
  const given = sql`select m.variant_id, coalesce(m.branch_id, ${DEFAULT_BRANCH}) as branch_id, m.change, m.kind, m.reason, m.staff_id, m.order_id, m.ord
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as m(variant_id int, branch_id int, change int, kind text, reason text, staff_id int, order_id int, ord int)`;
  // Stock arriving at a branch that has none of the variant yet makes its row first.
  if (movements.some((m) => m.change > 0)) {
    await tx.execute(sql`
      insert into ${branchStock} (variant_id, branch_id, stock)
      select m.variant_id, m.branch_id, 0 from (${given}) m
      where exists (select 1 from ${productVariants} v where v.id = m.variant_id)
      group by m.variant_id, m.branch_id having sum(m.change) > 0
      order by m.variant_id, m.branch_id
      on conflict do nothing`);
  }
  // Named: every sale runs it, and planning it cost more than running it.
  const result = await executeNamed<{ rows: { variant_id: number; branch_id: number; branch_stock: number | null; stock: number | null }[] }>(tx, "stock_apply_movements", sql`
    with m as (${given}),
    totals as (select variant_id, branch_id, sum(change)::int as change from m group by variant_id, branch_id),
    at_branch as (
      update ${branchStock} s set stock = s.stock + t.change
      from totals t
      where s.variant_id = t.variant_id and s.branch_id = t.branch_id and s.stock + t.change >= 0
      returning s.variant_id, s.branch_id, s.stock, t.change
    ),
    moved as (
      update ${productVariants} v set stock = v.stock + b.change, updated_at = now()
      from (select variant_id, sum(change)::int as change from at_branch group by variant_id order by variant_id) b
      where v.id = b.variant_id
      returning v.id, v.product_id, v.stock
    ),
    written as (
      insert into ${stockMovements} (product_id, variant_id, branch_id, change, kind, reason, staff_id, order_id, stock_after)
      select moved.product_id, m.variant_id, m.branch_id, m.change, m.kind, m.reason, m.staff_id, m.order_id,
             b.stock - coalesce(sum(m.change) over (partition by m.variant_id, m.branch_id order by m.ord rows between 1 following and unbounded following), 0)
      from m join at_branch b on b.variant_id = m.variant_id and b.branch_id = m.branch_id join moved on moved.id = m.variant_id
      order by m.ord
      returning 1
    )
    select t.variant_id, t.branch_id, b.stock as branch_stock, moved.stock
    from totals t left join at_branch b on b.variant_id = t.variant_id and b.branch_id = t.branch_id left join moved on moved.id = t.variant_id`);
  const stock = new Map<number, number>();
  const branchStockAfter = new Map<string, number>();
  const refusedAt: { variantId: number; branchId: number }[] = [];
  for (const r of result.rows) {
    if (r.branch_stock === null) refusedAt.push({ variantId: r.variant_id, branchId: r.branch_id });
    else branchStockAfter.set(atBranch(r.variant_id, r.branch_id), r.branch_stock);
    if (r.stock !== null) stock.set(r.variant_id, r.stock);
  }
  return { stock, branchStock: branchStockAfter, refused: [...new Set(refusedAt.map((r) => r.variantId))], refusedAt };
}

/**
 * Brings variants to counted figures at a branch (the default one when not
 * given): each difference from the books becomes a `counted` movement, worked
 * out under the variant's lock so a sale during the count is not undone.
 * Answers each variant's stock there before and after.
 */
export async function countTo(
  tx: Db,
  counts: { variantId: number; branchId?: number | null; counted: number }[],
  reason: string,
  staffId: number | null = null,
  options: { variantsLocked?: boolean } = {},
) {
  if (counts.length === 0) return [];
  const ids = counts.map((c) => c.variantId);
  const held = options.variantsLocked ? await branchStockOf(tx, ids) : await lockVariants(tx, ids);
  const defaultBranch = counts.some((c) => c.branchId == null) ? await defaultBranchId(tx) : 0;
  const diffs = counts.map((c) => {
    const branchId = c.branchId ?? defaultBranch;
    const before = held.find((h) => h.variantId === c.variantId && h.branchId === branchId)?.stock ?? 0;
    return { variantId: c.variantId, branchId, before, after: c.counted };
  });
  await applyMovements(
    tx,
    diffs.filter((d) => d.after !== d.before).map((d) => ({ variantId: d.variantId, branchId: d.branchId, change: d.after - d.before, kind: "counted" as const, reason, staffId })),
    { variantsLocked: true },
  );
  return diffs;
}

/** The default branch's id (every shop has one: migration 0034). */
export async function defaultBranchId(tx: Db): Promise<number> {
  const [row] = await tx.select({ id: branches.id }).from(branches).where(eq(branches.isDefault, true)).limit(1);
  if (!row) throw new Error("The shop has no default branch.");
  return row.id;
}

/**
 * An order's goods back on the shelf (cancelled, or its payment never came):
 * what it took from each branch returns there as `cancelled` movements. An
 * order from before the ledger knew branches gives its lines back to its own
 * branch (or the default). Variants since removed have nowhere to go.
 */
/** What an order still holds of each variant at each branch: sold there less what went back (of the variants named, or all). */
export async function stockHeldBy(tx: Db, orderId: number, variantIds?: number[]): Promise<{ variant_id: number; branch_id: number; quantity: number }[]> {
  if (variantIds?.length === 0) return [];
  const only = variantIds ? sql` and variant_id in ${variantIds}` : sql``;
  const held = (await tx.execute(sql`
    select variant_id, branch_id, -sum(change)::int as quantity from ${stockMovements}
    where order_id = ${orderId} and kind in ('sold', 'cancelled')${only}
    group by variant_id, branch_id having sum(change) < 0 order by variant_id, branch_id`)) as unknown as { rows: { variant_id: number; branch_id: number; quantity: number }[] };
  return held.rows;
}

export async function putOrderStockBack(tx: Db, orderId: number, staffId: number | null = null): Promise<void> {
  const taken = await stockHeldBy(tx, orderId);
  const anySold = taken.length > 0 || (await tx.select({ id: stockMovements.id }).from(stockMovements).where(sql`${stockMovements.orderId} = ${orderId} and ${stockMovements.kind} = 'sold'`).limit(1)).length > 0;
  const lines = anySold
    ? taken.map((r) => ({ variantId: r.variant_id, branchId: r.branch_id, quantity: r.quantity }))
    : (
        await tx
          .select({ variantId: orderLines.variantId, branchId: orders.branchId, quantity: sql<number>`sum(${orderLines.quantity})::int` })
          .from(orderLines)
          .innerJoin(orders, eq(orders.id, orderLines.orderId))
          .where(sql`${orderLines.orderId} = ${orderId} and ${orderLines.variantId} is not null and exists (select 1 from ${productVariants} where ${productVariants.id} = ${orderLines.variantId})`)
          .groupBy(orderLines.variantId, orders.branchId)
      ).map((l) => ({ variantId: l.variantId!, branchId: l.branchId, quantity: l.quantity }));
  // A collection's stock that came by transfer goes back where the goods are now.
  const back = await settleOrderTransfers(tx, orderId, lines);
  await applyMovements(
    tx,
    back.map((l) => ({ variantId: l.variantId, branchId: l.branchId, change: l.quantity, kind: "cancelled" as const, orderId, staffId })),
  );
}

/**
 * Every variant with stock and no ledger yet gets an `opening` movement for it
 * at the default branch: the seeds' catalogues start their ledgers here.
 */
export async function recordOpeningStock(tx: Db): Promise<void> {
  const fresh = sql`v.stock > 0 and not exists (select 1 from ${stockMovements} s where s.variant_id = v.id)`;
  await tx.execute(sql`
    insert into ${branchStock} (variant_id, branch_id, stock)
    select v.id, ${DEFAULT_BRANCH}, v.stock from ${productVariants} v where ${fresh}
    on conflict do nothing`);
  await tx.execute(sql`
    insert into ${stockMovements} (product_id, variant_id, branch_id, change, kind, reason, stock_after)
    select v.product_id, v.id, ${DEFAULT_BRANCH}, v.stock, 'opening', 'Stock when the shop was set up', v.stock from ${productVariants} v
    where ${fresh}`);
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
