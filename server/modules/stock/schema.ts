import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { productVariants, products } from "../catalog/schema.ts";
import { staff } from "../staff/schema.ts";
import { MOVEMENT_KINDS } from "./kinds.ts";

export { MOVEMENT_KINDS, type MovementKind } from "./kinds.ts";

/**
 * The stock ledger (ADR 0035): every change of a variant's stock, with who and
 * when. `product_variants.stock` is the sum of its movements, written by the
 * same statement as each one (server/modules/stock/ledger.ts); the product's
 * own stock is its variants' total (ADR 0046).
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
    change: integer("change").notNull(),
    kind: text("kind", { enum: MOVEMENT_KINDS }).notNull(),
    reason: text("reason").notNull().default(""),
    /** The variant's stock once this movement was applied. */
    stockAfter: integer("stock_after").notNull(),
    staffId: integer("staff_id").references(() => staff.id, { onDelete: "set null" }),
    orderId: integer("order_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    index("stock_movements_product_idx").on(t.productId, t.id),
    index("stock_movements_variant_idx").on(t.variantId, t.id),
    index("stock_movements_created_idx").on(t.createdAt, t.id),
    check("stock_movements_kind_check", sql`${t.kind} in ('opening', 'received', 'counted', 'adjusted', 'sold', 'returned', 'cancelled')`),
    check("stock_movements_stock_after_check", sql`${t.stockAfter} >= 0`),
  ],
);
