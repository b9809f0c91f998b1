import { randomBytes } from "node:crypto";
import { type SQL, and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import type { BasketOwner } from "../../plugins/guest.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import type { Outbox } from "../auth/service.ts";
import { sha256 } from "../auth/tokens.ts";
import type { BasketService } from "../basket/service.ts";
import { quotes } from "../quotes/schema.ts";
import { pounds } from "../catalog/products.ts";
import type { PaymentProvider } from "../checkout/payment.ts";
import { renderEmail } from "../mail/templates.ts";
import { type ShopMail, enqueueOrderPlaced } from "../orders/emails.ts";
import { putOrderStockBack } from "../stock/ledger.ts";
import { orderLines, orderStatusHistory, orders } from "../orders/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { checkRefundLimit } from "../staff/refund-limit.ts";
import { staff } from "../staff/schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { hireRequests } from "../hire/schema.ts";
import { upFrontTotal } from "../hire/requests.ts";
import { type InvoicePaymentProvider, type PaymentInstructions, type RemittanceStart, recordPendingRemittance, withdrawRemittance } from "../trade/credit/remittances.ts";
import { type TradeRemittance, tradeRemittanceInvoices, tradeRemittances } from "../trade/credit/remittance-schema.ts";
import { markInvoicesPaid } from "../trade/credit/receipts.ts";
import { type GatewaySession, GatewayUnavailableError, type PaymentGateway, type WebhookAction } from "./gateway.ts";
import { type RefundSource, paymentEvents, paymentRefunds, paymentSessions, payments } from "./schema.ts";

/** How long a hosted payment page stays open (Stripe's minimum is 30 minutes). */
export const SESSION_MINUTES = 30;
/** A session still open this long after its expiry is asked about by the sweep: its webhook may have been lost. */
const SWEEP_GRACE_MS = 5 * 60_000;

export const PAYMENT_MESSAGES = {
  unavailable: "We could not open the card payment page. Nothing was charged and your basket is as it was: please try again in a moment, or choose another way to pay.",
  cancelled: "You left the card payment page, so the order was not placed. Nothing was charged and your basket is as it was.",
  refundFailed: "The card refund could not be made, so nothing was refunded. Please try again in a moment.",
  closeFailed: "We could not reach the payment service to close the payment page. Nothing has been charged: please try again in a moment.",
  invoicesUnavailable: "We could not open the card payment page. Nothing was charged and your invoices are unpaid as they were: please try again in a moment, or pay by bank transfer.",
  hireUnavailable: "We could not open the card payment page. Nothing was charged: please follow the link in your email again in a moment.",
  linkInvalid: "This payment link is not valid.",
} as const;

type SessionRow = typeof paymentSessions.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;
type RefundRow = typeof paymentRefunds.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/** What a payment page is for: the column it fills on its session row. */
type SessionTarget = { purpose: "order"; orderId: number } | { purpose: "invoices"; remittanceId: number } | { purpose: "hire"; hireRequestId: number };

/** A payment page to open, for one thing the shop sells. */
interface SessionSpec {
  target: SessionTarget;
  /** The shop's readable reference: an order number, REM-…, HR-…. */
  reference: string;
  /** Pence. */
  amount: number;
  description: string;
  email: string | null;
  /** Derived from what is paid, so a retried request never opens a second page for it. */
  idempotencyKey: string;
  metadata: Record<string, string>;
  /** What the customer is told when the gateway does not answer (503). */
  unavailable: string;
}
/** Work that must wait for the transaction to commit: calls to the gateway, basket restores. */
type AfterCommit = () => Promise<void>;

export interface RefundInput {
  /** Pounds, for a refund by amount. */
  amount?: number;
  /** Or some of the order's lines: each line's quantity to refund. */
  lines?: { line_id: number; quantity: number }[];
  reason: string;
}

export interface OrderPaymentJson {
  gateway: string;
  test_mode: boolean;
  status: SessionRow["status"];
  /** Pounds. */
  paid: number;
  refunded: number;
  refundable: number;
  problem: string | null;
  refunds: { id: number; amount: number; status: RefundRow["status"]; source: RefundSource; reason: string; created_at: string; staff_name: string | null }[];
  /** Per order line: the quantity refunded by lines so far. */
  refunded_lines: Record<number, number>;
}

export interface PaymentServiceOptions {
  /** Null: card payment is not offered (production without both Stripe keys). */
  gateway: PaymentGateway | null;
  mail: Outbox;
  shop: ShopMail;
  basket: BasketService;
  /** The order's signed thank-you page (checkout's). */
  thankYouLink: (orderNumber: string) => string;
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void };
}

