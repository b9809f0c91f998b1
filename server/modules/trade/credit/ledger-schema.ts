import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, creditNoteTotalsPence, netAndVatPence, optionalRef, ref, serialId, timestampNow } from "../../../db/columns.ts";
import { staff } from "../../staff/schema.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { tradeRemittances } from "./remittance-schema.ts";
import { accountDocument, tradeAccounts } from "../schema.ts";

/**
 * The trade ledger (ADR 0040): an account's balance is always its invoices
 * less its credit notes less its payments, each written in the same
 * transaction as the balance it moves.
 */

export const TRADE_PAYMENT_METHODS = ["bacs", "cheque", "card", "cash"] as const;
export type TradePaymentMethod = (typeof TRADE_PAYMENT_METHODS)[number];

/** Money a company paid: allocated across its invoices, any remainder left on account. */
export const tradePayments = pgTable(
  "trade_payments",
  {
    id: serialId(),
    /** Numbered `PAY-000012`. */
    ...accountDocument(),
    /** Pence received. */
    amount: integer("amount_pence").notNull(),
    method: text("method", { enum: TRADE_PAYMENT_METHODS }).notNull(),
    /** The payer's reference, cheque number or card receipt. */
    reference: text("reference").notNull().default(""),
    /** The London date the money arrived. */
    receivedOn: date("received_on", { mode: "string" }).notNull(),
    /** Pence not yet allocated to an invoice: credit on account. */
    unallocated: integer("unallocated_pence").notNull(),
    /** The customer's remittance this payment confirmed, if any. */
    remittanceId: optionalRef("remittance_id", () => tradeRemittances.id, { onDelete: "set null" }),
    /** Null for payments the shop itself recorded (a card payment's webhook, the CLI). */
    recordedBy: optionalRef("recorded_by", () => staff.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("trade_payments_number_key").on(t.number),
    index("trade_payments_account_idx").on(t.tradeAccountId, t.receivedOn),
    check("trade_payments_method", sql`${t.method} in ('bacs', 'cheque', 'card', 'cash')`),
    check("trade_payments_amount_positive", sql`${t.amount} > 0`),
    check("trade_payments_unallocated_range", sql`${t.unallocated} between 0 and ${t.amount}`),
  ],
);

/** Part of a payment set against one invoice. */
export const tradePaymentAllocations = pgTable(
  "trade_payment_allocations",
  {
    paymentId: ref("payment_id", () => tradePayments.id, { onDelete: "cascade" }),
    invoiceId: ref("invoice_id", () => tradeInvoices.id, { onDelete: "restrict" }),
    amount: integer("amount_pence").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.invoiceId] }),
    index("trade_payment_allocations_invoice_idx").on(t.invoiceId),
    check("trade_payment_allocations_amount_positive", sql`${t.amount} > 0`),
  ],
);

/** A credit against an invoice, whole or some of its lines, with staff's reason. */
export const tradeCreditNotes = pgTable(
  "trade_credit_notes",
  {
    id: serialId(),
    /** Numbered `CN-000007`. */
    ...accountDocument(),
    invoiceId: ref("invoice_id", () => tradeInvoices.id, { onDelete: "restrict" }),
    reason: text("reason").notNull(),
    /** London calendar date of issue. */
    issuedOn: date("issued_on", { mode: "string" }).notNull(),
    ...creditNoteTotalsPence(),
    /** Of the total, the pence set against the invoice; the rest is credit on account (the invoice was already paid). */
    applied: integer("applied_pence").notNull(),
    createdBy: optionalRef("created_by", () => staff.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("trade_credit_notes_number_key").on(t.number),
    index("trade_credit_notes_account_idx").on(t.tradeAccountId, t.issuedOn),
    index("trade_credit_notes_invoice_idx").on(t.invoiceId),
    check("trade_credit_notes_total_positive", sql`${t.total} > 0 and ${t.applied} between 0 and ${t.total}`),
  ],
);

/** What a credit note credits: a copy of the invoice line (or part of it), so a later change to the order cannot alter it. */
export const tradeCreditNoteLines = pgTable(
  "trade_credit_note_lines",
  {
    id: serialId(),
    creditNoteId: ref("credit_note_id", () => tradeCreditNotes.id, { onDelete: "cascade" }),
    /** Which invoice line it credits, e.g. `order_line:41`, `hire_charge:7` or `delivery`: a line is never credited past its quantity. */
    source: text("source").notNull(),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    /** Pence ex VAT for the quantity, and its VAT. */
    ...netAndVatPence(),
    /** Pence ex VAT promotions took off the quantity credited (issue 32): `net` is after it, as on the invoice's line. */
    discount: integer("discount_pence").notNull().default(0),
  },
  (t) => [index("trade_credit_note_lines_note_idx").on(t.creditNoteId), check("trade_credit_note_lines_quantity_positive", sql`${t.quantity} > 0`)],
);

/** Notes between staff about an account (never shown to the customer). */
export const tradeAccountNotes = pgTable(
  "trade_account_notes",
  {
    id: serialId(),
    tradeAccountId: ref("trade_account_id", () => tradeAccounts.id, { onDelete: "cascade" }),
    staffId: optionalRef("staff_id", () => staff.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("trade_account_notes_account_idx").on(t.tradeAccountId, t.createdAt)],
);

export const REMINDER_STAGES = ["due", "overdue_7", "overdue_14"] as const;
export type ReminderStage = (typeof REMINDER_STAGES)[number];

/** A reminder sent: the primary key makes each stage of each invoice go out once, whatever runs it. */
export const tradeReminders = pgTable(
  "trade_reminders",
  {
    invoiceId: ref("invoice_id", () => tradeInvoices.id, { onDelete: "cascade" }),
    stage: text("stage", { enum: REMINDER_STAGES }).notNull(),
    sentAt: timestampNow("sent_at"),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.stage] }), check("trade_reminders_stage", sql`${t.stage} in ('due', 'overdue_7', 'overdue_14')`)],
);

/** A monthly statement emailed: one per account per month, whatever runs the job. */
export const tradeStatements = pgTable(
  "trade_statements",
  {
    tradeAccountId: ref("trade_account_id", () => tradeAccounts.id, { onDelete: "cascade" }),
    /** The first day of the month the statement covers. */
    periodStart: date("period_start", { mode: "string" }).notNull(),
    sentAt: timestampNow("sent_at"),
  },
  (t) => [primaryKey({ columns: [t.tradeAccountId, t.periodStart] })],
);
