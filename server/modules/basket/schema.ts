import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, uniqueIndex } from "drizzle-orm/pg-core";
import { basketOwner, createdAt, ref, serialId, updatedAt } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";

/** A purchase basket: a user's, or a guest's by the hashed `tc_guest` cookie. */
export const baskets = pgTable(
  "baskets",
  {
    id: serialId(),
    ...basketOwner(() => users.id),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("baskets_user_key").on(t.userId), uniqueIndex("baskets_guest_key").on(t.guestTokenHash)],
);

export const basketItems = pgTable(
  "basket_items",
  {
    id: serialId(),
    basketId: ref("basket_id", () => baskets.id, { onDelete: "cascade" }),
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    /** The variant is what is bought: the same one twice is one line. */
    variantId: ref("variant_id", () => productVariants.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("basket_items_basket_variant_key").on(t.basketId, t.variantId),
    index("basket_items_basket_idx").on(t.basketId, t.id),
    check("basket_items_quantity_check", sql`${t.quantity} between 1 and 999`),
  ],
);
