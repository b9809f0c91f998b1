import { and, asc, count, desc, eq, ilike, lt, or, sql, sum, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import { orderLines, orders } from "../../orders/schema.ts";
import { hireCharges } from "../../hire/desk/schema.ts";
import { hireRequests } from "../../hire/schema.ts";
import { type InvoiceStatus, type TradeInvoice, tradeInvoices } from "./invoice-schema.ts";
import type { TradeRole } from "../schema.ts";
import { tradeSites } from "../accounts/sites-schema.ts";
import { memberWithRole } from "../accounts/users.ts";

/**
 * The company's invoices (issue 7). Owners, admins and accounts users see them;
 * a buyer "places orders on account and sees own orders" — orders, not
 * invoices — so a buyer, like anyone outside the company, gets 404.
 */
export const INVOICE_READERS: readonly TradeRole[] = ["owner", "admin", "accounts"];
export const INVOICE_FILTERS = ["all", "unpaid", "overdue", "paid"] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];
export const INVOICE_PAGE_MAX = 100;
const NOT_FOUND = "Not Found";

/** Today in Europe/London, worked out by the database (as credit.ts does). */
const LONDON_TODAY = sql`(now() at time zone 'Europe/London')::date`;
const left = sql`${tradeInvoices.total} - ${tradeInvoices.paidAmount} - ${tradeInvoices.creditedAmount}`;

export interface ShopDetails {
  name: string;
  email: string;
  address: string[];
  vatNumber: string;
}

/**
 * The seller's details printed on invoices. The name and email come from the
 * config; the address and VAT number are the demo shop's until the config
 * carries them (SHOP_ADDRESS / SHOP_VAT_NUMBER are not there yet).
 */
export function shopDetails(config: { appName: string; shopEmail: string; shopAddress: string[]; shopVatNumber: string }): ShopDetails {
  return { name: config.appName, email: config.shopEmail, address: config.shopAddress, vatNumber: config.shopVatNumber };
}

/** An invoice by its number (any case, spaces trimmed), for staff; 404 naming it when there is none. */
export async function invoiceByNumber(handle: Db, number: string): Promise<TradeInvoice> {
  const [found] = await handle.select().from(tradeInvoices).where(eq(tradeInvoices.number, number.trim().toUpperCase()));
  if (!found) throw new HttpError(404, `No invoice is numbered ${number.trim().toUpperCase()}.`);
  return found;
}

export interface InvoiceSummaryJson {
  id: number;
  number: string;
  /** Null for a hire invoice, whose `order_number` is its hire request's (HR-…). */
  order_id: number | null;
  order_number: string;
  invoice_date: string;
  due_date: string;
  po_reference: string;
  /** The company's site its order was for (trade/accounts/sites.ts). */
  site: { id: number; name: string } | null;
  subtotal: number;
  vat: number;
  delivery: number;
  total: number;
  status: InvoiceStatus;
  overdue: boolean;
}

export interface InvoiceListJson {
  data: InvoiceSummaryJson[];
  /** Over everything the filter and search match, not only this page. */
  totals: { count: number; total: number; outstanding: number; overdue: number };
  /** Pass as `after` for the next page; null on the last page. */
  next_cursor: number | null;
}

export interface InvoiceDetailJson extends InvoiceSummaryJson {
  paid_at: string | null;
  /** Pence; `discount` is what promotions took off the line (ex VAT), `line_total` is after it. */
  lines: { sku: string; name: string; quantity: number; unit: string; unit_price: number; vat_rate: number; discount: number; line_total: number; line_vat: number }[];
  /** Goods by VAT rate (percent): net and VAT in pence. Delivery is charged inc VAT. */
  vat_breakdown: { rate: number; net: number; vat: number }[];
  shop: { name: string; email: string; address: string[]; vat_number: string };
  company: { name: string; address: string[]; company_number: string | null; vat_number: string | null; accounts_email: string; terms_days: number };
}

