import { type HireQuote, daysLabel } from "../../lib/hire.ts";
import { formatPounds } from "../../lib/money.ts";

/** The price of the chosen dates: hire, VAT, deposit and what is paid now. */
export function QuoteSummary({ quote, loading, failed }: { quote: HireQuote | null; loading: boolean; failed: boolean }) {
  if (failed) return <p className="rounded-md bg-stone-100 px-3 py-2 text-stone-700">We could not work out a price just now. Please try again.</p>;
  if (!quote) {
    return <p className="rounded-md bg-stone-100 px-3 py-2 text-stone-700">{loading ? "Working out your price…" : "Choose a start and return date to see the price."}</p>;
  }
  const short = quote.available < quote.quantity;
  const moved = Math.min(quote.by_transfer ?? 0, quote.quantity - quote.available);
  const at = quote.depot ? ` at ${quote.depot.name}` : "";
  return (
    <div className={`rounded-md border border-brand-100 bg-brand-50 p-3 ${loading ? "opacity-75" : ""}`} data-testid="hire-quote">
      <p className="font-semibold">
        Your quote: {quote.quantity} × {daysLabel(quote.days)}
        {quote.weekend_rate ? <span className="ml-2 rounded bg-accent-400 px-1.5 py-0.5 text-sm text-stone-900">Weekend rate applied</span> : null}
      </p>
      <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
        <dt>Hire cost (ex VAT)</dt>
        <dd className="text-right">{formatPounds(quote.hire_cost)}</dd>
        <dt>VAT</dt>
        <dd className="text-right">{formatPounds(quote.vat)}</dd>
        <dt>Refundable deposit (no VAT)</dt>
        <dd className="text-right">{formatPounds(quote.deposit)}</dd>
        <dt className="border-t border-brand-100 pt-1 font-bold">Total</dt>
        <dd className="border-t border-brand-100 pt-1 text-right font-bold">{formatPounds(quote.total)}</dd>
      </dl>
      {short && quote.available + moved >= quote.quantity ? (
        <p className="mt-2 text-sm text-stone-700" data-testid="hire-transfer">
          {quote.available} free{at}; {moved} more from another depot, moved{at || " here"} the day before the hire.
        </p>
      ) : short ? (
        <p className="mt-2 font-semibold text-red-800">{quote.available === 0 ? `None available${at} for those dates.` : `Only ${quote.available} available${at} for those dates.`}</p>
      ) : (
        <p className="mt-2 text-sm text-stone-700">
          {quote.available} {quote.available === 1 ? "unit" : "units"} free{at} for those dates.
        </p>
      )}
    </div>
  );
}
