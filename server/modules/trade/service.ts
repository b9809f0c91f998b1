import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { recordAudit } from "../audit/service.ts";
import type { StaffActor } from "../staff/actor.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import type { Outbox } from "../auth/service.ts";
import { users } from "../auth/schema.ts";
import { renderEmail } from "../mail/templates.ts";
import type { TradeAccountJson, TradeSetupInput } from "./contract.ts";
import { type TradeAccount, type TradeMember, tradeAccounts, tradeMembers } from "./schema.ts";

export interface TradeTerms {
  /** Pounds. */
  creditLimit: number;
  termsDays: number;
  /** 10 = 10% off ex-VAT prices. */
  discountPercent: number;
  /** Whether orders on account need a PO reference; unchanged when omitted. */
  poRequired?: boolean;
}

/** `request_info` keeps an application pending and emails the applicant staff's question. */
export type TradeDecision = "approve" | "decline" | "suspend" | "request_info";

const pence = (pounds: number) => Math.round(pounds * 100);
const pounds = (p: number) => p / 100;

export function toTradeAccountJson(account: TradeAccount, member: TradeMember): TradeAccountJson {
  return {
    id: account.id,
    company_name: account.companyName,
    company_type: account.companyType,
    company_number: account.companyNumber,
    vat_number: account.vatNumber,
    trade: account.trade,
    address: { line1: account.line1, line2: account.line2, town: account.town, county: account.county, postcode: account.postcode },
    phone: account.phone,
    accounts_email: account.accountsEmail,
    expected_monthly_spend: pounds(account.expectedMonthlySpend),
    requested_credit_limit: pounds(account.requestedCreditLimit),
    state: account.state,
    credit_limit: pounds(account.creditLimit),
    terms_days: account.termsDays,
    discount_percent: account.discountBasisPoints / 100,
    role: member.role,
    prices_inc_vat: member.pricesIncVat,
    created_at: account.createdAt.toISOString(),
  };
}