export interface InvoiceListQuery {
  status?: InvoiceFilter;
  q?: string;
  /** Only the invoices for this one of the company's sites. */
  site?: number;
  after?: number;
  limit?: number;
}

const summaryColumns = {
  id: tradeInvoices.id,
  number: tradeInvoices.number,
  orderId: tradeInvoices.orderId,
  orderNumber: sql<string>`coalesce(${orders.number}, ${hireRequests.number})`,
  invoiceDate: tradeInvoices.invoiceDate,
  dueDate: tradeInvoices.dueDate,
  poReference: tradeInvoices.poReference,
  siteId: tradeSites.id,
  siteName: tradeSites.name,
  subtotal: tradeInvoices.subtotal,
  vat: tradeInvoices.vat,
  delivery: tradeInvoices.delivery,
  total: tradeInvoices.total,
  status: tradeInvoices.status,
  paidAt: tradeInvoices.paidAt,
  overdue: sql<boolean>`(${tradeInvoices.status} <> 'paid' and ${tradeInvoices.dueDate} < ${LONDON_TODAY})`,
};

type SummaryRow = { id: number; number: string; orderId: number | null; orderNumber: string; invoiceDate: string; dueDate: string; poReference: string; siteId: number | null; siteName: string | null; subtotal: number; vat: number; delivery: number; total: number; status: InvoiceStatus; overdue: boolean };

