import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { ValidationError } from "../../http-errors.ts";
import { pounds } from "../catalog/products/products.ts";
import { branches } from "../branches/schema.ts";
import { DEFAULT_REORDER_LEVEL, productVariants, products } from "../catalog/schema.ts";
import { branchStock } from "../stock/schema.ts";
import { hireRequestLines, hireRequests } from "../hire/schema.ts";
import { FULFILMENT_SQL } from "../orders/read.ts";
import { orders } from "../orders/schema.ts";
import { overdueForRefund } from "../returns/refund.ts";
import { returns } from "../returns/schema.ts";
import { type StaffActor, authorize, branchLimit } from "../staff/actor.ts";
import { type StaffRole, can } from "../staff/permissions.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import type { JobRunner } from "../jobs/runner.ts";

/**
 * The stock at or below which a product needs reordering. Products have no
 * reorder level of their own yet (no column in catalog/schema.ts), so one
 * level serves every product until the catalogue screens add one.
 */
/** A new product's reorder level; each product now has its own (`products.reorder_level`). */
export const REORDER_LEVEL = DEFAULT_REORDER_LEVEL;
export const TAKINGS_DAYS = 30;
export const TAKINGS_DAYS_MAX = 366;

/** One period's orders: today, or the last 7 London days (today and the 6 before). */
export interface PeriodFigures {
  /** Every order placed in the period, cancelled ones too: the orders list for those days. */
  orders: number;
  /** Of those, the ones since cancelled. */
  cancelled: number;
  /** Pounds, orders not cancelled; only with orders.prices. */
  takings_inc_vat?: number;
  /** Pounds: goods ex VAT plus delivery as charged (the shop records VAT on goods only); only with orders.prices. */
  takings_ex_vat?: number;
}

export interface DashboardFigures {
  /** Today in London, and the first of the last 7 days, `YYYY-MM-DD`: the screens' links filter by them. */
  today: string;
  week_from: string;
  /** orders.view. */
  sales?: { today: PeriodFigures; last_7_days: PeriodFigures; /** Whether the shop has any order at all, ever: the screen's empty state. */ has_orders: boolean };
  /** orders.view: orders in each state now, whenever they were placed. */
  queues?: { awaiting_payment: number; paid: number; processing: number; to_pick: number; to_dispatch: number; ready_for_collection: number };
  /** hire.desk: confirmed hire requests with a line starting or returning today, and their units. */
  hire?: { going_out: { requests: number; units: number }; coming_back: { requests: number; units: number } };
  /** trade.manage. */
  trade?: { applications_waiting: number };
  /** invoices.manage: unpaid trade invoices past their due date, and what they come to (pounds). */
  invoices?: { overdue: number; overdue_total: number };
  /** stock.count or catalogue.manage. */
  stock?: { at_or_below_reorder_level: number; reorder_level: number };
  /** returns.view: returns waiting for a decision, and those received more than 14 days ago and not refunded (the law's limit). */
  returns?: { to_approve: number; overdue_for_refund: number };
  /** settings.manage: scheduled jobs whose retries ran out in the last 24 hours (ADR 0038), the latest first. */
  jobs?: { failing: FailingJob[]; /** ISO 8601 of the newest complete backup (ADR 0055), null when there is none; with the backups only. */ last_backup_at?: string | null };
}

export interface FailingJob {
  /** The job's name, as "Scheduled jobs" in docs/operations.md names it. */
  name: string;
  /** Failed runs (retries exhausted) in the last 24 hours. */
  failures: number;
  /** ISO 8601. */
  last_failed_at: string;
  /** The latest failure's error message. */
  last_error: string;
}

/** Where the dashboard reads failed jobs: the job runner. */
export type JobFailures = Pick<JobRunner, "failures">;

export interface TakingsDay {
  /** A London day, `YYYY-MM-DD`. */
  day: string;
  /** Every order placed that day, cancelled ones too. */
  orders: number;
  /** Pounds of the orders not cancelled. */
  inc_vat: number;
  ex_vat: number;
}

/**
 * Which blocks of the dashboard a role sees: each block by the permission
 * that opens what it counts, so the dashboard never tells a member more than
 * their own screens would. Money needs orders.prices (the warehouse and the
 * hire desk see none).
 */
