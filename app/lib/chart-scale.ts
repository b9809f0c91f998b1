// The arithmetic of the shop's server-drawn bar charts (the trade dashboard's
// spend, the back office's takings): plain functions, unit-tested in
// app/components/trade/spend-chart.test.ts.

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
  return pounds >= 1000 ? `£${grouped(pounds / 1000)}k` : `£${grouped(pounds)}`;
}

/** `1,234.5`: at most two decimals, thousands grouped, by hand (toLocaleString builds a formatter per call). */
function grouped(n: number): string {
  const [whole, fraction] = String(cents(n)).split(".");
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction ? `.${fraction}` : ""}`;
}
