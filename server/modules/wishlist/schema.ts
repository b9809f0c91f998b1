import { index, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { ref, timestampNow } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";
import { products } from "../catalog/schema.ts";

/** A product a user saved; one row per user and product. */
export const wishlistItems = pgTable(
  "wishlist_items",
  {
    userId: ref("user_id", () => users.id, { onDelete: "cascade" }),
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    addedAt: timestampNow("added_at"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] }), index("wishlist_items_user_added_idx").on(t.userId, t.addedAt)],
);
