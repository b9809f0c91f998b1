import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId, timestampNow, timestamps, timestamptz } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";
import { baskets } from "../basket/schema.ts";
import { orders } from "../orders/schema.ts";
import type { AppliesTo } from "./rules.ts";

/**
 * A promotion (issue 32): a discount code, or an automatic multi-buy. Its
 * `uses` counts the orders that used it and not given back; the conditional
 * increment at checkout, under the row's lock, is what keeps a code limited to
 * five uses to five orders however many check out at once (promotions/redeem.ts),
 * and the check constraint backs it.
 */
export const promotions = pgTable(
  "promotions",
  {
    id: serialId(),
    /** Typed by the customer, matched without regard to case; null for an automatic multi-buy. */
    code: text("code"),
    /** What the customer reads: "10% off decking", "3 for 2 on sealants". */
    name: text("name").notNull(),
    /** percent | amount | free_delivery | multi_buy (rules.ts). */
    kind: text("kind").notNull(),
    /** percent: basis points; amount: pence ex VAT; multi_buy: units free, basis points, or a group's price in pence (rules.ts). */
    value: integer("value").notNull().default(0),
    /** A multi-buy's group size and kind: free | percent | price. */
    buy: integer("buy"),
    multiBuy: text("multi_buy"),
    minSpend: integer("min_spend").notNull().default(0),
    startsAt: timestamptz("starts_at"),
    endsAt: timestamptz("ends_at"),
    maxUses: integer("max_uses"),
    maxUsesPerCustomer: integer("max_uses_per_customer"),
    uses: integer("uses").notNull().default(0),
    /** all | consumer | trade. */
    audience: text("audience").notNull().default("all"),
    /** May go with other codes in one basket (never more than one code that is not). */
    stackable: boolean("stackable").notNull().default(false),
    appliesTo: jsonb("applies_to").$type<AppliesTo>().notNull().default(sql`'{"product_ids": [], "category_ids": [], "brand_ids": []}'::jsonb`),
    /** active | paused | ended. */
    status: text("status").notNull().default("active"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("promotions_code_key").on(sql`lower(${t.code})`).where(sql`${t.code} is not null`),
    // Every basket reads the running multi-buys.
    index("promotions_automatic_idx").on(t.id).where(sql`${t.code} is null and ${t.status} = 'active'`),
    index("promotions_status_idx").on(t.status, t.id),
    check("promotions_kind_check", sql`${t.kind} in ('percent', 'amount', 'free_delivery', 'multi_buy')`),
    check("promotions_status_check", sql`${t.status} in ('active', 'paused', 'ended')`),
    check("promotions_audience_check", sql`${t.audience} in ('all', 'consumer', 'trade')`),
    check("promotions_multi_buy_check", sql`(${t.kind} = 'multi_buy') = (${t.multiBuy} is not null and ${t.buy} is not null and ${t.code} is null)`),
    check("promotions_uses_check", sql`${t.uses} >= 0 and (${t.maxUses} is null or ${t.uses} <= ${t.maxUses})`),
  ],
);

/** An order's use of a promotion, and what it took off; released when the order is cancelled or wholly returned. */
export const promotionRedemptions = pgTable(
  "promotion_redemptions",
  {
    id: serialId(),
    promotionId: ref("promotion_id", () => promotions.id, { onDelete: "cascade" }),
    orderId: ref("order_id", () => orders.id, { onDelete: "cascade" }),
    userId: optionalRef("user_id", () => users.id, { onDelete: "set null" }),
    /** Lower-cased: a guest's uses per customer are counted by email. */
    email: text("email").notNull(),
    /** Pence ex VAT. */
    discount: integer("discount").notNull(),
    releasedAt: timestamptz("released_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("promotion_redemptions_order_key").on(t.promotionId, t.orderId),
    index("promotion_redemptions_order_idx").on(t.orderId),
    index("promotion_redemptions_user_idx").on(t.promotionId, t.userId).where(sql`${t.releasedAt} is null`),
    index("promotion_redemptions_email_idx").on(t.promotionId, t.email).where(sql`${t.releasedAt} is null`),
  ],
);

/** The codes a basket holds, in the order they were added. */
export const basketPromotions = pgTable(
  "basket_promotions",
  {
    basketId: ref("basket_id", () => baskets.id, { onDelete: "cascade" }),
    promotionId: ref("promotion_id", () => promotions.id, { onDelete: "cascade" }),
    addedAt: timestampNow("added_at"),
  },
  (t) => [primaryKey({ columns: [t.basketId, t.promotionId] })],
);
