import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { personName, ref, serialId, timestamps, ukAddress } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";

/** A UK address in a user's address book. */
export const addresses = pgTable(
  "addresses",
  {
    id: serialId(),
    userId: ref("user_id", () => users.id, { onDelete: "cascade" }),
    ...personName(),
    company: text("company").notNull().default(""),
    ...ukAddress("line1"),
    phone: text("phone").notNull().default(""),
    isDefaultDelivery: boolean("is_default_delivery").notNull().default(false),
    isDefaultBilling: boolean("is_default_billing").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    index("addresses_user_idx").on(t.userId, t.id),
    // At most one default of each kind per user, held by the database.
    uniqueIndex("addresses_default_delivery_key").on(t.userId).where(sql`${t.isDefaultDelivery}`),
    uniqueIndex("addresses_default_billing_key").on(t.userId).where(sql`${t.isDefaultBilling}`),
  ],
);

export type Address = typeof addresses.$inferSelect;
