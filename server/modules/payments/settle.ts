import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { quotes } from "../quotes/schema.ts";
import { enqueueOrderPlaced } from "../orders/emails.ts";
import { putOrderStockBack } from "../stock/ledger.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { hireRequests } from "../hire/schema.ts";
import { withdrawRemittance } from "../trade/credit/remittances.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "../trade/credit/remittance-schema.ts";
import { markInvoicesPaid } from "../trade/credit/receipts.ts";
import type { GatewaySession, PaymentGateway, WebhookAction } from "./gateway.ts";
import { paymentSessions, payments } from "./schema.ts";
import { type AfterCommit, type PaymentContext, type PaymentRow, type SessionRow, money } from "./context.ts";
import type { Refunds } from "./refunds.ts";

/**
 * The gateway's word applied (ADR 0033): a session paid (an order, a trade
 * remittance or a hire request marked paid, or money that must not be kept
 * refunded) or closed unpaid (its order cancelled, stock and basket put
 * back), under the session's lock, whichever path brings it first.
 */
export function createSettlement(ctx: PaymentContext, refunds: Pick<Refunds, "refundAutomatically" | "reconcileRefunds">) {
  const { options, requireGateway, inTx, lockSession, sessionByExternal, orderNote, emailCustomer } = ctx;
  const { refundAutomatically, reconcileRefunds } = refunds;

  /**
   * The one "mark paid": the webhook and the customer's return both call it
   * with the gateway's word. Under the session's lock, so whichever comes
   * first applies it and the second finds it done.
   */
  async function applyPaid(tx: Db, row: SessionRow, session: GatewaySession, after: AfterCommit[]): Promise<void> {
    if (row.status === "paid" || row.status === "flagged") return;
    const g = requireGateway();
    if (session.amount !== row.amount || session.currency.toLowerCase() !== row.currency || !session.paymentId) {
      // Never marked paid: staff look, and refund or chase what is owed.
      const problem = `The payment service reported ${session.currency.toUpperCase()} ${(session.amount / 100).toFixed(2)}, but ${money(row.amount)} was asked.`;
      await tx.update(paymentSessions).set({ status: "flagged", problem, updatedAt: sql`now()` }).where(eq(paymentSessions.id, row.id));
      const [order] = row.orderId ? await tx.select().from(orders).where(eq(orders.id, row.orderId)) : [];
      if (order) await orderNote(tx, order.id, order.status, `Card payment needs checking: ${problem}`);
      const reference = await referenceOf(tx, row);
      await emailCustomer(tx, options.shop.shopEmail, `Card payment to check${reference ? ` for ${reference}` : ""}`, "A card payment needs checking", [
        problem,
        row.purpose === "order" ? "The order was not marked paid." : `${reference ?? "It"} was not marked paid.`,
      ]);
      return;
    }
    const [payment] = await tx
      .insert(payments)
      .values({ sessionId: row.id, gateway: g.id, externalId: session.paymentId, amount: session.amount, currency: session.currency.toLowerCase() })
      .returning();
    await tx.update(paymentSessions).set({ status: "paid", updatedAt: sql`now()` }).where(eq(paymentSessions.id, row.id));
    if (row.purpose === "order" && row.orderId) await orderPaid(tx, row.orderId, payment!, after);
    if (row.purpose === "invoices" && row.remittanceId) await remittancePaid(tx, row.remittanceId, payment!, after);
    if (row.purpose === "hire" && row.hireRequestId) await hirePaid(tx, row.hireRequestId, payment!, after);
  }

  /**
   * A trade remittance paid by card: its invoices become paid and the
   * company's balance drops, exactly as when staff see a bank transfer arrive
   * (markInvoicesPaid, which also confirms the remittance and emails the
   * receipt). Invoices someone paid another way meanwhile are not paid twice:
   * that part of the money goes back to the card.
   */
  async function remittancePaid(tx: Db, remittanceId: number, payment: PaymentRow, after: AfterCommit[]): Promise<void> {
    const [remittance] = await tx.select().from(tradeRemittances).where(eq(tradeRemittances.id, remittanceId));
    if (!remittance) return;
    const links = await tx.select({ id: tradeRemittanceInvoices.invoiceId }).from(tradeRemittanceInvoices).where(eq(tradeRemittanceInvoices.remittanceId, remittanceId));
    const done = await markInvoicesPaid(tx, { mail: options.mail, appName: options.shop.appName, publicUrl: options.shop.publicUrl }, links.map((l) => l.id), " by card", { method: "card", reference: remittance.reference, remittanceId });
    const excess = payment.amount - done.amount;
    if (excess <= 0) return;
    const reason = `Part of ${remittance.reference} paid for invoices that were already paid.`;
    await refundAutomatically(tx, payment, excess, reason, after);
    const [account] = await tx.select({ email: tradeAccounts.accountsEmail }).from(tradeAccounts).where(eq(tradeAccounts.id, remittance.tradeAccountId));
    const paragraphs = [`${money(excess)} of your card payment ${remittance.reference} was for invoices already paid, so it is refunded to your card automatically.`, "It usually reaches your account within 5 to 10 working days."];
    if (account) await emailCustomer(tx, account.email, `Refund for ${remittance.reference}`, `We have refunded ${money(excess)}`, paragraphs);
    await emailCustomer(tx, options.shop.shopEmail, `Card payment refunded in part: ${remittance.reference}`, "A card payment is refunded in part", [reason, `${money(excess)} is refunded automatically.`]);
  }

  /**
   * A hire request paid by card: recorded as paid, with the amount, and the
   * customer emailed a receipt. A request declined or lapsed since its link
   * was sent, or already paid, never keeps the money: refunded in full.
   */
  async function hirePaid(tx: Db, hireRequestId: number, payment: PaymentRow, after: AfterCommit[]): Promise<void> {
    const [request] = await tx.select().from(hireRequests).where(eq(hireRequests.id, hireRequestId)).for("update");
    if (!request) return;
    if (request.status === "returned" && request.settlement === "card" && request.settledAt === null && payment.amount === request.settlementDue) {
      await tx.update(hireRequests).set({ status: "completed", settledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(hireRequests.id, request.id));
      await emailCustomer(tx, request.email, `Receipt: hire request ${request.number} settled`, `Payment received for ${request.number}`, [
        `Hello ${request.name},`,
        `Thank you: we have received ${money(payment.amount)} by card, the rest of the final charges for hire request ${request.number}. Nothing more is due.`,
      ]);
      return;
    }
    if (request.paidAt === null && ["confirmed", "out", "off_hired", "completed"].includes(request.status)) {
      await tx.update(hireRequests).set({ paidAt: sql`now()`, paidAmount: payment.amount, updatedAt: sql`now()` }).where(eq(hireRequests.id, request.id));
      await emailCustomer(tx, request.email, `Receipt: hire request ${request.number} paid`, `Payment received for ${request.number}`, [
        `Hello ${request.name},`,
        `Thank you: we have received ${money(payment.amount)} by card for hire request ${request.number}.`,
        `That is the hire, ${money(request.hireCost + request.vat)} including VAT,${request.deliveryCharge ? ` delivery and collection ${money(request.deliveryCharge + request.deliveryVat)} including VAT,` : ""} and the refundable deposit of ${money(request.deposit)}.`,
      ]);
      return;
    }
    const why = request.paidAt ? "it was already paid" : `it is ${request.status}`;
    await refundAutomatically(tx, payment, payment.amount, `The payment for hire request ${request.number} arrived when ${why}.`, after);
    await emailCustomer(tx, request.email, `Refund for hire request ${request.number}`, `We have refunded ${money(payment.amount)}`, [
      `We received ${money(payment.amount)} by card for hire request ${request.number}, but ${why}, so the payment is refunded in full to your card.`,
      "It usually reaches your account within 5 to 10 working days.",
    ]);
    await emailCustomer(tx, options.shop.shopEmail, `Late payment refunded: ${request.number}`, "A late card payment is being refunded", [
      `${request.email} paid ${money(payment.amount)} for ${request.number}, but ${why}. The payment is refunded in full automatically.`,
    ]);
  }

  async function orderPaid(tx: Db, orderId: number, payment: PaymentRow, after: AfterCommit[]): Promise<void> {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return;
    if (order.status === "awaiting_payment") {
      await tx.update(orders).set({ status: "paid", updatedAt: sql`now()` }).where(eq(orders.id, order.id));
      await orderNote(tx, order.id, "paid", `Paid by card: ${money(payment.amount)}.`, "status");
      await enqueueOrderPlaced(tx, options.mail, options.shop, order.id, `Paid by card: ${money(payment.amount)}. Thank you.`);
      return;
    }
    if (order.status === "cancelled") {
      // Its page expired and its stock went back before the money came: never kept. Refunded in full, and the customer told.
      await refundAutomatically(tx, payment, payment.amount, "The payment arrived after the order was cancelled.", after);
      await orderNote(tx, order.id, order.status, `A card payment of ${money(payment.amount)} arrived after the order was cancelled; it is refunded in full automatically.`);
      await emailCustomer(tx, options.shop.shopEmail, `Late payment refunded: ${order.number}`, "A late card payment is being refunded", [
        `${order.email} paid ${money(payment.amount)} for ${order.number} after it was cancelled. The payment is refunded in full automatically.`,
      ]);
      return;
    }
    await orderNote(tx, order.id, order.status, `Card payment of ${money(payment.amount)} received.`);
  }

  /**
   * A session that ended unpaid (expired, or its slow payment failed): the
   * order is cancelled, its stock and basket put back; a trade remittance is
   * withdrawn, so its invoices can be paid again (the session row goes with
   * it); a hire request simply stays unpaid, its emailed link good for
   * another try.
   */
  async function applyClosed(tx: Db, row: SessionRow, outcome: "expired" | "failed", after: AfterCommit[], note?: string): Promise<void> {
    if (row.status !== "open") return;
    await tx.update(paymentSessions).set({ status: outcome, updatedAt: sql`now()` }).where(eq(paymentSessions.id, row.id));
    if (row.purpose === "invoices" && row.remittanceId) await withdrawRemittance(tx, row.remittanceId);
    if (row.purpose !== "order" || !row.orderId) return;
    const [order] = await tx.select().from(orders).where(eq(orders.id, row.orderId)).for("update");
    if (!order || order.status !== "awaiting_payment" || order.paymentMethod !== "card") return;
    // Read before the cancellation, which reopens a quote the order came from (its trigger).
    await basketBackAfterCommit(tx, order, after);
    await tx.update(orders).set({ status: "cancelled", updatedAt: sql`now()` }).where(eq(orders.id, order.id));
    await putOrderStockBack(tx, order.id);
    await orderNote(tx, order.id, "cancelled", note ?? (outcome === "expired" ? "The card payment page expired unpaid." : "The card payment failed."), "status");
  }

  /**
   * An order that will not be paid: its lines go back into the basket they
   * came from (the user's, or this browser's as a guest), once the
   * transaction that put the stock back has committed. Read before the order
   * may be deleted.
   */
  async function basketBackAfterCommit(tx: Db, order: typeof orders.$inferSelect, after: AfterCommit[]): Promise<void> {
    const owner = order.userId !== null ? { userId: order.userId } : order.guestKeyHash ? { guestHash: order.guestKeyHash } : null;
    if (!owner) return;
    // An accepted quote's order: its lines stay on the quote, open to accept again, not in the basket at list prices.
    const [quote] = await tx.select({ id: quotes.id }).from(quotes).where(eq(quotes.orderId, order.id)).limit(1);
    if (quote) return;
    const lines = await tx.select({ variantId: orderLines.variantId, name: orderLines.name, quantity: orderLines.quantity }).from(orderLines).where(eq(orderLines.orderId, order.id));
    after.push(async () => void (await options.basket.addLines(owner, lines)));
  }

  async function applyAction(tx: Db, action: WebhookAction, refunds: Awaited<ReturnType<PaymentGateway["refunds"]>>, after: AfterCommit[]): Promise<void> {
    if (action.kind === "paid" || action.kind === "closed") {
      const row = await sessionByExternal(tx, action.session.id);
      // A session the shop does not know (made for an order that was withdrawn): never paid, as its page was never shown.
      if (!row) return options.log?.warn({ session: action.session.id, type: action.type }, "webhook for an unknown payment session");
      if (action.kind === "paid") await applyPaid(tx, row, action.session, after);
      else await applyClosed(tx, row, action.outcome, after);
      return;
    }
    if (action.kind === "refunds") await reconcileRefunds(tx, action.paymentId, refunds);
  }

  /**
   * Sessions still open past their expiry, asked about: the gateway's word
   * is applied under the session's lock (paid, or closed). Answers what it
   * found, or null when the session was already settled.
   */
  async function settleStale(row: SessionRow, session: GatewaySession | null): Promise<"paid" | "closed" | null> {
    return inTx(async (tx, after) => {
      const locked = await lockSession(tx, row.id);
      if (!locked) return null;
      if (session?.paymentStatus === "paid") {
        await applyPaid(tx, locked, session, after);
        return "paid";
      }
      await applyClosed(tx, locked, "expired", after);
      return "closed";
    });
  }

  /** The readable reference of what a session is for (an order number, REM-…, HR-…), or null when it is gone. */
  async function referenceOf(handle: Db, row: SessionRow): Promise<string | null> {
    const [found] =
      row.purpose === "order" && row.orderId
        ? await handle.select({ reference: orders.number }).from(orders).where(eq(orders.id, row.orderId))
        : row.purpose === "invoices" && row.remittanceId
          ? await handle.select({ reference: tradeRemittances.reference }).from(tradeRemittances).where(eq(tradeRemittances.id, row.remittanceId))
          : row.purpose === "hire" && row.hireRequestId
            ? await handle.select({ reference: hireRequests.number }).from(hireRequests).where(eq(hireRequests.id, row.hireRequestId))
            : [];
    return found?.reference ?? null;
  }

  return { applyPaid, applyClosed, applyAction, settleStale, basketBackAfterCommit, referenceOf };
}

export type Settlement = ReturnType<typeof createSettlement>;
