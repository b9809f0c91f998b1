import { and, asc, eq } from "drizzle-orm";
import { ValidationError } from "../../../http-errors.ts";
import { users } from "../../auth/schema.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { tradeAccounts, tradeMembers } from "../schema.ts";
import { type DeskContext, type TermsBody, pounds, row } from "./common.ts";

/**
 * Trade applications on the desk (`trade.manage`): those waiting for a
 * decision, oldest first, and the decision itself, approve with terms,
 * decline with a reason or ask for more information; the trade service
 * (service.ts `decide`) records it, audits it and tells the applicant.
 */

export function deskApplications({ db, options }: DeskContext) {
  /** Applications waiting for a decision, oldest first, with the applicant. */
  async function applications(actor: StaffActor) {
    authorize(actor, "trade.manage");
    const rows = await db
      .select({ account: tradeAccounts, user: users })
      .from(tradeAccounts)
      .innerJoin(tradeMembers, and(eq(tradeMembers.tradeAccountId, tradeAccounts.id), eq(tradeMembers.role, "owner")))
      .innerJoin(users, eq(users.id, tradeMembers.userId))
      .where(eq(tradeAccounts.state, "pending"))
      .orderBy(asc(tradeAccounts.createdAt), asc(tradeAccounts.id))
      .limit(200);
    return rows.map(({ account: a, user: u }) => ({
      id: a.id,
      company_name: a.companyName,
      company_type: a.companyType,
      company_number: a.companyNumber,
      vat_number: a.vatNumber,
      trade: a.trade,
      address: [a.line1, a.line2, a.town, a.county, a.postcode].filter((x) => x !== "").join(", "),
      phone: a.phone,
      accounts_email: a.accountsEmail,
      applicant: { name: `${u.firstname} ${u.lastname}`, email: u.email },
      expected_monthly_spend: pounds(a.expectedMonthlySpend),
      requested_credit_limit: pounds(a.requestedCreditLimit),
      applied_at: a.createdAt.toISOString(),
      info_requested_at: a.infoRequestedAt?.toISOString() ?? null,
      decision_note: a.decisionNote,
    }));
  }

  async function decide(actor: StaffActor, accountId: number, decision: "approve" | "decline" | "request_info", input: { terms?: TermsBody; note?: string }) {
    authorize(actor, "trade.manage");
    if (decision === "decline" && !input.note?.trim()) throw new ValidationError({ reason: ["Give the reason for declining."] });
    const t = input.terms;
    const terms = t ? { creditLimit: t.credit_limit ?? 0, termsDays: t.terms_days ?? 30, discountPercent: t.discount_percent ?? 0, poRequired: t.po_required ?? false } : undefined;
    await options.trade.decide({ accountId }, decision, terms, actor, input.note ?? "");
    return row(db, accountId);
  }

  return {
    applications,
    approve: (actor: StaffActor, id: number, terms: TermsBody) => decide(actor, id, "approve", { terms }),
    decline: (actor: StaffActor, id: number, reason: string) => decide(actor, id, "decline", { note: reason }),
    requestInfo: (actor: StaffActor, id: number, message: string) => decide(actor, id, "request_info", { note: message }),
  };
}
