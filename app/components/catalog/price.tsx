import { formatPounds } from "../../lib/money.ts";
import { showsExVat, usePriceDisplay } from "../../lib/price-display.ts";

export interface Priced {
  price: number;
  price_ex_vat: number;
  vat_rate: number;
  was_price: number | null;
  /** Present for trade members only: the shop's own prices beside the trade price. */
  list_price?: number;
  list_price_ex_vat?: number;
}

/** The VAT note a consumer needs when the rate is not the standard 20%. */
export function vatNote(rate: number): string | null {
  if (rate === 0) return "Zero-rated for VAT (0%)";
  if (rate === 5) return "Reduced VAT rate (5%)";
  return null;
}

/**
 * The inc-VAT price large, "ex VAT £x" beside it, the was-price struck
 * through when there is one, and a note for 0% and 5% VAT. A trade member
 * sees their trade price (worked on the server), ex VAT first unless they
 * chose inc VAT, with the shop price struck through.
 */
export function Price({ product, size = "md" }: { product: Priced; size?: "md" | "lg" }) {
  const display = usePriceDisplay();
  const exFirst = showsExVat(display);
  const note = vatNote(product.vat_rate);
  const large = size === "lg";
  const main = exFirst ? { value: product.price_ex_vat, label: "ex VAT", testId: "price-ex-vat" } : { value: product.price, label: "inc VAT", testId: "price-inc-vat" };
  const other = exFirst ? { value: product.price, label: "inc VAT", testId: "price-inc-vat" } : { value: product.price_ex_vat, label: "ex VAT", testId: "price-ex-vat" };
  const listPrice = exFirst ? product.list_price_ex_vat : product.list_price;
  const struck = listPrice ?? product.was_price;
  return (
    <div className={large ? "space-y-1" : ""} data-testid="price">
      {listPrice !== undefined ? (
        <p className={`${large ? "text-sm" : "text-xs"} font-bold uppercase tracking-wide text-amber-800`} data-testid="trade-price">
          Trade price
        </p>
      ) : null}
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
        <span>
          <span className={`${large ? "text-3xl" : "text-xl"} font-extrabold tracking-tight text-stone-900`} data-testid={main.testId}>
            {formatPounds(main.value)}
          </span>{" "}
          <span className={`${large ? "text-base" : "text-xs"} whitespace-nowrap font-semibold text-stone-700`}>{main.label}</span>
        </span>
        {struck !== null && struck !== undefined && struck > main.value ? (
          <s className={`${large ? "text-base" : "text-sm"} text-stone-600`} data-testid={listPrice !== undefined ? "list-price" : "was-price"}>
            <span className="sr-only">{listPrice !== undefined ? "Shop price " : "Was "}</span>
            {formatPounds(struck)}
          </s>
        ) : null}
      </p>
      <p className={`${large ? "text-base" : "text-sm"} text-stone-700`} data-testid={other.testId}>
        {other.label} {formatPounds(other.value)}
      </p>
      {note ? <p className={`${large ? "text-sm" : "text-xs"} font-medium text-stone-700`}>{note}</p> : null}
    </div>
  );
}

/** "In stock" or "Out of stock"; with `stock`, a hint when few are left. */
export function StockBadge({ inStock, stock }: { inStock: boolean; stock?: number }) {
  const few = inStock && stock !== undefined && stock <= 5;
  return (
    <p
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-semibold ${inStock ? "bg-green-100 text-green-900" : "bg-stone-200 text-stone-800"}`}
      data-testid="stock-status"
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${inStock ? "bg-green-700" : "bg-stone-500"}`} />
      {inStock ? "In stock" : "Out of stock"}
      {few ? <span className="font-normal">· only {stock} left</span> : null}
    </p>
  );
}
