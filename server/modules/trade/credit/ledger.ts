import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { LONDON_TODAY } from "../../../lib/london.ts";
import { type SaleUnit, UNIT_LABELS } from "../../catalog/products/units.ts";
import { orderLines } from "../../orders/schema.ts";
import { liftOverdueHoldIfClear } from "./holds.ts";
import { type TradeInvoice, tradeInvoices } from "../invoices/invoice-schema.ts";
import { type TradePaymentMethod, tradeCreditNoteLines, tradeCreditNotes, tradePaymentAllocations, tradePayments } from "./ledger-schema.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "./remittance-schema.ts";
import { type TradeAccount, tradeAccounts } from "../schema.ts";

/**
 * The trade ledger (ADR 0040): the one place money moves on a trade account.
 * Every function runs in the caller's transaction and keeps, for each account,
 *
 *   balance = Σ invoices.total − Σ credit_notes.total − Σ payments.amount
 *
 * and for each invoice `paid + credited ≤ total`, status `paid` exactly when
 * nothing is outstanding. Locks: the account row first, then its invoices by
 * id, then payments by id (allocating credit on account), then remittances —
 * the order checkout also takes (its conditional update
 * locks the account before it writes the invoice), so no two wait in a cycle.
 */

const money = (pence: number) => `£${(pence / 100).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Pence: £10,000,000, the most one payment may be. */
export const MAX_PAYMENT = 1_000_000_000;

export const outstandingOf = (i: Pick<TradeInvoice, "total" | "paidAmount" | "creditedAmount">) => i.total - i.paidAmount - i.creditedAmount;

export interface PaymentInput {
  accountId: number;
  /** Pence received. */
  amount: number;
  method: TradePaymentMethod;
  reference: string;
  /** YYYY-MM-DD; London's today when omitted. */
  receivedOn?: string;
  /** Pence set against each invoice; what is left is credit on account. */
  allocations: { invoiceId: number; amount: number }[];
  remittanceId?: number | null;
  /** The member of staff who recorded it; null for the shop's own (card webhook, CLI). */
  recordedBy?: number | null;
}

export interface RecordedPayment {
  payment: typeof tradePayments.$inferSelect;
  account: TradeAccount;
  /** The allocated invoices as they are now. */
  invoices: TradeInvoice[];
  /** Remittances this payment completed. */
  confirmed: string[];
}

/** Locks and answers the account, 404 when there is none. */
export async function lockAccount(tx: Db, accountId: number): Promise<TradeAccount> {
  const [account] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
  if (!account) throw new HttpError(404, "No such trade account.");
  return account;
}

/** Readable numbers from ids: `PAY-000012`, `CN-000007`. */
const numbered = (prefix: string, id: number) => `${prefix}-${String(id).padStart(6, "0")}`;

/**
 * Records money received: the payment, its allocations, each invoice's paid
 * amount and status, the account's balance, in the caller's transaction.
 * Refuses with 422 naming the problem: allocations over the payment, over an
 * invoice's outstanding amount, an invoice of another account or already paid.
 * Then confirms any remittance whose invoices are all paid and lifts an
 * overdue hold that is now clear.
 */
export async function recordPayment(tx: Db, input: PaymentInput): Promise<RecordedPayment> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new ValidationError({ amount: ["The amount must be more than £0.00."] });
  // The API's own ceiling; also keeps every sum within the database's integers.
  if (input.amount > MAX_PAYMENT) throw new ValidationError({ amount: [`The amount must be at most ${money(MAX_PAYMENT)}.`] });
  const problems = allocationShapeProblems(input.allocations);
  const allocated = input.allocations.reduce((sum, a) => sum + a.amount, 0);
  if (allocated > input.amount) problems.push(`The allocations (${money(allocated)}) are more than the payment (${money(input.amount)}).`);
  if (problems.length) throw new ValidationError({ allocations: [...new Set(problems)] });

  await lockAccount(tx, input.accountId);
  const ids = await lockInvoicesToAllocate(tx, input.accountId, input.allocations);

  const [row] = await tx
    .insert(tradePayments)
    .values({
      number: `pending-${crypto.randomUUID()}`,
      tradeAccountId: input.accountId,
      amount: input.amount,
      method: input.method,
      reference: input.reference.trim(),
      receivedOn: input.receivedOn ? sql`${input.receivedOn}::date` : LONDON_TODAY,
      unallocated: input.amount - allocated,
      remittanceId: input.remittanceId ?? null,
      recordedBy: input.recordedBy ?? null,
    })
    .returning({ id: tradePayments.id });
  const [payment] = await tx.update(tradePayments).set({ number: numbered("PAY", row!.id) }).where(eq(tradePayments.id, row!.id)).returning();
  const settled: TradeInvoice[] = [];
  if (input.allocations.length) {
    await tx.insert(tradePaymentAllocations).values(input.allocations.map((a) => ({ paymentId: payment!.id, invoiceId: a.invoiceId, amount: a.amount })));
    for (const a of input.allocations) settled.push(await settle(tx, a.invoiceId, { paid: a.amount }));
  }
  const [account] = await tx
    .update(tradeAccounts)
    .set({ balance: sql`${tradeAccounts.balance} - ${input.amount}`, updatedAt: sql`now()` })
    .where(eq(tradeAccounts.id, input.accountId))
    .returning();
  const confirmed = await confirmSettledRemittances(tx, ids);
  const lifted = await liftOverdueHoldIfClear(tx, input.accountId);
  return { payment: payment!, account: lifted ? (await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, input.accountId)))[0]! : account!, invoices: settled, confirmed };
}

/** The refusals an allocation list earns before any row is read: each more than £0.00, each invoice once. */
function allocationShapeProblems(allocations: { invoiceId: number; amount: number }[]): string[] {
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const a of allocations) {
    if (!Number.isSafeInteger(a.amount) || a.amount <= 0) problems.push("Each allocation must be more than £0.00.");
    if (seen.has(a.invoiceId)) problems.push("Allocate to each invoice only once.");
    seen.add(a.invoiceId);
  }
  return problems;
}

/**
 * Locks the allocations' invoices by id (the account is already locked) and
 * refuses, naming each, an invoice of another account, one already paid, or
 * more than what is outstanding on it. Answers the ids in lock order.
 */
async function lockInvoicesToAllocate(tx: Db, accountId: number, allocations: { invoiceId: number; amount: number }[]): Promise<number[]> {
  const ids = [...new Set(allocations.map((a) => a.invoiceId))].sort((a, b) => a - b);
  const invoices = ids.length ? await tx.select().from(tradeInvoices).where(inArray(tradeInvoices.id, ids)).orderBy(asc(tradeInvoices.id)).for("update") : [];
  const byId = new Map(invoices.map((i) => [i.id, i]));
  const problems: string[] = [];
  for (const a of allocations) {
    const invoice = byId.get(a.invoiceId);
    if (!invoice || invoice.tradeAccountId !== accountId) problems.push(`Invoice ${invoice?.number ?? a.invoiceId} is not this account's.`);
    else if (invoice.status === "paid" || outstandingOf(invoice) === 0) problems.push(`${invoice.number} is already paid.`);
    else if (a.amount > outstandingOf(invoice)) problems.push(`${money(a.amount)} is more than the ${money(outstandingOf(invoice))} outstanding on ${invoice.number}.`);
  }
  if (problems.length) throw new ValidationError({ allocations: problems });
  return ids;
}

