import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { ShopBankDetails } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { users } from "../../auth/schema.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { type TradeInvoice, tradeInvoices } from "../invoices/invoice-schema.ts";
import { INVOICE_READERS } from "../invoices/invoices.ts";
import { outstandingOf } from "./ledger.ts";
import { type TradeRemittance, tradeRemittanceInvoices, tradeRemittances } from "./remittance-schema.ts";
import type { TradeAccount } from "../schema.ts";
import { memberWithRole } from "../accounts/users.ts";

/** Today in Europe/London, worked out by the database (as credit.ts does). */
const LONDON_TODAY = sql`(now() at time zone 'Europe/London')::date`;
const NOT_FOUND = "Not Found";
export const PAY_MAX = 100;

export const PAY_MESSAGES = {
  none: "Choose at least one invoice to pay.",
  tooMany: `Choose at most ${PAY_MAX} invoices at a time.`,
  twice: "Choose each invoice only once.",
  provider: "Choose how you will pay.",
  notFound: (id: number) => `Invoice ${id} was not found.`,
  paid: (number: string) => `${number} is already paid.`,
  pending: (number: string) => `${number} already has a payment on its way.`,
} as const;

/** What the payer is told to do: for a bank transfer, where to send the money and what to quote. */
export interface PaymentInstructions {
  provider: string;
  /** One sentence that says it all, for email and screen readers. */
  summary: string;
  reference: string;
  /** Pounds. */
  amount: number;
  /** The shop's bank account; null when the shop has not set one (the payer asks the shop). */
  pay_to: { account_name: string; sort_code: string; account_number: string } | null;
}

export interface RemittanceJson {
  reference: string;
  /** Pounds, as API bodies carry money. */
  amount: number;
  provider: string;
  status: TradeRemittance["status"];
  created_at: string;
  /** The invoices it pays (totals in pence, as the invoice endpoints carry them) and where each stands now. */
  invoices: { id: number; number: string; total: number; status: TradeInvoice["status"] }[];
}

/** The invoices being paid, locked, for one company. */
export interface InvoicePaymentRequest {
  userId: number;
  account: TradeAccount;
  invoices: TradeInvoice[];
  /** Pence: what is left to pay on the invoices. */
  amount: number;
}

/**
 * A way of paying trade invoices, like checkout's PaymentProvider: `take` runs
 * inside the payment's transaction, with the invoices already locked and checked
 * as unpaid; it throws an HttpError or ValidationError to refuse, and nothing is kept.
 */
export interface InvoicePaymentProvider {
  id: string;
  name: string;
  description: string;
  /** Runs with the transaction handle: on PGlite the outer db would deadlock. */
  take(tx: Db, request: InvoicePaymentRequest): Promise<TradeRemittance>;
  /** What the payer must do for a remittance it took: shown after paying and again on its page. */
  instructions(remittance: TradeRemittance): PaymentInstructions;
  /**
   * After the remittance is committed: opens the payment page and answers
   * where the browser goes (card). When it throws, `pay` calls `withdraw`.
   */
  begin?(start: RemittanceStart): Promise<{ redirect_url: string }>;
  /** Takes back a remittance whose payment could not be started: its invoices are unpaid again. */
  withdraw?(remittanceId: number): Promise<void>;
}

/** A remittance as its payment page is opened for it (pence). */
export interface RemittanceStart {
  remittanceId: number;
  reference: string;
  amount: number;
  /** The paying member's, for the payment page and its receipt. */
  email: string;
}

