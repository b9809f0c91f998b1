import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { pounds } from "../catalog/products/products.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { checkRefundLimit } from "../staff/refund-limit.ts";
import { staff } from "../staff/schema.ts";
import { GatewayUnavailableError, type PaymentGateway } from "./gateway.ts";
import { paymentRefunds, paymentSessions, payments } from "./schema.ts";
import { type AfterCommit, type OrderPaymentJson, type OrderRow, PAYMENT_MESSAGES, type PaymentContext, type PaymentRow, type RefundInput, type RefundRow, money } from "./context.ts";

/**
 * Card refunds (ADR 0033): recorded under the payment's lock, sent to the
 * gateway once committed (the refund row's id its idempotency key), settled
 * by the gateway's answer or its webhook, and what the gateway's dashboard
 * refunded reconciled; and the view of what an order paid and got back.
 */
export function createRefunds(ctx: PaymentContext) {
  const { db, gateway, options, requireGateway, inTx, orderNote, emailCustomer, recomputeRefunded } = ctx;

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

  return { sendRefund, settleRefund, refundAutomatically, reconcileRefunds, forOrder, recordRefund, sendOrFail };
}

export type Refunds = ReturnType<typeof createRefunds>;
