// A quote as the customer's page, the desk's page and the PDF read it: its
// lines with their money (totals.ts), its company, revisions and timeline, in
// four indexed queries whatever its size.
import { type SQL, and, asc, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../auth/schema.ts";
import { pounds } from "../catalog/products/products.ts";
import { londonDate } from "../hire/calendar.ts";
import { orders } from "../orders/schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { tradeSites } from "../trade/accounts/sites-schema.ts";
import { quoteEvents, quoteLines, quoteRevisions, quotes } from "./schema.ts";
import { QUOTE_STATUS_LABELS, type QuoteSnapshot, type QuoteStatus, quoteMay } from "./statuses.ts";
import { discountPercent, quoteTotals } from "./totals.ts";

export type QuoteRow = typeof quotes.$inferSelect;
export type QuoteLineRow = typeof quoteLines.$inferSelect;

export interface QuoteLineJson {
  id: number;
  sku: string;
  name: string;
  unit: string;
  quantity: number;
  /** Pounds ex VAT: the quoted unit price, and the customer's own price it was measured from; null to the customer while it is being priced. */
  unit_price_ex_vat: number | null;
  base_price_ex_vat: number;
  discount_percent: number | null;
  vat_rate: number;
  line_total_ex_vat: number | null;
  line_vat: number | null;
}

export interface QuoteJson {
  number: string;
  status: QuoteStatus;
  status_label: string;
  revision: number;
  customer: { id: number; name: string; email: string };
  company: { id: number; name: string } | null;
  /** The company's site it is for (trade/accounts/sites.ts); its order is for the same site. */
  site: { id: number; name: string } | null;
  notes: string;
  needed_by: string | null;
  valid_until: string | null;
  /** A sent quote past its last day (the daily job marks it expired): it can no longer be accepted. */
  past_valid_until: boolean;
  terms: string;
  /** Pounds: delivery ex VAT as set, and inc VAT; null leaves it to the shop's usual price when accepted. */
  delivery_ex_vat: number | null;
  delivery: number | null;
  lines: QuoteLineJson[];
  /** Whether the prices are the shop's word: false to the customer while it is requested or being drafted, when the money fields are null. */
  priced: boolean;
  subtotal: number | null;
  vat: number | null;
  total: number | null;
  order: { id: number; number: string } | null;
  decline_reason: string;
  sent_at: string | null;
  accepted_at: string | null;
  created_at: string;
  updated_at: string;
  revisions: { revision: number; sent_at: string }[];
  events: { status: string; by: string; note: string; at: string }[];
}

export interface LoadedQuote {
  row: QuoteRow;
  lines: QuoteLineRow[];
  json: QuoteJson;
}

/** Whether a sent quote's last day has passed (London's date). */
export function pastValidUntil(row: Pick<QuoteRow, "validUntil">, today = londonDate()): boolean {
  return row.validUntil !== null && row.validUntil < today;
}

/** Whether the customer may accept it now: sent, and today is on or before its last day. */
export function acceptable(row: Pick<QuoteRow, "status" | "validUntil">, today = londonDate()): boolean {
  return quoteMay("accept", row.status) && !pastValidUntil(row, today);
}

export async function loadQuote(q: Db, where: { number: string } | { id: number }): Promise<LoadedQuote | null> {
  const [found] = await q
    .select({ quote: quotes, customer: { id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email }, company: { id: tradeAccounts.id, name: tradeAccounts.companyName }, site: { id: tradeSites.id, name: tradeSites.name }, orderNumber: orders.number })
    .from(quotes)
    .innerJoin(users, eq(users.id, quotes.userId))
    .leftJoin(tradeAccounts, eq(tradeAccounts.id, quotes.tradeAccountId))
    .leftJoin(tradeSites, eq(tradeSites.id, quotes.siteId))
    .leftJoin(orders, eq(orders.id, quotes.orderId))
    .where("number" in where ? eq(quotes.number, where.number) : eq(quotes.id, where.id))
    .limit(1);
  if (!found) return null;
  const row = found.quote;
  const [lines, revisions, events] = await Promise.all([
    q.select().from(quoteLines).where(eq(quoteLines.quoteId, row.id)).orderBy(asc(quoteLines.id)),
    q.select({ revision: quoteRevisions.revision, sentAt: quoteRevisions.sentAt }).from(quoteRevisions).where(eq(quoteRevisions.quoteId, row.id)).orderBy(asc(quoteRevisions.revision)),
    q.select().from(quoteEvents).where(eq(quoteEvents.quoteId, row.id)).orderBy(asc(quoteEvents.id)),
  ]);
  const totals = quoteTotals(lines, row.deliveryExVat);
  const json: QuoteJson = {
    number: row.number,
    status: row.status as QuoteStatus,
    status_label: QUOTE_STATUS_LABELS[row.status as QuoteStatus],
    revision: row.revision,
    customer: { id: found.customer.id, name: `${found.customer.firstname} ${found.customer.lastname}`.trim(), email: found.customer.email },
    company: found.company?.id ? { id: found.company.id, name: found.company.name } : null,
    site: found.site?.id ? { id: found.site.id, name: found.site.name } : null,
    notes: row.notes,
    needed_by: row.neededBy,
    valid_until: row.validUntil,
    past_valid_until: row.status === "sent" && pastValidUntil(row),
    terms: row.terms,
    delivery_ex_vat: row.deliveryExVat === null ? null : pounds(row.deliveryExVat),
    delivery: totals.delivery === null ? null : pounds(totals.delivery),
    lines: lines.map((l, i) => ({
      id: l.id,
      sku: l.sku,
      name: l.name,
      unit: l.unit,
      quantity: l.quantity,
      unit_price_ex_vat: pounds(l.unitPrice),
      base_price_ex_vat: pounds(l.basePrice),
      discount_percent: discountPercent(l.basePrice, l.unitPrice),
      vat_rate: l.vatRate,
      line_total_ex_vat: pounds(totals.lines[i]!.net),
      line_vat: pounds(totals.lines[i]!.vat),
    })),
    priced: true,
    subtotal: pounds(totals.subtotal),
    vat: pounds(totals.vat),
    total: pounds(totals.total),
    order: row.orderId !== null && found.orderNumber ? { id: row.orderId, number: found.orderNumber } : null,
    decline_reason: row.declineReason,
    sent_at: row.sentAt?.toISOString() ?? null,
    accepted_at: row.acceptedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    revisions: revisions.map((r) => ({ revision: r.revision, sent_at: r.sentAt.toISOString() })),
    events: events.map((e) => ({ status: e.status, by: e.by, note: e.note, at: e.createdAt.toISOString() })),
  };
  return { row, lines, json };
}

/** A quote in a list: the desk's and the customer's. */
export interface QuoteSummaryJson {
  number: string;
  status: QuoteStatus;
  status_label: string;
  customer: string;
  company: string | null;
  lines: number;
  /** Pounds inc VAT, goods (and the quoted delivery); null while it is being priced, for the customer. */
  total: number | null;
  valid_until: string | null;
  needed_by: string | null;
  created_at: string;
  updated_at: string;
}

/** The customer's view: while staff are still pricing it (requested, drafting), no figure is the shop's word yet, so none is shown. */
export function forCustomer(json: QuoteJson): QuoteJson {
  if (json.status !== "requested" && json.status !== "drafting") return json;
  return {
    ...json,
    priced: false,
    delivery_ex_vat: null,
    delivery: null,
    subtotal: null,
    vat: null,
    total: null,
    lines: json.lines.map((l) => ({ ...l, unit_price_ex_vat: null, discount_percent: null, line_total_ex_vat: null, line_vat: null })),
  };
}

/** A page of quotes, newest first (keyset on id), with each one's line count and total worked in the same query. */
export async function quoteSummaries(q: Db, where: SQL | undefined, cursor: number | undefined, limit: number, customerView: boolean): Promise<{ data: QuoteSummaryJson[]; next_cursor: number | null }> {
  // Goods inc VAT per line as totals.ts works it (VAT rounded half-up per line), plus the quoted delivery.
  const goods = sql<number>`coalesce((select sum((l.unit_price * l.quantity * (100 + l.vat_rate) + 50) / 100) from quote_lines l where l.quote_id = ${quotes.id}), 0)::int`;
  const lineCount = sql<number>`(select count(*) from quote_lines l where l.quote_id = ${quotes.id})::int`;
  const rows = await q
    .select({ quote: quotes, firstname: users.firstname, lastname: users.lastname, company: tradeAccounts.companyName, goods, lineCount })
    .from(quotes)
    .innerJoin(users, eq(users.id, quotes.userId))
    .leftJoin(tradeAccounts, eq(tradeAccounts.id, quotes.tradeAccountId))
    .where(and(where, cursor ? lt(quotes.id, cursor) : undefined))
    .orderBy(desc(quotes.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    data: page.map((r) => {
      const hidden = customerView && (r.quote.status === "requested" || r.quote.status === "drafting");
      const delivery = r.quote.deliveryExVat === null ? 0 : quoteTotals([], r.quote.deliveryExVat).delivery!;
      return {
        number: r.quote.number,
        status: r.quote.status as QuoteStatus,
        status_label: QUOTE_STATUS_LABELS[r.quote.status as QuoteStatus],
        customer: `${r.firstname} ${r.lastname}`.trim(),
        company: r.company,
        lines: Number(r.lineCount),
        total: hidden ? null : pounds(Number(r.goods) + delivery),
        valid_until: r.quote.validUntil,
        needed_by: r.quote.neededBy,
        created_at: r.quote.createdAt.toISOString(),
        updated_at: r.quote.updatedAt.toISOString(),
      };
    }),
    next_cursor: rows.length > limit ? page[page.length - 1]!.quote.id : null,
  };
}

/** Writes a line of the quote's timeline. */
export async function quoteEvent(tx: Db, quoteId: number, status: string, by: "customer" | "staff" | "system", note: string): Promise<void> {
  await tx.insert(quoteEvents).values({ quoteId, status, by, note });
}

/** The version as it is now, for quote_revisions and the PDF. */
export function snapshotOf(row: QuoteRow, lines: readonly QuoteLineRow[]): QuoteSnapshot {
  return {
    lines: lines.map((l) => ({ sku: l.sku, name: l.name, unit: l.unit, quantity: l.quantity, unit_price: l.unitPrice, base_price: l.basePrice, vat_rate: l.vatRate })),
    delivery_ex_vat: row.deliveryExVat,
    valid_until: row.validUntil ?? "",
    terms: row.terms,
  };
}
