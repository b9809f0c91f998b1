import { Readable, pipeline } from "node:stream";
import { escapeLike } from "../../db/like.ts";
import { type SQL, and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { csvWriter } from "../../lib/csv.ts";
import { ValidationError } from "../../http-errors.ts";
import { londonDayAfter, londonDayStart } from "../../lib/london.ts";
import { users } from "../auth/schema.ts";
import { pounds } from "../catalog/products/products.ts";
import { normalisePostcode } from "../postcode/service.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { can } from "../staff/permissions.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { type PaymentMethod, paymentLabel } from "./fulfilment.ts";
import { FULFILMENT_SQL, ofMyBranches } from "./read.ts";
import { orderStatusLabel } from "./statuses.ts";
import { ORDER_STATUSES, type OrderStatus, orderAddresses, orderLines, orders } from "./schema.ts";
import type { Fulfilment } from "./transitions.ts";
import { idCursor } from "../../lib/id-cursor.ts";

/**
 * The orders desk's list (ADR 0029): the filters and the search box, a
 * keyset page at a time, the counts on the status tabs, and the same list as
 * a streamed CSV; each showing a member only what their role may see.
 */

export const ADMIN_ORDERS_PAGE = 50;
export const ADMIN_ORDERS_PAGE_MAX = 200;
/** The export reads this many orders a query, so a file of any size streams in bounded memory. */
export const EXPORT_BATCH = 500;

export interface AdminOrderFilters {
  status?: OrderStatus;
  payment_method?: PaymentMethod;
  fulfilment?: Fulfilment;
  /** London calendar days, `YYYY-MM-DD`, inclusive. */
  from?: string;
  to?: string;
  trade?: "yes" | "no";
  /** Collected from or sent from this branch (its queue). */
  branch_id?: number;
  /** Order number (exact or its start; digits alone are the number's digits), email, customer's name or postcode. */
  q?: string;
  /** `next_cursor` of the page before. */
  cursor?: string;
  /** Newest first (the default) or oldest first: the order they were placed in, which the id follows. */
  sort?: "newest" | "oldest";
  limit?: number;
}

/** What this member may see of an order (ADR 0029): the warehouse sees what picking needs, no prices and no customer. */
export function sight(actor: StaffActor) {
  return { prices: can(actor.role, "orders.prices"), customers: can(actor.role, "customers.view") };
}

// The cursor is the last id of the page, wrapped so clients treat it as opaque.
const { encode: encodeCursor, decode: decodeCursor } = idCursor("o");

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day: the database would fail on 2026-02-30 with a 500. */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const OUTCODE = /^[A-Z]{1,2}\d[A-Z\d]?$/;

/**
 * The search box: the order number (exact or its start), the email (its
 * start), a name on the order or its account, or a postcode (normalised, or an
 * outward code alone). Without `customers.view` only the number, the delivery
 * name and the delivery postcode are searched, so a search cannot tell a
 * member what they may not see.
 */
function searchWhere(raw: string, customers: boolean): SQL | undefined {
  const q = raw.trim().replace(/\s+/g, " ");
  if (!q) return undefined;
  const upper = q.toUpperCase();
  const kinds = customers ? sql`` : sql` and ${orderAddresses.kind} = 'delivery'`;
  const address = (condition: SQL) => sql`exists (select 1 from ${orderAddresses} where ${orderAddresses.orderId} = ${orders.id}${kinds} and ${condition})`;
  const or: SQL[] = [];
  if (/^\d{1,9}$/.test(q)) or.push(eq(orders.number, `TC-${q.padStart(6, "0")}`));
  else or.push(sql`${orders.number} like ${`${escapeLike(upper)}%`}`);
  const contains = `%${escapeLike(q)}%`;
  or.push(address(sql`${orderAddresses.name} ilike ${contains}`));
  or.push(sql`${orders.customerName} ilike ${contains}`);
  if (customers) {
    or.push(sql`lower(${orders.email}) like ${`${escapeLike(q.toLowerCase())}%`}`);
    or.push(sql`exists (select 1 from ${users} where ${users.id} = ${orders.userId} and (${users.firstname} || ' ' || ${users.lastname}) ilike ${contains})`);
  }
  const postcode = normalisePostcode(q);
  if (postcode) or.push(address(sql`${orderAddresses.postcode} = ${postcode}`));
  else if (OUTCODE.test(upper)) or.push(address(sql`${orderAddresses.postcode} like ${`${upper} %`}`));
  return sql`(${sql.join(or, sql` or `)})`;
}

function filterWhere(filters: AdminOrderFilters, actor: StaffActor, withStatus: boolean): SQL[] {
  const where: SQL[] = [];
  const errors: Record<string, string[]> = {};
  if (filters.from && !isCalendarDay(filters.from)) errors.from = ["Enter the first day as YYYY-MM-DD."];
  if (filters.to && !isCalendarDay(filters.to)) errors.to = ["Enter the last day as YYYY-MM-DD."];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (withStatus && filters.status) where.push(eq(orders.status, filters.status));
  if (filters.payment_method) where.push(eq(orders.paymentMethod, filters.payment_method));
  if (filters.fulfilment) where.push(sql`${FULFILMENT_SQL} = ${filters.fulfilment}`);
  if (filters.from) where.push(sql`${orders.createdAt} >= ${londonDayStart(filters.from)}`);
  if (filters.to) where.push(sql`${orders.createdAt} < ${londonDayAfter(filters.to)}`);
  if (filters.trade === "yes") where.push(isNotNull(orders.tradeAccountId));
  if (filters.trade === "no") where.push(isNull(orders.tradeAccountId));
  if (filters.branch_id !== undefined) where.push(eq(orders.branchId, filters.branch_id));
  const mine = ofMyBranches(actor);
  if (mine) where.push(mine);
  const search = filters.q ? searchWhere(filters.q, sight(actor).customers) : undefined;
  if (search) where.push(search);
  return where;
}

const deliveryAddress = (column: SQL) =>
  sql<string | null>`(select ${column} from ${orderAddresses} where ${orderAddresses.orderId} = ${orders.id} and ${orderAddresses.kind} = 'delivery' order by ${orderAddresses.id} limit 1)`;

/** A London wall-clock time for people and spreadsheets: `2026-11-23 14:05`. */
const londonClock = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
export function londonTime(at: Date): string {
  const part = Object.fromEntries(londonClock.formatToParts(at).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
}

/** Pence as pounds with two decimals, no sign: for spreadsheets and emails. */
export const money = (pence: number) => (pence / 100).toFixed(2);

export const byNumber = (number: string) => eq(orders.number, number.trim().toUpperCase());

export function createAdminOrderList(db: Db) {
  /** One page of orders, newest first, with the fields the list, the tabs and the export need. */
  async function page(actor: StaffActor, filters: AdminOrderFilters, limit: number) {
    const where = filterWhere(filters, actor, true);
    const oldestFirst = filters.sort === "oldest";
    if (filters.cursor) where.push((oldestFirst ? gt : lt)(orders.id, decodeCursor(filters.cursor)));
    const rows = await db
      .select({
        id: orders.id,
        number: orders.number,
        status: orders.status,
        createdAt: orders.createdAt,
        email: orders.email,
        deliveryMethod: orders.deliveryMethod,
        deliveryMethodName: orders.deliveryName,
        paymentMethod: orders.paymentMethod,
        subtotal: orders.subtotal,
        vat: orders.vat,
        delivery: orders.delivery,
        total: orders.total,
        carrier: orders.carrier,
        trackingNumber: orders.trackingNumber,
        tradeAccountId: orders.tradeAccountId,
        companyName: tradeAccounts.companyName,
        fulfilment: FULFILMENT_SQL,
        customerName: orders.customerName,
        addressName: deliveryAddress(sql`${orderAddresses.name}`),
        postcode: deliveryAddress(sql`${orderAddresses.postcode}`),
        accountName: sql<string | null>`nullif(trim(${users.firstname} || ' ' || ${users.lastname}), '')`,
      })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(tradeAccounts, eq(tradeAccounts.id, orders.tradeAccountId))
      .where(where.length ? and(...where) : undefined)
      .orderBy(oldestFirst ? asc(orders.id) : desc(orders.id))
      .limit(limit + 1);
    const data = rows.slice(0, limit);
    // One query for the page's line counts, not one per order.
    const counts = data.length
      ? await db
          .select({ orderId: orderLines.orderId, lines: count(), items: sql<number>`coalesce(sum(${orderLines.quantity}), 0)::int` })
          .from(orderLines)
          .where(inArray(orderLines.orderId, data.map((r) => r.id)))
          .groupBy(orderLines.orderId)
      : [];
    const byOrder = new Map(counts.map((c) => [c.orderId, c]));
    const see = sight(actor);
    return {
      rows: data.map((r) => ({
        ...r,
        // The name given at checkout or the counter, else the delivery address's; a member who may see
        // customers falls back to the account's name and then the email, so a row always names someone (issue 34).
        name: r.customerName || r.addressName || (see.customers ? r.accountName || r.email : null) || "",
        lines: byOrder.get(r.id)?.lines ?? 0,
        items: byOrder.get(r.id)?.items ?? 0,
      })),
      next_cursor: rows.length > limit ? encodeCursor(data[data.length - 1]!.id) : null,
    };
  }

  type Row = Awaited<ReturnType<typeof page>>["rows"][number];

  function summaryJson(actor: StaffActor, r: Row) {
    const see = sight(actor);
    return {
      number: r.number,
      status: r.status as OrderStatus,
      status_label: orderStatusLabel(r.status),
      created_at: r.createdAt.toISOString(),
      name: r.name,
      postcode: r.postcode,
      fulfilment: r.fulfilment,
      delivery_method: r.deliveryMethod,
      delivery_method_name: r.deliveryMethodName,
      lines: r.lines,
      items: r.items,
      trade: r.tradeAccountId !== null,
      ...(see.customers ? { email: r.email } : {}),
      ...(see.prices ? { payment_method: r.paymentMethod, total: pounds(r.total) } : {}),
    };
  }

  return {
    /** The orders desk's list: newest first, a keyset page at a time. */
    async list(actor: StaffActor, filters: AdminOrderFilters = {}) {
      authorize(actor, "orders.view");
      const limit = Math.min(Math.max(Math.trunc(filters.limit ?? ADMIN_ORDERS_PAGE), 1), ADMIN_ORDERS_PAGE_MAX);
      const { rows, next_cursor } = await page(actor, filters, limit);
      return { data: rows.map((r) => summaryJson(actor, r)), next_cursor };
    },

    /** Orders per status for the same filters, status aside: the counts on the tabs. */
    async statusCounts(actor: StaffActor, filters: AdminOrderFilters = {}): Promise<Record<OrderStatus, number>> {
      authorize(actor, "orders.view");
      const where = filterWhere(filters, actor, false);
      const rows = await db
        .select({ status: orders.status, n: count() })
        .from(orders)
        .where(where.length ? and(...where) : undefined)
        .groupBy(orders.status);
      const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
      for (const r of rows) if (r.status in counts) counts[r.status as OrderStatus] = r.n;
      return counts;
    },

    /**
     * The filtered list as CSV (UTF-8 with a BOM, so spreadsheets read £ and
     * names right; formulas escaped), read in keyset batches and streamed, so
     * any number of orders fits in bounded memory. Checks the permission and
     * the filters before the first byte.
     */
    exportCsv(actor: StaffActor, filters: AdminOrderFilters = {}): Readable {
      authorize(actor, "orders.export");
      const { cursor: _cursor, limit: _limit, ...rest } = filters;
      filterWhere(rest, actor, true);
      const see = sight(actor);
      const columns = [
        { key: "number", header: "Order" },
        { key: "placed", header: "Placed (London)" },
        { key: "status", header: "Status" },
        { key: "name", header: "Name" },
        ...(see.customers ? [{ key: "email", header: "Email" }] : []),
        { key: "postcode", header: "Postcode" },
        { key: "fulfilment", header: "Fulfilment" },
        { key: "delivery_method", header: "Delivery method" },
        ...(see.prices ? [{ key: "payment", header: "Payment" }] : []),
        { key: "lines", header: "Lines" },
        { key: "items", header: "Items" },
        ...(see.prices
          ? [
              { key: "subtotal", header: "Goods ex VAT" },
              { key: "vat", header: "VAT" },
              { key: "delivery", header: "Delivery" },
              { key: "total", header: "Total" },
            ]
          : []),
        { key: "trade_account", header: "Trade account" },
        { key: "carrier", header: "Carrier" },
        { key: "tracking_number", header: "Tracking number" },
      ];
      async function* records() {
        let cursor: string | undefined;
        do {
          const batch = await page(actor, { ...rest, cursor }, EXPORT_BATCH);
          for (const r of batch.rows) {
            yield {
              number: r.number,
              placed: londonTime(r.createdAt),
              status: orderStatusLabel(r.status),
              name: r.name,
              email: r.email,
              postcode: r.postcode ?? "",
              fulfilment: r.fulfilment === "collection" ? "Collection" : "Delivery",
              delivery_method: r.deliveryMethodName,
              payment: paymentLabel(r.paymentMethod),
              lines: r.lines,
              items: r.items,
              subtotal: money(r.subtotal),
              vat: money(r.vat),
              delivery: money(r.delivery),
              total: money(r.total),
              trade_account: r.companyName ?? "",
              carrier: r.carrier ?? "",
              tracking_number: r.trackingNumber ?? "",
            };
          }
          cursor = batch.next_cursor ?? undefined;
        } while (cursor);
      }
      const csv = csvWriter(columns);
      // A failed query ends the download with an error rather than a short file that looks whole.
      pipeline(Readable.from(records()), csv, () => {});
      return csv;
    },
  };
}
