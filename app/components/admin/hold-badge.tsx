import { HOLD_LABELS } from "../../../server/modules/trade/desk-labels.ts";

/** A trade account on hold, in words ("On hold: overdue"); nothing when it is not. */
export function HoldBadge({ reason }: { reason: keyof typeof HOLD_LABELS }) {
  if (!reason) return null;
  return <span className="inline-block whitespace-nowrap rounded bg-red-100 px-2 py-0.5 text-sm font-semibold text-red-900">{HOLD_LABELS[reason]}</span>;
}