/** Staff's terms, checked the same way whether they come from the CLI or a future back office. */
export function checkTerms(terms: TradeTerms): void {
  const errors: Record<string, string[]> = {};
  if (!Number.isFinite(terms.creditLimit) || terms.creditLimit < 0 || terms.creditLimit > 10_000_000) errors.credit_limit = ["The credit limit must be between £0 and £10,000,000."];
  if (!Number.isInteger(terms.termsDays) || terms.termsDays < 0 || terms.termsDays > 365) errors.terms = ["The payment terms must be a whole number of days from 0 to 365."];
  if (!Number.isFinite(terms.discountPercent) || terms.discountPercent < 0 || terms.discountPercent >= 100 || Math.round(terms.discountPercent * 100) !== terms.discountPercent * 100) {
    errors.discount = ["The discount must be a percentage from 0 to 99.99 with at most 2 decimals."];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** A user's trade account and their membership of it, or null when they have none. */
export async function membershipOf(dbOrTx: Db, userId: number) {
  const [row] = await dbOrTx
    .select({ account: tradeAccounts, member: tradeMembers })
    .from(tradeMembers)
    .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
    .where(eq(tradeMembers.userId, userId))
    .limit(1);
  return row ?? null;
}

/** Trade accounts: applications, staff decisions and the member's view of their account. */
export function createTradeService(db: Db, options: { mail: Outbox; appName: string; publicUrl: string; shopEmail: string }) {
  const layout = { appName: options.appName, publicUrl: options.publicUrl };

  return {
    /**
     * An application: a new account in state pending, with the applicant as its
     * owner. Refused while the user already belongs to a pending, approved or
     * suspended account; after a decline they may apply again.
     */
    async apply(userId: number, input: TradeSetupInput): Promise<TradeAccountJson> {
      const result = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // The user row is the lock: two applications at once cannot both pass the check.
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
        if (!user) throw new HttpError(401, "Unauthenticated.");
        const current = await membershipOf(tx, userId);
        if (current) {
          const refusal = {
            pending: "Your trade account application is already being reviewed. We will email you when it is decided.",
            approved: "You already have an approved trade account.",
            suspended: "Your trade account is suspended. Please contact the trade desk.",
          } as const;
          if (current.account.state !== "declined") throw new HttpError(409, refusal[current.account.state]);
          // A declined application stays on record; the user leaves it to apply afresh.
          await tx.delete(tradeMembers).where(eq(tradeMembers.id, current.member.id));
        }
        const [account] = await tx
          .insert(tradeAccounts)
          .values({
            companyName: input.company_name,
            companyType: input.company_type,
            companyNumber: input.company_number || null,
            vatNumber: input.vat_number || null,
            trade: input.trade,
            line1: input.line1,
            line2: input.line2,
            town: input.town,
            county: input.county,
            postcode: input.postcode,
            phone: input.phone,
            accountsEmail: input.accounts_email,
            expectedMonthlySpend: pence(input.expected_monthly_spend),
            requestedCreditLimit: pence(input.requested_credit_limit),
          })
          .returning();
        const [member] = await tx.insert(tradeMembers).values({ tradeAccountId: account!.id, userId, role: "owner" }).returning();
        await tx.update(users).set({ tradeAccountId: account!.id, updatedAt: sql`now()` }).where(eq(users.id, userId));
        const applicant = renderEmail({
          ...layout,
          title: "We have your trade account application",
          paragraphs: [`Hello ${user.firstname},`, `Thank you for applying for a trade account for ${input.company_name}. Our trade desk will review it and email you when it is decided.`],
          action: { label: "See your application", url: `${options.publicUrl}/trade/dashboard` },
        });
        await options.mail.enqueue(tx, { to: user.email, subject: "Your trade account application", ...applicant });
        const staff = renderEmail({
          ...layout,
          title: `Trade application: ${input.company_name}`,
          paragraphs: [
            `${user.firstname} ${user.lastname} <${user.email}> applied for a trade account.`,
            `${input.company_name}, ${input.trade}${input.company_number ? `, Companies House ${input.company_number}` : ""}${input.vat_number ? `, VAT ${input.vat_number}` : ""}.`,
            `Expected monthly spend £${input.expected_monthly_spend.toFixed(2)}; requested credit limit £${input.requested_credit_limit.toFixed(2)}.`,
            `Decide with: npm run shop -- trade:approve ${user.email} --credit-limit 5000 --terms 30 --discount 10 (or trade:decline).`,
          ],
        });
        await options.mail.enqueue(tx, { to: options.shopEmail, subject: `Trade application: ${input.company_name}`, ...staff });
        return toTradeAccountJson(account!, member!);
      });
      options.mail.kick?.();
      return result;
    },

    /** The signed-in user's trade account, or null when they have none. */
    async accountOf(userId: number): Promise<TradeAccountJson | null> {
      const row = await membershipOf(db, userId);
      return row ? toTradeAccountJson(row.account, row.member) : null;
    },

    /** A member's choice of inc-VAT or ex-VAT prices, kept on their membership. */
    async setPricesIncVat(userId: number, incVat: boolean): Promise<TradeAccountJson> {
      const [member] = await db.update(tradeMembers).set({ pricesIncVat: incVat }).where(eq(tradeMembers.userId, userId)).returning();
      if (!member) throw new HttpError(404, "You do not belong to a trade account.");
      const row = await membershipOf(db, userId);
      return toTradeAccountJson(row!.account, member);
    },

    /**
     * Staff decisions, by the owner's email: approve (with limit, terms and
     * discount; also reinstates a suspended account or changes the terms),
     * decline a pending application, suspend an approved account. The owner is emailed.
     */
    /**
     * Staff's decision on an application or account, found by its owner's email
     * (the CLI) or its id (the trade desk); `actor` is recorded in the audit log
     * (the CLI passes `system`). `note`: a decline's reason or the information
     * asked for, kept on the account and put in the applicant's email.
     */
    async decide(target: string | { accountId: number }, decision: TradeDecision, terms?: TradeTerms, actor?: StaffActor, note = ""): Promise<TradeAccountJson> {
      if (decision === "approve") {
        if (!terms) throw new ValidationError({ terms: ["Give the credit limit, terms and discount."] });
        checkTerms(terms);
      }
      const said = note.trim();
      if (decision === "request_info" && !said) throw new ValidationError({ message: ["Say what information you need from the applicant."] });
      const email = typeof target === "string" ? target : `trade account ${target.accountId}`;
      const result = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx
          .select({ account: tradeAccounts, member: tradeMembers, user: users })
          .from(tradeMembers)
          .innerJoin(users, eq(users.id, tradeMembers.userId))
          .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
          .where(and(typeof target === "string" ? eq(users.email, target.trim()) : eq(tradeAccounts.id, target.accountId), eq(tradeMembers.role, "owner")))
          .limit(1);
        if (!row) throw new HttpError(404, typeof target === "string" ? `No trade account is owned by ${email}.` : "No such trade account.");
        const [account] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, row.account.id)).for("update");
        const allowed: Record<TradeDecision, TradeAccount["state"][]> = {
          approve: ["pending", "approved", "suspended", "declined"],
          decline: ["pending"],
          suspend: ["approved"],
          request_info: ["pending"],
        };
        const verb = { approve: "approved", decline: "declined", suspend: "suspended", request_info: "asked for more information" }[decision];
        if (!allowed[decision].includes(account!.state)) throw new HttpError(409, `The trade account of ${typeof target === "string" ? email : account!.companyName} is ${account!.state}; it cannot be ${verb}.`);
        const state = ({ approve: "approved", decline: "declined", suspend: "suspended", request_info: "pending" } as const)[decision];
        const [updated] = await tx
          .update(tradeAccounts)
          .set({
            state,
            ...(terms && decision === "approve"
              ? {
                  creditLimit: pence(terms.creditLimit),
                  termsDays: terms.termsDays,
                  discountBasisPoints: Math.round(terms.discountPercent * 100),
                  ...(terms.poRequired === undefined ? {} : { poRequired: terms.poRequired }),
                }
              : {}),
            ...(decision === "decline" || decision === "request_info" ? { decisionNote: said } : {}),
            ...(decision === "request_info" ? { infoRequestedAt: sql`now()` } : { decidedAt: sql`now()` }),
            updatedAt: sql`now()`,
          })
          .where(eq(tradeAccounts.id, account!.id))
          .returning();
        const audited = (a: TradeAccount) => ({ state: a.state, credit_limit: a.creditLimit, terms_days: a.termsDays, discount_basis_points: a.discountBasisPoints, po_required: a.poRequired, decision_note: a.decisionNote });
        if (actor) await recordAudit(tx, actor, { action: `trade_account.${decision}`, entity: "trade_account", entityId: account!.id, before: audited(account!), after: audited(updated!) });
        const paragraphs = {
          approve: [
            `Your trade account for ${updated!.companyName} is approved.`,
            `Credit limit £${pounds(updated!.creditLimit).toFixed(2)}, payment terms ${updated!.termsDays} days, trade discount ${updated!.discountBasisPoints / 100}% on our prices.`,
            "Sign in to see trade prices across the shop.",
          ],
          decline: [
            `We are sorry: we cannot offer ${updated!.companyName} a trade account at present. You can still buy at our shop prices, and you may apply again later.`,
            ...(said ? [`Our reason: ${said}`] : []),
          ],
          request_info: [
            `Thank you for applying for a trade account for ${updated!.companyName}. Before we can decide, we need a little more information:`,
            said,
            `Please reply to this email or write to ${options.shopEmail}. Your application stays open meanwhile.`,
          ],
          suspend: [`The trade account of ${updated!.companyName} is suspended: trade prices are paused. Please contact the trade desk at ${options.shopEmail}.`],
        }[decision];
        const mail = renderEmail({
          ...layout,
          title: { approve: "Your trade account is approved", decline: "Your trade account application", suspend: "Your trade account is suspended", request_info: "We need more information" }[decision],
          paragraphs: [`Hello ${row.user.firstname},`, ...paragraphs],
          ...(decision === "approve" ? { action: { label: "Open your trade dashboard", url: `${options.publicUrl}/trade/dashboard` } } : {}),
        });
        await options.mail.enqueue(tx, { to: row.user.email, subject: decision === "request_info" ? "Trade account: more information needed" : `Trade account: ${state}`, ...mail });
        return toTradeAccountJson(updated!, row.member);
      });
      options.mail.kick?.();
      return result;
    },
  };
}

export type TradeService = ReturnType<typeof createTradeService>;
