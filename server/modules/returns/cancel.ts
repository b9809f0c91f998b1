import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import type { Outbox } from "../auth/service.ts";
import { renderEmail } from "../mail/templates.ts";
import type { AdminOrderService } from "../orders/admin.ts";
import { orderLines, orderStatusHistory, orders } from "../orders/schema.ts";
import { CANCELLABLE } from "../orders/transitions.ts";
import type { PaymentService } from "../payments/service.ts";
import type { StaffActor } from "../staff/actor.ts";
import { applyMovements, stockHeldBy } from "../stock/ledger.ts";
import { stockTransfers } from "../stock/schema.ts";
import { creditInvoice } from "../trade/invoices/credit-notes.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import type { ShopDetails } from "../trade/invoices/invoices.ts";
import { lockAccount } from "../trade/credit/ledger.ts";
import { type Requester, checkOwner } from "./service.ts";

/**
 * The customer cancelling before dispatch (issue 31): the whole order, or
 * some of its lines. The whole order goes through the orders desk's own
 * cancel (stock back, an invoice on account credited), made in the shop's
 * name; some lines put their stock back to the branches they came from,
 * their units marked cancelled on the order, refunded to the card or
 * credited on account in the same transaction. Once dispatched, 409.
 */
export interface CancelDeps {
  orders: Pick<AdminOrderService, "transition">;
  payments: Pick<PaymentService, "recordRefund" | "sendRefund" | "refundOrder">;
  systemActor: () => Promise<StaffActor>;
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
  shop: ShopDetails;
}

export interface CancelOutcome {
  number: string;
  /** Whole: the order is cancelled; lines: only those units. */
  cancelled: "whole" | "lines";
  /** A card refund that could not be made now (staff see it on the order and retry). */
  refund_failed: boolean;
}

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;
const TOO_LATE = (number: string, status: string) =>
  new HttpError(409, status === "dispatched" || status === "completed" ? `Order ${number} has already been sent, so it can no longer be cancelled: return the items instead.` : `Order ${number} can no longer be cancelled.`);

