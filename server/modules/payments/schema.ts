import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId, timestampNow, timestamps, timestamptz } from "../../db/columns.ts";
import { hireRequests } from "../hire/schema.ts";
import { orders } from "../orders/schema.ts";
import { staff } from "../staff/schema.ts";
import { tradeRemittances } from "../trade/credit/remittance-schema.ts";

/** Which gateway (`stripe` or `test`) holds it, and the gateway's id for it: unique together. */
const atGateway = () => ({
  gateway: text("gateway").notNull(),
  externalId: text("external_id").notNull(),
});

/** What a hosted payment page was opened for: exactly one of an order, a trade remittance or a hire request. */
export const PAYMENT_PURPOSES = ["order", "invoices", "hire"] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];

/** open (the customer may pay) → paid | expired | failed; flagged when what arrived did not match what was asked. */
export const SESSION_STATUSES = ["open", "paid", "expired", "failed", "flagged"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * One hosted payment page (a Stripe Checkout Session, or the built-in test
 * page's): what it asks for, for what, and how it ended. Its row is the lock
 * that makes "mark paid" happen once, whichever of the webhook and the
 * customer's return gets there first (ADR 0033).
 */
export const paymentSessions = pgTable(
  "payment_sessions",
  {
    id: serialId(),
    /** The gateway, and its id for the page (`cs_…`). */
    ...atGateway(),
    purpose: text("purpose", { enum: PAYMENT_PURPOSES }).notNull(),
    orderId: optionalRef("order_id", () => orders.id, { onDelete: "cascade" }),
    remittanceId: optionalRef("remittance_id", () => tradeRemittances.id, { onDelete: "cascade" }),
    hireRequestId: optionalRef("hire_request_id", () => hireRequests.id, { onDelete: "cascade" }),
    /** Pence, and the ISO currency in lower case, as asked. */
    amount: integer("amount_pence").notNull(),
    currency: text("currency").notNull().default("gbp"),
    status: text("status", { enum: SESSION_STATUSES }).notNull().default("open"),
    /** Where the customer pays. */
    url: text("url").notNull(),
    /** The hash of the token in the return and cancel links: only the payer's browser holds it. */
    returnTokenHash: text("return_token_hash").notNull(),
    /** Why staff must look: an amount or currency that did not match. */
    problem: text("problem"),
    expiresAt: timestamptz("expires_at").notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("payment_sessions_external_key").on(t.gateway, t.externalId),
    uniqueIndex("payment_sessions_return_key").on(t.returnTokenHash),
    index("payment_sessions_order_idx").on(t.orderId).where(sql`${t.orderId} is not null`),
    index("payment_sessions_remittance_idx").on(t.remittanceId).where(sql`${t.remittanceId} is not null`),
    index("payment_sessions_hire_idx").on(t.hireRequestId).where(sql`${t.hireRequestId} is not null`),
    // The sweep that closes sessions whose expiry webhook never came.
    index("payment_sessions_open_idx").on(t.expiresAt).where(sql`${t.status} = 'open'`),
    check("payment_sessions_purpose", sql`${t.purpose} in ('order', 'invoices', 'hire')`),
    check(
      "payment_sessions_one_target",
      sql`(${t.purpose} = 'order' and ${t.orderId} is not null) or (${t.purpose} = 'invoices' and ${t.remittanceId} is not null) or (${t.purpose} = 'hire' and ${t.hireRequestId} is not null)`,
    ),
    check("payment_sessions_status", sql`${t.status} in ('open', 'paid', 'expired', 'failed', 'flagged')`),
    check("payment_sessions_amount_positive", sql`${t.amount} > 0`),
  ],
);

/**
 * Money received: one per session at most (the unique key is the second
 * guard after the session's row lock). `refunded` can never pass `amount`:
 * a check in the database, whatever runs at the same time.
 */
export const payments = pgTable(
  "payments",
  {
    id: serialId(),
    sessionId: ref("session_id", () => paymentSessions.id, { onDelete: "restrict" }),
    /** The gateway's payment (`pi_…`): refunds are made against it. */
    ...atGateway(),
    amount: integer("amount_pence").notNull(),
    currency: text("currency").notNull(),
    /** Pence refunded or being refunded (pending and succeeded refunds). */
    refunded: integer("refunded_pence").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payments_session_key").on(t.sessionId),
    uniqueIndex("payments_external_key").on(t.gateway, t.externalId),
    check("payments_refunded_within_amount", sql`${t.refunded} >= 0 and ${t.refunded} <= ${t.amount}`),
    check("payments_amount_positive", sql`${t.amount} > 0`),
  ],
);

export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
/** staff (the orders desk), gateway (made in Stripe's own dashboard), automatic (paid after the order was cancelled). */
export const REFUND_SOURCES = ["staff", "gateway", "automatic"] as const;
export type RefundSource = (typeof REFUND_SOURCES)[number];

/** Money given back. Its own id is the idempotency key sent to the gateway, so a retry never refunds twice. */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: serialId(),
    paymentId: ref("payment_id", () => payments.id, { onDelete: "restrict" }),
    amount: integer("amount_pence").notNull(),
    reason: text("reason").notNull().default(""),
    /** The order lines refunded, when made by lines: [{ line_id, quantity }]. */
    lines: jsonb("lines").$type<{ line_id: number; quantity: number }[]>(),
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("pending"),
    source: text("source", { enum: REFUND_SOURCES }).notNull(),
    /** The gateway's refund (`re_…`), once it answered. */
    externalId: text("external_id"),
    staffId: optionalRef("staff_id", () => staff.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    index("payment_refunds_payment_idx").on(t.paymentId, t.id),
    uniqueIndex("payment_refunds_external_key").on(t.externalId).where(sql`${t.externalId} is not null`),
    check("payment_refunds_amount_positive", sql`${t.amount} > 0`),
    check("payment_refunds_status", sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

/**
 * Every webhook event the shop has taken in, by the gateway's event id: a
 * repeat finds its row and is acknowledged without being applied again. The
 * row is written in the same transaction as the event's effect.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    gateway: text("gateway").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    receivedAt: timestampNow("received_at"),
  },
  (t) => [uniqueIndex("payment_events_key").on(t.gateway, t.eventId)],
);
