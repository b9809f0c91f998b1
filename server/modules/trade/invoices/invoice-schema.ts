import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, invoiceTotalsPence, optionalRef, serialId, timestamptz } from "../../../db/columns.ts";
import { hireRequests } from "../../hire/schema.ts";
import { orders } from "../../orders/schema.ts";
import { accountDocument } from "../schema.ts";
import { tradeSites } from "../accounts/sites-schema.ts";

export const INVOICE_STATUSES = ["unpaid", "payment_pending", "paid"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * An invoice for an order paid on account (made in the checkout's transaction)
 * or for a trade customer's hire charges. What is left to pay is
 * `total − paid − credited`; it is `paid` once nothing is left.
 */
export const tradeInvoices = pgTable(
  "trade_invoices",
  {
    id: serialId(),
    /** Numbered `INV-000123`. */
    ...accountDocument(),
    /** Exactly one of an order and a hire request. */
    orderId: optionalRef("order_id", () => orders.id, { onDelete: "restrict" }),
    hireRequestId: optionalRef("hire_request_id", () => hireRequests.id, { onDelete: "restrict" }),
    /** Calendar dates in Europe/London; due = invoice date + the account's terms. */
    invoiceDate: date("invoice_date", { mode: "string" }).notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    ...invoiceTotalsPence(),
    poReference: text("po_reference").notNull().default(""),
    /** The site its order was for (issue 32); none for a hire request or an order for no site. */
    siteId: optionalRef("site_id", () => tradeSites.id, { onDelete: "restrict" }),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("unpaid"),
    /** Pence of payments allocated to it (trade_payment_allocations). */
    paidAmount: integer("paid_pence").notNull().default(0),
    /** Pence of credit notes applied to it. */
    creditedAmount: integer("credited_pence").notNull().default(0),
    paidAt: timestamptz("paid_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("trade_invoices_number_key").on(t.number),
    uniqueIndex("trade_invoices_order_key").on(t.orderId),
    uniqueIndex("trade_invoices_hire_request_key").on(t.hireRequestId).where(sql`${t.hireRequestId} is not null`),
    // Reminders and the automatic hold look for unpaid invoices by due date, across accounts.
    index("trade_invoices_due_idx").on(t.dueDate).where(sql`${t.status} <> 'paid'`),
    check("trade_invoices_one_source", sql`(${t.orderId} is null) <> (${t.hireRequestId} is null)`),
    check("trade_invoices_settled_within_total", sql`${t.paidAmount} >= 0 and ${t.creditedAmount} >= 0 and ${t.paidAmount} + ${t.creditedAmount} <= ${t.total}`),
    index("trade_invoices_account_idx").on(t.tradeAccountId, t.status, t.dueDate),
    index("trade_invoices_site_idx").on(t.siteId, t.invoiceDate).where(sql`${t.siteId} is not null`),
    check("trade_invoices_status", sql`${t.status} in ('unpaid', 'payment_pending', 'paid')`),
    check("trade_invoices_total_positive", sql`${t.total} >= 0`),
    check("trade_invoices_due_after_invoice", sql`${t.dueDate} >= ${t.invoiceDate}`),
  ],
);

export type TradeInvoice = typeof tradeInvoices.$inferSelect;
