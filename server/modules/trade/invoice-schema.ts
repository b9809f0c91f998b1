import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { orders } from "../orders/schema.ts";
import { tradeAccounts } from "./schema.ts";

export const INVOICE_STATUSES = ["unpaid", "payment_pending", "paid"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * An invoice for an order paid on account, made in the checkout's transaction.
 * Its total stays on the account's balance until it is paid.
 */
export const tradeInvoices = pgTable(
  "trade_invoices",
  {
    id: serial("id").primaryKey(),
    /** Readable, `INV-000123`. */
    number: text("number").notNull(),
    tradeAccountId: integer("trade_account_id")
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: "restrict" }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** Calendar dates in Europe/London; due = invoice date + the account's terms. */
    invoiceDate: date("invoice_date", { mode: "string" }).notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    /** Pence: goods ex VAT, VAT, delivery inc VAT, total. */
    subtotal: integer("subtotal_pence").notNull(),
    vat: integer("vat_pence").notNull(),
    delivery: integer("delivery_pence").notNull(),
    total: integer("total_pence").notNull(),
    poReference: text("po_reference").notNull().default(""),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("unpaid"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex("trade_invoices_number_key").on(t.number),
    uniqueIndex("trade_invoices_order_key").on(t.orderId),
    index("trade_invoices_account_idx").on(t.tradeAccountId, t.status, t.dueDate),
    check("trade_invoices_status", sql`${t.status} in ('unpaid', 'payment_pending', 'paid')`),
    check("trade_invoices_total_positive", sql`${t.total} >= 0`),
    check("trade_invoices_due_after_invoice", sql`${t.dueDate} >= ${t.invoiceDate}`),
  ],
);

export type TradeInvoice = typeof tradeInvoices.$inferSelect;
