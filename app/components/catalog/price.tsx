import { formatPounds } from "../../lib/money.ts";

export interface Priced {
  price: number;
  price_ex_vat: number;
  vat_rate: number;
  was_price: number | null;
}

/** The VAT note a consumer needs when the rate is not the standard 20%. */
export function vatNote(rate: number): string | null {
  if (rate === 0) return "Zero-rated for VAT (0%)";
  if (rate === 5) return "Reduced VAT rate (5%)";
  return null;
}

/**
 * The inc-VAT price large, "ex VAT £x" beside it, the was-price struck
 * through when there is one, and a note for 0% and 5% VAT.
 */
export function Price({ product, size = "md" }: { product: Priced; size?: "md" | "lg" }) {
  const note = vatNote(product.vat_rate);
  const large = size === "lg";
  return (
    <div className={large ? "space-y-1" : ""}>
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
        <span>
          <span className={`${large ? "text-3xl" : "text-xl"} font-extrabold tracking-tight text-stone-900`} data-testid="price-inc-vat">
            {formatPounds(product.price)}
          </span>{" "}
          <span className={`${large ? "text-base" : "text-xs"} whitespace-nowrap font-semibold text-stone-700`}>inc VAT</span>
        </span>
        {product.was_price !== null && product.was_price > product.price ? (
          <s className={`${large ? "text-base" : "text-sm"} text-stone-600`} data-testid="was-price">
            <span className="sr-only">Was </span>
            {formatPounds(product.was_price)}
          </s>
        ) : null}
      </p>
      <p className={`${large ? "text-base" : "text-sm"} text-stone-700`} data-testid="price-ex-vat">
        ex VAT {formatPounds(product.price_ex_vat)}
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
