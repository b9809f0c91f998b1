import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { ValidationError } from "../../http-errors.ts";
import type { Outbox } from "../auth/service.ts";
import { branches } from "../branches/schema.ts";
import { renderEmail } from "../mail/templates.ts";
import type { StaffActor } from "../staff/actor.ts";
import type { AdminOrderService } from "./admin.ts";
import { DEFAULT_HOLD_DAYS, keptUntil } from "./collection.ts";
import { orderStatusHistory, orders } from "./schema.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the sweep needs of the shop: the orders desk's moves, a card refund, the outbox. */
export interface UncollectedDeps {
  orders: Pick<AdminOrderService, "transition">;
  /** Refunds a card-paid order in full (payments/service.ts `refundOrder`). */
  refundCard: (actor: StaffActor, number: string, reason: string) => Promise<unknown>;
  systemActor: () => Promise<StaffActor>;
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
}

/**
 * Collections not collected (issue 30), run hourly: halfway through its
 * branch's hold the customer is reminded once; at the end the order is
 * cancelled by the orders desk's own move (its stock back to the branch, an
 * invoice on account credited) and a card payment refunded in full. Each step
 * is safe to repeat: the reminder is marked on the order, and a cancelled
 * order is no longer ready.
 */
export async function sweepUncollected(db: Db, deps: UncollectedDeps, now = new Date()): Promise<{ reminded: string[]; returned: string[] }> {
  const readyAt = sql<Date>`(select max(${orderStatusHistory.createdAt}) from ${orderStatusHistory} where ${orderStatusHistory.orderId} = ${orders.id} and ${orderStatusHistory.status} = 'ready_for_collection' and ${orderStatusHistory.kind} = 'status')`;
  const waiting = await db
    .select({ order: orders, holdDays: branches.holdDays, branchName: branches.name, readyAt })
    .from(orders)
    .leftJoin(branches, eq(branches.id, orders.branchId))
    .where(eq(orders.status, "ready_for_collection"))
    .orderBy(desc(orders.id));
  const reminded: string[] = [];
  const returned: string[] = [];
  let actor: StaffActor | null = null;
  for (const { order, holdDays, branchName, readyAt: at } of waiting) {
    if (!at) continue;
    const ready = new Date(at);
    const hold = holdDays ?? DEFAULT_HOLD_DAYS;
    const waited = now.getTime() - ready.getTime();
    if (waited >= hold * DAY_MS) {
      actor ??= await deps.systemActor();
      const reason = `Not collected within ${hold} days: back in stock${order.paymentMethod === "card" ? " and the card payment refunded" : ""}.`;
      // The refund first: should the gateway fail, the order is still ready and the next run tries both again.
      if (order.paymentMethod === "card") {
        await deps.refundCard(actor, order.number, `Not collected within ${hold} days`).catch((error: unknown) => {
          // Refunded in full already (by staff, or a run cut short after its refund): nothing left to do.
          if (!(error instanceof ValidationError)) throw error;
        });
      }
      await deps.orders.transition(actor, order.number, { to: "cancelled", note: reason, expected_status: "ready_for_collection" });
      returned.push(order.number);
    } else if (waited >= Math.ceil(hold / 2) * DAY_MS && !order.collectionRemindedAt) {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // Once: the mark is set where it was still empty, and only then is the mail queued.
        const marked = await tx
          .update(orders)
          .set({ collectionRemindedAt: now })
          .where(and(eq(orders.id, order.id), sql`${orders.collectionRemindedAt} is null`, eq(orders.status, "ready_for_collection")))
          .returning({ id: orders.id });
        if (!marked.length) return;
        const title = `Reminder: order ${order.number} is waiting for you`;
        const rendered = renderEmail({
          appName: deps.appName,
          publicUrl: deps.publicUrl,
          title,
          paragraphs: [
            `Your order ${order.number} is still waiting for you${branchName ? ` at ${branchName}` : ""}.`,
            `Your collection code: ${order.collectionCode ?? order.number}`,
            `We keep it until ${keptUntil(ready, hold)}; after that it goes back into stock and your payment is refunded.`,
            `Cannot come? Email us at ${deps.shopEmail}, quoting ${order.number}.`,
          ],
        });
        await deps.mail.enqueue(tx, { to: order.email, subject: title, ...rendered });
        await tx.insert(orderStatusHistory).values({ orderId: order.id, status: order.status, kind: "note", note: "Reminded to collect." });
      });
      reminded.push(order.number);
    }
  }
  return { reminded, returned };
}
