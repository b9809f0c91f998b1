import { BarChart } from "../bar-chart.tsx";
import { formatPounds } from "../../lib/money.ts";
import { HeadRow } from "../head-row.tsx";

// The scale is shared with the back office's takings chart; its test still imports it from here.
export { type Scale, axisLabel, niceScale } from "../../lib/chart-scale.ts";

export interface MonthSpend {
  /** `YYYY-MM`. */
  month: string;
  /** Pounds. */
  total: number;
}

// Month names by hand, not toLocaleDateString: that builds a date formatter on
// every call, some forty per dashboard, which cost more than the rest of its render.
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;
const monthName = (month: string) => MONTHS[Number(month.slice(5, 7)) - 1] ?? month;
// Three letters ("Sep", not en-GB's "Sept"), so twelve fit under the bars on a phone.
const shortMonth = (month: string) => monthName(month).slice(0, 3);
/** `October 2026` from `2026-10`. */
export const longMonth = (month: string) => `${monthName(month)} ${month.slice(0, 4)}`;

/**
 * Monthly spend as a bar chart drawn on the server: an inline SVG with a title
 * and description for screen readers, and the same figures as a table in a
 * disclosure, so it reads without JavaScript and without sight.
 */
export function SpendChart({ months, title }: { months: MonthSpend[]; title: string }) {
  const total = months.reduce((s, m) => s + m.total, 0);
  const highest = months.reduce<MonthSpend | null>((best, m) => (m.total > (best?.total ?? 0) ? m : best), null);
  const range = months.length ? `${longMonth(months[0]!.month)} to ${longMonth(months.at(-1)!.month)}` : "";
  const description = highest
    ? `${formatPounds(total)} in all from ${range}; the highest month was ${longMonth(highest.month)} at ${formatPounds(highest.total)}.`
    : `No spend from ${range}.`;

  return (
    <figure className="grid gap-3" data-testid="spend-chart">
      <BarChart bars={months.map((m) => ({ key: m.month, value: m.total, label: shortMonth(m.month), title: `${longMonth(m.month)}: ${formatPounds(m.total)}` }))} title={title} description={description} />
      <figcaption className="text-sm text-stone-700">{description}</figcaption>
      <details className="rounded-md border border-stone-200 bg-stone-50 px-4 py-2">
        <summary className="cursor-pointer font-semibold">Spend by month as a table</summary>
        <table className="mt-2 w-full text-left text-sm" data-testid="spend-table">
          <caption className="sr-only">{title}, by month</caption>
          <thead>
            <HeadRow cells={[["Month", "py-1"], ["Spend", "py-1 text-right"]]} />
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month} className="border-t border-stone-200">
                <th scope="row" className="py-1 font-normal">
                  {longMonth(m.month)}
                </th>
                <td className="py-1 text-right tabular-nums">{formatPounds(m.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
