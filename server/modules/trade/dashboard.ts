import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../auth/schema.ts";
import { hireRequests } from "../hire/schema.ts";
import { orders, type OrderStatus } from "../orders/schema.ts";
import { STATUS_LABELS } from "../orders/service.ts";
import type { TradeAccountJson } from "./contract.ts";
import { type InvoiceStatus, tradeInvoices } from "./invoices/invoice-schema.ts";
import { INVOICE_READERS } from "./invoices/invoices.ts";
import type { TradeRole } from "./schema.ts";
import { membershipOf, toTradeAccountJson } from "./service.ts";

/** Owners, admins and accounts users see the company's orders; a buyer sees their own (issue 7). */
export const COMPANY_ORDER_READERS: readonly TradeRole[] = ["owner", "admin", "accounts"];
export const RECENT_ORDERS = 8;
export const UNPAID_INVOICES_SHOWN = 10;
export const SPEND_MONTHS = 12;

/** Today in Europe/London, worked out by the database (as credit.ts does). */
const LONDON_TODAY = sql`(now() at time zone 'Europe/London')::date`;
const pounds = (pence: number) => pence / 100;

export interface DashboardCreditJson {
  /** Pounds. Available = limit − balance, never below 0; overdue = unpaid invoices past their due date. */
  limit: number;
  balance: number;
  available: number;
  overdue: number;
}

export interface DashboardOrderJson {
  id: number;
  number: string;
  created_at: string;
  placed_by: string;
  /** Whether the viewer placed it: only then does /account/orders/{id} open for them. */
  placed_by_you: boolean;
  /** Pounds. */
  total: number;
  status: string;
  status_label: string;
  payment_method: string;
}

export interface DashboardInvoiceJson {
  id: number;
  number: string;
  order_number: string;
  invoice_date: string;
  due_date: string;
  /** Pounds. */
  total: number;
  status: InvoiceStatus;
  overdue: boolean;
}

export interface TradeDashboardJson extends TradeAccountJson {
  /** Null until the account is approved (and after a decline). */
  credit: DashboardCreditJson | null;
  recent_orders: DashboardOrderJson[];
  /** Oldest due date first; null for roles that may not read invoices (a buyer). */
  unpaid_invoices: DashboardInvoiceJson[] | null;
  /** Whose orders the recent orders and the spend count: a buyer's own, or the whole company's. */
  scope: "company" | "own";
  /** Exactly 12 months, oldest first, `YYYY-MM` in Europe/London; pounds of orders not cancelled, inc VAT and delivery. */
  monthly_spend: { month: string; total: number }[];
}

/** Twelve zero months ending with this one in London, for an account with no orders to count. */
function emptyMonths(): { month: string; total: number }[] {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", year: "numeric", month: "2-digit" }).formatToParts(new Date());
  const year = Number(parts.find((p) => p.type === "year")!.value);
  const month = Number(parts.find((p) => p.type === "month")!.value);
  return Array.from({ length: SPEND_MONTHS }, (_, i) => {
    const d = new Date(Date.UTC(year, month - SPEND_MONTHS + i, 1));
    return { month: d.toISOString().slice(0, 7), total: 0 };
  });
}

/**
 * The trade dashboard (issue 7): the account, its credit, recent orders,
 * unpaid invoices and 12 months of spend. One query per block, each on an
 * index: orders by (trade_account_id, id) and (trade_account_id, created_at),
 * invoices by (trade_account_id, status, due_date).
 */