export interface CreditAllocationInput {
  accountId: number;
  /** Pence of credit on account to set against each invoice. */
  allocations: { invoiceId: number; amount: number }[];
}

export interface AllocatedCredit {
  account: TradeAccount;
  /** The allocated invoices as they are now. */
  invoices: TradeInvoice[];
  /** Which payments' unallocated money went to which invoice, in pence. */
  drawn: { paymentId: number; paymentNumber: string; invoiceId: number; amount: number }[];
  /** Remittances this completed. */
  confirmed: string[];
}

/**
 * Sets credit on account against open invoices: the unallocated money of the
 * account's payments, the oldest received first (ADR 0040). Only payments'
 * money is allocatable: a credit note's part beyond its invoice stays in the
 * balance but belongs to no payment, so it is not drawn here. Each piece adds
 * to the payment's allocation to the invoice (one row per pair), lowers the
 * payment's unallocated pence and raises the invoice's paid pence; the balance
 * does not move (the money was counted when it arrived). Locks the account,
 * then the invoices by id, then the payments by id, as recordPayment does, so
 * two allocations of the same credit queue and the second sees what is left.
 */
export async function allocateCredit(tx: Db, input: CreditAllocationInput): Promise<AllocatedCredit> {
  const problems = allocationShapeProblems(input.allocations);
  if (input.allocations.length === 0) problems.push("Choose at least one invoice to set the credit against.");
  if (problems.length) throw new ValidationError({ allocations: [...new Set(problems)] });

  await lockAccount(tx, input.accountId);
  const ids = await lockInvoicesToAllocate(tx, input.accountId, input.allocations);
  const payments = await tx
    .select()
    .from(tradePayments)
    .where(and(eq(tradePayments.tradeAccountId, input.accountId), sql`${tradePayments.unallocated} > 0`))
    .orderBy(asc(tradePayments.id))
    .for("update");
  const available = payments.reduce((s, p) => s + p.unallocated, 0);
  const wanted = input.allocations.reduce((s, a) => s + a.amount, 0);
  if (wanted > available) {
    throw new ValidationError({
      allocations: [available === 0 ? "The account has no unallocated payment money to allocate." : `The allocations (${money(wanted)}) are more than the ${money(available)} credit on account.`],
    });
  }

  // The oldest money first: by the day it was received, then as recorded.
  const left = new Map(payments.map((p) => [p.id, p.unallocated]));
  const oldest = [...payments].sort((a, b) => a.receivedOn.localeCompare(b.receivedOn) || a.id - b.id);
  const drawn: AllocatedCredit["drawn"] = [];
  for (const a of [...input.allocations].sort((x, y) => x.invoiceId - y.invoiceId)) {
    let need = a.amount;
    for (const p of oldest) {
      const take = Math.min(need, left.get(p.id)!);
      if (take === 0) continue;
      left.set(p.id, left.get(p.id)! - take);
      drawn.push({ paymentId: p.id, paymentNumber: p.number, invoiceId: a.invoiceId, amount: take });
      need -= take;
      if (need === 0) break;
    }
  }
  for (const d of drawn) {
    await tx
      .insert(tradePaymentAllocations)
      .values({ paymentId: d.paymentId, invoiceId: d.invoiceId, amount: d.amount })
      .onConflictDoUpdate({ target: [tradePaymentAllocations.paymentId, tradePaymentAllocations.invoiceId], set: { amount: sql`${tradePaymentAllocations.amount} + ${d.amount}` } });
  }
  for (const p of payments) {
    const used = p.unallocated - left.get(p.id)!;
    if (used > 0) await tx.update(tradePayments).set({ unallocated: sql`${tradePayments.unallocated} - ${used}` }).where(eq(tradePayments.id, p.id));
  }
  const settled: TradeInvoice[] = [];
  for (const a of input.allocations) settled.push(await settle(tx, a.invoiceId, { paid: a.amount }));
  const confirmed = await confirmSettledRemittances(tx, ids);
  await liftOverdueHoldIfClear(tx, input.accountId);
  const [account] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, input.accountId));
  return { account: account!, invoices: settled, drawn, confirmed };
}

