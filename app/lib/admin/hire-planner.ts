import { addDays, dayNumber } from "../../../server/modules/hire/calendar.ts";
import { shortDay } from "./dashboard.ts";

/** A bar as the planner API sends it: `[from, to)`, not clipped to the window. */
export interface PlannerBarView {
  from: string;
  to: string;
  kind: "hold" | "booking" | "out" | "service";
  request_number?: string;
  note?: string;
}

/**
 * Each kind's look: a colour, and a pattern and a word so the kind is never
 * told by colour alone (the legend shows all three).
 */
export const BAR_KINDS: Record<PlannerBarView["kind"], { label: string; className: string; swatch: string }> = {
  hold: {
    label: "Hold",
    // Dashed outline, light: waiting for the desk, lapses unless approved.
    className: "border-2 border-dashed border-amber-700 bg-amber-50 text-amber-950",
    swatch: "border-2 border-dashed border-amber-700 bg-amber-50",
  },
  booking: { label: "Booked", className: "border-2 border-sky-800 bg-sky-100 text-sky-950", swatch: "border-2 border-sky-800 bg-sky-100" },
  out: { label: "Out", className: "border-2 border-green-900 bg-green-800 text-white", swatch: "border-2 border-green-900 bg-green-800" },
  service: {
    label: "Service",
    // Diagonal stripes: the unit is blocked, not hired.
    className: "border-2 border-stone-700 bg-[repeating-linear-gradient(135deg,#e7e5e4_0_6px,#d6d3d1_6px_12px)] text-stone-900",
    swatch: "border-2 border-stone-700 bg-[repeating-linear-gradient(135deg,#e7e5e4_0_4px,#a8a29e_4px_8px)]",
  },
};

const KIND_WORDS: Record<PlannerBarView["kind"], string> = { hold: "hold", booking: "booking", out: "out on hire", service: "in service" };

/** The window's days, `YYYY-MM-DD`. */
export function windowDays(from: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(from, i));
}

/**
 * Where a bar sits in the window: its first column and how many it spans,
 * clipped to the window, and whether it runs on past either edge.
 */
export function barSpan(bar: { from: string; to: string }, from: string, days: number): { start: number; span: number; before: boolean; after: boolean } | null {
  const origin = dayNumber(from)!;
  const a = dayNumber(bar.from)! - origin;
  const b = dayNumber(bar.to)! - origin;
  const start = Math.max(0, a);
  const end = Math.min(days, b);
  if (end <= start) return null;
  return { start, span: end - start, before: a < 0, after: b > days };
}

/** What a screen reader hears for a bar: `HA-10001: booking HR-000045, 3 Dec to 6 Dec`. */
export function barText(asset: string, bar: PlannerBarView): string {
  const what = bar.request_number ? `${KIND_WORDS[bar.kind]} ${bar.request_number}` : KIND_WORDS[bar.kind];
  const why = bar.kind === "service" && bar.note ? ` (${bar.note})` : "";
  return `${asset}: ${what}${why}, ${shortDay(bar.from)} to ${shortDay(bar.to)}`;
}

/** A bar's short label on screen: the request's number, or the kind. */
export const barLabel = (bar: PlannerBarView): string => `${BAR_KINDS[bar.kind].label}${bar.request_number ? ` ${bar.request_number}` : ""}`;
