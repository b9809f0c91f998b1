import { useId } from "react";
import { axisLabel, niceScale } from "../lib/chart-scale.ts";

export interface ChartBar {
  key: string;
  /** Pounds. */
  value: number;
  /** Under the bar; none to leave the place blank. */
  label?: string;
  /** The bar's tooltip. */
  title: string;
  /** Drawn in the accent colour with a bold label (today, on the takings chart). */
  highlight?: boolean;
}

export interface ChartGeometry {
  /** The drawing's own units; the SVG scales to its box, and the text with it. */
  width: number;
  height: number;
  fontSize: number;
  plot: { left: number; right: number; top: number; bottom: number };
  /** The widest a bar may be, in drawing units. */
  maxBar: number;
}

export const DEFAULT_GEOMETRY: ChartGeometry = { width: 400, height: 220, fontSize: 13, plot: { left: 44, right: 4, top: 10, bottom: 26 }, maxBar: 28 };

const BAR = "#1d3f8f";
const HIGHLIGHT = "#b45309";
const INK = "#44403c";

/**
 * A bar chart of pounds drawn on the server: an inline SVG with a round £
 * axis, a title and a description for screen readers (its accessible name),
 * so it reads without JavaScript. The figures themselves belong in a table
 * beside it; each caller draws its own.
 */
export function BarChart({
  bars,
  title,
  description,
  geometry = DEFAULT_GEOMETRY,
  className = "h-auto w-full max-w-xl",
  labelTicks = false,
}: {
  bars: ChartBar[];
  title: string;
  description: string;
  geometry?: ChartGeometry;
  className?: string;
  /** A tick on the axis at each label: when only some bars are labelled, it shows which one a label names. */
  labelTicks?: boolean;
}) {
  const id = useId();
  const { width, height, fontSize, plot, maxBar } = geometry;
  const scale = niceScale(Math.max(0, ...bars.map((b) => b.value)));
  const plotWidth = width - plot.left - plot.right;
  const plotHeight = height - plot.top - plot.bottom;
  const slot = plotWidth / Math.max(bars.length, 1);
  const barWidth = Math.min(slot * 0.64, maxBar);
  const y = (v: number) => plot.top + plotHeight - (v / scale.max) * plotHeight;
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className={className} role="img" aria-labelledby={`${id}-title ${id}-desc`} fontSize={fontSize}>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {scale.ticks.map((t) => (
        <g key={t}>
          <line x1={plot.left} x2={width - plot.right} y1={y(t)} y2={y(t)} stroke={t === 0 ? "#57534e" : "#e7e5e4"} strokeWidth={1} />
          <text x={plot.left - 6} y={y(t)} dy="0.35em" textAnchor="end" fill={INK}>
            {axisLabel(t)}
          </text>
        </g>
      ))}
      {bars.map((b, i) => {
        const x = plot.left + i * slot + (slot - barWidth) / 2;
        const top = y(b.value);
        return (
          <g key={b.key}>
            {b.value > 0 ? (
              <rect x={x} y={top} width={barWidth} height={Math.max(plot.top + plotHeight - top, 1)} rx={Math.min(2, barWidth / 4)} fill={b.highlight ? HIGHLIGHT : BAR}>
                <title>{b.title}</title>
              </rect>
            ) : null}
            {b.label && labelTicks ? <line x1={x + barWidth / 2} x2={x + barWidth / 2} y1={plot.top + plotHeight} y2={plot.top + plotHeight + 5} stroke="#57534e" strokeWidth={1} /> : null}
            {b.label ? (
              <text x={x + barWidth / 2} y={height - 8} textAnchor="middle" fill={b.highlight ? HIGHLIGHT : INK} fontWeight={b.highlight ? 700 : undefined}>
                {b.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