/** Adds to an invoice's paid or credited pence; it is paid once nothing is outstanding. The invoice is already locked. */
async function settle(tx: Db, invoiceId: number, by: { paid?: number; credited?: number }): Promise<TradeInvoice> {
  const paid = by.paid ?? 0;
  const credited = by.credited ?? 0;
  const cleared = sql`${tradeInvoices.total} - ${tradeInvoices.paidAmount} - ${tradeInvoices.creditedAmount} - ${paid + credited} = 0`;
  const [invoice] = await tx
    .update(tradeInvoices)
    .set({
      paidAmount: sql`${tradeInvoices.paidAmount} + ${paid}`,
      creditedAmount: sql`${tradeInvoices.creditedAmount} + ${credited}`,
      status: sql`case when ${cleared} then 'paid' else ${tradeInvoices.status} end`,
      paidAt: sql`case when ${cleared} then now() else ${tradeInvoices.paidAt} end`,
    })
    .where(eq(tradeInvoices.id, invoiceId))
    .returning();
  return invoice!;
}

/**
 * Confirms each pending remittance of these invoices once none of its
 * invoices is left unpaid. The remittances are locked first, so when two of
 * its invoices are paid at once the second waits, then checks with the first
 * one's payment in sight (one row per link: a locking select cannot be DISTINCT).
 */
export async function confirmSettledRemittances(tx: Db, invoiceIds: number[]): Promise<string[]> {
  if (invoiceIds.length === 0) return [];
  const linked = await tx
    .select({ id: tradeRemittances.id })
    .from(tradeRemittances)
    .innerJoin(tradeRemittanceInvoices, eq(tradeRemittanceInvoices.remittanceId, tradeRemittances.id))
    .where(and(inArray(tradeRemittanceInvoices.invoiceId, invoiceIds), eq(tradeRemittances.status, "pending")))
    .orderBy(tradeRemittances.id)
    .for("update", { of: tradeRemittances });
  if (linked.length === 0) return [];
  const confirmed = await tx
    .update(tradeRemittances)
    .set({ status: "confirmed", confirmedAt: sql`now()` })
    .where(
      and(
        inArray(tradeRemittances.id, [...new Set(linked.map((r) => r.id))]),
        eq(tradeRemittances.status, "pending"),
        sql`not exists (select 1 from ${tradeRemittanceInvoices} ri join ${tradeInvoices} i on i.id = ri.invoice_id where ri.remittance_id = ${tradeRemittances.id} and i.status <> 'paid')`,
      ),
    )
    .returning({ reference: tradeRemittances.reference });
  return confirmed.map((r) => r.reference);
}