function toSummary(r: SummaryRow): InvoiceSummaryJson {
  return {
    id: r.id,
    number: r.number,
    order_id: r.orderId,
    order_number: r.orderNumber,
    invoice_date: r.invoiceDate,
    due_date: r.dueDate,
    po_reference: r.poReference,
    site: r.siteId !== null && r.siteName !== null ? { id: r.siteId, name: r.siteName } : null,
    subtotal: r.subtotal,
    vat: r.vat,
    delivery: r.delivery,
    total: r.total,
    status: r.status,
    overdue: Boolean(r.overdue),
  };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filterWhere(accountId: number, query: InvoiceListQuery): SQL {
  const parts: SQL[] = [eq(tradeInvoices.tradeAccountId, accountId)];
  const status = query.status ?? "all";
  if (status === "unpaid") parts.push(sql`${tradeInvoices.status} <> 'paid'`);
  if (status === "paid") parts.push(eq(tradeInvoices.status, "paid"));
  if (status === "overdue") parts.push(sql`${tradeInvoices.status} <> 'paid' and ${tradeInvoices.dueDate} < ${LONDON_TODAY}`);
  if (query.site !== undefined) parts.push(eq(tradeInvoices.siteId, query.site));
  const q = query.q?.trim();
  if (q) {
    const like = `%${escapeLike(q)}%`;
    parts.push(or(ilike(tradeInvoices.number, like), ilike(tradeInvoices.poReference, like))!);
  }
  return and(...parts)!;
}

export function createTradeInvoicesService(db: Db, options: { shop: ShopDetails }) {
  /** The reader's company when they may see its invoices, else 404. */
  async function readerAccount(userId: number) {
    return (await memberWithRole(db, userId, INVOICE_READERS)).account;
  }

  async function list(userId: number, query: InvoiceListQuery): Promise<InvoiceListJson> {
    const account = await readerAccount(userId);
    const limit = Math.min(Math.max(query.limit ?? 50, 1), INVOICE_PAGE_MAX);
    const where = filterWhere(account.id, query);
    const page = query.after ? and(where, lt(tradeInvoices.id, query.after))! : where;
    const rows = await db
      .select(summaryColumns)
      .from(tradeInvoices)
      .leftJoin(orders, eq(orders.id, tradeInvoices.orderId))
      .leftJoin(hireRequests, eq(hireRequests.id, tradeInvoices.hireRequestId))
      .leftJoin(tradeSites, eq(tradeSites.id, tradeInvoices.siteId))
      .where(page)
      .orderBy(desc(tradeInvoices.id))
      .limit(limit + 1);
    const more = rows.length > limit;
    const shown = rows.slice(0, limit);
    const [totals] = await db
      .select({
        count: count(),
        total: sum(tradeInvoices.total),
        // What is left to pay (ADR 0040): total less payments allocated and credit notes applied.
        outstanding: sql<string | null>`sum(${left}) filter (where ${tradeInvoices.status} <> 'paid')`,
        overdue: sql<string | null>`sum(${left}) filter (where ${tradeInvoices.status} <> 'paid' and ${tradeInvoices.dueDate} < ${LONDON_TODAY})`,
      })
      .from(tradeInvoices)
      .where(where);
    return {
      data: shown.map((r) => toSummary(r as SummaryRow)),
      totals: { count: totals?.count ?? 0, total: Number(totals?.total ?? 0), outstanding: Number(totals?.outstanding ?? 0), overdue: Number(totals?.overdue ?? 0) },
      next_cursor: more ? (shown.at(-1)?.id ?? null) : null,
    };
  }

  async function show(userId: number, invoiceId: number): Promise<InvoiceDetailJson> {
    const account = await readerAccount(userId);
    const [row] = await db
      .select(summaryColumns)
      .from(tradeInvoices)
      .leftJoin(orders, eq(orders.id, tradeInvoices.orderId))
      .leftJoin(hireRequests, eq(hireRequests.id, tradeInvoices.hireRequestId))
      .leftJoin(tradeSites, eq(tradeSites.id, tradeInvoices.siteId))
      .where(and(eq(tradeInvoices.id, invoiceId), eq(tradeInvoices.tradeAccountId, account.id)))
      .limit(1);
    if (!row) throw new HttpError(404, NOT_FOUND);
    // An order's lines, or a hire's charges (the hire desk's, issue 21) as lines of one.
    const lines =
      row.orderId !== null
        ? await db.select().from(orderLines).where(eq(orderLines.orderId, row.orderId)).orderBy(asc(orderLines.id))
        : (await db.select().from(hireCharges).where(eq(hireCharges.requestId, sql`(select hire_request_id from trade_invoices where id = ${row.id})`)).orderBy(asc(hireCharges.id)))
            .filter((c) => c.kind !== "deposit")
            .map((c) => ({ sku: c.kind.toUpperCase(), name: c.reason && c.kind !== "hire" ? `${c.description} (${c.reason})` : c.description, quantity: 1, unit: "each", unitPrice: c.net, vatRate: c.vatRate, lineTotal: c.net, lineVat: c.vat, discount: 0 }));
    const byRate = new Map<number, { rate: number; net: number; vat: number }>();
    for (const l of lines) {
      const b = byRate.get(l.vatRate) ?? { rate: l.vatRate, net: 0, vat: 0 };
      b.net += l.lineTotal;
      b.vat += l.lineVat;
      byRate.set(l.vatRate, b);
    }
    const s = options.shop;
    return {
      ...toSummary(row as SummaryRow),
      paid_at: row.paidAt ? row.paidAt.toISOString() : null,
      lines: lines.map((l) => ({ sku: l.sku, name: l.name, quantity: l.quantity, unit: l.unit, unit_price: l.unitPrice, vat_rate: l.vatRate, discount: l.discount, line_total: l.lineTotal, line_vat: l.lineVat })),
      vat_breakdown: [...byRate.values()].sort((a, b) => b.rate - a.rate),
      shop: { name: s.name, email: s.email, address: s.address, vat_number: s.vatNumber },
      company: {
        name: account.companyName,
        address: [account.line1, account.line2, account.town, account.county, account.postcode].filter((x) => x !== ""),
        company_number: account.companyNumber,
        vat_number: account.vatNumber,
        accounts_email: account.accountsEmail,
        terms_days: account.termsDays,
      },
    };
  }

  return { list, show };
}

export type TradeInvoicesService = ReturnType<typeof createTradeInvoicesService>;
