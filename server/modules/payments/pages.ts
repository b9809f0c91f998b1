import { randomBytes } from "node:crypto";
import { type SQL, and, desc, eq, gt } from "drizzle-orm";
import { isUniqueViolation } from "../../db/errors.ts";
import type { BasketOwner } from "../../plugins/guest.ts";
import { HttpError } from "../../http-errors.ts";
import { sha256 } from "../auth/tokens.ts";
import { pounds } from "../catalog/products/products.ts";
import { putOrderStockBack } from "../stock/ledger.ts";
import { orders } from "../orders/schema.ts";
import { hireRequests } from "../hire/schema.ts";
import { upFrontTotal } from "../hire/requests.ts";
import { type PaymentInstructions, type RemittanceStart, withdrawRemittance } from "../trade/credit/remittances.ts";
import type { TradeRemittance } from "../trade/credit/remittance-schema.ts";
import { type GatewaySession, GatewayUnavailableError } from "./gateway.ts";
import { paymentSessions } from "./schema.ts";
import { PAYMENT_MESSAGES, type PaymentContext, SESSION_MINUTES, type SessionRow, type SessionSpec, money } from "./context.ts";
import type { Settlement } from "./settle.ts";

/**
 * Hosted payment pages (ADR 0033): opened for an order, a trade remittance
 * or a hire request (a retry finds the one still open), the emailed pay
 * links, the customer leaving a page, and where the browser goes back to.
 */
export function createPaymentPages(ctx: PaymentContext, settlement: Pick<Settlement, "applyPaid" | "applyClosed" | "settleStale" | "basketBackAfterCommit" | "referenceOf">) {
  const { db, options, now, requireGateway, inTx, lockSession } = ctx;
  const { applyPaid, applyClosed, settleStale, basketBackAfterCommit, referenceOf } = settlement;

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

  return {
    startOrderPayment,
    startInvoicePayment,
    withdrawInvoicePayment,
    cardInstructions,
    payHire,
    payHireFor,
    payOrderLink,
    withdrawOrder,
    closeByCustomer,
    pendingSession,
    sessionByToken,
    targetOf,
    cancelTarget,
  };
}
