import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "../auth/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";

/** A purchase basket: a user's, or a guest's by the hashed `tc_guest` cookie. */
export const baskets = pgTable(
  "baskets",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    guestTokenHash: text("guest_token_hash"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [uniqueIndex("baskets_user_key").on(t.userId), uniqueIndex("baskets_guest_key").on(t.guestTokenHash)],
);

export const basketItems = pgTable(
  "basket_items",
  {
    id: serial("id").primaryKey(),
    basketId: integer("basket_id")
      .notNull()
      .references(() => baskets.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The variant is what is bought: the same one twice is one line. */
    variantId: integer("variant_id")
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex("basket_items_basket_variant_key").on(t.basketId, t.variantId),
    index("basket_items_basket_idx").on(t.basketId, t.id),
    check("basket_items_quantity_check", sql`${t.quantity} between 1 and 999`),
  ],
);
