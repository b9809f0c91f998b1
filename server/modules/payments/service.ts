import { and, asc, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { BasketOwner } from "../../plugins/guest.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { pounds } from "../catalog/products/products.ts";
import type { PaymentProvider } from "../checkout/payment.ts";
import { orders } from "../orders/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { hireRequests } from "../hire/schema.ts";
import { type InvoicePaymentProvider, recordPendingRemittance } from "../trade/credit/remittances.ts";
import type { PaymentGateway } from "./gateway.ts";
import { paymentEvents, paymentSessions, payments } from "./schema.ts";
import { type OrderPaymentJson, type OrderRow, type PaymentServiceOptions, type RefundInput, type RefundRow, createPaymentContext } from "./context.ts";
import { createPaymentPages } from "./pages.ts";
import { createRefunds } from "./refunds.ts";
import { createSettlement } from "./settle.ts";

export { PAYMENT_MESSAGES, SESSION_MINUTES } from "./context.ts";
export type { OrderPaymentJson, PaymentServiceOptions, RefundInput } from "./context.ts";

/** A session still open this long after its expiry is asked about by the sweep: its webhook may have been lost. */
const SWEEP_GRACE_MS = 5 * 60_000;

/**
 * Card payments (ADR 0033): the hosted payment page for an order, the
 * webhook that says how it went (each event applied once), the customer's
 * return that may beat the webhook, and refunds. Every change of money is
 * decided under the session's or the payment's row lock, in one transaction
 * with what it changes. Its parts: context.ts (what they share), pages.ts
 * (the payment pages and links), settle.ts (the gateway's word applied),
 * refunds.ts (refunds and what an order paid).
 */
export function createPaymentService(db: Db, options: PaymentServiceOptions) {
  const ctx = createPaymentContext(db, options);
  const { gateway, now, requireGateway, inTx, lockSession } = ctx;
  const refunds = createRefunds(ctx);
  const { refundAutomatically, forOrder, recordRefund, sendOrFail } = refunds;
  const settlement = createSettlement(ctx, refunds);
  const { applyPaid, applyAction, settleStale } = settlement;
  const { startOrderPayment, startInvoicePayment, withdrawInvoicePayment, cardInstructions, payHire, payHireFor, payOrderLink, withdrawOrder, closeByCustomer, pendingSession, sessionByToken, targetOf, cancelTarget } =
    createPaymentPages(ctx, settlement);

  /** Card, as checkout and the trade invoices offer it: the built-in test page says plainly that no money moves. */
  function cardOffer(g: PaymentGateway) {
    return {
      id: "card",
      name: g.testMode ? "Card (test payment)" : "Card",
      description: g.testMode ? "A test payment page: no real card is charged and no money moves." : "Visa, Mastercard, American Express, Apple Pay or Google Pay, on a secure payment page.",
    };
  }

  const provider: PaymentProvider = {
    id: "card",
    orderStatus: "awaiting_payment",
    confirmsLater: true,
    async offer() {
      return gateway ? cardOffer(gateway) : null;
    },
    async take() {
      if (!gateway) throw new ValidationError({ payment_method: ["Card payment is not available."] });
    },
    note: (number) => `Paid by card for ${number}.`,
    begin: (start) => startOrderPayment(start),
    withdraw: (orderId) => withdrawOrder(orderId),
  };

  /**
   * Card for trade invoices, only when there is a gateway: the remittance is
   * recorded in the pay transaction as bank transfer's is (its invoices
   * payment pending), then its payment page is opened.
   */
  const invoiceProvider: InvoicePaymentProvider | null = gateway
    ? {
        ...cardOffer(gateway),
        take: (tx, request) => recordPendingRemittance(tx, request, "card"),
        instructions: (remittance) => cardInstructions(remittance),
        begin: (start) => startInvoicePayment(start),
        withdraw: (remittanceId) => withdrawInvoicePayment(remittanceId),
      }
    : null;

  return {
    gateway,
    /** Card, as checkout offers it: a PaymentProvider like pay on account. */
    provider,
    /** Card, as paying trade invoices offers it (null without a gateway). */
    invoiceProvider,
    /** The card payment link of a confirmed hire request, or of a returned hire's final charges: where the browser goes. */
    payHire: (token: string) => payHire(token),
    /** The card payment link of an order taken by staff, its signature checked by the route: where the browser goes. */
    payOrderLink: (number: string) => payOrderLink(number),
    /** The customer's "Pay by card" on their hire requests: where the browser goes. */
    payHireFor: (userId: number, number: string) => payHireFor(userId, number),

    /**
     * Gives back what a hire paid up front beyond its final charges (the hire
     * desk's settlement, issue 21): a refund of the hire's card payment, sent
     * once the transaction commits, its row id the idempotency key.
     */
    async refundHire(number: string, amount: number, reason: string): Promise<void> {
      await inTx(async (tx, after) => {
        const [found] = await tx
          .select({ payment: payments })
          .from(payments)
          .innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId))
          .innerJoin(hireRequests, eq(hireRequests.id, paymentSessions.hireRequestId))
          .where(eq(hireRequests.number, number))
          .orderBy(asc(payments.id))
          .limit(1)
          .for("update", { of: payments });
        if (!found) throw new HttpError(409, `Hire request ${number} has no card payment to refund.`);
        const amountNow = Math.min(amount, found.payment.amount - found.payment.refunded);
        if (amountNow > 0) await refundAutomatically(tx, found.payment, amountNow, reason, after);
      });
    },

    /**
     * A webhook delivery: the signature first (400 before anything else),
     * then the event recorded under its id in the same transaction as its
     * effect. A repeat is acknowledged and changes nothing.
     */
    async webhook(rawBody: Buffer, signature: string | undefined): Promise<"applied" | "duplicate"> {
      const g = requireGateway();
      const action = g.webhook(rawBody, signature);
      // Refunds are read from the gateway before the transaction, so no lock waits on the network.
      const refunds = action.kind === "refunds" ? await g.refunds(action.paymentId) : [];
      return inTx(async (tx, after) => {
        const [fresh] = await tx.insert(paymentEvents).values({ gateway: g.id, eventId: action.eventId, type: action.type }).onConflictDoNothing().returning();
        if (!fresh) return "duplicate";
        await applyAction(tx, action, refunds, after);
        return "applied";
      });
    },

    /**
     * The customer back from the payment page, perhaps before the webhook:
     * the shop asks the gateway and applies the same "mark paid". Answers
     * where the browser goes.
     */
    async returned(token: string): Promise<string> {
      const row = await sessionByToken(token);
      if (row.status === "open") {
        const session = await requireGateway()
          .retrieve(row.externalId)
          .catch(() => null);
        if (session?.paymentStatus === "paid") {
          await inTx(async (tx, after) => {
            const locked = await lockSession(tx, row.id);
            if (locked) await applyPaid(tx, locked, session, after);
          });
        }
      }
      return targetOf(row);
    },

    /**
     * The customer left the payment page (back to the shop, or a declined
     * card): the page is closed at the gateway so it can no longer be paid,
     * the order cancelled and the basket put back. If it was paid meanwhile,
     * it is paid.
     */
    async cancelled(token: string): Promise<{ redirect: string; paid: boolean }> {
      const row = await sessionByToken(token);
      if (row.status !== "open") return { redirect: row.status === "paid" ? await targetOf(row) : cancelTarget(row), paid: row.status === "paid" };
      const paid = await closeByCustomer(row);
      return paid ? { redirect: await targetOf(row), paid } : { redirect: cancelTarget(row), paid };
    },

    /** This browser's card order still on an open payment page (the customer came back with the Back button), or null. */
    async pendingFor(owner: BasketOwner): Promise<{ order_number: string; total: number; redirect_url: string } | null> {
      const found = await pendingSession(owner);
      return found ? { order_number: found.order.number, total: pounds(found.order.total), redirect_url: found.row.url } : null;
    },

    /** Cancels that order as leaving the page would: false when there is none. */
    async cancelPending(owner: BasketOwner): Promise<boolean> {
      const found = await pendingSession(owner);
      if (!found) return false;
      await closeByCustomer(found.row);
      return true;
    },

    /**
     * Sessions still open well past their expiry are asked about: a lost
     * webhook (or the built-in test page's restart) never leaves an order
     * holding stock for ever.
     */
    async sweep(): Promise<number> {
      if (!gateway) return 0;
      const stale = await db
        .select()
        .from(paymentSessions)
        .where(and(eq(paymentSessions.status, "open"), lt(paymentSessions.expiresAt, new Date(now() - SWEEP_GRACE_MS))))
        .orderBy(asc(paymentSessions.expiresAt))
        .limit(100);
      for (const row of stale) {
        const session = await gateway.retrieve(row.externalId).catch(() => null);
        if (session?.status === "open") continue;
        await settleStale(row, session);
      }
      return stale.length;
    },

    /** The orders desk's view of an order's card payment. */
    async paymentFor(actor: StaffActor, number: string): Promise<OrderPaymentJson | null> {
      authorize(actor, "orders.prices");
      const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.number, number.trim().toUpperCase()));
      if (!order) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
      return forOrder(order.id);
    },

    forOrder: (orderId: number) => forOrder(orderId),

    /**
     * A refund from the orders desk: whole, by lines or by an amount, never
     * more than was paid less what is refunded (checked under the payment's
     * lock, and by the database's own check), a `sales` member only up to
     * their limit. The refund's own row id is the gateway's idempotency key.
     */
    async refundOrder(actor: StaffActor, number: string, input: RefundInput): Promise<RefundRow> {
      authorize(actor, "refunds.create");
      requireGateway();
      const refund = await inTx(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.number, number.trim().toUpperCase())).for("update");
        if (!order) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
        return recordRefund(tx, actor, order, input);
      });
      return sendOrFail(refund.id);
    },

    /**
     * A card refund within another domain's transaction (a return's refund,
     * a customer's cancelled lines), the order's row already locked: checked
     * and recorded as `refundOrder` does; `sendRefund` sends it once the
     * caller has committed.
     */
    recordRefund: (tx: Db, actor: StaffActor, order: OrderRow, input: RefundInput & { pence?: number }) => recordRefund(tx, actor, order, input),
    /** Sends a recorded refund to the gateway; 502 when it failed there (nothing was refunded). */
    sendRefund: (refundId: number) => sendOrFail(refundId),
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