export function dashboardSight(role: StaffRole) {
  return {
    orders: can(role, "orders.view"),
    money: can(role, "orders.prices"),
    hire: can(role, "hire.desk"),
    trade: can(role, "trade.manage"),
    invoices: can(role, "invoices.manage"),
    stock: can(role, "stock.count") || can(role, "catalogue.manage"),
    returns: can(role, "returns.view"),
    // The shop's machinery, not a desk's work: for whoever keeps the shop's settings (ADR 0038).
    jobs: can(role, "settings.manage"),
  };
}

type Row = Record<string, string | number | boolean | null>;
const rowsOf = (result: unknown): Row[] => ((result as { rows?: Row[] }).rows ?? (result as Row[]));
const num = (v: string | number | boolean | null | undefined) => Number(v ?? 0);

export interface DashboardOptions {
  /** The clock, for tests: the database still works out the London days from it. */
  now?: () => Date;
  /** The job runner's failures; without it the jobs block is empty. */
  jobs?: JobFailures;
  /** When the newest complete backup was taken (backups/files.ts); without it the jobs block does not say. */
  lastBackupAt?: () => Promise<Date | null>;
}

/** One line per failing job, the most recently failed first (failures come newest first). */
export function failingJobs(failures: Awaited<ReturnType<JobFailures["failures"]>>): FailingJob[] {
  const byName = new Map<string, FailingJob>();
  for (const f of failures) {
    const seen = byName.get(f.name);
    if (seen) seen.failures++;
    else byName.set(f.name, { name: f.name, failures: 1, last_failed_at: f.failedAt.toISOString(), last_error: f.error.slice(0, 300) });
  }
  return [...byName.values()];
}

