import { useState } from "react";
import { Link } from "react-router";
import { UNIT_LABELS, type SaleUnit } from "../../../server/modules/catalog/products/units.ts";
import { type BasketItem, lineHref } from "../../lib/basket.ts";
import { formatPounds } from "../../lib/money.ts";
import { Picture } from "../catalog/picture.tsx";
import { showsExVat, usePriceDisplay } from "../../lib/price-display.ts";
import { QuantityField } from "../form.tsx";

/** "each", "per m", "per pack": what a line's unit price is for. */
const perUnit = (unit: string) => UNIT_LABELS[unit as SaleUnit]?.per ?? "each";

/** One basket line: the product, its price with and without VAT, a quantity control and removal. */
export function BasketLine({
  item,
  error,
  busy,
  onQuantity,
  onRemove,
}: {
  item: BasketItem;
  error: string | undefined;
  busy: boolean;
  onQuantity: (quantity: number) => void;
  onRemove: () => void;
}) {
  const [quantity, setQuantity] = useState(String(item.quantity));
  const exVat = showsExVat(usePriceDisplay());
  const dirty = quantity !== String(item.quantity);
  const headingId = `basket-line-${item.cart_item_id}`;
  const errorId = `basket-line-${item.cart_item_id}-error`;
  const stockId = `basket-line-${item.cart_item_id}-stock`;
  const describedBy = [error ? errorId : "", item.exceeds_stock ? stockId : ""].filter(Boolean).join(" ") || undefined;

  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm" data-testid="basket-line">
      <div className="flex gap-4">
        <Link to={lineHref(item)} tabIndex={-1} aria-hidden="true" className="shrink-0">
          {item.image ? (
            <Picture image={item.image} alt="" sizes="96px" width={96} height={96} className="size-20 rounded border border-stone-200 object-contain p-1 sm:size-24" />
          ) : (
            <span className="block size-20 rounded border border-stone-200 bg-stone-100 sm:size-24" />
          )}
        </Link>
        <div className="min-w-0 flex-1">
          <h3 id={headingId} className="font-semibold sm:text-lg">
            <Link to={lineHref(item)} className="hover:underline">
              {item.name}
            </Link>
          </h3>
          {Object.keys(item.options).length ? (
            <p className="text-sm text-stone-800" data-testid="line-options">
              {Object.entries(item.options).map(([name, value]) => `${name}: ${value}`).join(" · ")}
            </p>
          ) : null}
          <p className="text-sm text-stone-600">Code {item.sku}</p>
          {exVat ? (
            // A trade member who shows prices ex VAT sees their trade price that way first.
            <p className="mt-1">
              <span className="font-semibold">{formatPounds(item.unit_price_ex_vat)}</span> <span className="text-sm text-stone-600">{perUnit(item.unit)} ex VAT</span>{" "}
              <span className="text-sm text-stone-600">({formatPounds(item.unit_price)} inc VAT)</span>
            </p>
          ) : (
            <p className="mt-1">
              <span className="font-semibold">{formatPounds(item.unit_price)}</span> <span className="text-sm text-stone-600">{perUnit(item.unit)} inc VAT</span>{" "}
              <span className="text-sm text-stone-600">({formatPounds(item.unit_price_ex_vat)} ex VAT)</span>
            </p>
          )}
          {!item.in_stock ? (
            <p id={stockId} className="mt-1 text-sm font-semibold text-red-800">
              Out of stock.
            </p>
          ) : item.exceeds_stock ? (
            <p id={stockId} className="mt-1 text-sm font-semibold text-amber-800" data-testid="stock-warning">
              Only {item.stock} left in stock: lower the quantity to check out.
            </p>
          ) : null}
        </div>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="mt-3 rounded-md border-l-4 border-red-700 bg-red-50 px-3 py-2 font-semibold text-red-800" data-testid="line-error">
          {error}
        </p>
      ) : null}
      <form
        className="mt-4 flex flex-wrap items-end gap-3 border-t border-stone-200 pt-4"
        aria-label={`Change ${item.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          onQuantity(Number(quantity));
        }}
      >
        <QuantityField id={`quantity-${item.cart_item_id}`} max={999} value={quantity} onChange={(e) => setQuantity(e.target.value)} className="w-24" aria-describedby={describedBy} />
        <button type="submit" className="btn-secondary disabled:opacity-75" disabled={busy || !dirty}>
          {busy ? "Updating…" : "Update"}
        </button>
        <button type="button" className="btn-secondary text-red-800 disabled:opacity-75" disabled={busy} onClick={onRemove} aria-label={`Remove ${item.name}`}>
          Remove
        </button>
        <p className="ml-auto text-right">
          <span className="block text-sm text-stone-600">Line total{exVat ? " ex VAT" : ""}</span>
          <span className="text-lg font-bold" data-testid="line-total">
            {formatPounds(exVat ? item.line_total_ex_vat : item.line_total)}
          </span>
          {item.discount_ex_vat > 0 ? (
            <span className="block text-sm font-semibold text-green-800" data-testid="line-discount">
              {item.promotions.join(", ")}: −{formatPounds(item.discount_ex_vat)} ex VAT
            </span>
          ) : null}
        </p>
      </form>
    </article>
  );
}
