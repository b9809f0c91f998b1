import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { recordAudit } from "../../audit/service.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { HttpError } from "../../../http-errors.ts";
import type { Outbox } from "../../auth/service.ts";
import { users } from "../../auth/schema.ts";
import { renderEmail } from "../../mail/templates.ts";
import { type TradeInvoice, tradeInvoices } from "../invoices/invoice-schema.ts";
import { confirmSettledRemittances, lockAccount, outstandingOf, recordPayment } from "./ledger.ts";
import type { TradePaymentMethod } from "./ledger-schema.ts";
import { type TradeAccount, tradeAccounts, tradeMembers } from "../schema.ts";

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

/** How the money came, for the payment row: a card payment's webhook says card and its remittance. */
export interface PaidBy {
  method: TradePaymentMethod;
  reference?: string;
  remittanceId?: number | null;
}

/**
 * The money for some invoices has arrived (staff saw it in the bank, or a card
 * payment): for each company, one payment of what is outstanding on those of
 * its invoices still unpaid, allocated to them (ledger.ts `recordPayment`, so
 * the balance, the invoices and the remittances move together), and one
 * receipt to its accounts email. Locks each account (by id), then its
 * invoices, as every ledger write does.
 */
export async function markInvoicesPaid(tx: Db, options: ReceiptOptions, invoiceIds: number[], how = "", by: PaidBy = { method: "bacs" }): Promise<InvoicesPaid> {
  const ids = [...new Set(invoiceIds)];
  const owners = ids.length ? await tx.selectDistinct({ accountId: tradeInvoices.tradeAccountId }).from(tradeInvoices).where(inArray(tradeInvoices.id, ids)) : [];
  const paid: TradeInvoice[] = [];
  const accounts: TradeAccount[] = [];
  const confirmed: string[] = [];
  let total = 0;
  for (const { accountId } of owners.sort((a, b) => a.accountId - b.accountId)) {
    await lockAccount(tx, accountId);
    const open = (
      await tx
        .select()
        .from(tradeInvoices)
        .where(and(eq(tradeInvoices.tradeAccountId, accountId), inArray(tradeInvoices.id, ids)))
        .orderBy(asc(tradeInvoices.id))
        .for("update")
    ).filter((i) => i.status !== "paid");
    if (open.length === 0) continue;
    // An invoice with nothing left to pay (a £0 invoice) is simply paid.
    const empty = open.filter((i) => outstandingOf(i) === 0);
    if (empty.length) await tx.update(tradeInvoices).set({ status: "paid", paidAt: sql`now()` }).where(inArray(tradeInvoices.id, empty.map((i) => i.id)));
    const owed = open.filter((i) => outstandingOf(i) > 0);
    const amount = owed.reduce((sum, i) => sum + outstandingOf(i), 0);
    const done =
      amount > 0
        ? await recordPayment(tx, {
            accountId,
            amount,
            method: by.method,
            reference: by.reference ?? (owed.length === 1 ? owed[0]!.number : `${owed.length} invoices`),
            allocations: owed.map((i) => ({ invoiceId: i.id, amount: outstandingOf(i) })),
            remittanceId: by.remittanceId ?? null,
          })
        : null;
    const account = done?.account ?? (await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId)))[0]!;
    const references = [...(done?.confirmed ?? []), ...(empty.length ? await confirmSettledRemittances(tx, empty.map((i) => i.id)) : [])];
    paid.push(...open.map((i) => ({ ...i, paidAmount: i.total - i.creditedAmount, status: "paid" as const })));
    accounts.push(account);
    confirmed.push(...references);
    total += amount;
    await sendReceipt(tx, options, account, { amount, invoices: open, references, how, settled: true });
  }
  return {
    paid,
    amount: total,
    accounts: accounts.map((a) => ({ id: a.id, companyName: a.companyName, balance: a.balance })),
    confirmed,
  };
}

/**
 * One receipt to the company's accounts email: what arrived, for which
 * invoices (`settled` when it paid them in full), and what it owes now.
 */
export async function sendReceipt(
  tx: Db,
  options: ReceiptOptions,
  account: TradeAccount,
  paid: { amount: number; invoices: TradeInvoice[]; references: string[]; how: string; settled: boolean },
): Promise<void> {
  const { invoices, references, how, settled } = paid;
  const one = invoices.length === 1 ? invoices[0]! : null;
  const received = `Thank you: we have received ${money(paid.amount)}${how}`;
  const first = one
    ? `${received} for invoice ${invoiceWithPo(one)}.${settled ? " It is now paid." : ""}`
    : invoices.length
      ? `${received} for invoices ${listed(invoices.map(invoiceWithPo))}.${settled ? " They are now paid." : ""}`
      : `${received}, kept as credit on your account.`;
  const owes = account.balance < 0 ? `${account.companyName} has ${money(-account.balance)} in credit on its trade account.` : `${account.companyName} now owes ${money(account.balance)} on its trade account.`;
  const mail = renderEmail({
    appName: options.appName,
    publicUrl: options.publicUrl,
    title: one ? `Payment received for ${one.number}` : invoices.length ? `Payment received for ${invoices.length} invoices` : "Payment received",
    paragraphs: [first, ...(references.length > 0 ? [`This completes your payment ${references.join(", ")}.`] : []), owes],
    action: { label: "See your invoices", url: `${options.publicUrl}/trade/invoices` },
  });
  const what = one ? one.number : invoices.length ? `${invoices.length} invoices` : "payment";
  await options.mail.enqueue(tx, { to: account.accountsEmail, subject: `Receipt: ${what} ${settled || !invoices.length ? (invoices.length ? "paid" : "received") : "part paid"}`, ...mail });
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
      // Read, not locked: markInvoicesPaid locks the account, then the invoice.
      const [invoice] = await tx.select().from(tradeInvoices).where(eq(tradeInvoices.number, wanted));
      if (!invoice) throw new HttpError(404, `No invoice is numbered ${wanted}.`);
      if (invoice.status === "paid") throw new HttpError(409, `${invoice.number} is already paid.`);
      const done = await markInvoicesPaid(tx, receipts, [invoice.id]);
      const account = done.accounts[0] ?? (await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, invoice.tradeAccountId)))[0]!;
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
