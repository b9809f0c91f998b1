import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../auth/schema.ts";
import { hireRequests } from "../hire/schema.ts";
import { orders } from "../orders/schema.ts";
import { orderStatusLabel } from "../orders/statuses.ts";
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

/** The one statement's row (`figures`): its lists as JSON, as PostgreSQL writes them. */
interface FiguresRow {
  overdue: string;
  recent: { id: number; number: string; created_at: string; user_id: number | null; email: string; firstname: string | null; lastname: string | null; total: number; status: string; payment_method: string }[];
  unpaid: { id: number; number: string; order_number: string; invoice_date: string; due_date: string; total: number; status: InvoiceStatus; overdue: boolean }[] | null;
  spend: { month: string; total: number | string }[];
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
  const account = sql.placeholder("account");
  const user = sql.placeholder("user");
  // Drizzle's columns, so the statement follows the schema's names; each list a subquery of its own.
  const mine = sql`(not ${sql.placeholder("own")}::boolean or ${orders.userId} = ${user})`;
  const overdueNow = sql`(${tradeInvoices.status} = 'unpaid' and ${tradeInvoices.dueDate} < ${LONDON_TODAY})`;
  // Prepared once (a named statement on PostgreSQL): planning it took twice as long as running it.
  // Each field's SQL goes in nested: Drizzle writes a one-table select's own columns unqualified,
  // which the subqueries' joins would make ambiguous.
  const qualified = <T>(query: SQL) => sql<T>`${query}`;
  const figuresQuery = db
    .select({
      overdue: qualified<string>(sql`(select coalesce(sum(${tradeInvoices.total}), 0)::bigint::text from ${tradeInvoices}
          where ${tradeInvoices.tradeAccountId} = ${account} and ${overdueNow})`),
      recent: qualified<FiguresRow["recent"]>(sql`(select coalesce(json_agg(r.o order by r.id desc), '[]'::json) from (
          select ${orders.id} as id, json_build_object(
            'id', ${orders.id}, 'number', ${orders.number}, 'created_at', ${orders.createdAt}, 'user_id', ${orders.userId}, 'email', ${orders.email},
            'firstname', ${users.firstname}, 'lastname', ${users.lastname}, 'total', ${orders.total}, 'status', ${orders.status}, 'payment_method', ${orders.paymentMethod}) as o
          from ${orders} left join ${users} on ${users.id} = ${orders.userId}
          where ${orders.tradeAccountId} = ${account} and ${mine}
          order by ${orders.id} desc limit ${RECENT_ORDERS}::int) r)`),
      unpaid: qualified<FiguresRow["unpaid"]>(sql`(case when ${sql.placeholder("readsInvoices")}::boolean then (select coalesce(json_agg(r.i order by r.due, r.id), '[]'::json) from (
          select ${tradeInvoices.id} as id, ${tradeInvoices.dueDate} as due, json_build_object(
            'id', ${tradeInvoices.id}, 'number', ${tradeInvoices.number},
            -- A hire invoice has no order: its reference is the hire request's (HR-…), as on the invoices list.
            'order_number', coalesce(${orders.number}, ${hireRequests.number}),
            'invoice_date', ${tradeInvoices.invoiceDate}, 'due_date', ${tradeInvoices.dueDate}, 'total', ${tradeInvoices.total},
            'status', ${tradeInvoices.status}, 'overdue', ${overdueNow}) as i
          from ${tradeInvoices} left join ${orders} on ${orders.id} = ${tradeInvoices.orderId} left join ${hireRequests} on ${hireRequests.id} = ${tradeInvoices.hireRequestId}
          where ${tradeInvoices.tradeAccountId} = ${account} and ${tradeInvoices.status} <> 'paid'
          order by ${tradeInvoices.dueDate}, ${tradeInvoices.id} limit ${UNPAID_INVOICES_SHOWN}::int) r) end)`),
      spend: qualified<FiguresRow["spend"]>(sql`(select json_agg(json_build_object('month', to_char(s.month, 'YYYY-MM'), 'total', s.total) order by s.month) from (
          select m.month, coalesce(sum(${orders.total}), 0)::bigint as total
          from generate_series(
            date_trunc('month', now() at time zone 'Europe/London') - interval '11 months',
            date_trunc('month', now() at time zone 'Europe/London'),
            interval '1 month'
          ) as m(month)
          left join ${orders}
            on ${orders.tradeAccountId} = ${account}
            and ${orders.status} <> 'cancelled'
            and ${orders.createdAt} >= (m.month at time zone 'Europe/London')
            and ${orders.createdAt} < ((m.month + interval '1 month') at time zone 'Europe/London')
            and ${mine}
          group by m.month) s)`),
    })
    .from(sql`(values (1)) as one(x)`)
    .prepare("trade_dashboard_figures");

  /**
   * An approved (or suspended) account's figures in one statement: what is
   * overdue, the recent orders, the unpaid invoices (null for a role that may
   * not read them) and twelve London months of spend, zero months included.
   * One round trip rather than four side by side: under load each request held
   * four of the pool's connections, and the page's JSON answered 65 requests a
   * second where one query answers several times that (issue 35).
   */
  async function figures(accountId: number, userId: number, own: boolean, readsInvoices: boolean) {
    const [row] = (await figuresQuery.execute({ account: accountId, user: userId, own, readsInvoices })) as FiguresRow[];
    return {
      overdue: Number(row!.overdue),
      recent: row!.recent.map(
        (r): DashboardOrderJson => ({
          id: r.id,
          number: r.number,
          created_at: new Date(r.created_at).toISOString(),
          // A user who has since left the shop is shown by the email the order was placed with.
          placed_by: r.firstname !== null ? `${r.firstname} ${r.lastname ?? ""}`.trim() : r.email,
          placed_by_you: r.user_id === userId,
          total: pounds(r.total),
          status: r.status,
          status_label: orderStatusLabel(r.status),
          payment_method: r.payment_method,
        }),
      ),
      unpaid:
        row!.unpaid?.map(
          (r): DashboardInvoiceJson => ({
            id: r.id,
            number: r.number,
            order_number: r.order_number,
            invoice_date: r.invoice_date,
            due_date: r.due_date,
            total: pounds(r.total),
            status: r.status,
            overdue: r.overdue,
          }),
        ) ?? null,
      spend: row!.spend.map((m) => ({ month: m.month, total: pounds(Number(m.total)) })),
    };
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
      const { overdue, recent, unpaid, spend } = await figures(account.id, userId, own, INVOICE_READERS.includes(member.role));
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
