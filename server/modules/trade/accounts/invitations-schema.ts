import { sql } from "drizzle-orm";
import { check, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId, timestamptz } from "../../../db/columns.ts";
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
    id: serialId(),
    tradeAccountId: ref("trade_account_id", () => tradeAccounts.id, { onDelete: "cascade" }),
    email: citext("email").notNull(),
    role: text("role", { enum: TRADE_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: optionalRef("invited_by", () => users.id, { onDelete: "set null" }),
    expiresAt: timestamptz("expires_at").notNull(),
    acceptedAt: timestamptz("accepted_at"),
    acceptedBy: optionalRef("accepted_by", () => users.id, { onDelete: "set null" }),
    revokedAt: timestamptz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("trade_invitations_account_idx").on(t.tradeAccountId),
    check("trade_invitations_role", sql`${t.role} in ('owner', 'admin', 'buyer', 'accounts')`),
  ],
);

export type TradeInvitation = typeof tradeInvitations.$inferSelect;