export function createTradeDashboardService(db: Db) {

  async function overduePence(accountId: number): Promise<number> {
    // Unpaid only: a remittance sent (payment pending) no longer counts as overdue (ADR 0021).
    const [row] = await db
      .select({ overdue: sql<string | null>`sum(${tradeInvoices.total})` })
      .from(tradeInvoices)
      .where(and(eq(tradeInvoices.tradeAccountId, accountId), eq(tradeInvoices.status, "unpaid"), sql`${tradeInvoices.dueDate} < ${LONDON_TODAY}`));
    return Number(row?.overdue ?? 0);
  }

  async function recentOrders(accountId: number, userId: number, own: boolean): Promise<DashboardOrderJson[]> {
    const rows = await db
      .select({
        id: orders.id,
        number: orders.number,
        createdAt: orders.createdAt,
        userId: orders.userId,
        email: orders.email,
        firstname: users.firstname,
        lastname: users.lastname,
        total: orders.total,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
      })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .where(own ? and(eq(orders.tradeAccountId, accountId), eq(orders.userId, userId)) : eq(orders.tradeAccountId, accountId))
      .orderBy(desc(orders.id))
      .limit(RECENT_ORDERS);
    return rows.map((r) => ({
      id: r.id,
      number: r.number,
      created_at: r.createdAt.toISOString(),
      // A user who has since left the shop is shown by the email the order was placed with.
      placed_by: r.firstname !== null ? `${r.firstname} ${r.lastname ?? ""}`.trim() : r.email,
      placed_by_you: r.userId === userId,
      total: pounds(r.total),
      status: r.status,
      status_label: STATUS_LABELS[r.status as OrderStatus] ?? r.status,
      payment_method: r.paymentMethod,
    }));
  }

  async function unpaidInvoices(accountId: number): Promise<DashboardInvoiceJson[]> {
    const rows = await db
      .select({
        id: tradeInvoices.id,
        number: tradeInvoices.number,
        // A hire invoice has no order: its reference is the hire request's (HR-…), as on the invoices list.
        orderNumber: sql<string>`coalesce(${orders.number}, ${hireRequests.number})`,
        invoiceDate: tradeInvoices.invoiceDate,
        dueDate: tradeInvoices.dueDate,
        total: tradeInvoices.total,
        status: tradeInvoices.status,
        overdue: sql<boolean>`(${tradeInvoices.status} = 'unpaid' and ${tradeInvoices.dueDate} < ${LONDON_TODAY})`,
      })
      .from(tradeInvoices)
      .leftJoin(orders, eq(orders.id, tradeInvoices.orderId))
      .leftJoin(hireRequests, eq(hireRequests.id, tradeInvoices.hireRequestId))
      .where(and(eq(tradeInvoices.tradeAccountId, accountId), ne(tradeInvoices.status, "paid")))
      .orderBy(asc(tradeInvoices.dueDate), asc(tradeInvoices.id))
      .limit(UNPAID_INVOICES_SHOWN);
    return rows.map((r) => ({
      id: r.id,
      number: r.number,
      order_number: r.orderNumber,
      invoice_date: r.invoiceDate,
      due_date: r.dueDate,
      total: pounds(r.total),
      status: r.status,
      overdue: Boolean(r.overdue),
    }));
  }

  /** Twelve London months ending with this one, zero months included, in one query. */
  async function monthlySpend(accountId: number, userId: number, own: boolean): Promise<{ month: string; total: number }[]> {
    const mine = own ? sql`and ${orders.userId} = ${userId}` : sql``;
    const result = await db.execute(sql`
      select to_char(m.month, 'YYYY-MM') as month, coalesce(sum(${orders.total}), 0)::bigint::text as total
      from generate_series(
        date_trunc('month', now() at time zone 'Europe/London') - interval '11 months',
        date_trunc('month', now() at time zone 'Europe/London'),
        interval '1 month'
      ) as m(month)
      left join ${orders}
        on ${orders.tradeAccountId} = ${accountId}
        and ${orders.status} <> 'cancelled'
        and ${orders.createdAt} >= (m.month at time zone 'Europe/London')
        and ${orders.createdAt} < ((m.month + interval '1 month') at time zone 'Europe/London')
        ${mine}
      group by m.month
      order by m.month`);
    const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as { month: string; total: string }[];
    return rows.map((r) => ({ month: r.month, total: pounds(Number(r.total)) }));
  }

  return {
    /** The signed-in member's dashboard, or null when they belong to no trade account. */
    async dashboardOf(userId: number): Promise<TradeDashboardJson | null> {
      const row = await membershipOf(db, userId);
      if (!row) return null;
      const { account, member } = row;
      const own = !COMPANY_ORDER_READERS.includes(member.role);
      const base = { ...toTradeAccountJson(account, member), scope: own ? ("own" as const) : ("company" as const) };
      // A pending or declined account answers its state only; a suspended one keeps its history and its debts.
      if (account.state === "pending" || account.state === "declined") {
        return { ...base, credit: null, recent_orders: [], unpaid_invoices: INVOICE_READERS.includes(member.role) ? [] : null, monthly_spend: emptyMonths() };
      }
      // PGlite runs one query at a time; on PostgreSQL the blocks run side by side.
      const [overdue, recent, unpaid, spend] = await Promise.all([
        overduePence(account.id),
        recentOrders(account.id, userId, own),
        INVOICE_READERS.includes(member.role) ? unpaidInvoices(account.id) : Promise.resolve(null),
        monthlySpend(account.id, userId, own),
      ]);
      return {
        ...base,
        credit: {
          limit: pounds(account.creditLimit),
          balance: pounds(account.balance),
          available: pounds(Math.max(account.creditLimit - account.balance, 0)),
          overdue: pounds(overdue),
        },
        recent_orders: recent,
        unpaid_invoices: unpaid,
        monthly_spend: spend,
      };
    },
  };
}

export type TradeDashboardService = ReturnType<typeof createTradeDashboardService>;
