import { QUOTE_STATUS, type QuoteStatus } from "../../lib/quotes.ts";

/** A quote's status as a badge, in the colours its list and its page share. */
export function QuoteStatusBadge({ status, label }: { status: QuoteStatus; label: string }) {
  return <span className={`rounded-full px-3 py-0.5 text-sm font-semibold ${QUOTE_STATUS[status].tone}`}>{label}</span>;
}
