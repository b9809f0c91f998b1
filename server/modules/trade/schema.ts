import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, ref, serialId, timestamps, timestamptz, ukAddress } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";

export const TRADE_ACCOUNT_STATES = ["pending", "approved", "declined", "suspended"] as const;
export type TradeAccountState = (typeof TRADE_ACCOUNT_STATES)[number];

export const COMPANY_TYPES = ["sole_trader", "partnership", "limited_company"] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];

export const TRADE_ROLES = ["owner", "admin", "buyer", "accounts"] as const;
export type TradeRole = (typeof TRADE_ROLES)[number];

/**
 * A company's trade account: the application, then staff's decision (state,
 * credit limit, payment terms, trade discount). Invoices and pay-on-account
 * hang off this row in later issues.
 */
export const tradeAccounts = pgTable(
  "trade_accounts",
  {
    id: serialId(),
    companyName: text("company_name").notNull(),
    companyType: text("company_type", { enum: COMPANY_TYPES }).notNull(),
    /** Companies House number; only for a limited company. */
    companyNumber: text("company_number"),
    /** GB VAT number, stored without spaces (`GB123456789`). */
    vatNumber: text("vat_number"),
    trade: text("trade").notNull(),
    ...ukAddress("line1"),
    phone: text("phone").notNull(),
    accountsEmail: text("accounts_email").notNull(),
    expectedMonthlySpend: integer("expected_monthly_spend_pence").notNull(),
    requestedCreditLimit: integer("requested_credit_limit_pence").notNull(),
    state: text("state", { enum: TRADE_ACCOUNT_STATES }).notNull().default("pending"),
    /** Set by staff on approval; 0 until then. */
    creditLimit: integer("credit_limit_pence").notNull().default(0),
    termsDays: integer("terms_days").notNull().default(0),
    /** Trade discount in basis points (10% = 1000), so fractions of a percent stay exact. */
    discountBasisPoints: integer("discount_basis_points").notNull().default(0),
    /** A purchase-order reference is required on orders on account (pay-on-account issue). */
    poRequired: boolean("po_required").notNull().default(false),
    /**
     * Pence owed: invoices less credit notes less payments (ADR 0040). Raised
     * by checkout only with a conditional update within the limit (credit.ts);
     * below 0 when the company has paid more than it owes (credit on account).
     */
    balance: integer("balance_pence").notNull().default(0),
    /** On hold: pay on account refused. Set automatically when an invoice is overdue past its terms, or by staff. */
    onHold: boolean("on_hold").notNull().default(false),
    /** `overdue` (lifted automatically once nothing is overdue) or `manual` (lifted by staff); empty when not on hold. */
    holdReason: text("hold_reason").notNull().default(""),
    heldAt: timestamptz("held_at"),
    /** Staff's reason for a decline, or the information they asked the applicant for. */
    decisionNote: text("decision_note").notNull().default(""),
    /** When staff last asked the applicant for more information; the application stays pending. */
    infoRequestedAt: timestamptz("info_requested_at"),
    decidedAt: timestamptz("decided_at"),
    ...timestamps(),
  },
  (t) => [
    // The trade desk's list, most overdue first, reads approved accounts by state.
    index("trade_accounts_state_idx").on(t.state, t.companyName),
    check("trade_accounts_state", sql`${t.state} in ('pending', 'approved', 'declined', 'suspended')`),
    check("trade_accounts_company_type", sql`${t.companyType} in ('sole_trader', 'partnership', 'limited_company')`),
    check("trade_accounts_discount_range", sql`${t.discountBasisPoints} between 0 and 10000`),
    check("trade_accounts_credit_limit_positive", sql`${t.creditLimit} >= 0`),
    check("trade_accounts_hold_reason", sql`${t.holdReason} in ('', 'overdue', 'manual') and (${t.onHold} = (${t.holdReason} <> ''))`),
    check("trade_accounts_terms_range", sql`${t.termsDays} between 0 and 365`),
    check("trade_accounts_company_number", sql`${t.companyType} <> 'limited_company' or ${t.companyNumber} is not null`),
  ],
);

/**
 * A user's place in a trade account. A user belongs to at most one account
 * (unique user_id), so the price context is one join away from the session.
 */
export const tradeMembers = pgTable(
  "trade_members",
  {
    id: serialId(),
    tradeAccountId: ref("trade_account_id", () => tradeAccounts.id, { onDelete: "cascade" }),
    userId: ref("user_id", () => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: TRADE_ROLES }).notNull(),
    /** The member's choice of price display; trade defaults to ex VAT. */
    pricesIncVat: boolean("prices_inc_vat").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("trade_members_user_key").on(t.userId),
    index("trade_members_account_idx").on(t.tradeAccountId),
    check("trade_members_role", sql`${t.role} in ('owner', 'admin', 'buyer', 'accounts')`),
  ],
);

/**
 * A numbered document on an account's ledger (an invoice, a payment, a credit
 * note): its readable number, and the account it belongs to, which cannot be
 * deleted while it has any.
 */
export const accountDocument = () => ({
  number: text("number").notNull(),
  tradeAccountId: ref("trade_account_id", () => tradeAccounts.id, { onDelete: "restrict" }),
});

export type TradeAccount = typeof tradeAccounts.$inferSelect;
export type TradeMember = typeof tradeMembers.$inferSelect;
