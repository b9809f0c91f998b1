import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ref, serialId, timestamps, timestamptz, ukAddress } from "../../../db/columns.ts";
import { tradeAccounts } from "../schema.ts";

/**
 * A trade account's site (issue 32): a job a company buys for, with its
 * delivery address, who takes deliveries there, and its purchase-order rule.
 * Orders, their invoices and quotes carry the site they are for, so the
 * company's invoices, statements and order history can be read one site at a
 * time. A site finished with is archived, never deleted: its orders keep it.
 */
export const tradeSites = pgTable(
  "trade_sites",
  {
    id: serialId(),
    tradeAccountId: ref("trade_account_id", () => tradeAccounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    ...ukAddress("line1"),
    contactName: text("contact_name").notNull().default(""),
    contactPhone: text("contact_phone").notNull().default(""),
    /** Orders on account for this site need a PO reference (as the account's own `po_required` does for every order). */
    poRequired: boolean("po_required").notNull().default(false),
    /** The site's PO references start with this (e.g. `HX-`), case aside; empty: any reference. */
    poPrefix: text("po_prefix").notNull().default(""),
    archivedAt: timestamptz("archived_at"),
    ...timestamps(),
  },
  (t) => [
    // Two live sites of one company never share a name: the name is how buyers pick one.
    uniqueIndex("trade_sites_account_name_key").on(t.tradeAccountId, sql`lower(${t.name})`).where(sql`${t.archivedAt} is null`),
    index("trade_sites_account_idx").on(t.tradeAccountId, t.name),
    check("trade_sites_name", sql`length(${t.name}) between 1 and 80`),
  ],
);

export type TradeSite = typeof tradeSites.$inferSelect;