export function createDashboardService(db: Db, options: DashboardOptions = {}) {
  const now = (): SQL => (options.now ? sql`${options.now().toISOString()}::timestamptz` : sql`now()`);
  const londonToday = (): SQL => sql`(${now()} at time zone 'Europe/London')::date`;

  return {
    /**
     * The figures this member may see, in one statement: each block is a
     * lateral subquery with FILTER aggregates, included only for a role that
     * may see it. The London days come from the database (`d`).
     *
     * Definitions, by the order state machine (orders/transitions.ts):
     * - orders: every order placed in the London day(s), whatever its status now;
     *   cancelled: those of them now cancelled.
     * - takings: the totals of those orders not cancelled; ex VAT is total − VAT
     *   (goods ex VAT + delivery as charged: delivery's VAT is not stored apart).
     * - awaiting payment: status awaiting_payment, any payment method (a pay on
     *   collection order stays here until someone starts picking it).
     * - to pick: paid (waiting for "Start picking") plus processing (picking
     *   started; orders on account start here): the machine has no "picked"
     *   state, so an order stays to pick until it is dispatched or made ready.
     * - to dispatch: processing orders for delivery, whose next move is dispatch.
     * - ready for collection: status ready_for_collection, waiting for the customer.
     * - hire going out / coming back today: confirmed hire requests with a line
     *   whose start date / return date is today (requests, and units).
     * - trade applications waiting: trade accounts pending a decision.
     * - overdue invoices: unpaid trade invoices due before today (a remittance
     *   sent, payment pending, is not overdue: ADR 0021).
     * - low stock: products whose stock is at or below REORDER_LEVEL.
     * - returns to approve: returns requested and not yet approved or rejected
     *   (a change of mind inside the window is approved at once, so not here).
     * - returns overdue for a refund: received more than 14 days ago and still
     *   received (neither refunded, exchanged nor closed): returns/refund.ts.
     */
    async figures(actor: StaffActor, scope: { branchId?: number } = {}): Promise<DashboardFigures> {
      authorize(actor, "dashboard.view");
      const see = dashboardSight(actor.role);
      // Read per branch (issue 30): the orders it collects or sends, and its own stock; a member limited to their branches reads only theirs.
      const limit = branchLimit(actor);
      const ids = scope.branchId !== undefined ? (limit && !limit.includes(scope.branchId) ? [] : [scope.branchId]) : limit ? [...limit] : null;
      const atBranch = ids === null ? sql`true` : ids.length ? sql`${orders.branchId} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`;
      const dayStart = (day: SQL) => sql`((${day})::timestamp at time zone 'Europe/London')`;
      const inToday = sql`${orders.createdAt} >= d.today_start and ${orders.createdAt} < d.tomorrow_start`;
      const inWeek = sql`${orders.createdAt} >= d.week_start and ${orders.createdAt} < d.tomorrow_start`;
      const taken = sql`${orders.status} <> 'cancelled'`;
      // Each block is a lateral subquery under its own alias; the statement selects its columns.
      const blocks: { alias: string; from: SQL }[] = [];
      if (see.orders) {
        blocks.push({ alias: "o", from: sql`(
          select
            count(*) filter (where ${inToday})::int as orders_today,
            count(*) filter (where ${inToday} and ${orders.status} = 'cancelled')::int as cancelled_today,
            coalesce(sum(${orders.total}) filter (where ${inToday} and ${taken}), 0)::bigint as inc_today,
            coalesce(sum(${orders.total} - ${orders.vat}) filter (where ${inToday} and ${taken}), 0)::bigint as ex_today,
            count(*) filter (where ${inWeek})::int as orders_week,
            count(*) filter (where ${inWeek} and ${orders.status} = 'cancelled')::int as cancelled_week,
            coalesce(sum(${orders.total}) filter (where ${inWeek} and ${taken}), 0)::bigint as inc_week,
            coalesce(sum(${orders.total} - ${orders.vat}) filter (where ${inWeek} and ${taken}), 0)::bigint as ex_week,
            count(*) filter (where ${orders.status} = 'awaiting_payment')::int as awaiting_payment,
            count(*) filter (where ${orders.status} = 'paid')::int as paid,
            count(*) filter (where ${orders.status} = 'processing')::int as processing,
            count(*) filter (where ${orders.status} = 'processing' and ${FULFILMENT_SQL} = 'delivery')::int as to_dispatch,
            count(*) filter (where ${orders.status} = 'ready_for_collection')::int as ready_for_collection,
            exists (select 1 from ${orders}) as has_orders
          from ${orders}
          -- The week's orders by date (orders_created_idx), the open ones by status (orders_status_idx).
          where ((${inWeek}) or ${orders.status} in ('awaiting_payment', 'paid', 'processing', 'ready_for_collection')) and ${atBranch}
        )` });
      }
      if (see.hire) {
        blocks.push({ alias: "h", from: sql`(
          select
            count(distinct ${hireRequests.id}) filter (where ${hireRequestLines.startDate} = d.today)::int as hire_out_requests,
            coalesce(sum(${hireRequestLines.quantity}) filter (where ${hireRequestLines.startDate} = d.today), 0)::int as hire_out_units,
            count(distinct ${hireRequests.id}) filter (where ${hireRequestLines.endDate} = d.today)::int as hire_back_requests,
            coalesce(sum(${hireRequestLines.quantity}) filter (where ${hireRequestLines.endDate} = d.today), 0)::int as hire_back_units
          from ${hireRequestLines}
          join ${hireRequests} on ${hireRequests.id} = ${hireRequestLines.requestId}
          where ${hireRequests.status} = 'confirmed' and (${hireRequestLines.startDate} = d.today or ${hireRequestLines.endDate} = d.today)
        )` });
      }
      if (see.trade) {
        blocks.push({ alias: "t", from: sql`(select count(*)::int as applications_waiting from ${tradeAccounts} where ${tradeAccounts.state} = 'pending')` });
      }
      if (see.invoices) {
        blocks.push({ alias: "i", from: sql`(
          select count(*)::int as overdue_invoices, coalesce(sum(${tradeInvoices.total}), 0)::bigint as overdue_total
          from ${tradeInvoices} where ${tradeInvoices.status} = 'unpaid' and ${tradeInvoices.dueDate} < d.today
        )` });
      }
      if (see.stock) {
        blocks.push({
          alias: "s",
          from:
            ids === null
              ? sql`(select count(*)::int as low_stock from ${products} where ${products.stock} <= ${products.reorderLevel} and ${products.status} <> 'archived')`
              : // At the branches read: each variant on sale whose stock there is at or below its reorder level.
                sql`(select count(*)::int as low_stock from ${productVariants} v join ${products} p on p.id = v.product_id
                  join ${branches} b on ${ids.length ? sql`b.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql`false`}
                  left join ${branchStock} bs on bs.variant_id = v.id and bs.branch_id = b.id
                  where v.status = 'active' and p.status <> 'archived' and coalesce(bs.stock, 0) <= v.reorder_level)`,
        });
      }
      if (see.returns) {
        const clock = options.now?.() ?? new Date();
        blocks.push({ alias: "r", from: sql`(
          select
            count(*) filter (where ${returns.status} = 'requested')::int as returns_to_approve,
            count(*) filter (where ${overdueForRefund(clock)})::int as returns_overdue
          from ${returns} join ${orders} on ${orders.id} = ${returns.orderId}
          where ${returns.status} in ('requested', 'received') and ${atBranch}
        )` });
      }
      const result = await db.execute(sql`
        select d.today::text as today, (d.today - 6)::text as week_from${sql.join(blocks.map((b) => sql.raw(`, ${b.alias}.*`)), sql``)}
        from (
          select today, ${dayStart(sql`today`)} as today_start, ${dayStart(sql`today + 1`)} as tomorrow_start, ${dayStart(sql`today - 6`)} as week_start
          from (select ${londonToday()} as today) t0
        ) d
        ${sql.join(blocks.map((b) => sql`cross join lateral ${b.from} ${sql.raw(b.alias)}`), sql` `)}`);
      const r = rowsOf(result)[0]!;
      const failing = see.jobs ? failingJobs((await options.jobs?.failures({ limit: 200 })) ?? []) : [];
      const lastBackup = see.jobs && options.lastBackupAt ? { last_backup_at: (await options.lastBackupAt())?.toISOString() ?? null } : {};
      const period = (orders: string, cancelled: string, inc: string, ex: string): PeriodFigures => ({
        orders: num(r[orders]),
        cancelled: num(r[cancelled]),
        ...(see.money ? { takings_inc_vat: pounds(num(r[inc])), takings_ex_vat: pounds(num(r[ex])) } : {}),
      });
      const paid = num(r.paid);
      const processing = num(r.processing);
      return {
        today: String(r.today),
        week_from: String(r.week_from),
        ...(see.orders
          ? {
              sales: {
                today: period("orders_today", "cancelled_today", "inc_today", "ex_today"),
                last_7_days: period("orders_week", "cancelled_week", "inc_week", "ex_week"),
                has_orders: r.has_orders === true || r.has_orders === "t",
              },
              queues: { awaiting_payment: num(r.awaiting_payment), paid, processing, to_pick: paid + processing, to_dispatch: num(r.to_dispatch), ready_for_collection: num(r.ready_for_collection) },
            }
          : {}),
        ...(see.hire
          ? {
              hire: {
                going_out: { requests: num(r.hire_out_requests), units: num(r.hire_out_units) },
                coming_back: { requests: num(r.hire_back_requests), units: num(r.hire_back_units) },
              },
            }
          : {}),
        ...(see.trade ? { trade: { applications_waiting: num(r.applications_waiting) } } : {}),
        ...(see.invoices ? { invoices: { overdue: num(r.overdue_invoices), overdue_total: pounds(num(r.overdue_total)) } } : {}),
        ...(see.stock ? { stock: { at_or_below_reorder_level: num(r.low_stock), reorder_level: REORDER_LEVEL } } : {}),
        ...(see.returns ? { returns: { to_approve: num(r.returns_to_approve), overdue_for_refund: num(r.returns_overdue) } } : {}),
        ...(see.jobs ? { jobs: { failing, ...lastBackup } } : {}),
      };
    },

    /**
     * Takings by London day, oldest first, ending today: one row per day, days
     * without orders included (generate_series), in one statement. Needs
     * orders.prices.
     */
    async takings(actor: StaffActor, days = TAKINGS_DAYS): Promise<TakingsDay[]> {
      authorize(actor, "dashboard.view");
      authorize(actor, "orders.prices");
      if (!Number.isInteger(days) || days < 1 || days > TAKINGS_DAYS_MAX) throw new ValidationError({ days: [`Choose from 1 to ${TAKINGS_DAYS_MAX} days.`] });
      const result = await db.execute(sql`
        select g.day::text as day,
          count(${orders.id})::int as orders,
          coalesce(sum(${orders.total}) filter (where ${orders.status} <> 'cancelled'), 0)::bigint as inc_vat,
          coalesce(sum(${orders.total} - ${orders.vat}) filter (where ${orders.status} <> 'cancelled'), 0)::bigint as ex_vat
        from (select ${londonToday()} - n as day from generate_series(${days - 1}::int, 0, -1) as n) g
        left join ${orders}
          on ${orders.createdAt} >= (g.day::timestamp at time zone 'Europe/London')
          and ${orders.createdAt} < ((g.day + 1)::timestamp at time zone 'Europe/London')
        group by g.day
        order by g.day`);
      return rowsOf(result).map((r) => ({ day: String(r.day), orders: num(r.orders), inc_vat: pounds(num(r.inc_vat)), ex_vat: pounds(num(r.ex_vat)) }));
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