export function createOrderCancelling(db: Db, deps: CancelDeps) {
  /** The whole order, through the desk's cancel; a card payment then refunded in full. */
  async function whole(order: typeof orders.$inferSelect): Promise<CancelOutcome> {
    const actor = await deps.systemActor();
    await deps.orders.transition(actor, order.number, { to: "cancelled", note: "Cancelled by the customer online.", expected_status: order.status as (typeof CANCELLABLE)[number] }).catch((error: unknown) => {
      // Moved on meanwhile (dispatched by the desk): too late.
      if (error instanceof HttpError && error.statusCode === 409) throw TOO_LATE(order.number, "dispatched");
      throw error;
    });
    let refundFailed = false;
    if (order.paymentMethod === "card" && order.status !== "awaiting_payment") {
      await deps.payments.refundOrder(actor, order.number, { reason: "Cancelled by the customer before dispatch" }).catch((error: unknown) => {
        // Already refunded in full, or the gateway failed: the order stays cancelled; a failed refund shows on its page for staff.
        if (error instanceof ValidationError) return;
        if (error instanceof HttpError && error.statusCode === 502) refundFailed = true;
        else throw error;
      });
    }
    return { number: order.number, cancelled: "whole", refund_failed: refundFailed };
  }

  return {
    async cancel(number: string, who: Requester, input: { lines?: { line_id: number; quantity: number }[] }): Promise<CancelOutcome> {
      const key = number.trim().toUpperCase();
      const [peek] = await db.select().from(orders).where(eq(orders.number, key));
      checkOwner(peek, who, key);
      if (!(CANCELLABLE as readonly string[]).includes(peek.status)) throw TOO_LATE(key, peek.status);
      const wanted = (input.lines ?? []).filter((l) => l.quantity > 0);
      const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, peek.id)).orderBy(asc(orderLines.id));
      const left = (l: (typeof lines)[number]) => l.quantity - l.cancelledQuantity;
      // Every unit still on the order: the whole order.
      if (!wanted.length || lines.every((l) => (wanted.find((w) => w.line_id === l.id)?.quantity ?? 0) >= left(l))) return whole(peek);
      if (peek.paymentMethod !== "card" && peek.paymentMethod !== "pay_on_account") {
        throw new ValidationError({ lines: ["Only the whole of an order paid by bank transfer or at the counter can be cancelled online; cancel it all and order again, or call us."] });
      }
      if (peek.paymentMethod === "card" && peek.status === "awaiting_payment") throw new ValidationError({ lines: ["This order is not paid yet: cancel it all, or pay and then cancel some lines."] });
      const errors: Record<string, string[]> = {};
      wanted.forEach((w, i) => {
        const line = lines.find((l) => l.id === w.line_id);
        if (!line) errors[`lines.${i}`] = [`Line ${w.line_id} is not on order ${key}.`];
        else if (!Number.isInteger(w.quantity)) errors[`lines.${i}.quantity`] = ["Enter a whole number."];
        else if (w.quantity > left(line)) errors[`lines.${i}.quantity`] = [`${line.name}: only ${left(line)} left to cancel.`];
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);

      const actor = await deps.systemActor();
      let refundId: number | null = null;
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // A trade account before its order, as every ledger write takes them (trade/credit/ledger.ts).
        const [invoice] = peek.paymentMethod === "pay_on_account" ? await tx.select().from(tradeInvoices).where(eq(tradeInvoices.orderId, peek.id)) : [];
        if (invoice) await lockAccount(tx, invoice.tradeAccountId);
        const [order] = await tx.select().from(orders).where(eq(orders.id, peek.id)).for("update");
        if (!(CANCELLABLE as readonly string[]).includes(order!.status)) throw TOO_LATE(key, order!.status);
        const fresh = await tx.select().from(orderLines).where(eq(orderLines.orderId, order!.id));
        for (const w of wanted) {
          const line = fresh.find((l) => l.id === w.line_id)!;
          if (w.quantity > line.quantity - line.cancelledQuantity) throw new HttpError(409, `${line.name} changed meanwhile: reload the order.`);
        }
        const [moving] = await tx.select({ id: stockTransfers.id }).from(stockTransfers).where(and(eq(stockTransfers.orderId, order!.id), inArray(stockTransfers.state, ["requested", "in_transit"]))).limit(1);
        if (moving) throw new HttpError(409, "Part of this order is on its way between our branches: cancel the whole order, or call us.");
        // Back to the branches each line's units were taken from, as much as each gave.
        const variantIds = wanted.flatMap((w) => fresh.find((l) => l.id === w.line_id)!.variantId ?? []);
        const taken = await stockHeldBy(tx, order!.id, variantIds);
        const movements = wanted.flatMap((w) => {
          const line = fresh.find((l) => l.id === w.line_id)!;
          let todo = w.quantity;
          return taken
            .filter((r) => r.variant_id === line.variantId)
            .flatMap((r) => {
              const n = Math.min(todo, r.quantity);
              todo -= n;
              r.quantity -= n;
              return n > 0 ? [{ variantId: r.variant_id, branchId: r.branch_id, change: n, kind: "cancelled" as const, reason: `Cancelled by the customer: order ${key}`, orderId: order!.id }] : [];
            });
        });
        const back = await applyMovements(tx, movements);
        if (back.refused.length) throw new Error(`Cancelled stock of variants ${back.refused.join(", ")} was refused.`);
        for (const w of wanted) await tx.update(orderLines).set({ cancelledQuantity: sql`${orderLines.cancelledQuantity} + ${w.quantity}` }).where(eq(orderLines.id, w.line_id));
        const what = wanted.map((w) => `${w.quantity} × ${fresh.find((l) => l.id === w.line_id)!.name}`).join(", ");
        let money_back: string;
        if (order!.paymentMethod === "card") {
          const row = await deps.payments.recordRefund(tx, actor, order!, { reason: "Cancelled by the customer before dispatch", lines: wanted });
          refundId = row.id;
          money_back = `We are refunding ${money(row.amount)} to the card you paid with; it usually shows within 5 to 10 working days.`;
        } else {
          const { creditNote } = await creditInvoice(tx, deps, actor, invoice!, { reason: `Cancelled by the customer before dispatch: ${what}`, lines: wanted.map((w) => ({ source: `order_line:${w.line_id}`, quantity: w.quantity })) });
          money_back = `Invoice ${invoice!.number} is credited with credit note ${creditNote.number} for ${money(creditNote.total)}.`;
        }
        await tx.insert(orderStatusHistory).values({ orderId: order!.id, status: order!.status, kind: "status", note: `Cancelled by the customer: ${what}.` });
        const title = `Order ${key}: items cancelled`;
        const rendered = renderEmail({ appName: deps.appName, publicUrl: deps.publicUrl, title, paragraphs: [`As you asked, we have cancelled from order ${key}: ${what}.`, money_back, "The rest of your order is on its way as planned.", `Any questions? Email us at ${deps.shopEmail}, quoting ${key}.`] });
        await deps.mail.enqueue(tx, { to: order!.email, subject: title, ...rendered });
      });
      deps.mail.kick?.();
      let refundFailed = false;
      if (refundId !== null) await deps.payments.sendRefund(refundId).catch(() => void (refundFailed = true));
      return { number: key, cancelled: "lines", refund_failed: refundFailed };
    },
  };
}

export type OrderCancelling = ReturnType<typeof createOrderCancelling>;
