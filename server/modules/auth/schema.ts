import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { branches } from "../branches/schema.ts";

/** Case-insensitive text: `Jo@Example.com` and `jo@example.com` are one account. */
export const citext = customType<{ data: string }>({
  dataType: () => "citext",
});

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: citext("email").notNull(),
    firstname: text("firstname").notNull(),
    lastname: text("lastname").notNull(),
    phone: text("phone").notNull().default(""),
    passwordHash: text("password_hash").notNull(),
    newsletterSubscribed: boolean("newsletter_subscribed").notNull().default(false),
    newsletterTopics: text("newsletter_topics").array().notNull().default(sql`'{}'::text[]`),
    /** Set by the trade issue when the user belongs to a trade account. */
    tradeAccountId: integer("trade_account_id"),
    /** "My branch" (issue 30): where the customer collects and whose stock the pages show; also kept in the tc_branch cookie. */
    branchId: integer("branch_id").references(() => branches.id, { onDelete: "set null" }),
    /** Set by staff: sign-in is refused and every token was revoked when it was set. */
    blockedAt: timestamp("blocked_at", { withTimezone: true }),
    /** The staff's own note about the customer (issue 34): never shown to the customer. */
    staffNote: text("staff_note").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().default(sql`now()`),
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
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    remember: boolean("remember").notNull().default(false),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index("access_tokens_user_idx").on(t.userId)],
);

/** Password recovery tokens: single use, short-lived, stored hashed. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId), uniqueIndex("password_reset_tokens_hash_key").on(t.tokenHash)],
);

export type User = typeof users.$inferSelect;
