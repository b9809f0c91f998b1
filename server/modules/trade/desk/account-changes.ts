import { eq, sql } from "drizzle-orm";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { holdManually, releaseHold } from "../credit/holds.ts";
import { tradeAccountNotes } from "../credit/ledger-schema.ts";
import { type TradeAccount, tradeAccounts } from "../schema.ts";
import { checkTerms } from "../service.ts";
import { type DeskContext, type TermsBody, pence, pounds, row } from "./common.ts";

/**
 * What `trade.manage` changes on an account from the desk: its terms (credit
 * limit, payment days, discount, PO rule), a hold put on or lifted, and notes.
 * Each in one transaction with its audit entry; each answers the account's row.
 */

export function deskAccountChanges({ inTx }: DeskContext) {
  /** New terms for an account: only the fields given change. */
  async function updateTerms(actor: StaffActor, accountId: number, body: TermsBody) {
    authorize(actor, "trade.manage");
    return inTx(async (tx) => {
      const [before] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
      if (!before) throw new HttpError(404, "No such trade account.");
      const terms = {
        creditLimit: body.credit_limit ?? pounds(before.creditLimit),
        termsDays: body.terms_days ?? before.termsDays,
        discountPercent: body.discount_percent ?? before.discountBasisPoints / 100,
      };
      checkTerms(terms);
      const [after] = await tx
        .update(tradeAccounts)
        .set({ creditLimit: pence(terms.creditLimit), termsDays: terms.termsDays, discountBasisPoints: Math.round(terms.discountPercent * 100), poRequired: body.po_required ?? before.poRequired, updatedAt: sql`now()` })
        .where(eq(tradeAccounts.id, accountId))
        .returning();
      const audited = (a: TradeAccount) => ({ credit_limit: a.creditLimit, terms_days: a.termsDays, discount_basis_points: a.discountBasisPoints, po_required: a.poRequired });
      await recordAudit(tx, actor, { action: "trade_account.terms", entity: "trade_account", entityId: accountId, before: audited(before), after: audited(after!) });
      return row(tx, accountId);
    });
  }

  /** Staff put an account on hold, with their reason in the account's notes. */
  async function hold(actor: StaffActor, accountId: number, reason: string) {
    authorize(actor, "trade.manage");
    const why = reason.trim();
    if (!why) throw new ValidationError({ reason: ["Say why the account is on hold."] });
    return inTx(async (tx) => {
      const [before] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
      if (!before) throw new HttpError(404, "No such trade account.");
      if (before.holdReason === "manual") throw new HttpError(409, `${before.companyName} is already on hold.`);
      await holdManually(tx, accountId);
      await tx.insert(tradeAccountNotes).values({ tradeAccountId: accountId, staffId: actor.staffId, body: `Put on hold: ${why}` });
      await recordAudit(tx, actor, { action: "trade_account.hold", entity: "trade_account", entityId: accountId, before: { on_hold: before.onHold, hold_reason: before.holdReason }, after: { on_hold: true, hold_reason: "manual", reason: why } });
      return row(tx, accountId);
    });
  }

  async function release(actor: StaffActor, accountId: number) {
    authorize(actor, "trade.manage");
    return inTx(async (tx) => {
      const [before] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
      if (!before) throw new HttpError(404, "No such trade account.");
      if (!before.onHold) throw new HttpError(409, `${before.companyName} is not on hold.`);
      await releaseHold(tx, accountId);
      await recordAudit(tx, actor, { action: "trade_account.release", entity: "trade_account", entityId: accountId, before: { on_hold: true, hold_reason: before.holdReason }, after: { on_hold: false, hold_reason: "" } });
      return row(tx, accountId);
    });
  }

  async function addNote(actor: StaffActor, accountId: number, body: string) {
    authorize(actor, "trade.manage");
    const text = body.trim();
    if (!text) throw new ValidationError({ body: ["Write the note."] });
    if (text.length > 4000) throw new ValidationError({ body: ["Keep the note under 4,000 characters."] });
    return inTx(async (tx) => {
      const [a] = await tx.select({ id: tradeAccounts.id }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId));
      if (!a) throw new HttpError(404, "No such trade account.");
      const [note] = await tx.insert(tradeAccountNotes).values({ tradeAccountId: accountId, staffId: actor.staffId, body: text }).returning();
      await recordAudit(tx, actor, { action: "trade_account.note", entity: "trade_account", entityId: accountId, after: { note: text } });
      return { id: note!.id, body: note!.body, staff_name: actor.name, created_at: note!.createdAt.toISOString() };
    });
  }

  return { updateTerms, hold, release, addNote };
}
