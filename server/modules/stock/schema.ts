import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { branches } from "../branches/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { staff } from "../staff/schema.ts";
import { MOVEMENT_KINDS } from "./kinds.ts";

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
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    variantId: integer("variant_id")
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    /** Where the stock moved: every movement is at a branch (the default one when none is named). */
    branchId: integer("branch_id")
      .notNull()
      .references(() => branches.id),
    change: integer("change").notNull(),
    kind: text("kind", { enum: MOVEMENT_KINDS }).notNull(),
    reason: text("reason").notNull().default(""),
    /** The variant's stock at the branch once this movement was applied. */
    stockAfter: integer("stock_after").notNull(),
    staffId: integer("staff_id").references(() => staff.id, { onDelete: "set null" }),
    orderId: integer("order_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    index("stock_movements_product_idx").on(t.productId, t.id),
    index("stock_movements_variant_idx").on(t.variantId, t.id),
    index("stock_movements_created_idx").on(t.createdAt, t.id),
    index("stock_movements_branch_idx").on(t.branchId, t.id),
    index("stock_movements_order_idx").on(t.orderId).where(sql`${t.orderId} is not null`),
    check("stock_movements_kind_check", sql`${t.kind} in ('opening', 'received', 'counted', 'adjusted', 'sold', 'returned', 'cancelled', 'transfer_out', 'transfer_in')`),
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
    variantId: integer("variant_id")
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    branchId: integer("branch_id")
      .notNull()
      .references(() => branches.id),
    stock: integer("stock").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.variantId, t.branchId] }),
    // A branch's stock of everything, for its levels and the availability call.
    index("branch_stock_branch_idx").on(t.branchId, t.variantId),
    check("branch_stock_stock_check", sql`${t.stock} >= 0`),
  ],
);
