import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { deliveryMethods } from "../delivery/schema.ts";
import { orderLines, type orders } from "../orders/schema.ts";
import { type RefundProposal, proposeRefund } from "./refund-rules.ts";
import { returnLines, returns } from "./schema.ts";
import type { ReturnReason } from "./statuses.ts";

type OrderRow = typeof orders.$inferSelect;
type ReturnRow = typeof returns.$inferSelect;

/** Statuses whose goods have been received (and so count as back). */
const BACK = ["received", "refunded", "exchanged", "closed"];

/**
 * What standard delivery would have cost this order, or null when its own
 * method was the standard one: a premium (next-day) delivery's extra is never
 * refunded. The cheapest active standard method at its price now, free when
 * the order's goods passed its free-delivery threshold.
 */
async function standardDelivery(tx: Db, order: OrderRow): Promise<number | null> {
  const [own] = await tx.select({ kind: deliveryMethods.kind }).from(deliveryMethods).where(eq(deliveryMethods.code, order.deliveryMethod));
  if (!own || own.kind !== "next_day") return null;
  const [standard] = await tx
    .select({ price: deliveryMethods.price, freeOver: deliveryMethods.freeOver })
    .from(deliveryMethods)
    .where(and(eq(deliveryMethods.kind, "delivery"), eq(deliveryMethods.active, true)))
    .orderBy(asc(deliveryMethods.price))
    .limit(1);
  if (!standard) return null;
  const goods = order.subtotal + order.vat;
  return standard.freeOver !== null && goods >= standard.freeOver ? 0 : standard.price;
}

/**
 * The refund the rules propose for a received return (refund-rules.ts), read
 * from the order: each line's units back in this return and those refunded
 * by earlier ones, whether the order has now come back whole, and what its
 * delivery cost against the standard one.
 */
export async function proposalFor(tx: Db, ret: ReturnRow, order: OrderRow, deduction = 0): Promise<RefundProposal & { whole_order: boolean; lines: { line_id: number; back: number }[] }> {
  const [lines, mine, others] = await Promise.all([
    tx.select().from(orderLines).where(eq(orderLines.orderId, order.id)),
    tx.select().from(returnLines).where(eq(returnLines.returnId, ret.id)),
    tx
      .select({ lineId: returnLines.orderLineId, back: sql<number>`sum(${returnLines.received} + ${returnLines.damaged})::int`, refunded: sql<number>`sum(case when ${returns.refunded} is not null then ${returnLines.received} + ${returnLines.damaged} else 0 end)::int` })
      .from(returnLines)
      .innerJoin(returns, eq(returns.id, returnLines.returnId))
      .where(and(eq(returns.orderId, order.id), ne(returns.id, ret.id), inArray(returns.status, BACK)))
      .groupBy(returnLines.orderLineId),
  ]);
  const otherBack = new Map(others.map((o) => [o.lineId, o]));
  const thisBack = new Map(mine.map((l) => [l.orderLineId, l.received + l.damaged]));
  const whole = lines.every((l) => l.cancelledQuantity + (otherBack.get(l.id)?.back ?? 0) + (thisBack.get(l.id) ?? 0) >= l.quantity);
  const proposal = proposeRefund({
    lines: mine.map((m) => {
      const line = lines.find((l) => l.id === m.orderLineId)!;
      return { ordered: line.quantity, paid: line.lineTotal + line.lineVat, back: m.received + m.damaged, before: (otherBack.get(line.id)?.refunded ?? 0) + line.cancelledQuantity, reason: m.reason as ReturnReason };
    }),
    wholeOrder: whole,
    deliveryPaid: order.delivery,
    standardDelivery: await standardDelivery(tx, order),
    collectionCharge: ret.collectionCharge,
    deduction,
  });
  return { ...proposal, whole_order: whole, lines: mine.filter((m) => m.received + m.damaged > 0).map((m) => ({ line_id: m.orderLineId, back: m.received + m.damaged })) };
}

/** Returns received and not refunded within the 14 days the law gives (Consumer Contracts Regulations reg. 34(6)). */
export const REFUND_DAYS = 14;
export const overdueForRefund = (at: Date) => and(eq(returns.status, "received"), isNotNull(returns.receivedAt), sql`${returns.receivedAt} < ${new Date(at.getTime() - REFUND_DAYS * 86_400_000)}`);