const pounds = (pence: number) => pence / 100;
const money = (pence: number) => `£${pounds(pence).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Writes the remittance and links its invoices; its readable reference comes from its id. */
export async function recordRemittance(tx: Db, request: InvoicePaymentRequest, provider: string): Promise<TradeRemittance> {
  const [row] = await tx
    .insert(tradeRemittances)
    .values({ reference: `pending-${crypto.randomUUID()}`, tradeAccountId: request.account.id, amount: request.amount, provider, createdBy: request.userId })
    .returning({ id: tradeRemittances.id });
  if (!row) throw new HttpError(500, "The remittance was not written.");
  const [remittance] = await tx
    .update(tradeRemittances)
    .set({ reference: `REM-${String(row.id).padStart(6, "0")}` })
    .where(eq(tradeRemittances.id, row.id))
    .returning();
  await tx.insert(tradeRemittanceInvoices).values(request.invoices.map((i) => ({ remittanceId: row.id, invoiceId: i.id })));
  return remittance!;
}

/** Records the remittance and sets its invoices payment pending (which lifts the overdue block on pay on account) until its money arrives. */
export async function recordPendingRemittance(tx: Db, request: InvoicePaymentRequest, provider: string): Promise<TradeRemittance> {
  const remittance = await recordRemittance(tx, request, provider);
  await tx
    .update(tradeInvoices)
    .set({ status: "payment_pending" })
    .where(inArray(tradeInvoices.id, request.invoices.map((i) => i.id)));
  return remittance;
}

/**
 * Takes back a pending remittance whose money will not come (its card page
 * could not be opened, or closed unpaid): deleted with its invoice links, its
 * invoices unpaid again so they can be paid another way. Locks the invoices
 * (by id), then the remittance, as marking invoices paid does. Answers
 * whether it was withdrawn.
 */
export async function withdrawRemittance(tx: Db, remittanceId: number): Promise<boolean> {
  const invoiceIds = tx.select({ id: tradeRemittanceInvoices.invoiceId }).from(tradeRemittanceInvoices).where(eq(tradeRemittanceInvoices.remittanceId, remittanceId));
  const invoices = await tx.select({ id: tradeInvoices.id }).from(tradeInvoices).where(inArray(tradeInvoices.id, invoiceIds)).orderBy(asc(tradeInvoices.id)).for("update");
  const [remittance] = await tx.select().from(tradeRemittances).where(eq(tradeRemittances.id, remittanceId)).for("update");
  if (!remittance || remittance.status !== "pending") return false;
  if (invoices.length > 0) {
    await tx
      .update(tradeInvoices)
      .set({ status: "unpaid" })
      .where(and(inArray(tradeInvoices.id, invoices.map((i) => i.id)), eq(tradeInvoices.status, "payment_pending")));
  }
  await tx.delete(tradeRemittances).where(eq(tradeRemittances.id, remittanceId));
  return true;
}

/**
 * Bank transfer: the company says it is sending the money, quoting the
 * remittance's reference; its invoices wait as payment pending (which lifts the
 * overdue block on pay on account) until staff see the money arrive.
 */
export function bankTransfer(bank: ShopBankDetails | null, shopEmail: string): InvoicePaymentProvider {
  return {
    id: "bank_transfer",
    name: "Bank transfer",
    description: "Send the money from your bank, quoting the reference we give you. We mark the invoices paid when it arrives.",
    take: (tx, request) => recordPendingRemittance(tx, request, "bank_transfer"),
    instructions(remittance) {
      const amount = money(remittance.amount);
      const summary = bank
        ? `Pay ${amount} by bank transfer to ${bank.accountName}, sort code ${bank.sortCode}, account ${bank.accountNumber}, quoting ${remittance.reference} as the reference.`
        : `Pay ${amount} by bank transfer quoting ${remittance.reference} as the reference; email ${shopEmail} for our bank details.`;
      return {
        provider: "bank_transfer",
        summary,
        reference: remittance.reference,
        amount: pounds(remittance.amount),
        pay_to: bank ? { account_name: bank.accountName, sort_code: bank.sortCode, account_number: bank.accountNumber } : null,
      };
    },
  };
}

/** What paying answers: the remittance, what to do next, and for a card the payment page to go to. */
export interface PaidJson {
  remittance: RemittanceJson;
  instructions: PaymentInstructions;
  payment?: { redirect_url: string };
}

export interface PayableInvoiceJson {
  id: number;
  number: string;
  po_reference: string;
  invoice_date: string;
  due_date: string;
  /** Pence, as the invoice endpoints carry them. */
  total: number;
  overdue: boolean;
}

/**
 * Paying the company's invoices (issue 7): owners, admins and accounts users,
 * the same people who see invoices; everyone else gets 404.
 */
export function createTradePaymentsService(db: Db, options: { providers: InvoicePaymentProvider[] }) {
  const providers = new Map(options.providers.map((p) => [p.id, p]));

  async function remittanceJson(handle: Db, remittance: TradeRemittance): Promise<RemittanceJson> {
    const invoices = await handle
      .select({ id: tradeInvoices.id, number: tradeInvoices.number, total: tradeInvoices.total, status: tradeInvoices.status })
      .from(tradeRemittanceInvoices)
      .innerJoin(tradeInvoices, eq(tradeInvoices.id, tradeRemittanceInvoices.invoiceId))
      .where(eq(tradeRemittanceInvoices.remittanceId, remittance.id))
      .orderBy(asc(tradeInvoices.id));
    return {
      reference: remittance.reference,
      amount: pounds(remittance.amount),
      provider: remittance.provider,
      status: remittance.status,
      created_at: remittance.createdAt.toISOString(),
      invoices,
    };
  }

  /**
   * Pays the chosen invoices with one remittance. The invoice rows are locked in
   * id order, so two payments of the same invoice queue up: the second sees it
   * payment pending and is refused.
   */
  async function pay(userId: number, input: { invoiceIds: number[]; provider?: string }): Promise<PaidJson> {
    const provider = providers.get(input.provider ?? "bank_transfer");
    if (!provider) throw new ValidationError({ provider: [PAY_MESSAGES.provider] });
    const ids = [...new Set(input.invoiceIds)];
    if (ids.length === 0) throw new ValidationError({ invoice_ids: [PAY_MESSAGES.none] });
    if (ids.length > PAY_MAX) throw new ValidationError({ invoice_ids: [PAY_MESSAGES.tooMany] });
    const taken = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const { account } = await memberWithRole(tx, userId, INVOICE_READERS);
      const invoices = await tx
        .select()
        .from(tradeInvoices)
        .where(and(eq(tradeInvoices.tradeAccountId, account.id), inArray(tradeInvoices.id, ids)))
        .orderBy(asc(tradeInvoices.id))
        .for("update");
      // None of them the company's: the same 404 as reading another company's invoice.
      if (invoices.length === 0) throw new HttpError(404, NOT_FOUND);
      const found = new Map(invoices.map((i) => [i.id, i]));
      const problems = ids.flatMap((id) => {
        const invoice = found.get(id);
        if (!invoice) return [PAY_MESSAGES.notFound(id)];
        if (invoice.status === "paid") return [PAY_MESSAGES.paid(invoice.number)];
        if (invoice.status === "payment_pending") return [PAY_MESSAGES.pending(invoice.number)];
        return [];
      });
      if (problems.length > 0) throw new ValidationError({ invoice_ids: problems });
      // What is left to pay on each (ADR 0040): a part payment or a credit note already came off.
      const amount = invoices.reduce((sum, i) => sum + outstandingOf(i), 0);
      const remittance = await provider.take(tx, { userId, account, invoices, amount });
      const [payer] = provider.begin ? await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)) : [];
      return { remittance, email: payer?.email ?? account.accountsEmail, paid: { remittance: await remittanceJson(tx, remittance), instructions: provider.instructions(remittance) } };
    });
    if (!provider.begin) return taken.paid;
    // The payment page is opened once the remittance is committed, so no lock is held while the gateway answers.
    try {
      const payment = await provider.begin({ remittanceId: taken.remittance.id, reference: taken.remittance.reference, amount: taken.remittance.amount, email: taken.email });
      return { ...taken.paid, payment };
    } catch (error) {
      await provider.withdraw?.(taken.remittance.id);
      throw error;
    }
  }

  /** The company's unpaid invoices, overdue first, then by due date. */
  async function payable(userId: number): Promise<PayableInvoiceJson[]> {
    const { account } = await memberWithRole(db, userId, INVOICE_READERS);
    const overdue = sql<boolean>`(${tradeInvoices.dueDate} < ${LONDON_TODAY})`;
    const rows = await db
      .select({ id: tradeInvoices.id, number: tradeInvoices.number, poReference: tradeInvoices.poReference, invoiceDate: tradeInvoices.invoiceDate, dueDate: tradeInvoices.dueDate, total: tradeInvoices.total, overdue })
      .from(tradeInvoices)
      .where(and(eq(tradeInvoices.tradeAccountId, account.id), eq(tradeInvoices.status, "unpaid")))
      .orderBy(desc(overdue), asc(tradeInvoices.dueDate), asc(tradeInvoices.id));
    return rows.map((r) => ({ id: r.id, number: r.number, po_reference: r.poReference, invoice_date: r.invoiceDate, due_date: r.dueDate, total: r.total, overdue: Boolean(r.overdue) }));
  }

  /** How many invoices the company could pay now (for the "Pay invoices" button). */
  async function payableCount(userId: number): Promise<number> {
    const { account } = await memberWithRole(db, userId, INVOICE_READERS);
    const [row] = await db
      .select({ n: count() })
      .from(tradeInvoices)
      .where(and(eq(tradeInvoices.tradeAccountId, account.id), eq(tradeInvoices.status, "unpaid")));
    return row?.n ?? 0;
  }

  /** One of the company's remittances by its reference, with what to pay it by; 404 for anyone else's. */
  async function show(userId: number, reference: string): Promise<{ remittance: RemittanceJson; instructions: PaymentInstructions | null }> {
    const { account } = await memberWithRole(db, userId, INVOICE_READERS);
    const [row] = await db
      .select()
      .from(tradeRemittances)
      .where(and(eq(tradeRemittances.tradeAccountId, account.id), eq(tradeRemittances.reference, reference.trim().toUpperCase())))
      .limit(1);
    if (!row) throw new HttpError(404, NOT_FOUND);
    return { remittance: await remittanceJson(db, row), instructions: providers.get(row.provider)?.instructions(row) ?? null };
  }

  /** The company's remittances, newest first (the latest 50). */
  async function list(userId: number): Promise<RemittanceJson[]> {
    const { account } = await memberWithRole(db, userId, INVOICE_READERS);
    const rows = await db.select().from(tradeRemittances).where(eq(tradeRemittances.tradeAccountId, account.id)).orderBy(desc(tradeRemittances.id)).limit(50);
    return Promise.all(rows.map((r) => remittanceJson(db, r)));
  }

  return { pay, payable, payableCount, show, list, providers: options.providers.map((p) => ({ id: p.id, name: p.name, description: p.description })) };
}

export type TradePaymentsService = ReturnType<typeof createTradePaymentsService>;