const money = (pence: number) => `£${pounds(pence).toFixed(2)}`;

/**
 * Card payments (ADR 0033): the hosted payment page for an order, the
 * webhook that says how it went (each event applied once), the customer's
 * return that may beat the webhook, and refunds. Every change of money is
 * decided under the session's or the payment's row lock, in one transaction
 * with what it changes.
 */
export function createPaymentService(db: Db, options: PaymentServiceOptions) {
  const gateway = options.gateway;
  const now = options.now ?? (() => Date.now());

  function requireGateway(): PaymentGateway {
    if (!gateway) throw new HttpError(404, "Card payment is not available.");
    return gateway;
  }

  async function inTx<T>(work: (tx: Db, after: AfterCommit[]) => Promise<T>): Promise<T> {
    const after: AfterCommit[] = [];
    const result = await db.transaction(async (t) => work(t as unknown as Db, after));
    for (const task of after) {
      await task().catch((err: unknown) => options.log?.warn({ err }, "payment follow-up failed"));
    }
    options.mail.kick?.();
    return result;
  }

  async function lockSession(tx: Db, id: number): Promise<SessionRow | undefined> {
    const [row] = await tx.select().from(paymentSessions).where(eq(paymentSessions.id, id)).for("update");
    return row;
  }

  async function sessionByExternal(tx: Db, externalId: string): Promise<SessionRow | undefined> {
    const [row] = await tx
      .select()
      .from(paymentSessions)
      .where(and(eq(paymentSessions.gateway, requireGateway().id), eq(paymentSessions.externalId, externalId)))
      .for("update");
    return row;
  }

  async function orderNote(tx: Db, orderId: number, status: string, note: string, kind: "status" | "note" = "note", staffId: number | null = null) {
    await tx.insert(orderStatusHistory).values({ orderId, status, note, kind, staffId });
  }

  async function emailCustomer(tx: Db, to: string, subject: string, title: string, paragraphs: string[]) {
    const body = renderEmail({ appName: options.shop.appName, publicUrl: options.shop.publicUrl, title, paragraphs });
    await options.mail.enqueue(tx, { to, subject, ...body });
  }

  async function recomputeRefunded(tx: Db, paymentId: number): Promise<void> {
    await tx.execute(sql`
      update ${payments} set refunded_pence = (
        select coalesce(sum(${paymentRefunds.amount}), 0)::int from ${paymentRefunds}
        where ${paymentRefunds.paymentId} = ${paymentId} and ${paymentRefunds.status} <> 'failed')
      where ${payments.id} = ${paymentId}`);
  }

  /**
   * Sends a refund row to the gateway, its id the idempotency key, and
   * records how it went. A refund that fails gives its amount back to what
   * may still be refunded.
   */
  async function sendRefund(refundId: number): Promise<RefundRow> {
    const g = requireGateway();
    const [found] = await db.select({ refund: paymentRefunds, payment: payments }).from(paymentRefunds).innerJoin(payments, eq(payments.id, paymentRefunds.paymentId)).where(eq(paymentRefunds.id, refundId));
    if (!found) throw new HttpError(404, "No such refund.");
    let answer: Awaited<ReturnType<PaymentGateway["refund"]>> | null = null;
    try {
      answer = await g.refund({ paymentId: found.payment.externalId, amount: found.refund.amount, idempotencyKey: `tc-refund-${refundId}`, metadata: { refund_id: String(refundId) } });
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      options.log?.warn({ err: error, refundId }, "refund failed at the gateway");
    }
    return inTx(async (tx) => {
      const [payment] = await tx.select().from(payments).where(eq(payments.id, found.payment.id)).for("update");
      const [row] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId));
      // A webhook may have settled it first (Stripe can send it before it answers): its word stands.
      if (!row || row.status !== "pending" || !payment) return row!;
      const updated = await settleRefund(tx, row, answer?.status ?? "failed", answer?.id ?? null);
      await recomputeRefunded(tx, payment.id);
      return updated;
    });
  }

  /**
   * A refund's new state from the gateway, by whichever path brought it (the
   * refund call's answer or a webhook): the customer is emailed when it
   * succeeds, staff see it when it fails; each once, on the change.
   */
  async function settleRefund(tx: Db, row: RefundRow, status: RefundRow["status"], externalId: string | null): Promise<RefundRow> {
    if (row.status === status && (row.externalId === externalId || externalId === null)) return row;
    const [updated] = await tx
      .update(paymentRefunds)
      .set({ status, externalId: externalId ?? row.externalId, updatedAt: sql`now()` })
      .where(eq(paymentRefunds.id, row.id))
      .returning();
    if (row.status !== status) await announceRefund(tx, updated!);
    return updated!;
  }

  async function announceRefund(tx: Db, refund: RefundRow): Promise<void> {
    const [found] = await tx
      .select({ order: orders })
      .from(payments)
      .innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId))
      .innerJoin(orders, eq(orders.id, paymentSessions.orderId))
      .where(eq(payments.id, refund.paymentId));
    if (!found) return;
    const { order } = found;
    if (refund.status === "failed") await orderNote(tx, order.id, order.status, `Card refund of ${money(refund.amount)} failed at the payment service; nothing was refunded.`);
    if (refund.status === "succeeded") {
      await emailCustomer(tx, order.email, `Refund for order ${order.number}`, `We have refunded ${money(refund.amount)}`, refundParagraphs(order.number, refund.amount, refund.reason));
    }
  }

  function refundParagraphs(number: string, amount: number, reason: string): string[] {
    return [
      `We have refunded ${money(amount)} to the card you paid with for order ${number}.`,
      ...(reason ? [`Reason: ${reason}`] : []),
      "It usually reaches your account within 5 to 10 working days.",
    ];
  }

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
   * Money that must not be kept (it paid for something no longer there to
   * pay): a refund row for it, sent to the gateway once the transaction
   * commits, its own id the idempotency key.
   */
  async function refundAutomatically(tx: Db, payment: PaymentRow, amount: number, reason: string, after: AfterCommit[]): Promise<void> {
    const [refund] = await tx.insert(paymentRefunds).values({ paymentId: payment.id, amount, reason, source: "automatic" }).returning();
    await recomputeRefunded(tx, payment.id);
    after.push(async () => {
      await sendRefund(refund!.id);
    });
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
   * What the gateway says was refunded becomes what the shop records: the
   * shop's own refunds settle, and refunds made in the gateway's dashboard
   * appear, each once by its id.
   */
  async function reconcileRefunds(tx: Db, paymentExternalId: string, found: Awaited<ReturnType<PaymentGateway["refunds"]>>): Promise<void> {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.gateway, requireGateway().id), eq(payments.externalId, paymentExternalId)))
      .for("update");
    if (!payment) return;
    const [session] = await tx.select().from(paymentSessions).where(eq(paymentSessions.id, payment.sessionId));
    const [order] = session?.orderId ? await tx.select().from(orders).where(eq(orders.id, session.orderId)) : [];
    for (const r of found) {
      const [byId] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.externalId, r.id));
      const ours = Number(r.metadata.refund_id);
      const [byMetadata] = !byId && Number.isSafeInteger(ours) && ours > 0 ? await tx.select().from(paymentRefunds).where(and(eq(paymentRefunds.id, ours), eq(paymentRefunds.paymentId, payment.id))) : [];
      const row = byId ?? byMetadata;
      if (row) {
        await settleRefund(tx, row, r.status, r.id);
        continue;
      }
      const [made] = await tx.insert(paymentRefunds).values({ paymentId: payment.id, amount: r.amount, status: "pending", source: "gateway", externalId: r.id, reason: "Made in the payment service's dashboard." }).returning();
      if (order) await orderNote(tx, order.id, order.status, `A refund of ${money(r.amount)} was made in the payment service's dashboard.`);
      await settleRefund(tx, made!, r.status, r.id);
    }
    await recomputeRefunded(tx, payment.id);
  }

  /** The newest session still open for what `where` names. */
  async function openSessionWhere(where: SQL): Promise<SessionRow | undefined> {
    const [row] = await db
      .select()
      .from(paymentSessions)
      .where(and(where, eq(paymentSessions.status, "open")))
      .orderBy(desc(paymentSessions.id))
      .limit(1);
    return row;
  }

  /**
   * Opens a hosted payment page and records its session, once what it is
   * for is committed (no lock is held while the gateway answers). Its return
   * and cancel links carry a token of their own; only its hash is kept.
   */
  async function openSession(spec: SessionSpec): Promise<{ redirect_url: string }> {
    const g = requireGateway();
    const token = randomBytes(24).toString("base64url");
    const base = options.shop.publicUrl;
    const expiresAt = new Date(now() + SESSION_MINUTES * 60_000);
    let session: GatewaySession;
    try {
      session = await g.initiate({
        reference: spec.reference,
        amount: spec.amount,
        currency: "gbp",
        description: spec.description,
        customerEmail: spec.email,
        successUrl: `${base}/api/payments/return/${token}`,
        cancelUrl: `${base}/api/payments/cancel/${token}`,
        expiresAt,
        idempotencyKey: spec.idempotencyKey,
        metadata: { ...spec.metadata, purpose: spec.target.purpose },
      });
    } catch (error) {
      if (error instanceof GatewayUnavailableError) throw new HttpError(503, spec.unavailable);
      throw error;
    }
    try {
      await db.insert(paymentSessions).values({ gateway: g.id, externalId: session.id, ...spec.target, amount: spec.amount, currency: "gbp", url: session.url, returnTokenHash: sha256(token), expiresAt });
    } catch (error) {
      // The same request raced us to the same (idempotent) session: its row is the answer.
      if (!isUniqueViolation(error)) throw error;
      const [row] = await db.select().from(paymentSessions).where(and(eq(paymentSessions.gateway, g.id), eq(paymentSessions.externalId, session.id)));
      return { redirect_url: row!.url };
    }
    return { redirect_url: session.url };
  }

  /** Opens (or, for a retry, finds) the hosted payment page for an order awaiting card payment. */
  async function startOrderPayment(start: { orderId: number; orderNumber: string; total: number; email: string }): Promise<{ redirect_url: string }> {
    requireGateway();
    const open = await openSessionWhere(eq(paymentSessions.orderId, start.orderId));
    if (open && open.expiresAt.getTime() > now()) return { redirect_url: open.url };
    return openSession({
      target: { purpose: "order", orderId: start.orderId },
      reference: start.orderNumber,
      amount: start.total,
      description: `${options.shop.appName} order ${start.orderNumber}`,
      email: start.email,
      idempotencyKey: `tc-order-${start.orderId}-pay`,
      metadata: { order_number: start.orderNumber },
      unavailable: PAYMENT_MESSAGES.unavailable,
    });
  }

  /** The hosted payment page for a trade remittance just recorded: exactly its amount, for exactly its invoices. */
  async function startInvoicePayment(start: RemittanceStart): Promise<{ redirect_url: string }> {
    return openSession({
      target: { purpose: "invoices", remittanceId: start.remittanceId },
      reference: start.reference,
      amount: start.amount,
      description: `${options.shop.appName} trade invoices, payment ${start.reference}`,
      email: start.email,
      idempotencyKey: `tc-remittance-${start.remittanceId}-pay`,
      metadata: { remittance: start.reference },
      unavailable: PAYMENT_MESSAGES.invoicesUnavailable,
    });
  }

  /** A card remittance whose payment page could not be opened is taken back: its invoices unpaid as they were. */
  async function withdrawInvoicePayment(remittanceId: number): Promise<void> {
    await inTx(async (tx) => {
      const [session] = await tx.select({ id: paymentSessions.id }).from(paymentSessions).where(eq(paymentSessions.remittanceId, remittanceId)).limit(1);
      if (!session) await withdrawRemittance(tx, remittanceId);
    });
  }

  /** What the payer is told for a card remittance: no bank details, and whether the payment is in. */
  function cardInstructions(remittance: TradeRemittance): PaymentInstructions {
    const amount = money(remittance.amount);
    return {
      provider: "card",
      summary:
        remittance.status === "confirmed"
          ? `Paid ${amount} by card for ${remittance.reference}: thank you. Its invoices are paid.`
          : `Pay ${amount} by card on the secure payment page. The invoices show as payment pending until the payment is confirmed.`,
      reference: remittance.reference,
      amount: pounds(remittance.amount),
      pay_to: null,
    };
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

  /**
   * The card payment link in a hire confirmation: opens a payment page for
   * the hire and its deposit, or sends the browser back to the one still
   * open; once paid, to the customer's hire requests. Never opens a second
   * page while one may still be paid. Answers where the browser goes.
   */
  async function payHire(token: string): Promise<string> {
    const [request] = token.length <= 100 ? await db.select().from(hireRequests).where(eq(hireRequests.payTokenHash, sha256(token))) : [];
    if (!request) throw new HttpError(404, PAYMENT_MESSAGES.linkInvalid);
    return payHireRequest(request);
  }

  /** The same as the emailed link, from the customer's own hire requests page (signed in, their request, a link was sent). */
  async function payHireFor(userId: number, number: string): Promise<string> {
    const [request] = await db.select().from(hireRequests).where(and(eq(hireRequests.number, number), eq(hireRequests.userId, userId)));
    if (!request || request.payTokenHash === null) throw new HttpError(404, `No hire request ${number} to pay.`);
    return payHireRequest(request);
  }

  async function payHireRequest(request: typeof hireRequests.$inferSelect): Promise<string> {
    const g = requireGateway();
    const paidPage = hirePaidPage(request.number);
    // A returned hire's final charges, after what was paid up front (the hire desk's settlement).
    const balance = request.status === "returned" && request.settlement === "card" && request.settledAt === null && (request.settlementDue ?? 0) > 0;
    if (request.settledAt || (request.paidAt && !balance)) return paidPage;
    if (!["confirmed", "out", "off_hired"].includes(request.status) && !balance) throw new HttpError(409, `Hire request ${request.number} is ${request.status}, so it cannot be paid by card. Please contact us.`);
    const sessions = await db.select().from(paymentSessions).where(eq(paymentSessions.hireRequestId, request.id)).orderBy(desc(paymentSessions.id));
    if (sessions.some((s) => s.status === "flagged")) throw new HttpError(409, `Your card payment for ${request.number} is being checked by our team: we will be in touch.`);
    const open = sessions.find((s) => s.status === "open");
    if (open && open.expiresAt.getTime() > now()) return open.url;
    if (open) {
      // Past its expiry, its event not in yet: the gateway says how it ended before another page opens.
      const session = await g.retrieve(open.externalId).catch(() => null);
      if (!session) throw new HttpError(503, PAYMENT_MESSAGES.hireUnavailable);
      if (session.status === "open") return open.url;
      if ((await settleStale(open, session)) === "paid") return paidPage;
    }
    const amount = balance ? request.settlementDue! : upFrontTotal(request);
    const opened = await openSession({
      target: { purpose: "hire", hireRequestId: request.id },
      reference: request.number,
      amount,
      description: balance ? `${options.shop.appName} hire request ${request.number}: final charges` : `${options.shop.appName} hire request ${request.number}: hire and refundable deposit`,
      email: request.email,
      // One key per page: a page that closed unpaid is followed by a new one.
      idempotencyKey: `tc-hire-${request.id}-${balance ? "balance" : "pay"}-${sessions.length + 1}`,
      metadata: { hire_request: request.number },
      unavailable: PAYMENT_MESSAGES.hireUnavailable,
    });
    return opened.redirect_url;
  }

  /**
   * The card payment link emailed for an order taken by staff (issue 34),
   * once its signature is checked: the order's payment page (the one still
   * open, or a new one, as often as the customer comes back until it is
   * paid); once paid, the order's thank-you page. Answers where the browser goes.
   */
  async function payOrderLink(number: string): Promise<string> {
    const [order] = await db.select().from(orders).where(and(eq(orders.number, number.toUpperCase()), eq(orders.paymentMethod, "card_link")));
    if (!order) throw new HttpError(404, PAYMENT_MESSAGES.linkInvalid);
    if (order.status === "cancelled") throw new HttpError(409, `Order ${order.number} was cancelled, so it cannot be paid. Please contact us.`);
    if (order.status !== "awaiting_payment") return options.thankYouLink(order.number);
    const open = await openSessionWhere(eq(paymentSessions.orderId, order.id));
    if (open && open.expiresAt.getTime() > now()) return open.url;
    const sessions = await db.select({ id: paymentSessions.id }).from(paymentSessions).where(eq(paymentSessions.orderId, order.id));
    const page = await openSession({
      target: { purpose: "order", orderId: order.id },
      reference: order.number,
      amount: order.total,
      description: `${options.shop.appName} order ${order.number}`,
      email: order.email,
      // A new page for each visit after the last one expired: never two open at once.
      idempotencyKey: `tc-order-${order.id}-link-${sessions.length + 1}`,
      metadata: { order_number: order.number },
      unavailable: PAYMENT_MESSAGES.hireUnavailable,
    });
    return page.redirect_url;
  }

  /** The customer's hire requests, saying this one is paid. */
  const hirePaidPage = (number: string) => `/account/hire-requests?paid=${encodeURIComponent(number)}`;

  /** An order whose payment page could not be opened is taken back whole: no order, its stock and the basket as they were. */
  async function withdrawOrder(orderId: number): Promise<void> {
    await inTx(async (tx, after) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      if (!order || order.status !== "awaiting_payment" || order.paymentMethod !== "card") return;
      const [session] = await tx.select({ id: paymentSessions.id }).from(paymentSessions).where(eq(paymentSessions.orderId, orderId)).limit(1);
      if (session) return;
      await basketBackAfterCommit(tx, order, after);
      await putOrderStockBack(tx, orderId);
      await tx.delete(orders).where(eq(orders.id, orderId));
    });
  }

  /**
   * The customer leaves an open payment page: it is closed at the gateway
   * first, so it can no longer be paid, then the order is cancelled and its
   * basket put back. Answers whether it had been paid meanwhile (then it is
   * marked paid instead).
   */
  async function closeByCustomer(row: SessionRow): Promise<boolean> {
    const session = await requireGateway()
      .cancel(row.externalId)
      .catch((error: unknown) => {
        if (error instanceof GatewayUnavailableError) throw new HttpError(503, PAYMENT_MESSAGES.closeFailed);
        throw error;
      });
    const paid = session.paymentStatus === "paid";
    await inTx(async (tx, after) => {
      const locked = await lockSession(tx, row.id);
      if (!locked) return;
      if (paid) await applyPaid(tx, locked, session, after);
      else await applyClosed(tx, locked, "expired", after, "The customer left the card payment page; nothing was charged.");
    });
    return paid;
  }

  /** The newest card order of this basket's owner still on an open, unexpired payment page. */
  async function pendingSession(owner: BasketOwner) {
    const whose = "userId" in owner ? eq(orders.userId, owner.userId) : eq(orders.guestKeyHash, owner.guestHash);
    const [found] = await db
      .select({ row: paymentSessions, order: orders })
      .from(paymentSessions)
      .innerJoin(orders, eq(orders.id, paymentSessions.orderId))
      .where(and(whose, eq(orders.status, "awaiting_payment"), eq(orders.paymentMethod, "card"), eq(paymentSessions.status, "open"), gt(paymentSessions.expiresAt, new Date(now()))))
      .orderBy(desc(paymentSessions.id))
      .limit(1);
    return found ?? null;
  }

  async function sessionByToken(token: string): Promise<SessionRow> {
    const [row] = token.length <= 100 ? await db.select().from(paymentSessions).where(eq(paymentSessions.returnTokenHash, sha256(token))) : [];
    if (!row) throw new HttpError(404, PAYMENT_MESSAGES.linkInvalid);
    return row;
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

  /** Where the browser goes back from a payment page: the order's thank-you page, the remittance's, the customer's hire requests. */
  async function targetOf(row: SessionRow): Promise<string> {
    const reference = await referenceOf(db, row);
    if (row.purpose === "invoices") return reference ? `/trade/invoices/pay?paid=${encodeURIComponent(reference)}` : "/trade/invoices";
    if (row.purpose === "hire") return reference ? hirePaidPage(reference) : "/account/hire-requests";
    return reference ? options.thankYouLink(reference) : "/";
  }

  /** Where a customer who left the payment page goes: back to where they chose to pay. */
  function cancelTarget(row: SessionRow): string {
    if (row.purpose === "invoices") return "/trade/invoices/pay?payment=cancelled";
    if (row.purpose === "hire") return "/account/hire-requests?payment=cancelled";
    return "/checkout?payment=cancelled";
  }

  /** What was paid and refunded for an order, for its page in the back office and the customer's. */
  async function forOrder(orderId: number): Promise<OrderPaymentJson | null> {
    const [row] = await db
      .select({ session: paymentSessions, payment: payments })
      .from(paymentSessions)
      .leftJoin(payments, eq(payments.sessionId, paymentSessions.id))
      .where(eq(paymentSessions.orderId, orderId))
      .orderBy(desc(paymentSessions.id))
      .limit(1);
    if (!row) return null;
    const refunds = row.payment
      ? await db
          .select({ refund: paymentRefunds, staffName: staff.name })
          .from(paymentRefunds)
          .leftJoin(staff, eq(staff.id, paymentRefunds.staffId))
          .where(eq(paymentRefunds.paymentId, row.payment.id))
          .orderBy(asc(paymentRefunds.id))
      : [];
    const refundedLines: Record<number, number> = {};
    for (const { refund } of refunds) {
      if (refund.status === "failed") continue;
      for (const l of refund.lines ?? []) refundedLines[l.line_id] = (refundedLines[l.line_id] ?? 0) + l.quantity;
    }
    const paid = row.payment?.amount ?? 0;
    const refunded = row.payment?.refunded ?? 0;
    return {
      gateway: row.session.gateway,
      test_mode: gateway?.testMode ?? false,
      status: row.session.status,
      paid: pounds(paid),
      refunded: pounds(refunded),
      refundable: pounds(paid - refunded),
      problem: row.session.problem,
      refunds: refunds.map(({ refund, staffName }) => ({
        id: refund.id,
        amount: pounds(refund.amount),
        status: refund.status,
        source: refund.source,
        reason: refund.reason,
        created_at: refund.createdAt.toISOString(),
        staff_name: staffName,
      })),
      refunded_lines: refundedLines,
    };
  }

  /**
   * A refund to the card: whole, by lines or by an amount, never more than was
   * paid less what is refunded (checked under the payment's lock, and by the
   * database's own check), a `sales` member only up to their limit. The
   * caller holds the order's row lock. The refund's own row id is the
   * gateway's idempotency key.
   */
  async function recordRefund(tx: Db, actor: StaffActor, order: OrderRow, input: RefundInput & { pence?: number }): Promise<RefundRow> {
    authorize(actor, "refunds.create");
    requireGateway();
    const reason = input.reason.trim();
    if (!reason) throw new ValidationError({ reason: ["Give the reason for the refund."] });
    const [found] = await tx
      .select({ payment: payments })
      .from(payments)
      .innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId))
      .where(eq(paymentSessions.orderId, order.id))
      .orderBy(desc(payments.id))
      .limit(1);
    if (!found) throw new HttpError(409, `Order ${order.number} has no card payment to refund.`);
    const [payment] = await tx.select().from(payments).where(eq(payments.id, found.payment.id)).for("update");
    const remaining = payment!.amount - payment!.refunded;
    // Nothing left: a refund that lost a race with another (or came twice) is told so, never a 500.
    if (remaining <= 0) throw new HttpError(409, `${order.number} is already refunded in full.`);
    let amount: number;
    let lines: { line_id: number; quantity: number }[] | null = null;
    if (input.lines?.length) {
      const wanted = input.lines.filter((l) => l.quantity > 0);
      if (!wanted.length) throw new ValidationError({ lines: ["Choose at least one line to refund."] });
      const orderLinesFound = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));
      const previous = await tx.select({ lines: paymentRefunds.lines }).from(paymentRefunds).where(and(eq(paymentRefunds.paymentId, payment!.id), sql`${paymentRefunds.status} <> 'failed'`));
      const done = new Map<number, number>();
      for (const p of previous) for (const l of p.lines ?? []) done.set(l.line_id, (done.get(l.line_id) ?? 0) + l.quantity);
      amount = 0;
      for (const w of wanted) {
        const line = orderLinesFound.find((l) => l.id === w.line_id);
        if (!line) throw new ValidationError({ lines: ["That line is not on this order."] });
        const left = line.quantity - (done.get(line.id) ?? 0);
        if (w.quantity > left) throw new ValidationError({ lines: [`${line.name}: at most ${left} can still be refunded.`] });
        amount += Math.round(((line.lineTotal + line.lineVat) * w.quantity) / line.quantity);
      }
      lines = wanted;
      // A return's refund names its lines and gives its own amount (delivery in, deductions out).
      if (input.pence !== undefined) amount = input.pence;
    } else if (input.pence !== undefined) {
      amount = input.pence;
    } else if (input.amount !== undefined) {
      amount = Math.round(input.amount * 100);
      if (amount <= 0) throw new ValidationError({ amount: ["Enter an amount above £0.00."] });
    } else {
      amount = remaining;
    }
    if (amount > remaining) {
      throw new ValidationError({ [lines ? "lines" : "amount"]: [remaining > 0 ? `At most ${money(remaining)} can still be refunded on ${order.number}.` : `${order.number} is already refunded in full.`] });
    }
    await checkRefundLimit(tx, actor, amount, order.id);
    const [row] = await tx.insert(paymentRefunds).values({ paymentId: payment!.id, amount, reason, lines, source: "staff", staffId: actor.staffId }).returning();
    await recomputeRefunded(tx, payment!.id);
    await orderNote(tx, order.id, order.status, `Refund of ${money(amount)} to the card: ${reason}`, "note", actor.staffId);
    await recordAudit(tx, actor, { action: "order.refund", entity: "order", entityId: order.number, before: { refunded: pounds(payment!.refunded) }, after: { refunded: pounds(payment!.refunded + amount), refund: pounds(amount), reason, ...(lines ? { lines: lines.map((l) => `${l.line_id}×${l.quantity}`).join(", ") } : {}) } });
    return row!;
  }

  async function sendOrFail(refundId: number): Promise<RefundRow> {
    const settled = await sendRefund(refundId);
    if (settled.status === "failed") throw new HttpError(502, PAYMENT_MESSAGES.refundFailed);
    return settled;
  }

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
