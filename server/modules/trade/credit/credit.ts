import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import type { PaymentProvider, PaymentRequest } from "../../checkout/payment.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { type TradeAccount, type TradeRole, tradeAccounts, tradeMembers } from "../schema.ts";
import type { SiteJson } from "../sites-contract.ts";
import { siteJsonOf, sitesOf } from "../accounts/sites.ts";

/** The roles that may buy on the company's account. */
export const BUYING_ROLES: readonly TradeRole[] = ["owner", "admin", "buyer"];

/** Today in Europe/London, worked out by the database so every process agrees. */
const LONDON_TODAY = sql`(now() at time zone 'Europe/London')::date`;

export const ON_ACCOUNT = {
  noRight: "Pay on account is for members of an approved trade account who buy for it.",
  pending: "Pay on account opens once your trade account is approved.",
  suspended: "Your trade account is suspended, so pay on account is paused. Please contact the trade desk.",
  overdue: "An invoice on your account is overdue. Pay it to order on account again.",
  onHold: "Your trade account is on hold, so pay on account is paused. Please contact the trade desk.",
  signIn: "Sign in to pay on account.",
  poRequired: "Enter a purchase-order reference: your trade account requires one for orders on account.",
} as const;

const money = (pence: number) => `£${(pence / 100).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Over the limit: what the order costs and what is left. */
export const overLimit = (total: number, available: number) =>
  `This order (${money(total)}) is more than your available credit (${money(Math.max(available, 0))}). Choose another way to pay, or pay an invoice first.`;

/** The payment option checkout shows a member who may pay on account. */
export interface OnAccountOption {
  id: "pay_on_account";
  name: string;
  description: string;
  /** Pounds: limit − unpaid invoices. */
  available_credit: number;
  credit_limit: number;
  po_required: boolean;
  /** The company's live sites: an order on account names one when there are any (sites.ts). */
  sites: SiteJson[];
}

export type Standing = { ok: true; account: TradeAccount } | { ok: false; message: string };

/**
 * Whether a user may pay on account now: a member with buying rights of an
 * approved (so unsuspended) account, not on hold, with no overdue invoice.
 */
export async function standingOf(handle: Db, userId: number | null): Promise<Standing> {
  if (userId === null) return { ok: false, message: ON_ACCOUNT.signIn };
  const [row] = await handle
    .select({ account: tradeAccounts, role: tradeMembers.role })
    .from(tradeMembers)
    .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
    .where(eq(tradeMembers.userId, userId))
    .limit(1);
  if (!row || !BUYING_ROLES.includes(row.role) || row.account.state === "declined") return { ok: false, message: ON_ACCOUNT.noRight };
  if (row.account.state === "pending") return { ok: false, message: ON_ACCOUNT.pending };
  if (row.account.state === "suspended") return { ok: false, message: ON_ACCOUNT.suspended };
  // On hold (ADR 0040): automatically for an overdue invoice, or by staff.
  if (row.account.onHold) return { ok: false, message: row.account.holdReason === "overdue" ? ON_ACCOUNT.overdue : ON_ACCOUNT.onHold };
  const [overdue] = await handle
    .select({ id: tradeInvoices.id })
    .from(tradeInvoices)
    .where(and(eq(tradeInvoices.tradeAccountId, row.account.id), eq(tradeInvoices.status, "unpaid"), lt(tradeInvoices.dueDate, LONDON_TODAY)))
    .limit(1);
  if (overdue) return { ok: false, message: ON_ACCOUNT.overdue };
  return { ok: true, account: row.account };
}

/** The "Pay on account" option for checkout's payment methods, or null when it is not offered. */
export async function onAccountOption(handle: Db, userId: number | null): Promise<OnAccountOption | null> {
  const standing = await standingOf(handle, userId);
  if (!standing.ok) return null;
  const { account } = standing;
  return {
    id: "pay_on_account",
    name: "Pay on account",
    description: `We invoice ${account.companyName}; payment is due ${account.termsDays} days from the invoice date.`,
    available_credit: Math.max(account.creditLimit - account.balance, 0) / 100,
    credit_limit: account.creditLimit / 100,
    po_required: account.poRequired,
    sites: (await sitesOf(handle, account.id)).map(siteJsonOf),
  };
}

/**
 * Takes an order on account inside checkout's transaction: checks the
 * member's standing, raises the account's balance with one conditional update
 * (`credit_limit − balance ≥ total`, so two orders at once can never together
 * pass the limit: the second waits for the first's row lock and re-checks),
 * then writes the invoice. Any refusal rolls the order back.
 */
export async function chargeOnAccount(tx: Db, request: PaymentRequest): Promise<{ invoiceId: number; invoiceNumber: string }> {
  const standing = await standingOf(tx, request.userId);
  if (!standing.ok) throw new ValidationError({ payment_method: [standing.message] });
  const { account } = standing;
  if (account.poRequired && request.poReference.trim() === "") throw new ValidationError({ po_reference: [ON_ACCOUNT.poRequired] });
  const [charged] = await tx
    .update(tradeAccounts)
    .set({ balance: sql`${tradeAccounts.balance} + ${request.total}`, updatedAt: sql`now()` })
    .where(
      and(
        eq(tradeAccounts.id, account.id),
        eq(tradeAccounts.state, "approved"),
        eq(tradeAccounts.onHold, false),
        sql`${tradeAccounts.creditLimit} - ${tradeAccounts.balance} >= ${request.total}`,
      ),
    )
    .returning({ termsDays: tradeAccounts.termsDays });
  if (!charged) {
    const [now] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, account.id));
    if (now?.state !== "approved") throw new ValidationError({ payment_method: [ON_ACCOUNT.suspended] });
    if (now.onHold) throw new ValidationError({ payment_method: [now.holdReason === "overdue" ? ON_ACCOUNT.overdue : ON_ACCOUNT.onHold] });
    throw new ValidationError({ payment_method: [overLimit(request.total, now.creditLimit - now.balance)] });
  }
  const [invoice] = await tx
    .insert(tradeInvoices)
    .values({
      number: `pending-${crypto.randomUUID()}`,
      tradeAccountId: account.id,
      orderId: request.orderId,
      invoiceDate: LONDON_TODAY,
      dueDate: sql`${LONDON_TODAY} + ${charged.termsDays}::int`,
      subtotal: request.subtotal,
      vat: request.vat,
      delivery: request.delivery,
      total: request.total,
      poReference: request.poReference,
      siteId: request.siteId ?? null,
    })
    .returning({ id: tradeInvoices.id });
  if (!invoice) throw new HttpError(500, "The invoice was not written.");
  const invoiceNumber = `INV-${String(invoice.id).padStart(6, "0")}`;
  await tx.update(tradeInvoices).set({ number: invoiceNumber }).where(eq(tradeInvoices.id, invoice.id));
  return { invoiceId: invoice.id, invoiceNumber };
}

/** Pay on account through checkout's PaymentProvider interface. */
export const payOnAccount: PaymentProvider = {
  id: "pay_on_account",
  orderStatus: "processing",
  offer: onAccountOption,
  async take(tx, request) {
    await chargeOnAccount(tx, request);
  },
  note: (orderNumber) => `We invoice this order (${orderNumber}) to your trade account; pay by the due date on the invoice.`,
};