/** A line of an invoice that a credit note may credit. */
export interface CreditableLine {
  /** `order_line:41`, `delivery`, or `invoice` for an invoice whose lines are not readable here (a hire invoice: credited whole). */
  source: string;
  description: string;
  quantity: number;
  /** Pence ex VAT and VAT for the whole quantity, and what promotions took off it (ex VAT). */
  net: number;
  vat: number;
  discount: number;
  /** Already credited by earlier credit notes. */
  creditedQuantity: number;
  creditedNet: number;
  creditedVat: number;
  creditedDiscount: number;
}

/** What an invoice's lines are and how much of each earlier credit notes took. */
export async function creditableLines(handle: Db, invoice: TradeInvoice): Promise<CreditableLine[]> {
  const lines: Omit<CreditableLine, "creditedQuantity" | "creditedNet" | "creditedVat" | "creditedDiscount">[] = [];
  if (invoice.orderId !== null) {
    const rows = await handle.select().from(orderLines).where(eq(orderLines.orderId, invoice.orderId)).orderBy(asc(orderLines.id));
    for (const l of rows) lines.push({ source: `order_line:${l.id}`, description: `${l.name} (${l.sku})${l.unit === "each" ? "" : `, ${UNIT_LABELS[l.unit as SaleUnit]?.per ?? l.unit}`}`, quantity: l.quantity, net: l.lineTotal, vat: l.lineVat, discount: l.discount });
    if (invoice.delivery > 0) lines.push({ source: "delivery", description: "Delivery (inc VAT)", quantity: 1, net: invoice.delivery, vat: 0, discount: 0 });
  } else {
    // A hire invoice's lines live in the hire desk's tables: it is credited whole.
    lines.push({ source: "invoice", description: `Invoice ${invoice.number} in full`, quantity: 1, net: invoice.subtotal + invoice.delivery, vat: invoice.vat, discount: 0 });
  }
  const credited = await handle
    .select({
      source: tradeCreditNoteLines.source,
      quantity: sql<number>`sum(${tradeCreditNoteLines.quantity})`.mapWith(Number),
      net: sql<number>`sum(${tradeCreditNoteLines.net})`.mapWith(Number),
      vat: sql<number>`sum(${tradeCreditNoteLines.vat})`.mapWith(Number),
      discount: sql<number>`sum(${tradeCreditNoteLines.discount})`.mapWith(Number),
    })
    .from(tradeCreditNoteLines)
    .innerJoin(tradeCreditNotes, eq(tradeCreditNotes.id, tradeCreditNoteLines.creditNoteId))
    .where(eq(tradeCreditNotes.invoiceId, invoice.id))
    .groupBy(tradeCreditNoteLines.source);
  const by = new Map(credited.map((c) => [c.source, c]));
  return lines.map((l) => ({ ...l, creditedQuantity: by.get(l.source)?.quantity ?? 0, creditedNet: by.get(l.source)?.net ?? 0, creditedVat: by.get(l.source)?.vat ?? 0, creditedDiscount: by.get(l.source)?.discount ?? 0 }));
}

export interface CreditNoteInput {
  invoiceId: number;
  reason: string;
  /** Everything not yet credited, or the chosen lines and quantities. */
  whole?: boolean;
  lines?: { source: string; quantity: number }[];
  createdBy?: number | null;
  /** YYYY-MM-DD; London's today when omitted. */
  issuedOn?: string;
}

export interface IssuedCreditNote {
  creditNote: typeof tradeCreditNotes.$inferSelect;
  lines: (typeof tradeCreditNoteLines.$inferSelect)[];
  invoice: TradeInvoice;
  account: TradeAccount;
}

/**
 * Issues a credit note against an invoice: the whole of what is not yet
 * credited, or chosen lines (never past a line's quantity). Its total comes
 * off the balance; the part up to the invoice's outstanding amount is applied
 * to the invoice (`applied`), the rest stays as credit on account (the invoice
 * was already paid). The last units of a line take what is left of its
 * amounts, so piecemeal credits never add up to more than the line.
 */
