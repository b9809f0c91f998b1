import { formatPounds } from "../../lib/money.ts";
import { TOTAL_ROW, TotalsList, type TotalsListRow } from "../totals-list.tsx";
import { BEING_PRICED, type QuoteView, USUAL_DELIVERY } from "../../lib/quotes.ts";

const cell = "px-3 py-2 sm:px-4";

/**
 * A quote's lines: what, how many, the unit price ex VAT, what it takes off the
 * customer's own price and the line's total; while it is being priced, the
 * lines alone. On a phone the price sits under the name rather than in columns off the screen.
 */
export function QuoteLines({ quote }: { quote: QuoteView }) {
  const discounts = quote.priced && quote.lines.some((l) => (l.discount_percent ?? 0) > 0);
  return (
    <div className="-mx-4 overflow-x-auto sm:mx-0 sm:rounded-lg sm:border sm:border-stone-200 sm:bg-white sm:shadow-sm">
      <table className="w-full border-collapse bg-white text-left text-sm sm:text-base" data-testid="quote-lines">
        <caption className="sr-only">The quote's lines{quote.priced ? ", prices ex VAT" : `: ${BEING_PRICED.toLowerCase()}`}</caption>
        <thead className="bg-stone-100 text-sm text-stone-700">
          <tr>
            <th scope="col" className={cell}>
              Product
            </th>
            <th scope="col" className={`${cell} hidden text-right sm:table-cell`}>
              Qty
            </th>
            <th scope="col" className={`${cell} hidden text-right sm:table-cell`}>
              Unit price ex VAT
            </th>
            {discounts ? (
              <th scope="col" className={`${cell} hidden text-right md:table-cell`}>
                Off your price
              </th>
            ) : null}
            <th scope="col" className={`${cell} text-right`}>
              {quote.priced ? "Line total ex VAT" : "Price"}
            </th>
          </tr>
        </thead>
        <tbody>
          {quote.lines.map((l) => {
            const unit = l.unit_price_ex_vat === null ? BEING_PRICED : formatPounds(l.unit_price_ex_vat);
            const off = l.discount_percent && l.discount_percent > 0 ? `${l.discount_percent}%` : null;
            return (
              <tr key={l.id} className="border-t border-stone-200 align-top">
                <th scope="row" className={`${cell} font-normal`}>
                  <span className="block font-semibold break-words">{l.name}</span>
                  <span className="block text-xs text-stone-600 sm:text-sm">SKU {l.sku}</span>
                  <span className="block text-xs text-stone-700 sm:hidden">
                    {l.quantity} × {unit}
                    {off ? ` · ${off} off your price` : ""}
                  </span>
                  {off ? <span className="hidden text-xs text-stone-700 sm:block md:hidden">{off} off your price</span> : null}
                </th>
                <td className={`${cell} hidden text-right tabular-nums sm:table-cell`}>{l.quantity}</td>
                <td className={`${cell} hidden text-right tabular-nums sm:table-cell`}>{unit}</td>
                {discounts ? <td className={`${cell} hidden text-right tabular-nums md:table-cell`}>{off ?? "–"}</td> : null}
                <td className={`${cell} text-right font-semibold tabular-nums`}>{l.line_total_ex_vat === null ? BEING_PRICED : formatPounds(l.line_total_ex_vat)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The quote's totals: goods, VAT, delivery (the quoted price, or the usual rates) and the total; "Being priced" until it is. */
export function QuoteTotals({ quote }: { quote: QuoteView }) {
  const money = (pounds: number | null) => (pounds === null ? BEING_PRICED : formatPounds(pounds));
  const rows: TotalsListRow[] = [
    ["Subtotal (ex VAT)", money(quote.subtotal)],
    ["VAT", money(quote.vat)],
    ["Delivery (inc VAT)", !quote.priced ? BEING_PRICED : quote.delivery === null ? USUAL_DELIVERY : formatPounds(quote.delivery)],
    [quote.priced && quote.delivery === null ? "Total (inc VAT, before delivery)" : "Total (inc VAT)", money(quote.total), TOTAL_ROW],
  ];
  return <TotalsList className="grid gap-1.5" testId="quote-totals" rows={rows} />;
}
