import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { allocateCredit, lockAccount, outstandingOf, recordPayment } from "../credit/ledger.ts";
import { TRADE_PAYMENT_METHODS, type TradePaymentMethod, tradeCreditNotes } from "../credit/ledger-schema.ts";
import { sendReceipt } from "../credit/receipts.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "../credit/remittance-schema.ts";
import { creditInvoice, creditNoteDocument, creditNotesOf } from "../invoices/credit-notes.ts";
import type { CreditNoteJson } from "../invoices/documents.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { invoiceByNumber } from "../invoices/invoices.ts";
import { tradeAccounts } from "../schema.ts";
import { type AccountWithInvoicesJson, type DeskContext, authorizeDesk, pence, withInvoices } from "./common.ts";

/**
 * Money on the desk (`invoices.manage`): payments received and allocated to
 * invoices, credit on account set against invoices, customers' remittances
 * confirmed when their money arrives, and credit notes. The ledger
 * (credit/ledger.ts) moves the money; this checks what staff sent, audits it
 * and sends the receipt or the credit note.
 */

export interface PaymentBody {
  amount: number;
  method: TradePaymentMethod;
  reference?: string;
  received_on?: string;
  allocations: { invoice_number: string; amount: number }[];
}

export interface CreditAllocationBody {
  /** Pounds of credit on account per invoice. */
  allocations: { invoice_number: string; amount: number }[];
}

export interface CreditNoteBody {
  reason: string;
  whole?: boolean;
  lines?: { source: string; quantity: number }[];
}

