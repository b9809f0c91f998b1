const TONES: Record<string, string> = {
  awaiting_payment: "bg-amber-100 text-amber-900",
  paid: "bg-sky-100 text-sky-900",
  processing: "bg-indigo-100 text-indigo-900",
  dispatched: "bg-violet-100 text-violet-900",
  ready_for_collection: "bg-teal-100 text-teal-900",
  completed: "bg-green-100 text-green-900",
  cancelled: "bg-stone-200 text-stone-800",
  // A return's (issue 31).
  requested: "bg-amber-100 text-amber-900",
  approved: "bg-sky-100 text-sky-900",
  received: "bg-indigo-100 text-indigo-900",
  refunded: "bg-green-100 text-green-900",
  exchanged: "bg-teal-100 text-teal-900",
  rejected: "bg-red-100 text-red-900",
  closed: "bg-stone-200 text-stone-800",
  // A promotion's state (issue 32), prefixed: its "paused" and "ended" are not an order's.
  promotion_running: "bg-green-100 text-green-900",
  promotion_scheduled: "bg-sky-100 text-sky-900",
  promotion_expired: "bg-stone-200 text-stone-800",
  promotion_used_up: "bg-amber-100 text-amber-900",
  promotion_paused: "bg-amber-100 text-amber-900",
  promotion_ended: "bg-stone-200 text-stone-800",
  // A quote's (issue 32), prefixed likewise.
  quote_requested: "bg-amber-100 text-amber-900",
  quote_drafting: "bg-sky-100 text-sky-900",
  quote_sent: "bg-indigo-100 text-indigo-900",
  quote_accepted: "bg-green-100 text-green-900",
  quote_declined: "bg-red-100 text-red-900",
  quote_expired: "bg-stone-200 text-stone-800",
};

/** An order's, a return's, a promotion's or a quote's status as a coloured label; the words carry the meaning, the colour only helps. */
export function StatusBadge({ status, label }: { status: string; label: string }) {
  return <span className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-sm font-semibold ${TONES[status] ?? "bg-stone-100 text-stone-900"}`}>{label}</span>;
}
