import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId, timestamptz } from "../../../db/columns.ts";
import { users } from "../../auth/schema.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { tradeAccounts } from "../schema.ts";

export const REMITTANCE_STATUSES = ["pending", "confirmed"] as const;
export type RemittanceStatus = (typeof REMITTANCE_STATUSES)[number];

/**
 * A company's payment of one or more invoices (issue 7): what it said it would
 * pay, how, and the reference it quotes. Pending until staff have seen the
 * money for every invoice in it (`npm run shop -- invoice:paid`).
 */
export const tradeRemittances = pgTable(
  "trade_remittances",
  {
    id: serialId(),
    /** Readable, `REM-000012`: the reference the payer quotes. */
    reference: text("reference").notNull(),
    tradeAccountId: ref("trade_account_id", () => tradeAccounts.id, { onDelete: "restrict" }),
    /** The sum of its invoices' totals when it was made. */
    amount: integer("amount_pence").notNull(),
    /** The InvoicePaymentProvider that took it, e.g. `bank_transfer`. */
    provider: text("provider").notNull(),
    createdBy: optionalRef("created_by", () => users.id, { onDelete: "set null" }),
    status: text("status", { enum: REMITTANCE_STATUSES }).notNull().default("pending"),
    confirmedAt: timestamptz("confirmed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("trade_remittances_reference_key").on(t.reference),
    index("trade_remittances_account_idx").on(t.tradeAccountId, t.createdAt),
    check("trade_remittances_status", sql`${t.status} in ('pending', 'confirmed')`),
    check("trade_remittances_amount_positive", sql`${t.amount} > 0`),
  ],
);

/** The invoices a remittance pays. An invoice may appear in more than one over time (e.g. a payment that never came). */
export const tradeRemittanceInvoices = pgTable(
  "trade_remittance_invoices",
  {
    remittanceId: ref("remittance_id", () => tradeRemittances.id, { onDelete: "cascade" }),
    invoiceId: ref("invoice_id", () => tradeInvoices.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.remittanceId, t.invoiceId] }), index("trade_remittance_invoices_invoice_idx").on(t.invoiceId)],
);

export type TradeRemittance = typeof tradeRemittances.$inferSelect;
