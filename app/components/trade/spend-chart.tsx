import { useId } from "react";
import { formatPounds } from "../../lib/money.ts";

export interface MonthSpend {
  /** `YYYY-MM`. */
  month: string;
  /** Pounds. */
  total: number;
}

export interface Scale {
  /** The top of the axis, a round number at or above the highest value. */
  max: number;
  step: number;
  /** From 0 to max, `step` apart. */
  ticks: number[];
}

/** Rounds away the float dust of stepping by 0.25 or 2.5. */
const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * A round axis for values from 0 to `highest`: steps of 1, 2, 2.5 or 5 times a
 * power of ten, about `count` of them, so the labels read £500, £1,000…
 * Nothing to show still gives an axis (£0 to £100).
 */
export function niceScale(highest: number, count = 4): Scale {
  const top = Number.isFinite(highest) && highest > 0 ? highest : 100;
  const rough = top / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = cents(([1, 2, 2.5, 5, 10].find((f) => f * magnitude >= rough - 1e-9) ?? 10) * magnitude);
  // The small allowance stops float dust (3 / 0.1 = 30.000000000000004) adding a step.
  const max = cents(Math.ceil(top / step - 1e-9) * step);
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => cents(i * step));
  return { max, step, ticks };
}

/** `£0`, `£750`, `£1.5k`, `£20k`: short enough for the axis. */
export function axisLabel(pounds: number): string {
  if (pounds >= 1000) return `£${cents(pounds / 1000).toLocaleString("en-GB", { maximumFractionDigits: 2 })}k`;
  return `£${pounds.toLocaleString("en-GB", { maximumFractionDigits: 2 })}`;
}

const monthDate = (month: string) => new Date(`${month}-01T12:00:00Z`);
// Three letters ("Sep", not en-GB's "Sept"), so twelve fit under the bars on a phone.
const shortMonth = (month: string) => monthDate(month).toLocaleDateString("en-GB", { month: "short", timeZone: "UTC" }).slice(0, 3);
export const longMonth = (month: string) => monthDate(month).toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

// The drawing's own units; the SVG scales to its box, and the text with it.
const WIDTH = 400;
const HEIGHT = 220;
const PLOT = { left: 44, right: 4, top: 10, bottom: 26 };

/**
 * Monthly spend as a bar chart drawn on the server: an inline SVG with a title
 * and description for screen readers, and the same figures as a table in a
 * disclosure, so it reads without JavaScript and without sight.
 */
export function SpendChart({ months, title }: { months: MonthSpend[]; title: string }) {
  const id = useId();
  const scale = niceScale(Math.max(0, ...months.map((m) => m.total)));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / Math.max(months.length, 1);
  const barWidth = Math.min(slot * 0.64, 28);
  const y = (v: number) => PLOT.top + plotHeight - (v / scale.max) * plotHeight;
  const total = months.reduce((s, m) => s + m.total, 0);
  const highest = months.reduce<MonthSpend | null>((best, m) => (m.total > (best?.total ?? 0) ? m : best), null);
  const range = months.length ? `${longMonth(months[0]!.month)} to ${longMonth(months.at(-1)!.month)}` : "";
  const description = highest
    ? `${formatPounds(total)} in all from ${range}; the highest month was ${longMonth(highest.month)} at ${formatPounds(highest.total)}.`
    : `No spend from ${range}.`;

  return (
    <figure className="grid gap-3" data-testid="spend-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full max-w-xl" role="img" aria-labelledby={`${id}-title ${id}-desc`} fontSize="13">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {scale.ticks.map((t) => (
          <g key={t}>
            <line x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(t)} y2={y(t)} stroke={t === 0 ? "#57534e" : "#e7e5e4"} strokeWidth={1} />
            <text x={PLOT.left - 6} y={y(t)} dy="0.35em" textAnchor="end" fill="#44403c">
              {axisLabel(t)}
            </text>
          </g>
        ))}
        {months.map((m, i) => {
          const x = PLOT.left + i * slot + (slot - barWidth) / 2;
          const top = y(m.total);
          return (
            <g key={m.month}>
              {m.total > 0 ? (
                <rect x={x} y={top} width={barWidth} height={Math.max(PLOT.top + plotHeight - top, 1)} rx={2} fill="#1d3f8f">
                  <title>{`${longMonth(m.month)}: ${formatPounds(m.total)}`}</title>
                </rect>
              ) : null}
              <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" fill="#44403c">
                {shortMonth(m.month)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="text-sm text-stone-700">{description}</figcaption>
      <details className="rounded-md border border-stone-200 bg-stone-50 px-4 py-2">
        <summary className="cursor-pointer font-semibold">Spend by month as a table</summary>
        <table className="mt-2 w-full text-left text-sm" data-testid="spend-table">
          <caption className="sr-only">{title}, by month</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1">
                Month
              </th>
              <th scope="col" className="py-1 text-right">
                Spend
              </th>
            </tr>
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
