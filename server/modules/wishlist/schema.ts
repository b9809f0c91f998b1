import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { users } from "../auth/schema.ts";
import { products } from "../catalog/schema.ts";

/** A product a user saved; one row per user and product. */
export const wishlistItems = pgTable(
  "wishlist_items",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] }), index("wishlist_items_user_added_idx").on(t.userId, t.addedAt)],
);