export function deskMoney({ db, options, inTx, receipts }: DeskContext) {
  /** Allocations by invoice number as ids and pence; 422 naming any number that is no invoice. */
  async function allocationsByNumber(tx: Db, allocations: { invoice_number: string; amount: number }[]): Promise<{ invoiceId: number; amount: number }[]> {
    const numbers = allocations.map((a) => a.invoice_number.trim().toUpperCase());
    const found = numbers.length ? await tx.select({ id: tradeInvoices.id, number: tradeInvoices.number }).from(tradeInvoices).where(inArray(tradeInvoices.number, numbers)) : [];
    const idOf = new Map(found.map((f) => [f.number, f.id]));
    const unknown = numbers.filter((n) => !idOf.has(n));
    if (unknown.length) throw new ValidationError({ allocations: unknown.map((n) => `No invoice is numbered ${n}.`) });
    return allocations.map((a, i) => ({ invoiceId: idOf.get(numbers[i]!)!, amount: pence(a.amount) }));
  }

  /**
   * Credit on account (payments' unallocated money, oldest first) set against
   * open invoices by number (ledger.ts `allocateCredit`). Audited; no receipt:
   * no money arrived. Answers the account with its invoices.
   */
  async function allocateCreditOnAccount(actor: StaffActor, accountId: number, body: CreditAllocationBody): Promise<AccountWithInvoicesJson> {
    authorize(actor, "invoices.manage");
    // Screens call this directly, without the route's schema: the same refusal.
    for (const a of body.allocations) {
      if (!Number.isFinite(a.amount) || Math.abs(pence(a.amount) - a.amount * 100) > 1e-6) throw new ValidationError({ allocations: ["Enter each amount in pounds with at most 2 decimals."] });
    }
    return inTx(async (tx) => {
      // No such account answers 404 before its invoices' numbers are read (the ledger locks it first anyway).
      await lockAccount(tx, accountId);
      const done = await allocateCredit(tx, { accountId, allocations: await allocationsByNumber(tx, body.allocations) });
      await recordAudit(tx, actor, {
        action: "trade_account.credit_allocation",
        entity: "trade_account",
        entityId: accountId,
        after: {
          allocations: body.allocations,
          from: done.drawn.map((d) => ({ payment: d.paymentNumber, invoice: done.invoices.find((i) => i.id === d.invoiceId)?.number ?? d.invoiceId, amount: d.amount })),
          remittances_confirmed: done.confirmed,
        },
      });
      return withInvoices(tx, accountId);
    });
  }

  /**
   * Money received, allocated to invoices by number (ledger.ts does the rest);
   * the accounts email gets a receipt. Answers the account with its invoices.
   */
  async function pay(actor: StaffActor, accountId: number, body: PaymentBody): Promise<AccountWithInvoicesJson> {
    authorize(actor, "invoices.manage");
    // Screens call this directly, without the route's schema: the same refusals.
    if (!(TRADE_PAYMENT_METHODS as readonly string[]).includes(body.method)) throw new ValidationError({ method: ["Choose bacs, cheque, card or cash."] });
    if (body.received_on !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(body.received_on)) throw new ValidationError({ received_on: ["Give the date as YYYY-MM-DD."] });
    if (!Number.isFinite(body.amount) || Math.abs(pence(body.amount) - body.amount * 100) > 1e-6) throw new ValidationError({ amount: ["Enter the amount in pounds with at most 2 decimals."] });
    const result = await inTx(async (tx) => {
      const done = await recordPayment(tx, {
        accountId,
        amount: pence(body.amount),
        method: body.method,
        reference: body.reference ?? "",
        receivedOn: body.received_on,
        allocations: await allocationsByNumber(tx, body.allocations),
        recordedBy: actor.staffId,
      });
      await recordAudit(tx, actor, {
        action: "trade_account.payment",
        entity: "trade_account",
        entityId: accountId,
        after: { payment: done.payment.number, amount: done.payment.amount, method: done.payment.method, reference: done.payment.reference, allocations: body.allocations, remittances_confirmed: done.confirmed },
      });
      await sendReceipt(tx, receipts, done.account, {
        amount: done.payment.amount,
        invoices: done.invoices,
        references: done.confirmed,
        how: ` by ${body.method === "bacs" ? "bank transfer" : body.method}`,
        settled: done.invoices.every((i) => i.status === "paid"),
      });
      return withInvoices(tx, accountId);
    });
    options.mail.kick?.();
    return result;
  }

  /**
   * A customer's remittance whose money has arrived: one payment of what is
   * still outstanding on its invoices, allocated to them, which confirms it.
   */
  async function confirmRemittance(actor: StaffActor, reference: string, body: { method?: TradePaymentMethod; received_on?: string }) {
    authorize(actor, "invoices.manage");
    const result = await inTx(async (tx) => {
      const wanted = reference.trim().toUpperCase();
      const [remittance] = await tx.select().from(tradeRemittances).where(eq(tradeRemittances.reference, wanted));
      if (!remittance) throw new HttpError(404, `No remittance is numbered ${wanted}.`);
      if (remittance.status === "confirmed") throw new HttpError(409, `${wanted} is already confirmed.`);
      const linked = await tx.select({ id: tradeRemittanceInvoices.invoiceId }).from(tradeRemittanceInvoices).where(eq(tradeRemittanceInvoices.remittanceId, remittance.id));
      // The account, then its invoices: the ledger's lock order.
      await tx.select({ id: tradeAccounts.id }).from(tradeAccounts).where(eq(tradeAccounts.id, remittance.tradeAccountId)).for("update");
      const open = linked.length
        ? (await tx.select().from(tradeInvoices).where(inArray(tradeInvoices.id, linked.map((l) => l.id))).orderBy(asc(tradeInvoices.id)).for("update")).filter((i) => outstandingOf(i) > 0)
        : [];
      // Then the remittance itself, and again: two confirmations at once record one payment, the second is told.
      const [now] = await tx.select({ status: tradeRemittances.status }).from(tradeRemittances).where(eq(tradeRemittances.id, remittance.id)).for("update");
      if (now?.status !== "pending") throw new HttpError(409, `${wanted} is already confirmed.`);
      const amount = open.reduce((s, i) => s + outstandingOf(i), 0);
      let confirmed: string[] = [];
      if (amount > 0) {
        const done = await recordPayment(tx, {
          accountId: remittance.tradeAccountId,
          amount,
          method: body.method ?? (remittance.provider === "card" ? "card" : "bacs"),
          reference: remittance.reference,
          receivedOn: body.received_on,
          allocations: open.map((i) => ({ invoiceId: i.id, amount: outstandingOf(i) })),
          remittanceId: remittance.id,
          recordedBy: actor.staffId,
        });
        confirmed = done.confirmed;
        await sendReceipt(tx, receipts, done.account, { amount, invoices: done.invoices, references: done.confirmed, how: "", settled: true });
      }
      if (!confirmed.includes(remittance.reference)) {
        // Its invoices were all settled some other way meanwhile: nothing more to record.
        await tx.update(tradeRemittances).set({ status: "confirmed", confirmedAt: sql`now()` }).where(eq(tradeRemittances.id, remittance.id));
        await tx.update(tradeInvoices).set({ status: "paid", paidAt: sql`coalesce(${tradeInvoices.paidAt}, now())` }).where(and(inArray(tradeInvoices.id, linked.map((l) => l.id)), sql`${tradeInvoices.total} - ${tradeInvoices.paidAmount} - ${tradeInvoices.creditedAmount} = 0`));
      }
      await recordAudit(tx, actor, { action: "trade_account.remittance_confirmed", entity: "trade_account", entityId: remittance.tradeAccountId, after: { remittance: remittance.reference, amount } });
      return withInvoices(tx, remittance.tradeAccountId);
    });
    options.mail.kick?.();
    return result;
  }

  /** A credit note against an invoice, emailed to the accounts address with a link to its PDF. */
  async function credit(actor: StaffActor, invoiceNumber: string, body: CreditNoteBody): Promise<CreditNoteJson> {
    authorize(actor, "invoices.manage");
    if (!body.whole && !(body.lines && body.lines.length)) throw new ValidationError({ lines: ["Choose at least one line to credit, or credit the whole invoice."] });
    const result = await inTx(async (tx) => {
      const found = await invoiceByNumber(tx, invoiceNumber);
      const { creditNote: n } = await creditInvoice(tx, receipts, actor, found, { reason: body.reason, whole: body.whole, lines: body.lines });
      return (await creditNotesOf(tx, eq(tradeCreditNotes.id, n.id)))[0]!;
    });
    options.mail.kick?.();
    return result;
  }

  async function creditNoteForStaff(actor: StaffActor, number: string) {
    authorizeDesk(actor);
    const doc = await creditNoteDocument(db, options.shop, eq(tradeCreditNotes.number, number.trim().toUpperCase()));
    if (!doc) throw new HttpError(404, "Not Found");
    return doc;
  }

  return { pay, allocateCredit: allocateCreditOnAccount, confirmRemittance, credit, creditNoteForStaff };
}
