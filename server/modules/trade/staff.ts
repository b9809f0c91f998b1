import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { recordAudit } from "../audit/service.ts";
import type { StaffActor } from "../staff/actor.ts";
import { HttpError } from "../../http-errors.ts";
import type { Outbox } from "../auth/service.ts";
import { users } from "../auth/schema.ts";
import { renderEmail } from "../mail/templates.ts";
import { type TradeInvoice, tradeInvoices } from "./invoice-schema.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "./remittance-schema.ts";
import { type TradeAccount, tradeAccounts, tradeMembers } from "./schema.ts";

const money = (pence: number) => `£${(pence / 100).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export interface InvoicePaidResult {
  number: string;
  companyName: string;
  /** Pence owed after this payment. */
  balance: number;
  /** Remittances that this payment completed. */
  confirmed: string[];
}

/** Where a receipt comes from: the outbox and the shop's name and address. */
export interface ReceiptOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
}

export interface InvoicesPaid {
  /** The invoices this call marked paid; any already paid are left as they were. */
  paid: TradeInvoice[];
  /** Pence: their total. */
  amount: number;
  /** Each company whose invoices were paid, with what it owes now. */
  accounts: { id: number; companyName: string; balance: number }[];
  /** Remittances that this payment completed. */
  confirmed: string[];
}

const invoiceWithPo = (i: TradeInvoice) => `${i.number}${i.poReference ? ` (your PO ${i.poReference})` : ""}`;
const listed = (items: string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/**
 * The money for some invoices has arrived (staff saw it in the bank, or a card
 * payment): each one still unpaid becomes paid, its company's balance drops by
 * their total (never below 0), any remittance whose invoices are now all paid
 * is confirmed, and each company's accounts email gets one receipt. In the
 * caller's transaction, locking the invoices (by id), then the accounts, then
 * the remittances: the same order for every caller, so none waits on another
 * in a cycle.
 */
export async function markInvoicesPaid(tx: Db, options: ReceiptOptions, invoiceIds: number[], how = ""): Promise<InvoicesPaid> {
  const locked = invoiceIds.length ? await tx.select().from(tradeInvoices).where(inArray(tradeInvoices.id, invoiceIds)).orderBy(asc(tradeInvoices.id)).for("update") : [];
  const paid = locked.filter((i) => i.status !== "paid");
  if (paid.length === 0) return { paid, amount: 0, accounts: [], confirmed: [] };
  const paidIds = paid.map((i) => i.id);
  await tx.update(tradeInvoices).set({ status: "paid", paidAt: sql`now()` }).where(inArray(tradeInvoices.id, paidIds));
  const byAccount = new Map<number, TradeInvoice[]>();
  for (const invoice of paid) byAccount.set(invoice.tradeAccountId, [...(byAccount.get(invoice.tradeAccountId) ?? []), invoice]);
  const accounts: TradeAccount[] = [];
  for (const [accountId, invoices] of [...byAccount].sort(([a], [b]) => a - b)) {
    const total = invoices.reduce((sum, i) => sum + i.total, 0);
    const [account] = await tx
      .update(tradeAccounts)
      .set({ balance: sql`greatest(${tradeAccounts.balance} - ${total}, 0)`, updatedAt: sql`now()` })
      .where(eq(tradeAccounts.id, accountId))
      .returning();
    accounts.push(account!);
  }
  // A remittance is confirmed once none of its invoices is left unpaid. Its
  // row is locked first, so when two of its invoices are marked paid at once
  // the second waits, then checks with the first one's payment in sight (one
  // row per link: a locking select cannot be DISTINCT).
  const linked = await tx
    .select({ id: tradeRemittances.id })
    .from(tradeRemittances)
    .innerJoin(tradeRemittanceInvoices, eq(tradeRemittanceInvoices.remittanceId, tradeRemittances.id))
    .where(and(inArray(tradeRemittanceInvoices.invoiceId, paidIds), eq(tradeRemittances.status, "pending")))
    .orderBy(tradeRemittances.id)
    .for("update", { of: tradeRemittances });
  const confirmed =
    linked.length === 0
      ? []
      : await tx
          .update(tradeRemittances)
          .set({ status: "confirmed", confirmedAt: sql`now()` })
          .where(
            and(
              inArray(tradeRemittances.id, [...new Set(linked.map((r) => r.id))]),
              eq(tradeRemittances.status, "pending"),
              sql`not exists (select 1 from ${tradeRemittanceInvoices} ri join ${tradeInvoices} i on i.id = ri.invoice_id where ri.remittance_id = ${tradeRemittances.id} and i.status <> 'paid')`,
            ),
          )
          .returning({ reference: tradeRemittances.reference, accountId: tradeRemittances.tradeAccountId });
  for (const account of accounts) {
    const invoices = byAccount.get(account.id)!;
    const total = invoices.reduce((sum, i) => sum + i.total, 0);
    const references = confirmed.filter((r) => r.accountId === account.id).map((r) => r.reference);
    const one = invoices.length === 1 ? invoices[0]! : null;
    const mail = renderEmail({
      appName: options.appName,
      publicUrl: options.publicUrl,
      title: one ? `Payment received for ${one.number}` : `Payment received for ${invoices.length} invoices`,
      paragraphs: [
        one
          ? `Thank you: we have received ${money(total)}${how} for invoice ${invoiceWithPo(one)}. It is now paid.`
          : `Thank you: we have received ${money(total)}${how} for invoices ${listed(invoices.map(invoiceWithPo))}. They are now paid.`,
        ...(references.length > 0 ? [`This completes your payment ${references.join(", ")}.`] : []),
        `${account.companyName} now owes ${money(account.balance)} on its trade account.`,
      ],
      action: { label: "See your invoices", url: `${options.publicUrl}/trade/invoices` },
    });
    await options.mail.enqueue(tx, { to: account.accountsEmail, subject: one ? `Receipt: ${one.number} paid` : `Receipt: ${invoices.length} invoices paid`, ...mail });
  }
  return {
    paid,
    amount: paid.reduce((sum, i) => sum + i.total, 0),
    accounts: accounts.map((a) => ({ id: a.id, companyName: a.companyName, balance: a.balance })),
    confirmed: confirmed.map((r) => r.reference),
  };
}

/** What the trade desk does from the staff CLI until a back office exists. */
export function createTradeStaffService(db: Db, options: ReceiptOptions) {
  const receipts: ReceiptOptions = { mail: options.mail, appName: options.appName, publicUrl: options.publicUrl };

  /**
   * The money for an invoice has arrived (the staff command line): it becomes
   * paid as `markInvoicesPaid` does, and the change is audited as the member
   * who made it. The invoice is locked before anything else.
   */
  async function markInvoicePaid(number: string, actor?: StaffActor): Promise<InvoicePaidResult> {
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const wanted = number.trim().toUpperCase();
      const [invoice] = await tx.select().from(tradeInvoices).where(eq(tradeInvoices.number, wanted)).for("update");
      if (!invoice) throw new HttpError(404, `No invoice is numbered ${wanted}.`);
      if (invoice.status === "paid") throw new HttpError(409, `${invoice.number} is already paid.`);
      const done = await markInvoicesPaid(tx, receipts, [invoice.id]);
      const account = done.accounts[0]!;
      if (actor) {
        await recordAudit(tx, actor, { action: "invoice.paid", entity: "invoice", entityId: invoice.number, before: { status: invoice.status }, after: { status: "paid", remittances_confirmed: done.confirmed } });
      }
      return { number: invoice.number, companyName: account.companyName, balance: account.balance, confirmed: done.confirmed };
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
