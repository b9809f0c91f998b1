import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { branches } from "../branches/schema.ts";
import { pounds } from "../catalog/products/products.ts";
import { products } from "../catalog/schema.ts";
import { londonDate } from "../hire/calendar.ts";
import { orderLines, orderStatusHistory, orders } from "../orders/schema.ts";
import { type ReturnPhotoJson, customerPhotosJson, photosOf } from "./photos/rows.ts";
import { returnEvents, returnLines, returns } from "./schema.ts";
import { RETURN_METHOD_LABELS, RETURN_STATUS_LABELS, type ReturnMethod, type ReturnReason, type ReturnStatus, returnReasonLabel, returnStatusLabel } from "./statuses.ts";
import { deadlineLabel, returnDeadline } from "./window.ts";

/**
 * What of an order can still be returned, and each of its returns: what the
 * customer's order page, the return request and the returns desk all read.
 */

type OrderRow = typeof orders.$inferSelect;
type LineRow = typeof orderLines.$inferSelect;

/** Returns still counting against their lines: all but the rejected. */
export const LIVE_RETURN = sql`${returns.status} <> 'rejected'`;

/** When the order reached the customer: its move to completed (delivered, or collected at the counter). */
export async function deliveredAt(tx: Db, orderId: number): Promise<Date | null> {
  const [row] = await tx
    .select({ at: orderStatusHistory.createdAt })
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.status, "completed"), eq(orderStatusHistory.kind, "status")))
    .orderBy(desc(orderStatusHistory.id))
    .limit(1);
  return row?.at ?? null;
}

/** Units of each order line asked back in live returns. */
export async function unitsAskedBack(tx: Db, orderId: number): Promise<Map<number, number>> {
  const rows = await tx
    .select({ lineId: returnLines.orderLineId, units: sql<number>`sum(${returnLines.quantity})::int` })
    .from(returnLines)
    .innerJoin(returns, eq(returns.id, returnLines.returnId))
    .where(and(eq(returns.orderId, orderId), LIVE_RETURN))
    .groupBy(returnLines.orderLineId);
  return new Map(rows.map((r) => [r.lineId, r.units]));
}

export interface ReturnableLine {
  line_id: number;
  name: string;
  sku: string;
  quantity: number;
  /** Units cancelled before dispatch, and asked back in returns so far. */
  cancelled: number;
  asked_back: number;
  /** Units that may still be asked back now (0 when the window has closed or the product is excluded). */
  returnable: number;
  /** Why none may be, for the customer: the product's own reason, or the order's. */
  not_returnable_reason: string | null;
  heavy: boolean;
}

export interface Returnability {
  /** Whether anything may be returned now. */
  open: boolean;
  /** The last London date to ask, once delivered; its label ("Friday 11 December 2026"). */
  deadline: string | null;
  deadline_label: string | null;
  /** Why nothing may be returned, when nothing may. */
  closed_reason: string | null;
  lines: ReturnableLine[];
}

/**
 * Per line, how many units may still be asked back (issue 31): those not
 * cancelled and not already in a live return, while the order is delivered
 * or collected and inside its window, and the product may be returned.
 */
export async function returnability(tx: Db, order: Pick<OrderRow, "id" | "status">, lines: LineRow[], shopDays: number, now = new Date()): Promise<Returnability> {
  const [delivered, asked, flags] = await Promise.all([
    order.status === "completed" ? deliveredAt(tx, order.id) : Promise.resolve(null),
    unitsAskedBack(tx, order.id),
    lines.some((l) => l.productId !== null)
      ? tx
          .select({ id: products.id, returnable: products.returnable, reason: products.nonReturnableReason, heavy: products.heavy })
          .from(products)
          .where(inArray(products.id, lines.flatMap((l) => (l.productId === null ? [] : [l.productId]))))
      : Promise.resolve([]),
  ]);
  const byProduct = new Map(flags.map((f) => [f.id, f]));
  const deadline = delivered ? returnDeadline(londonDate(delivered), shopDays) : null;
  let closed: string | null = null;
  if (order.status === "cancelled") closed = "This order was cancelled.";
  else if (order.status !== "completed") closed = "Items can be returned once the order has been delivered or collected.";
  else if (deadline && londonDate(now) > deadline) closed = `The returns period ended on ${deadlineLabel(deadline)}.`;
  const out = lines.map((l): ReturnableLine => {
    const product = l.productId === null ? undefined : byProduct.get(l.productId);
    const left = Math.max(0, l.quantity - l.cancelledQuantity - (asked.get(l.id) ?? 0));
    const excluded = product && !product.returnable ? product.reason || "This item cannot be returned." : null;
    return {
      line_id: l.id,
      name: l.name,
      sku: l.sku,
      quantity: l.quantity,
      cancelled: l.cancelledQuantity,
      asked_back: asked.get(l.id) ?? 0,
      returnable: closed || excluded ? 0 : left,
      not_returnable_reason: excluded,
      heavy: product?.heavy ?? false,
    };
  });
  return { open: !closed && out.some((l) => l.returnable > 0), deadline, deadline_label: deadline ? deadlineLabel(deadline) : null, closed_reason: closed, lines: out };
}

