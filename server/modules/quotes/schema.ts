import { sql } from "drizzle-orm";
import { check, date, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId, statusWithNote, timestampNow, timestamps, timestamptz } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { orders } from "../orders/schema.ts";
import { staff } from "../staff/schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { tradeSites } from "../trade/accounts/sites-schema.ts";
import type { QuoteSnapshot } from "./statuses.ts";

export { QUOTE_STATUSES, type QuoteStatus } from "./statuses.ts";

/**
 * A quote (issue 32): lines at prices staff set for one customer, accepted
 * once into an order at exactly those prices. Its number is `Q-` and its id.
 * `revision` is the version being drafted or last sent: it goes up when a
 * sent quote is changed, by staff or at the customer's asking, and each sent
 * version is kept in quote_revisions. The row's lock is what makes two
 * acceptances at once one order (quotes/accept.ts); `order_id` is unique.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: serialId(),
    number: text("number")
      .notNull()
      .generatedAlwaysAs(sql`'Q-' || lpad(id::text, 6, '0')`),
    /** requested | drafting | sent | accepted | declined | expired (statuses.ts). */
    status: text("status").notNull(),
    /** The customer it is for: who asked, or whom staff started it for. */
    userId: ref("user_id", () => users.id, { onDelete: "cascade" }),
    /** Their company when they asked (an approved trade account): its owners and admins see and accept it too. */
    tradeAccountId: optionalRef("trade_account_id", () => tradeAccounts.id, { onDelete: "set null" }),
    /** The version being drafted, or the last one sent (1, 2, …). */
    revision: integer("revision").notNull().default(1),
    /** The customer's notes with the request. */
    notes: text("notes").notNull().default(""),
    neededBy: date("needed_by", { mode: "string" }),
    /** The company's site it is for (issue 32); its order is for the same site. */
    siteId: optionalRef("site_id", () => tradeSites.id, { onDelete: "set null" }),
    /** The last day it may be accepted (Europe/London); set before it is sent. */
    validUntil: date("valid_until", { mode: "string" }),
    terms: text("terms").notNull().default(""),
    /** Pence ex VAT for delivery; null: the shop's usual delivery price at acceptance; 0: free. */
    deliveryExVat: integer("delivery_ex_vat"),
    /** The order it became. */
    orderId: optionalRef("order_id", () => orders.id, { onDelete: "set null" }),
    /** Told to the customer when staff decline, or theirs when they do. */
    declineReason: text("decline_reason").notNull().default(""),
    createdByStaffId: optionalRef("created_by_staff_id", () => staff.id, { onDelete: "set null" }),
    sentAt: timestamptz("sent_at"),
    acceptedAt: timestamptz("accepted_at"),
    /** The reminder before expiry: once per sent version. */
    remindedAt: timestamptz("reminded_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("quotes_number_key").on(t.number),
    uniqueIndex("quotes_order_key").on(t.orderId),
    // The quotes desk: newest first within a status tab.
    index("quotes_status_idx").on(t.status, t.id),
    index("quotes_user_idx").on(t.userId, t.id),
    index("quotes_trade_account_idx").on(t.tradeAccountId, t.id).where(sql`${t.tradeAccountId} is not null`),
    // The daily job: sent quotes by their last day.
    index("quotes_sent_valid_idx").on(t.validUntil).where(sql`${t.status} = 'sent'`),
    check("quotes_status_check", sql`${t.status} in ('requested', 'drafting', 'sent', 'accepted', 'declined', 'expired')`),
    check("quotes_delivery_check", sql`${t.deliveryExVat} is null or ${t.deliveryExVat} >= 0`),
    check("quotes_accepted_check", sql`(${t.status} = 'accepted') = (${t.orderId} is not null)`),
  ],
);

/** A quote's line: what, how many, and the price quoted (pence ex VAT); `base_price` is the customer's own price when it was added, the floor's measure. */
export const quoteLines = pgTable(
  "quote_lines",
  {
    id: serialId(),
    quoteId: ref("quote_id", () => quotes.id, { onDelete: "cascade" }),
    productId: ref("product_id", () => products.id),
    variantId: ref("variant_id", () => productVariants.id),
    sku: text("sku").notNull(),
    name: text("name").notNull(),
    unit: text("unit").notNull().default("each"),
    quantity: integer("quantity").notNull(),
    basePrice: integer("base_price").notNull(),
    unitPrice: integer("unit_price").notNull(),
    vatRate: integer("vat_rate").notNull(),
  },
  (t) => [
    index("quote_lines_quote_idx").on(t.quoteId, t.id),
    check("quote_lines_quantity_check", sql`${t.quantity} > 0`),
    check("quote_lines_price_check", sql`${t.unitPrice} >= 0 and ${t.basePrice} >= 0`),
  ],
);

/** Each version as it was sent: its lines, delivery, validity and terms; the customer's PDF of an old one is made from it. */
export const quoteRevisions = pgTable(
  "quote_revisions",
  {
    id: serialId(),
    quoteId: ref("quote_id", () => quotes.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    snapshot: jsonb("snapshot").$type<QuoteSnapshot>().notNull(),
    sentAt: timestampNow("sent_at"),
  },
  (t) => [uniqueIndex("quote_revisions_key").on(t.quoteId, t.revision)],
);

/** The quote's timeline: each change of status with who made it and what they said. */
export const quoteEvents = pgTable(
  "quote_events",
  {
    id: serialId(),
    quoteId: ref("quote_id", () => quotes.id, { onDelete: "cascade" }),
    ...statusWithNote(),
    /** customer | staff | system. */
    by: text("by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("quote_events_quote_idx").on(t.quoteId, t.id)],
);
