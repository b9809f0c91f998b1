// Payments and credit notes for the statement, reminder and aged-debt tests,
// written straight into the ledger as the trade desk's services leave them:
// each moves the invoices' paid or credited pence and the account's balance.
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { TestBrowser } from "../../../test/browser.ts";
import { staffBrowsers } from "../../../test/staff-browsers.ts";
import { tableOutbox } from "../../../test/outbox.ts";
import type { StaffRole } from "../../staff/permissions.ts";
import type { Db } from "../../../db/client.ts";
import type { Outbox } from "../../auth/service.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { tradeCreditNotes, tradePaymentAllocations, tradePayments } from "./ledger-schema.ts";
import { tradeAccounts } from "../schema.ts";

let seq = 0;
// Short, as real numbers are (`CN-000007`), and unique within a run.
const run = Math.floor(Math.random() * 900 + 100);
const next = () => `${run}${(seq += 1)}`;

async function settle(db: Db, invoiceId: number) {
  await db
    .update(tradeInvoices)
    .set({ status: sql`case when ${tradeInvoices.paidAmount} + ${tradeInvoices.creditedAmount} >= ${tradeInvoices.total} then 'paid' else ${tradeInvoices.status} end` })
    .where(eq(tradeInvoices.id, invoiceId));
}

/** A payment received on `receivedOn`, set against invoices as given; the rest stays on account. */
export async function payment(db: Db, accountId: number, receivedOn: string, amount: number, allocations: { invoiceId: number; amount: number }[] = [], reference = "") {
  const allocated = allocations.reduce((s, a) => s + a.amount, 0);
  const [p] = await db
    .insert(tradePayments)
    .values({ number: `PAY-T${next()}`, tradeAccountId: accountId, amount, method: "bacs", reference, receivedOn, unallocated: amount - allocated })
    .returning();
  for (const a of allocations) {
    await db.insert(tradePaymentAllocations).values({ paymentId: p!.id, invoiceId: a.invoiceId, amount: a.amount });
    await db.update(tradeInvoices).set({ paidAmount: sql`${tradeInvoices.paidAmount} + ${a.amount}` }).where(eq(tradeInvoices.id, a.invoiceId));
    await settle(db, a.invoiceId);
  }
  await db.update(tradeAccounts).set({ balance: sql`${tradeAccounts.balance} - ${amount}` }).where(eq(tradeAccounts.id, accountId));
  return p!;
}

/** A credit note against an invoice issued on `issuedOn`, `applied` of it set against the invoice. */
export async function creditNote(db: Db, accountId: number, invoiceId: number, issuedOn: string, total: number, applied = total) {
  const [c] = await db
    .insert(tradeCreditNotes)
    .values({ number: `CN-T${next()}`, tradeAccountId: accountId, invoiceId, reason: "Damaged in transit", issuedOn, subtotal: Math.round(total / 1.2), vat: total - Math.round(total / 1.2), total, applied })
    .returning();
  if (applied > 0) {
    await db.update(tradeInvoices).set({ creditedAmount: sql`${tradeInvoices.creditedAmount} + ${applied}` }).where(eq(tradeInvoices.id, invoiceId));
    await settle(db, invoiceId);
  }
  await db.update(tradeAccounts).set({ balance: sql`${tradeAccounts.balance} - ${total}` }).where(eq(tradeAccounts.id, accountId));
  return c!;
}

/** The outbox as the mail service writes it, for a second database handle (another "process"). */
export function outboxOn(): Outbox {
  // The mail service's own enqueue (attachments and all); nothing here delivers.
  return tableOutbox;
}

/** A browser signed in as each demo staff role (and a guest's), each from its own address in `198.51.{net}.x`. */
export async function demoStaffBrowsers(app: FastifyInstance, net: number): Promise<Record<StaffRole | "guest", TestBrowser>> {
  let ip = 1;
  return staffBrowsers(app, () => `198.51.${net}.${ip++}`);
}
