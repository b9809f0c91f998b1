import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { citext, users } from "../../auth/schema.ts";
import { TRADE_ROLES, tradeAccounts } from "../schema.ts";

/**
 * An invitation to join a company's trade account with a role. The email
 * carries `{id}|{secret}`; only the SHA-256 of the secret is stored. Single
 * use (accepted_at), revocable (revoked_at), valid 7 days (expires_at).
 */
export const tradeInvitations = pgTable(
  "trade_invitations",
  {
    id: serial("id").primaryKey(),
    tradeAccountId: integer("trade_account_id")
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: "cascade" }),
    email: citext("email").notNull(),
    role: text("role", { enum: TRADE_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: integer("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    index("trade_invitations_account_idx").on(t.tradeAccountId),
    check("trade_invitations_role", sql`${t.role} in ('owner', 'admin', 'buyer', 'accounts')`),
  ],
);

export type TradeInvitation = typeof tradeInvitations.$inferSelect;
