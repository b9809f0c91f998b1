import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { recordAudit } from "../audit/service.ts";
import type { StaffActor } from "../staff/actor.ts";
import { HttpError } from "../../http-errors.ts";
import type { Outbox } from "../auth/service.ts";
import { users } from "../auth/schema.ts";
import { renderEmail } from "../mail/templates.ts";
import { tradeInvoices } from "./invoice-schema.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "./remittance-schema.ts";
import { tradeAccounts, tradeMembers } from "./schema.ts";

const money = (pence: number) => `£${(pence / 100).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export interface InvoicePaidResult {
  number: string;
  companyName: string;
  /** Pence owed after this payment. */
  balance: number;
  /** Remittances that this payment completed. */
  confirmed: string[];
}

/** What the trade desk does from the staff CLI until a back office exists. */
export function createTradeStaffService(db: Db, options: { mail: Outbox; appName: string; publicUrl: string }) {
  const layout = { appName: options.appName, publicUrl: options.publicUrl };

  /**
   * The money for an invoice has arrived: it becomes paid, the account's balance
   * drops by its total (never below 0), any remittance whose invoices are now all
   * paid is confirmed, and the company's accounts email gets a receipt. One
   * transaction; the invoice, then the account, are locked.
   */
  async function markInvoicePaid(number: string, actor?: StaffActor): Promise<InvoicePaidResult> {
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const wanted = number.trim().toUpperCase();
      const [invoice] = await tx.select().from(tradeInvoices).where(eq(tradeInvoices.number, wanted)).for("update");
      if (!invoice) throw new HttpError(404, `No invoice is numbered ${wanted}.`);
      if (invoice.status === "paid") throw new HttpError(409, `${invoice.number} is already paid.`);
      await tx.update(tradeInvoices).set({ status: "paid", paidAt: sql`now()` }).where(eq(tradeInvoices.id, invoice.id));
      const [account] = await tx
        .update(tradeAccounts)
        .set({ balance: sql`greatest(${tradeAccounts.balance} - ${invoice.total}, 0)`, updatedAt: sql`now()` })
        .where(eq(tradeAccounts.id, invoice.tradeAccountId))
        .returning();
      // A remittance is confirmed once none of its invoices is left unpaid. Its
      // row is locked first, so when two of its invoices are marked paid at once
      // the second waits, then checks with the first one's payment in sight.
      const linked = await tx
        .select({ id: tradeRemittances.id })
        .from(tradeRemittances)
        .innerJoin(tradeRemittanceInvoices, eq(tradeRemittanceInvoices.remittanceId, tradeRemittances.id))
        .where(and(eq(tradeRemittanceInvoices.invoiceId, invoice.id), eq(tradeRemittances.status, "pending")))
        .orderBy(tradeRemittances.id)
        .for("update", { of: tradeRemittances });
      const confirmed = linked.length === 0 ? [] : await tx
        .update(tradeRemittances)
        .set({ status: "confirmed", confirmedAt: sql`now()` })
        .where(
          and(
            inArray(tradeRemittances.id, linked.map((r) => r.id)),
            eq(tradeRemittances.status, "pending"),
            sql`not exists (select 1 from ${tradeRemittanceInvoices} ri join ${tradeInvoices} i on i.id = ri.invoice_id where ri.remittance_id = ${tradeRemittances.id} and i.status <> 'paid')`,
          ),
        )
        .returning({ reference: tradeRemittances.reference });
      const references = confirmed.map((r) => r.reference);
      if (actor) {
        await recordAudit(tx, actor, { action: "invoice.paid", entity: "invoice", entityId: invoice.number, before: { status: invoice.status }, after: { status: "paid", remittances_confirmed: references } });
      }
      const mail = renderEmail({
        ...layout,
        title: `Payment received for ${invoice.number}`,
        paragraphs: [
          `Thank you: we have received ${money(invoice.total)} for invoice ${invoice.number}${invoice.poReference ? ` (your PO ${invoice.poReference})` : ""}. It is now paid.`,
          ...(references.length > 0 ? [`This completes your payment ${references.join(", ")}.`] : []),
          `${account!.companyName} now owes ${money(account!.balance)} on its trade account.`,
        ],
        action: { label: "See your invoices", url: `${options.publicUrl}/trade/invoices` },
      });
      await options.mail.enqueue(tx, { to: account!.accountsEmail, subject: `Receipt: ${invoice.number} paid`, ...mail });
      return { number: invoice.number, companyName: account!.companyName, balance: account!.balance, confirmed: references };
    });
  }

  /** Whether orders on account need a purchase-order reference, for the account owned by `email`. */
  async function setPoRequired(email: string, required: boolean, actor?: StaffActor): Promise<{ companyName: string; poRequired: boolean }> {
    const [owned] = await db
      .select({ id: tradeAccounts.id })
      .from(tradeAccounts)
      .innerJoin(tradeMembers, and(eq(tradeMembers.tradeAccountId, tradeAccounts.id), eq(tradeMembers.role, "owner")))
      .innerJoin(users, eq(users.id, tradeMembers.userId))
      .where(and(eq(users.email, email.trim()), ne(tradeAccounts.state, "declined")))
      .limit(1);
    if (!owned) throw new HttpError(404, `No trade account is owned by ${email}.`);
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const [before] = await tx.select({ poRequired: tradeAccounts.poRequired }).from(tradeAccounts).where(eq(tradeAccounts.id, owned.id)).for("update");
      const [account] = await tx
        .update(tradeAccounts)
        .set({ poRequired: required, updatedAt: sql`now()` })
        .where(eq(tradeAccounts.id, owned.id))
        .returning({ companyName: tradeAccounts.companyName, poRequired: tradeAccounts.poRequired });
      if (actor) await recordAudit(tx, actor, { action: "trade_account.po_required", entity: "trade_account", entityId: owned.id, before: { po_required: before!.poRequired }, after: { po_required: account!.poRequired } });
      return account!;
    });
  }

  return { markInvoicePaid, setPoRequired };
}

export type TradeStaffService = ReturnType<typeof createTradeStaffService>;
