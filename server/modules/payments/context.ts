import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import type { Outbox } from "../auth/service.ts";
import type { BasketService } from "../basket/service.ts";
import { pounds } from "../catalog/products/products.ts";
import { renderEmail } from "../mail/templates.ts";
import type { ShopMail } from "../orders/emails.ts";
import { orderStatusHistory, type orders } from "../orders/schema.ts";
import type { PaymentGateway } from "./gateway.ts";
import { type RefundSource, paymentRefunds, paymentSessions, payments } from "./schema.ts";

/**
 * What every part of the card payments service (service.ts) shares: the
 * gateway, the clock, one transaction with work after its commit, and the
 * order notes and emails it writes.
 */

/** How long a hosted payment page stays open (Stripe's minimum is 30 minutes). */
export const SESSION_MINUTES = 30;

export const PAYMENT_MESSAGES = {
  unavailable: "We could not open the card payment page. Nothing was charged and your basket is as it was: please try again in a moment, or choose another way to pay.",
  cancelled: "You left the card payment page, so the order was not placed. Nothing was charged and your basket is as it was.",
  refundFailed: "The card refund could not be made, so nothing was refunded. Please try again in a moment.",
  closeFailed: "We could not reach the payment service to close the payment page. Nothing has been charged: please try again in a moment.",
  invoicesUnavailable: "We could not open the card payment page. Nothing was charged and your invoices are unpaid as they were: please try again in a moment, or pay by bank transfer.",
  hireUnavailable: "We could not open the card payment page. Nothing was charged: please follow the link in your email again in a moment.",
  linkInvalid: "This payment link is not valid.",
} as const;

export type SessionRow = typeof paymentSessions.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof paymentRefunds.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;

/** What a payment page is for: the column it fills on its session row. */
export type SessionTarget = { purpose: "order"; orderId: number } | { purpose: "invoices"; remittanceId: number } | { purpose: "hire"; hireRequestId: number };

/** A payment page to open, for one thing the shop sells. */
export interface SessionSpec {
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
export type AfterCommit = () => Promise<void>;

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

export const money = (pence: number) => `£${pounds(pence).toFixed(2)}`;

/** The card payments service's shared handles, built once per service (createPaymentService). */
export function createPaymentContext(db: Db, options: PaymentServiceOptions) {
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

  return { db, options, gateway, now, requireGateway, inTx, lockSession, sessionByExternal, orderNote, emailCustomer, recomputeRefunded };
}

export type PaymentContext = ReturnType<typeof createPaymentContext>;