/** A return as the customer sees it: its lines, progress and refund. */
export async function returnsOfOrder(tx: Db, orderId: number) {
  const rows = await tx
    .select({ ret: returns, branchName: branches.name, orderNumber: orders.number })
    .from(returns)
    .innerJoin(orders, eq(orders.id, returns.orderId))
    .leftJoin(branches, eq(branches.id, returns.branchId))
    .where(eq(returns.orderId, orderId))
    .orderBy(asc(returns.id));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.ret.id);
  const [lines, events, photos] = await Promise.all([
    tx.select({ line: returnLines, name: orderLines.name, sku: orderLines.sku }).from(returnLines).innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId)).where(inArray(returnLines.returnId, ids)).orderBy(asc(returnLines.id)),
    tx.select().from(returnEvents).where(inArray(returnEvents.returnId, ids)).orderBy(asc(returnEvents.id)),
    photosOf(tx, ids),
  ]);
  return rows.map(({ ret, branchName, orderNumber }) =>
    customerReturnJson(
      ret,
      branchName,
      lines.filter((l) => l.line.returnId === ret.id),
      events.filter((e) => e.returnId === ret.id),
      customerPhotosJson(photos.get(ret.id), orderNumber, ret.number),
    ),
  );
}

export function returnLineJson(l: { line: typeof returnLines.$inferSelect; name: string; sku: string }) {
  return {
    line_id: l.line.orderLineId,
    name: l.name,
    sku: l.sku,
    quantity: l.line.quantity,
    reason: l.line.reason as ReturnReason,
    reason_label: returnReasonLabel(l.line.reason),
    note: l.line.note,
    received: l.line.received,
    damaged: l.line.damaged,
  };
}

/** A return's number, status and way back with their names: what every view of a return starts with. */
export function returnHeadJson(ret: Pick<typeof returns.$inferSelect, "number" | "status" | "method">) {
  const status = ret.status as ReturnStatus;
  return { number: ret.number, status, status_label: RETURN_STATUS_LABELS[status], method: ret.method as ReturnMethod, method_label: RETURN_METHOD_LABELS[ret.method as ReturnMethod] };
}

export function customerReturnJson(
  ret: typeof returns.$inferSelect,
  branchName: string | null,
  lines: { line: typeof returnLines.$inferSelect; name: string; sku: string }[],
  events: (typeof returnEvents.$inferSelect)[],
  photos: ReturnPhotoJson[] = [],
) {
  return {
    ...returnHeadJson(ret),
    branch: ret.branchId !== null ? { id: ret.branchId, name: branchName ?? "" } : null,
    created_at: ret.createdAt.toISOString(),
    reject_reason: ret.rejectReason || null,
    /** Pounds given back, once refunded, and how. */
    refund: ret.refunded !== null ? { amount: pounds(ret.refunded), method: ret.refundMethod, credit_note: ret.creditNoteNumber, at: ret.refundedAt?.toISOString() ?? null } : null,
    lines: lines.map(returnLineJson),
    timeline: events.map((e) => ({ status: e.status, label: returnStatusLabel(e.status), note: e.note, at: e.createdAt.toISOString() })),
    /** The photos the customer attached, through the routes that check who asks (photos/service.ts). */
    photos,
  };
}

export type CustomerReturn = ReturnType<typeof customerReturnJson>;
