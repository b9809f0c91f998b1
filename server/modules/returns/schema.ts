import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId, statusWithNote, timestamps, timestamptz } from "../../db/columns.ts";
import { branches } from "../branches/schema.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { staff } from "../staff/schema.ts";

export { RETURN_STATUSES, type ReturnStatus } from "./statuses.ts";

/**
 * A customer's return of some of an order's goods (issue 31): its lines, how
 * the goods come back, and what became of them. Its number is `RMA-` and its
 * id. The order's row lock is what keeps two requests from returning the
 * same unit twice (returns/service.ts).
 */
export const returns = pgTable(
  "returns",
  {
    id: serialId(),
    number: text("number")
      .notNull()
      .generatedAlwaysAs(sql`'RMA-' || lpad(id::text, 6, '0')`),
    orderId: ref("order_id", () => orders.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("requested"),
    /** branch | post | collection (statuses.ts). */
    method: text("method").notNull(),
    /** Where the goods come back to (method `branch`), and where they were received. */
    branchId: optionalRef("branch_id", () => branches.id),
    /** Pence inc VAT, taken off the refund: a collection of heavy goods the customer sends back for their own reasons. */
    collectionCharge: integer("collection_charge").notNull().default(0),
    /** Told to the customer when rejected. */
    rejectReason: text("reject_reason").notNull().default(""),
    /** Pence taken off for handling beyond what inspecting the goods needed, with its reason. */
    deduction: integer("deduction").notNull().default(0),
    deductionReason: text("deduction_reason").notNull().default(""),
    /** Pence given back, once refunded; how (card, credit_note, manual), and the card refund or credit note it went by. */
    refunded: integer("refunded"),
    refundMethod: text("refund_method"),
    paymentRefundId: integer("payment_refund_id"),
    creditNoteNumber: text("credit_note_number"),
    /** The replacement order of an exchange. */
    exchangeOrderId: optionalRef("exchange_order_id", () => orders.id, { onDelete: "set null" }),
    /** Who asked: the customer online, or staff for them. */
    requestedBy: text("requested_by").notNull().default("customer"),
    receivedAt: timestamptz("received_at"),
    refundedAt: timestamptz("refunded_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("returns_number_key").on(t.number),
    index("returns_order_idx").on(t.orderId, t.id),
    // The returns desk: newest first within a status tab.
    index("returns_status_idx").on(t.status, t.id),
    // The dashboard's count of returns received and not yet refunded.
    index("returns_received_idx").on(t.receivedAt).where(sql`${t.status} = 'received'`),
    check("returns_status_check", sql`${t.status} in ('requested', 'approved', 'rejected', 'received', 'refunded', 'exchanged', 'closed')`),
    check("returns_method_check", sql`${t.method} in ('branch', 'post', 'collection')`),
    check("returns_money_check", sql`${t.collectionCharge} >= 0 and ${t.deduction} >= 0 and (${t.refunded} is null or ${t.refunded} >= 0)`),
  ],
);

/** A line of a return: how many of an order line, why, and what arrived. */
export const returnLines = pgTable(
  "return_lines",
  {
    id: serialId(),
    returnId: ref("return_id", () => returns.id, { onDelete: "cascade" }),
    orderLineId: ref("order_line_id", () => orderLines.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    reason: text("reason").notNull(),
    note: text("note").notNull().default(""),
    /** At receipt: back in stock as resaleable, and received damaged (written off). The rest did not arrive. */
    received: integer("received").notNull().default(0),
    damaged: integer("damaged").notNull().default(0),
  },
  (t) => [
    index("return_lines_return_idx").on(t.returnId),
    index("return_lines_order_line_idx").on(t.orderLineId),
    check("return_lines_quantity_check", sql`${t.quantity} > 0 and ${t.received} >= 0 and ${t.damaged} >= 0 and ${t.received} + ${t.damaged} <= ${t.quantity}`),
    check("return_lines_reason_check", sql`${t.reason} in ('changed_mind', 'faulty', 'damaged', 'wrong_item', 'other')`),
  ],
);

/** A return's timeline: each move with its note, and who made it (null: the customer or the shop's rules). */
export const returnEvents = pgTable(
  "return_events",
  {
    id: serialId(),
    returnId: ref("return_id", () => returns.id, { onDelete: "cascade" }),
    ...statusWithNote(),
    staffId: optionalRef("staff_id", () => staff.id),
    createdAt: createdAt(),
  },
  (t) => [index("return_events_return_idx").on(t.returnId, t.id)],
);

/** A stored rendition of a return's photo: its key in the FileStore, type and size. */
export interface ReturnPhotoRendition {
  key: string;
  type: "image/avif" | "image/webp";
  width: number;
  height: number;
}

/**
 * A photo the customer attached to their return (issue 31), made by the
 * shop's image pipeline (media/photos.ts) under `returns/{photo_id}/`: a
 * folder `/media` never serves, so it is only read through the routes that
 * check who asks (ADR 0050). The original, as uploaded, is kept and never served.
 */
export const returnPhotos = pgTable(
  "return_photos",
  {
    id: serialId(),
    returnId: ref("return_id", () => returns.id, { onDelete: "cascade" }),
    /** The pipeline's id of the photo: the folder of its files, and its name in URLs. */
    photoId: text("photo_id").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    renditions: jsonb("renditions").$type<ReturnPhotoRendition[]>().notNull(),
    originalKey: text("original_key").notNull(),
    /** What it shows, in the customer's words (optional). */
    caption: text("caption").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("return_photos_photo_key").on(t.photoId), index("return_photos_return_idx").on(t.returnId, t.id)],
);
