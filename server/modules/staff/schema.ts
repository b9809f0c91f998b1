import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, ref, serialId, singleUseToken, timestampNow, timestamps, timestamptz } from "../../db/columns.ts";
import { citext } from "../auth/schema.ts";
import { STAFF_ROLES } from "./permissions.ts";

/**
 * The shop's staff (ADR 0029): a table of their own, never a flag on `users`,
 * so no customer request can make anyone staff. A member is invited without a
 * password and chooses one through a set-up link.
 */
export const staff = pgTable(
  "staff",
  {
    id: serialId(),
    email: citext("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: STAFF_ROLES }).notNull(),
    /** Null until the member has used their set-up link; the `system` member never has one. */
    passwordHash: text("password_hash"),
    /** Base32 TOTP secret, set once enrolment is confirmed with a code. */
    totpSecret: text("totp_secret"),
    /** A secret being enrolled: it becomes `totp_secret` when a code from it is confirmed. */
    totpPendingSecret: text("totp_pending_secret"),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    totpLastStep: integer("totp_last_step"),
    /** The most a `sales` member may refund without asking an owner, in pence; set by an owner. */
    refundLimit: integer("refund_limit_pence").notNull().default(0),
    /**
     * The branches the member works at (issue 30): their queues come first on
     * the orders desk. Ids of `branches`, which are closed but never deleted,
     * so an array needs no join for every request.
     */
    branchIds: integer("branch_ids").array().notNull().default(sql`'{}'::int[]`),
    /** Sees and works only their branches' orders (warehouse staff, by an owner's choice); owners and managers never are. */
    branchesOnly: boolean("branches_only").notNull().default(false),
    /** The CLI's own member: writes from `npm run shop` are audited as it; it cannot sign in. */
    isSystem: boolean("is_system").notNull().default(false),
    /** Removed staff keep their row, so the audit log still names them. */
    removedAt: timestamptz("removed_at"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("staff_email_key").on(t.email), index("staff_role_idx").on(t.role)],
);

/**
 * A staff sign-in: the browser's `tc_admin` cookie or an API client's bearer
 * header holds `{id}|{secret}`; only the SHA-256 of the secret is kept. It ends
 * after 20 minutes idle or 8 hours in all, whichever comes first.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    id: serialId(),
    staffId: ref("staff_id", () => staff.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    lastSeenAt: timestampNow("last_seen_at"),
    /** Sign-in time plus 8 hours: no activity extends it. */
    expiresAt: timestamptz("expires_at").notNull(),
    /** When the password was last asked again (sensitive actions need it within 5 minutes). */
    reauthenticatedAt: timestampNow("reauthenticated_at"),
    createdAt: createdAt(),
  },
  (t) => [index("staff_sessions_staff_idx").on(t.staffId)],
);

/** Ten single-use recovery codes per member, for a lost authenticator; stored hashed. */
export const staffRecoveryCodes = pgTable(
  "staff_recovery_codes",
  {
    id: serialId(),
    staffId: ref("staff_id", () => staff.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [index("staff_recovery_codes_staff_idx").on(t.staffId), uniqueIndex("staff_recovery_codes_hash_key").on(t.codeHash)],
);

/** The one-time link where an invited member chooses a password (and enrols TOTP): 24 hours, single use. */
export const staffSetupTokens = pgTable(
  "staff_setup_tokens",
  {
    id: serialId(),
    staffId: ref("staff_id", () => staff.id, { onDelete: "cascade" }),
    ...singleUseToken(),
  },
  (t) => [uniqueIndex("staff_setup_tokens_hash_key").on(t.tokenHash), index("staff_setup_tokens_staff_idx").on(t.staffId)],
);

/**
 * A staff API token for a merchant's EPOS or ERP: created by an owner, shown
 * once, stored hashed, acting with its own role; revoked, it stops at once.
 */
export const staffApiTokens = pgTable(
  "staff_api_tokens",
  {
    id: serialId(),
    name: text("name").notNull(),
    role: text("role", { enum: STAFF_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: ref("created_by", () => staff.id),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("staff_api_tokens_hash_key").on(t.tokenHash)],
);

/** A member's saved filters for a list screen (`orders`, `customers`, `audit`): a name and the query string. */
export const staffFilterPresets = pgTable(
  "staff_filter_presets",
  {
    id: serialId(),
    staffId: ref("staff_id", () => staff.id, { onDelete: "cascade" }),
    screen: text("screen").notNull(),
    name: text("name").notNull(),
    query: text("query").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("staff_filter_presets_name_key").on(t.staffId, t.screen, t.name)],
);

export type Staff = typeof staff.$inferSelect;
