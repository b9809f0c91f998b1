import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, optionalRef, personName, ref, serialId, singleUseToken, timestamps, timestamptz } from "../../db/columns.ts";
import { branches } from "../branches/schema.ts";

/** Case-insensitive text: `Jo@Example.com` and `jo@example.com` are one account. */
export const citext = customType<{ data: string }>({
  dataType: () => "citext",
});

export const users = pgTable(
  "users",
  {
    id: serialId(),
    email: citext("email").notNull(),
    ...personName(),
    phone: text("phone").notNull().default(""),
    passwordHash: text("password_hash").notNull(),
    newsletterSubscribed: boolean("newsletter_subscribed").notNull().default(false),
    newsletterTopics: text("newsletter_topics").array().notNull().default(sql`'{}'::text[]`),
    /** Set by the trade issue when the user belongs to a trade account. */
    tradeAccountId: integer("trade_account_id"),
    /** "My branch" (issue 30): where the customer collects and whose stock the pages show; also kept in the tc_branch cookie. */
    branchId: optionalRef("branch_id", () => branches.id, { onDelete: "set null" }),
    /** Set by staff: sign-in is refused and every token was revoked when it was set. */
    blockedAt: timestamptz("blocked_at"),
    /** The staff's own note about the customer (issue 34): never shown to the customer. */
    staffNote: text("staff_note").notNull().default(""),
    ...timestamps(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

/**
 * Sanctum-style personal access tokens: the client holds `{id}|{secret}`, the
 * database only the SHA-256 of the secret.
 */
export const accessTokens = pgTable(
  "access_tokens",
  {
    id: serialId(),
    userId: ref("user_id", () => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    remember: boolean("remember").notNull().default(false),
    lastUsedAt: timestamptz("last_used_at"),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("access_tokens_user_idx").on(t.userId)],
);

/** Password recovery tokens: single use, short-lived, stored hashed. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: serialId(),
    userId: ref("user_id", () => users.id, { onDelete: "cascade" }),
    ...singleUseToken(),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId), uniqueIndex("password_reset_tokens_hash_key").on(t.tokenHash)],
);

export type User = typeof users.$inferSelect;
