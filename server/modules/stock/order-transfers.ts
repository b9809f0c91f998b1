import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Take } from "./fulfilment.ts";
import { orders } from "../orders/schema.ts";
import { stockTransferLines, stockTransfers } from "./schema.ts";

/**
 * A collection order's own transfers (issue 30). When the collecting branch
 * lacks a line, checkout takes it as `sold` from the branch nearest that has
 * it and raises a transfer from there to the collecting branch, one per
 * sending branch. Its stock has left the sender's count already, so sending
 * and receiving it move the goods and not the counts (transfers.ts).
 */
export async function raiseOrderTransfers(tx: Db, order: { id: number; number: string }, toBranchId: number, bySender: Map<number, Take[]>): Promise<void> {
  for (const [fromBranchId, takes] of bySender) {
    const [made] = await tx
      .insert(stockTransfers)
      .values({ fromBranchId, toBranchId, orderId: order.id, note: `For collection order ${order.number}` })
      .returning({ id: stockTransfers.id });
    await tx.insert(stockTransferLines).values(takes.map((t) => ({ transferId: made!.id, variantId: t.variantId, quantity: t.quantity })));
  }
}

/** Stock to put back for a cancelled order, per variant and branch. */
export interface PutBack {
  variantId: number;
  branchId: number | null;
  quantity: number;
}

/**
 * Where a cancelled collection order's stock goes back, given its transfers:
 * one not yet sent is cancelled and its stock stays at the sender (where it
 * was taken); one on its way stops being the order's, so receiving it adds
 * the goods to the collecting branch's stock as any transfer does; one
 * received puts back what arrived at the collecting branch (a shortfall was
 * lost on the way, and stays out of stock). Answers `lines` moved to match.
 */
export async function settleOrderTransfers(tx: Db, orderId: number, lines: PutBack[]): Promise<PutBack[]> {
  const rows = await tx
    .select({ id: stockTransfers.id, state: stockTransfers.state, from: stockTransfers.fromBranchId, to: stockTransfers.toBranchId, variantId: stockTransferLines.variantId, sent: stockTransferLines.sent, received: stockTransferLines.received })
    .from(stockTransfers)
    .innerJoin(stockTransferLines, eq(stockTransferLines.transferId, stockTransfers.id))
    .where(and(eq(stockTransfers.orderId, orderId), inArray(stockTransfers.state, ["requested", "in_transit", "received"])))
    .for("update", { of: stockTransfers });
  if (rows.length === 0) return lines;
  // Named in the transfers' notes; read only for an order that has transfers.
  const [order] = await tx.select({ number: orders.number }).from(orders).where(eq(orders.id, orderId));
  const orderNumber = order?.number ?? String(orderId);
  const ids = (state: string) => [...new Set(rows.filter((r) => r.state === state).map((r) => r.id))];
  const now = new Date();
  if (ids("requested").length) await tx.update(stockTransfers).set({ state: "cancelled", note: `Order ${orderNumber} was cancelled before it was sent`, updatedAt: now }).where(inArray(stockTransfers.id, ids("requested")));
  if (ids("in_transit").length) await tx.update(stockTransfers).set({ orderId: null, note: `Order ${orderNumber} was cancelled on the way: receive it into stock`, updatedAt: now }).where(inArray(stockTransfers.id, ids("in_transit")));

  const out = lines.map((l) => ({ ...l }));
  const at = (variantId: number, branchId: number) => out.find((l) => l.variantId === variantId && l.branchId === branchId) ?? out[out.push({ variantId, branchId, quantity: 0 }) - 1]!;
  for (const r of rows) {
    if (r.state === "requested") continue;
    at(r.variantId, r.from).quantity -= r.sent ?? 0;
    if (r.state === "received") at(r.variantId, r.to).quantity += r.received ?? 0;
  }
  return out.filter((l) => l.quantity > 0);
}