export async function issueCreditNote(tx: Db, input: CreditNoteInput): Promise<IssuedCreditNote> {
  const reason = input.reason.trim();
  if (!reason) throw new ValidationError({ reason: ["Give the reason for the credit note."] });
  const [peek] = await tx.select({ accountId: tradeInvoices.tradeAccountId }).from(tradeInvoices).where(eq(tradeInvoices.id, input.invoiceId));
  if (!peek) throw new HttpError(404, "No such invoice.");
  await lockAccount(tx, peek.accountId);
  const [invoice] = await tx.select().from(tradeInvoices).where(eq(tradeInvoices.id, input.invoiceId)).for("update");
  const lines = await creditableLines(tx, invoice!);
  const wanted = input.whole
    ? lines.filter((l) => l.quantity > l.creditedQuantity).map((l) => ({ source: l.source, quantity: l.quantity - l.creditedQuantity }))
    : (input.lines ?? []);
  if (wanted.length === 0) throw new ValidationError({ lines: [input.whole ? `${invoice!.number} is already credited in full.` : "Choose at least one line to credit, or credit the whole invoice."] });
  const problems: string[] = [];
  const seen = new Set<string>();
  const made: { source: string; description: string; quantity: number; net: number; vat: number; discount: number }[] = [];
  for (const w of wanted) {
    const line = lines.find((l) => l.source === w.source);
    const left = line ? line.quantity - line.creditedQuantity : 0;
    if (!line) problems.push(`${w.source} is not a line of ${invoice!.number}${invoice!.orderId === null ? " (a hire invoice is credited whole)" : ""}.`);
    else if (seen.has(w.source)) problems.push(`Choose ${line.description} only once.`);
    else if (!Number.isInteger(w.quantity) || w.quantity < 1) problems.push(`The quantity of ${line.description} must be a whole number of at least 1.`);
    else if (w.quantity > left) problems.push(left === 0 ? `${line.description} is already credited in full.` : `Only ${left} of ${line.description} can still be credited.`);
    else {
      const last = w.quantity === left;
      made.push({
        source: w.source,
        description: line.description,
        quantity: w.quantity,
        net: last ? line.net - line.creditedNet : Math.round((line.net * w.quantity) / line.quantity),
        vat: last ? line.vat - line.creditedVat : Math.round((line.vat * w.quantity) / line.quantity),
        // The line's discount shared the same way: the credits of a line add up to its discount.
        discount: last ? line.discount - line.creditedDiscount : Math.round((line.discount * w.quantity) / line.quantity),
      });
    }
    seen.add(w.source);
  }
  if (problems.length) throw new ValidationError({ lines: problems });
  const isDelivery = (l: { source: string }) => l.source === "delivery";
  const subtotal = made.filter((l) => !isDelivery(l)).reduce((s, l) => s + l.net, 0);
  const vat = made.filter((l) => !isDelivery(l)).reduce((s, l) => s + l.vat, 0);
  const delivery = made.filter(isDelivery).reduce((s, l) => s + l.net, 0);
  const total = subtotal + vat + delivery;
  if (total <= 0) throw new ValidationError({ lines: ["The credit note must be for more than £0.00."] });
  const applied = Math.min(total, outstandingOf(invoice!));

  const [row] = await tx
    .insert(tradeCreditNotes)
    .values({
      number: `pending-${crypto.randomUUID()}`,
      tradeAccountId: invoice!.tradeAccountId,
      invoiceId: invoice!.id,
      reason,
      issuedOn: input.issuedOn ? sql`${input.issuedOn}::date` : LONDON_TODAY,
      subtotal,
      vat,
      delivery,
      total,
      applied,
      createdBy: input.createdBy ?? null,
    })
    .returning({ id: tradeCreditNotes.id });
  const [creditNote] = await tx.update(tradeCreditNotes).set({ number: numbered("CN", row!.id) }).where(eq(tradeCreditNotes.id, row!.id)).returning();
  const written = await tx
    .insert(tradeCreditNoteLines)
    .values(made.map((l) => ({ ...l, creditNoteId: creditNote!.id })))
    .returning();
  const updated = applied > 0 ? await settle(tx, invoice!.id, { credited: applied }) : invoice!;
  await tx.update(tradeAccounts).set({ balance: sql`${tradeAccounts.balance} - ${total}`, updatedAt: sql`now()` }).where(eq(tradeAccounts.id, invoice!.tradeAccountId));
  if (applied > 0) await confirmSettledRemittances(tx, [invoice!.id]);
  await liftOverdueHoldIfClear(tx, invoice!.tradeAccountId);
  const [account] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, invoice!.tradeAccountId));
  return { creditNote: creditNote!, lines: written, invoice: updated, account: account! };
}
