// The dashboard screen's plain logic (no React, no database): the links behind
// its figures and the words and bars of its takings chart. Unit-tested in
// dashboard.test.ts beside it.
import type { ChartBar } from "../../components/bar-chart.tsx";
import type { TakingsDay } from "../../../server/modules/dashboard/service.ts";
import type { OrderStatus } from "../../../server/modules/orders/statuses.ts";
import { formatPounds } from "../money.ts";

/** The orders list with these filters: the list behind an orders figure. */
export function ordersHref(filters: { status?: OrderStatus; fulfilment?: "delivery" | "collection"; from?: string; to?: string }): string {
  const query = new URLSearchParams();
  for (const key of ["status", "fulfilment", "from", "to"] as const) {
    const value = filters[key];
    if (value) query.set(key, value);
  }
  const text = query.toString();
  return text ? `/admin/orders?${text}` : "/admin/orders";
}

/**
 * Where the hire, trade and stock figures' lists live: the hire desk's
 * overview (issue 21); a figure whose list does not exist yet (null) shows
 * unlinked, with a note.
 */
export const LIST_OF: Record<"hire" | "tradeApplications" | "overdueInvoices" | "lowStock", string> = {
  hire: "/admin/hire",
  tradeApplications: "/admin/trade?state=pending",
  overdueInvoices: "/admin/trade/aged-debt",
  lowStock: "/admin/products?stock=low",
};

const noon = (day: string) => new Date(`${day}T12:00:00Z`);
const SHORT = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const LONG = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
const TABLE = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

// Three-letter months ("Sep", not en-GB's "Sept"), so the axis labels keep one width.
/** `18 Nov`. */
export const shortDay = (day: string) => SHORT.format(noon(day)).replace(/Sept/, "Sep");
/** `Wednesday 18 November`. */
export const longDay = (day: string) => LONG.format(noon(day)).replace(",", "");
/** `Wed 18 Nov`. */
export const tableDay = (day: string) => TABLE.format(noon(day)).replace(",", "").replace(/Sept/, "Sep");

/** Whole-pence sums of pounds, so thirty days add up without float dust. */
export const sumPounds = (values: number[]) => values.reduce((s, v) => s + Math.round(v * 100), 0) / 100;

/** The chart's bars: takings inc VAT by day, a label every seventh day counting back from today (so today has one), today highlighted. */
export function takingsBars(days: TakingsDay[]): ChartBar[] {
  const last = days.length - 1;
  return days.map((d, i) => ({
    key: d.day,
    value: d.inc_vat,
    label: (last - i) % 7 === 0 ? (i === last ? "Today" : shortDay(d.day)) : undefined,
    title: `${longDay(d.day)}${i === last ? " (today)" : ""}: ${formatPounds(d.inc_vat)}, ${d.orders} ${d.orders === 1 ? "order" : "orders"} placed`,
    highlight: i === last,
  }));
}

/** What the chart shows, in a sentence: its accessible description and its caption. */
export function takingsSummary(days: TakingsDay[]): string {
  if (!days.length) return "";
  const range = `${longDay(days[0]!.day)} to ${longDay(days.at(-1)!.day)}`;
  const total = sumPounds(days.map((d) => d.inc_vat));
  if (total === 0) return `No takings from ${range}.`;
  const best = days.reduce((a, d) => (d.inc_vat > a.inc_vat ? d : a));
  const today = days.at(-1)!;
  return `${formatPounds(total)} inc VAT from ${range}. The best day was ${longDay(best.day)} at ${formatPounds(best.inc_vat)}; today so far ${formatPounds(today.inc_vat)}.`;
}
