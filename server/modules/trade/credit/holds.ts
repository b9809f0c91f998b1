import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { LONDON_TODAY } from "../../../lib/london.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { tradeAccounts } from "../schema.ts";

/**
 * Holds on trade accounts (ADR 0040): an account is put on hold `overdue`
 * when an invoice is unpaid past its due date (lifted by itself once nothing
 * is overdue), or `manual` by staff (lifted only by staff). On hold, pay on
 * account is refused (credit.ts `standingOf`).
 *
 * "Overdue" is the same test as checkout's: status `unpaid` (a remittance on
 * its way, `payment_pending`, does not count) and due before today in London.
 */

/** `today` as a date literal, or London's today worked out by the database. */
const dayOf = (today?: string) => (today ? sql`${today}::date` : LONDON_TODAY);

const overdueInvoiceOf = (accountId: SQLColumn, today?: string) =>
  sql`exists (select 1 from ${tradeInvoices} where ${tradeInvoices.tradeAccountId} = ${accountId} and ${tradeInvoices.status} = 'unpaid' and ${tradeInvoices.dueDate} < ${dayOf(today)})`;
type SQLColumn = typeof tradeAccounts.id;

/**
 * Puts on hold (`overdue`) every approved account not already on hold that has
 * an unpaid invoice due before `today` (YYYY-MM-DD; London's today when
 * omitted). The documents helper's daily job calls it. One conditional update,
 * so it can run in any process any number of times. Answers the accounts held.
 */
export async function holdOverdueAccounts(tx: Db, today?: string): Promise<{ id: number; companyName: string; accountsEmail: string }[]> {
  return tx
    .update(tradeAccounts)
    .set({ onHold: true, holdReason: "overdue", heldAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(tradeAccounts.state, "approved"), eq(tradeAccounts.onHold, false), overdueInvoiceOf(tradeAccounts.id, today)))
    .returning({ id: tradeAccounts.id, companyName: tradeAccounts.companyName, accountsEmail: tradeAccounts.accountsEmail });
}

/**
 * Lifts an `overdue` hold once the account has no overdue invoice left: called
 * after every payment and credit note, in their transaction. A manual hold
 * stays. Answers whether it was lifted.
 */
export async function liftOverdueHoldIfClear(tx: Db, accountId: number, today?: string): Promise<boolean> {
  const lifted = await tx
    .update(tradeAccounts)
    .set({ onHold: false, holdReason: "", heldAt: null, updatedAt: sql`now()` })
    .where(and(eq(tradeAccounts.id, accountId), eq(tradeAccounts.holdReason, "overdue"), sql`not ${overdueInvoiceOf(tradeAccounts.id, today)}`))
    .returning({ id: tradeAccounts.id });
  return lifted.length > 0;
}

/** Staff put an account on hold by hand: pay on account stops until staff release it (an overdue hold becomes manual). */
export async function holdManually(tx: Db, accountId: number): Promise<void> {
  await tx.update(tradeAccounts).set({ onHold: true, holdReason: "manual", heldAt: sql`coalesce(${tradeAccounts.heldAt}, now())`, updatedAt: sql`now()` }).where(eq(tradeAccounts.id, accountId));
}

/** Staff release a hold of either kind. An overdue invoice still blocks pay on account, and the daily job holds the account again. */
export async function releaseHold(tx: Db, accountId: number): Promise<void> {
  await tx.update(tradeAccounts).set({ onHold: false, holdReason: "", heldAt: null, updatedAt: sql`now()` }).where(eq(tradeAccounts.id, accountId));
}
