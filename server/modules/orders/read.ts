import { type SQL, and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pounds } from "../catalog/products/products.ts";
import { type StaffActor, branchLimit } from "../staff/actor.ts";
import { branches } from "../branches/schema.ts";
import { staff } from "../staff/schema.ts";
import { deliveryMethods } from "../delivery/schema.ts";
import { tradeSites } from "../trade/accounts/sites-schema.ts";
import { orderAddresses, orderLines, orderStatusHistory, orders } from "./schema.ts";

/**
 * Delivery or collection: the order keeps its delivery method's code; the
 * method's kind says which (`collect` is "Click & collect" in the demo shop),
 * so a shop that adds a second collection method needs no change here.
 */
export const FULFILMENT_SQL = sql<"delivery" | "collection">`(case when exists (select 1 from ${deliveryMethods} where ${deliveryMethods.code} = ${orders.deliveryMethod} and ${deliveryMethods.kind} = 'collect') then 'collection' else 'delivery' end)`;

/**
 * One order with its lines, addresses and timeline: what the customer's order
 * page and the orders desk both read. The customer's timeline holds only the
 * moves (`kind` status); staff notes and who made each move stay behind the counter.
 */
export async function loadOrder(db: Db, where: SQL, timeline: "customer" | "staff") {
  // The branch it is collected from or sent from (none for a split delivery), named on its pages.
  const [row] = await db
    .select({ order: orders, fulfilment: FULFILMENT_SQL, branch: { id: branches.id, slug: branches.slug, name: branches.name }, site: { id: tradeSites.id, name: tradeSites.name } })
    .from(orders)
    .leftJoin(branches, eq(branches.id, orders.branchId))
    // The company's site it is for (trade/accounts/sites.ts), named on its pages.
    .leftJoin(tradeSites, eq(tradeSites.id, orders.siteId))
    .where(where)
    .limit(1);
  if (!row) return null;
  const { order } = row;
  const historyWhere = timeline === "customer" ? and(eq(orderStatusHistory.orderId, order.id), eq(orderStatusHistory.kind, "status")) : eq(orderStatusHistory.orderId, order.id);
  const [lines, addresses, history] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    db.select().from(orderAddresses).where(eq(orderAddresses.orderId, order.id)).orderBy(asc(orderAddresses.id)),
    db
      .select({ entry: orderStatusHistory, staffName: staff.name })
      .from(orderStatusHistory)
      .leftJoin(staff, eq(staff.id, orderStatusHistory.staffId))
      .where(historyWhere)
      .orderBy(asc(orderStatusHistory.id)),
  ]);
  return { order, fulfilment: row.fulfilment, branch: row.branch, site: row.site?.id ? row.site : null, lines, addresses, history };
}

export type LoadedOrder = NonNullable<Awaited<ReturnType<typeof loadOrder>>>;

/** A line as both doors show it: without prices for a member who may not see them. */
export function lineJson(l: typeof orderLines.$inferSelect) {
  return {
    /** The line itself: a refund by lines names it. */
    id: l.id,
    product_id: l.productId,
    variant_id: l.variantId,
    sku: l.sku,
    name: l.name,
    slug: l.slug,
    /** The variant's option values ({} for a product without options) and the unit it was sold in. */
    options: l.options,
    unit: l.unit,
    quantity: l.quantity,
    /** Units the customer cancelled before dispatch: not to be picked. */
    cancelled_quantity: l.cancelledQuantity,
  };
}

/** A line's prices in pounds: inc VAT (unit rounded half-up, as checkout did) and ex VAT. */
export function linePricesJson(l: typeof orderLines.$inferSelect) {
  return {
    unit_price: pounds(l.unitPrice + Math.floor((l.unitPrice * l.vatRate + 50) / 100)),
    unit_price_ex_vat: pounds(l.unitPrice),
    vat_rate: l.vatRate,
    line_total: pounds(l.lineTotal + l.lineVat),
    line_total_ex_vat: pounds(l.lineTotal),
    /** What promotions took off the line, ex VAT: the line totals are after it. */
    discount_ex_vat: pounds(l.discount),
  };
}

export function addressJson(a: typeof orderAddresses.$inferSelect) {
  return { kind: a.kind, name: a.name, company: a.company, line_1: a.line1, line_2: a.line2, line_3: a.line3, town: a.town, county: a.county, postcode: a.postcode };
}

/** A member limited to their branches sees and works only those branches' orders, whatever is asked; undefined for everyone else. */
export function ofMyBranches(actor: StaffActor): SQL | undefined {
  const limit = branchLimit(actor);
  if (!limit) return undefined;
  return limit.length ? inArray(orders.branchId, [...limit]) : sql`false`;
}
