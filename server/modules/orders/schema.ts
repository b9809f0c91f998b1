import { sql } from "drizzle-orm";
import { date, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, orderTotals, ref, serialId, statusWithNote, threeLineUkAddress, timestamps, timestamptz, updatedAt } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";
import { branches } from "../branches/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { staff } from "../staff/schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { tradeSites } from "../trade/accounts/sites-schema.ts";

export { ORDER_STATUSES, type OrderStatus } from "./statuses.ts";

export const orders = pgTable(
  "orders",
  {
    id: serialId(),
    number: text("number").notNull(),
    userId: optionalRef("user_id", () => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    phone: text("phone").notNull().default(""),
    status: text("status").notNull(),
    deliveryMethod: text("delivery_method").notNull(),
    deliveryName: text("delivery_name").notNull(),
    /**
     * Who the order is for, as the shop addresses them (issue 34): the
     * recipient named on a delivery, the collector of a collection, the
     * walk-in's or customer's name on a staff order. Orders from before names
     * were asked took the delivery address's name or the account's; an empty
     * one shows the email (orders/names.ts).
     */
    customerName: text("customer_name").notNull().default(""),
    /** Pence. Goods ex VAT, their VAT, delivery inc VAT, total paid. */
    ...orderTotals(),
    /** Pence ex VAT promotions took off the goods (the lines' discounts; the subtotal is after it). */
    discount: integer("discount").notNull().default(0),
    paymentMethod: text("payment_method").notNull(),
    notes: text("notes").notNull().default(""),
    poReference: text("po_reference").notNull().default(""),
    /** The member of staff who took the order at the counter or by phone (issue 34); null for the storefront's checkout. */
    createdByStaffId: optionalRef("created_by_staff_id", () => staff.id, { onDelete: "set null" }),
    /**
     * How the money arrived, when staff recorded it (issue 34): the card
     * terminal's or cash receipt's reference at the counter, or the bank
     * transfer's reference, amount (pence) and date when marked paid.
     */
    paymentReference: text("payment_reference").notNull().default(""),
    paidAmount: integer("paid_amount"),
    paidOn: date("paid_on", { mode: "string" }),
    /** A retried checkout with the same key returns this order. */
    idempotencyKey: text("idempotency_key"),
    /**
     * A guest's order: the hash of the guest cookie (`tc_guest`) it was placed
     * with, so the same browser can claim it on sign-up or sign-in (ADR 0017).
     * Null once claimed, and for orders placed signed in.
     */
    guestKeyHash: text("guest_key_hash"),
    /**
     * The company the order was bought for: set at checkout when the buyer is a
     * member of an approved trade account, whatever the payment method (ADR 0024).
     */
    tradeAccountId: optionalRef("trade_account_id", () => tradeAccounts.id, { onDelete: "set null" }),
    /**
     * The branch the order is collected from or sent from (issue 30): for a
     * delivery, the one the fulfilment rule chose (stock/fulfilment.ts); null
     * when its lines come from several, each named by its stock movements.
     */
    branchId: optionalRef("branch_id", () => branches.id),
    /** The company's site it is for (issue 32): chosen at checkout, or the quote's. */
    siteId: optionalRef("site_id", () => tradeSites.id, { onDelete: "restrict" }),
    /** A collection order: when it was promised ready (later when its stock comes from another branch by transfer). */
    collectReadyAt: timestamptz("collect_ready_at"),
    /** Shown at the counter to collect (orders/collection.ts): made when the order is ready, on the ready email with its QR code. */
    collectionCode: text("collection_code"),
    /** When the uncollected reminder went (orders/uncollected.ts): once per order. */
    collectionRemindedAt: timestamptz("collection_reminded_at"),
    /** Set when the order is dispatched (the orders desk asks for both). */
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    createdAt: createdAt(),
    /** Every change of status moves it: the desk compares it to tell a member the order changed under them. */
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("orders_number_key").on(t.number),
    uniqueIndex("orders_idempotency_key").on(t.idempotencyKey),
    index("orders_user_idx").on(t.userId, t.id),
    index("orders_guest_key_idx").on(t.guestKeyHash).where(sql`${t.guestKeyHash} is not null`),
    // The company's recent orders (newest id first) and its spend by month.
    index("orders_trade_account_idx").on(t.tradeAccountId, t.id).where(sql`${t.tradeAccountId} is not null`),
    index("orders_trade_account_created_idx").on(t.tradeAccountId, t.createdAt).where(sql`${t.tradeAccountId} is not null`),
    // A buyer's orders for one site, newest first.
    index("orders_site_idx").on(t.siteId, t.id).where(sql`${t.siteId} is not null`),
    // The orders desk: newest first within a status tab, and by date.
    index("orders_status_idx").on(t.status, t.id),
    // A branch's queue: its orders newest first within a status.
    index("orders_branch_status_idx").on(t.branchId, t.status, t.id).where(sql`${t.branchId} is not null`),
    index("orders_created_idx").on(t.createdAt),
    index("orders_email_idx").on(sql`lower(${t.email})`),
  ],
);

/**
 * An order a member of staff started at the counter or by phone and saved to
 * finish later (issue 34): what the form held, as it held it. Nothing is
 * reserved or charged until it is placed; then the draft is deleted.
 */
export const orderDrafts = pgTable(
  "order_drafts",
  {
    id: serialId(),
    staffId: optionalRef("staff_id", () => staff.id, { onDelete: "set null" }),
    userId: optionalRef("user_id", () => users.id, { onDelete: "cascade" }),
    /** The customer's name as the list shows it (the walk-in's, or the account's). */
    label: text("label").notNull().default(""),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    ...timestamps(),
  },
  (t) => [index("order_drafts_updated_idx").on(t.updatedAt, t.id)],
);

export const orderLines = pgTable(
  "order_lines",
  {
    id: serialId(),
    orderId: ref("order_id", () => orders.id, { onDelete: "cascade" }),
    productId: optionalRef("product_id", () => products.id, { onDelete: "set null" }),
    variantId: optionalRef("variant_id", () => productVariants.id, { onDelete: "set null" }),
    /** The variant's SKU and option values as sold, so documents name what was bought. */
    sku: text("sku").notNull(),
    options: jsonb("options").$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** The unit it was sold in (catalog/products/units.ts). */
    unit: text("unit").notNull().default("each"),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    quantity: integer("quantity").notNull(),
    /** Pence ex VAT. */
    unitPrice: integer("unit_price").notNull(),
    vatRate: integer("vat_rate").notNull(),
    /** Pence ex VAT the line was sold for: unit price × quantity less its discount. Its VAT is on this. */
    lineTotal: integer("line_total").notNull(),
    lineVat: integer("line_vat").notNull(),
    /** Pence ex VAT promotions took off the line (issue 32): its share of a code's discount, or its multi-buy. */
    discount: integer("discount").notNull().default(0),
    /** Units the customer cancelled before dispatch (returns/cancel.ts): not picked, their stock back, their money refunded. */
    cancelledQuantity: integer("cancelled_quantity").notNull().default(0),
  },
  (t) => [index("order_lines_order_idx").on(t.orderId)],
);

export const orderAddresses = pgTable(
  "order_addresses",
  {
    id: serialId(),
    orderId: ref("order_id", () => orders.id, { onDelete: "cascade" }),
    /** delivery | billing */
    kind: text("kind").notNull(),
    name: text("name").notNull().default(""),
    /** The recipient's company, optional (issue 34). */
    company: text("company").notNull().default(""),
    ...threeLineUkAddress(),
  },
  (t) => [index("order_addresses_order_idx").on(t.orderId), index("order_addresses_postcode_idx").on(t.postcode)],
);

export const orderStatusHistory = pgTable(
  "order_status_history",
  {
    id: serialId(),
    orderId: ref("order_id", () => orders.id, { onDelete: "cascade" }),
    ...statusWithNote(),
    /** `status` (a move, with its note) or `note` (staff's note, the status unchanged). */
    kind: text("kind").notNull().default("status"),
    /** The member of staff who made it; null for the customer's own checkout. */
    staffId: optionalRef("staff_id", () => staff.id),
    createdAt: createdAt(),
  },
  (t) => [index("order_status_history_order_idx").on(t.orderId, t.id)],
);
