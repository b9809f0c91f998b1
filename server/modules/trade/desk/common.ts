import { desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import { LONDON_TODAY } from "../../../lib/london.ts";
import type { AuditService } from "../../audit/service.ts";
import type { Outbox } from "../../auth/service.ts";
import { hireRequests } from "../../hire/schema.ts";
import { orders } from "../../orders/schema.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { can } from "../../staff/permissions.ts";
import { outstandingOf } from "../credit/ledger.ts";
import type { ReceiptOptions } from "../credit/receipts.ts";
import { type TradeInvoice, tradeInvoices } from "../invoices/invoice-schema.ts";
import type { ShopDetails } from "../invoices/invoices.ts";
import { type TradeAccount, type TradeAccountState, tradeAccounts } from "../schema.ts";
import type { TradeService } from "../service.ts";

/**
 * What the trade desk's parts share (desk.ts puts them together): the desk's
 * options, the permission to open it, and an account's row with its invoices,
 * which the reads show and every write answers with.
 */

export interface DeskOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
  shop: ShopDetails;
  trade: TradeService;
  audit: AuditService;
}

/** The database, the options, a transaction runner and where receipts come from: each part of the desk is made from these. */
export interface DeskContext {
  db: Db;
  options: DeskOptions;
  inTx: <T>(work: (tx: Db) => Promise<T>) => Promise<T>;
  receipts: ReceiptOptions & { shop: ShopDetails };
}

export function deskContext(db: Db, options: DeskOptions): DeskContext {
  return {
    db,
    options,
    inTx: (work) => db.transaction(async (t) => work(t as unknown as Db)),
    receipts: { mail: options.mail, appName: options.appName, publicUrl: options.publicUrl, shop: options.shop },
  };
}

export const pounds = (pence: number) => pence / 100;
export const pence = (p: number) => Math.round(p * 100);
export const NO_DUE = "9999-12-31";

/** Staff who may open the trade desk: either permission. */
export function authorizeDesk(actor: StaffActor | null | undefined): StaffActor {
  if (actor && !can(actor.role, "trade.manage")) return authorize(actor, "invoices.manage");
  return authorize(actor, "trade.manage");
}

export interface AccountRowJson {
  id: number;
  company_name: string;
  accounts_email: string;
  state: TradeAccountState;
  /** Pounds owed; negative is credit on account. */
  balance: number;
  credit_limit: number;
  /** Pounds: outstanding on invoices past their due date. */
  overdue: number;
  /** Days since the oldest overdue invoice fell due; 0 when none. */
  overdue_days: number;
  oldest_due_date: string | null;
  terms_days: number;
  on_hold: boolean;
  hold_reason: "" | "overdue" | "manual";
}

export interface DeskInvoiceJson {
  number: string;
  invoice_date: string;
  due_date: string;
  /** The order's number, or the hire request's. */
  source: string;
  po_reference: string;
  total: number;
  paid: number;
  credited: number;
  outstanding: number;
  status: TradeInvoice["status"];
  overdue: boolean;
}

export interface AccountWithInvoicesJson extends AccountRowJson {
  invoices: DeskInvoiceJson[];
}

export interface TermsBody {
  credit_limit?: number;
  terms_days?: number;
  discount_percent?: number;
  po_required?: boolean;
}

// Spelt out: inside a one-table select drizzle writes a column unqualified, which the correlated subqueries would read as i.id.
const ACCOUNT_ID = sql.raw(`"trade_accounts"."id"`);

/** Outstanding pence past due, the oldest due date (text, `9999-12-31` when none) and its age in days, per account. */
export const overdueOf = sql<number>`coalesce((select sum(i.total_pence - i.paid_pence - i.credited_pence) from trade_invoices i where i.trade_account_id = ${ACCOUNT_ID} and i.status <> 'paid' and i.due_date < ${LONDON_TODAY}), 0)::int`;
export const oldestDueOf = sql<string>`coalesce((select to_char(min(i.due_date), 'YYYY-MM-DD') from trade_invoices i where i.trade_account_id = ${ACCOUNT_ID} and i.status <> 'paid' and i.due_date < ${LONDON_TODAY}), ${NO_DUE})`;
export const overdueDaysOf = sql<number>`coalesce((select ${LONDON_TODAY} - min(i.due_date) from trade_invoices i where i.trade_account_id = ${ACCOUNT_ID} and i.status <> 'paid' and i.due_date < ${LONDON_TODAY}), 0)::int`;

function invoiceJson(i: TradeInvoice & { source: string | null; overdue: boolean }): DeskInvoiceJson {
  return {
    number: i.number,
    invoice_date: i.invoiceDate,
    due_date: i.dueDate,
    source: i.source ?? "",
    po_reference: i.poReference,
    total: pounds(i.total),
    paid: pounds(i.paidAmount),
    credited: pounds(i.creditedAmount),
    outstanding: pounds(outstandingOf(i)),
    status: i.status,
    overdue: Boolean(i.overdue),
  };
}

export function rowJson(a: TradeAccount, agg: { overdue: number; oldestDue: string; overdueDays: number }): AccountRowJson {
  return {
    id: a.id,
    company_name: a.companyName,
    accounts_email: a.accountsEmail,
    state: a.state,
    balance: pounds(a.balance),
    credit_limit: pounds(a.creditLimit),
    overdue: pounds(Number(agg.overdue)),
    overdue_days: Number(agg.overdueDays),
    oldest_due_date: agg.oldestDue === NO_DUE ? null : agg.oldestDue,
    terms_days: a.termsDays,
    on_hold: a.onHold,
    hold_reason: a.holdReason as AccountRowJson["hold_reason"],
  };
}

/** An account's row in the desk's list; 404 when there is no such account. */
export async function row(handle: Db, accountId: number): Promise<AccountRowJson> {
  const [r] = await handle
    .select({ account: tradeAccounts, overdue: overdueOf, oldestDue: oldestDueOf, overdueDays: overdueDaysOf })
    .from(tradeAccounts)
    .where(eq(tradeAccounts.id, accountId));
  if (!r) throw new HttpError(404, "No such trade account.");
  return rowJson(r.account, r);
}

/** Invoices with their order's or hire request's number: an account's (open first, oldest due first; then paid, newest first), or some by id. */
export async function invoicesWhere(handle: Db, where: SQL, limit = 200): Promise<DeskInvoiceJson[]> {
  const rows = await handle
    .select({
      invoice: tradeInvoices,
      source: sql<string | null>`coalesce(${orders.number}, ${hireRequests.number})`,
      overdue: sql<boolean>`(${tradeInvoices.status} <> 'paid' and ${tradeInvoices.dueDate} < ${LONDON_TODAY})`,
    })
    .from(tradeInvoices)
    .leftJoin(orders, eq(orders.id, tradeInvoices.orderId))
    .leftJoin(hireRequests, eq(hireRequests.id, tradeInvoices.hireRequestId))
    .where(where)
    .orderBy(sql`(${tradeInvoices.status} = 'paid')`, sql`case when ${tradeInvoices.status} <> 'paid' then ${tradeInvoices.dueDate} end asc`, desc(tradeInvoices.id))
    .limit(limit);
  return rows.map((r) => invoiceJson({ ...r.invoice, source: r.source, overdue: r.overdue }));
}

/** An account's row with its invoices: what the account's page shows first, and what the desk's money moves answer. */
export async function withInvoices(handle: Db, accountId: number): Promise<AccountWithInvoicesJson> {
  return { ...(await row(handle, accountId)), invoices: await invoicesWhere(handle, eq(tradeInvoices.tradeAccountId, accountId)) };
}
