import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId, timestamps, timestamptz } from "../../db/columns.ts";
import { branches } from "../branches/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { staff } from "../staff/schema.ts";
import { MOVEMENT_KINDS, TRANSFER_STATES } from "./kinds.ts";

export { MOVEMENT_KINDS, type MovementKind } from "./kinds.ts";

/**
 * The stock ledger (ADR 0035): every change of a variant's stock at a branch,
 * with who and when. A variant's stock at a branch (`branch_stock`) is the sum
 * of its movements there, and `product_variants.stock` their total over the
 * branches, both written by the same statement as each movement
 * (server/modules/stock/ledger.ts, ADR 0047); the product's own stock is its
 * variants' total (ADR 0046).
 */
export const stockMovements = pgTable(
  "stock_movements",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    variantId: ref("variant_id", () => productVariants.id, { onDelete: "cascade" }),
    /** Where the stock moved: every movement is at a branch (the default one when none is named). */
    branchId: ref("branch_id", () => branches.id),
    change: integer("change").notNull(),
    kind: text("kind", { enum: MOVEMENT_KINDS }).notNull(),
    reason: text("reason").notNull().default(""),
    /** The variant's stock at the branch once this movement was applied. */
    stockAfter: integer("stock_after").notNull(),
    staffId: optionalRef("staff_id", () => staff.id, { onDelete: "set null" }),
    orderId: integer("order_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("stock_movements_product_idx").on(t.productId, t.id),
    index("stock_movements_variant_idx").on(t.variantId, t.id),
    index("stock_movements_created_idx").on(t.createdAt, t.id),
    index("stock_movements_branch_idx").on(t.branchId, t.id),
    index("stock_movements_order_idx").on(t.orderId).where(sql`${t.orderId} is not null`),
    check("stock_movements_kind_check", sql`${t.kind} in ('opening', 'received', 'counted', 'adjusted', 'sold', 'returned', 'cancelled', 'transfer_out', 'transfer_in', 'written_off')`),
    check("stock_movements_stock_after_check", sql`${t.stockAfter} >= 0`),
  ],
);

/**
 * A variant's stock at one branch: the sum of its movements there, never
 * below none. A row is made by the first stock that arrives; a variant with
 * no row at a branch has none there.
 */
export const branchStock = pgTable(
  "branch_stock",
  {
    variantId: ref("variant_id", () => productVariants.id, { onDelete: "cascade" }),
    branchId: ref("branch_id", () => branches.id),
    stock: integer("stock").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.variantId, t.branchId] }),
    // A branch's stock of everything, for its levels and the availability call.
    index("branch_stock_branch_idx").on(t.branchId, t.variantId),
    check("branch_stock_stock_check", sql`${t.stock} >= 0`),
  ],
);

export { TRANSFER_STATES, type TransferState } from "./kinds.ts";

/**
 * Stock moving between branches (issue 30, server/modules/stock/transfers.ts):
 * sending writes `transfer_out` movements at the sender, receiving
 * `transfer_in` at the receiver; in between it is in transit, on neither
 * branch's shelf and shown on both.
 */
export const stockTransfers = pgTable(
  "stock_transfers",
  {
    id: serialId(),
    fromBranchId: ref("from_branch_id", () => branches.id),
    toBranchId: ref("to_branch_id", () => branches.id),
    state: text("state", { enum: TRANSFER_STATES }).notNull().default("requested"),
    note: text("note").notNull().default(""),
    /**
     * A collection order's own transfer (raised at checkout when the branch lacks
     * a line): its stock was taken from the sender by the order's `sold`
     * movements, so sending and receiving it move the goods, not the counts.
     */
    orderId: integer("order_id"),
    requestedBy: optionalRef("requested_by", () => staff.id, { onDelete: "set null" }),
    sentBy: optionalRef("sent_by", () => staff.id, { onDelete: "set null" }),
    receivedBy: optionalRef("received_by", () => staff.id, { onDelete: "set null" }),
    sentAt: timestamptz("sent_at"),
    receivedAt: timestamptz("received_at"),
    ...timestamps(),
  },
  (t) => [
    check("stock_transfers_state_check", sql`${t.state} in ('requested', 'in_transit', 'received', 'cancelled')`),
    check("stock_transfers_branches_check", sql`${t.fromBranchId} <> ${t.toBranchId}`),
    // Each branch's transfers, newest first, within a state.
    index("stock_transfers_from_idx").on(t.fromBranchId, t.state, t.id),
    index("stock_transfers_to_idx").on(t.toBranchId, t.state, t.id),
    index("stock_transfers_state_idx").on(t.state, t.id),
    index("stock_transfers_order_idx").on(t.orderId).where(sql`${t.orderId} is not null`),
  ],
);

/** A line of a transfer: how many were asked for, sent, and received (a shortfall is sent less received). */
export const stockTransferLines = pgTable(
  "stock_transfer_lines",
  {
    id: serialId(),
    transferId: ref("transfer_id", () => stockTransfers.id, { onDelete: "cascade" }),
    variantId: ref("variant_id", () => productVariants.id),
    quantity: integer("quantity").notNull(),
    sent: integer("sent"),
    received: integer("received"),
  },
  (t) => [
    uniqueIndex("stock_transfer_lines_variant_key").on(t.transferId, t.variantId),
    // What is in transit of a variant (the levels' figure).
    index("stock_transfer_lines_variant_idx").on(t.variantId),
    check("stock_transfer_lines_quantity_check", sql`${t.quantity} > 0 and (${t.sent} is null or ${t.sent} >= 0) and (${t.received} is null or (${t.received} >= 0 and ${t.received} <= ${t.sent}))`),
  ],
);
