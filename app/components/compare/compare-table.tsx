import { useId, useState } from "react";
import { Link } from "react-router";
import { formatPounds } from "../../lib/money.ts";
import { Picture, type PictureImage } from "../catalog/picture.tsx";

export interface ComparedProduct {
  id: number;
  slug: string;
  name: string;
  sku: string;
  price: number;
  price_ex_vat: number;
  stock: number;
  in_stock: boolean;
  manufacturer: { name: string } | null;
  image: PictureImage | null;
  attributes: { name: string; value: string }[];
}

interface Row {
  label: string;
  values: string[];
}

const MISSING = "—";

/** The rows the table shows below the products: price, stock, brand, then one per attribute name. */
export function compareRows(products: readonly ComparedProduct[], attributeNames: readonly string[]): Row[] {
  const fixed: Row[] = [
    { label: "Price inc VAT", values: products.map((p) => formatPounds(p.price)) },
    { label: "Price ex VAT", values: products.map((p) => formatPounds(p.price_ex_vat)) },
    { label: "Stock", values: products.map((p) => (p.in_stock ? `In stock (${p.stock})` : "Out of stock")) },
    { label: "Brand", values: products.map((p) => p.manufacturer?.name ?? MISSING) },
  ];
  const attributes = attributeNames.map((name) => ({
    label: name,
    values: products.map((p) => p.attributes.find((a) => a.name === name)?.value ?? MISSING),
  }));
  return [...fixed, ...attributes];
}

export function allEqual(values: readonly string[]): boolean {
  return values.every((v) => v === values[0]);
}

export function CompareTable({
  products,
  attributeNames,
  onRemove,
}: {
  products: readonly ComparedProduct[];
  attributeNames: readonly string[];
  onRemove: (product: ComparedProduct, event: React.FormEvent<HTMLFormElement>) => void;
}) {
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const toggleId = useId();
  const rows = compareRows(products, attributeNames);
  const shown = onlyDifferences ? rows.filter((r) => !allEqual(r.values)) : rows;
  const hiddenCount = rows.length - shown.length;

  return (
    <div>
      {products.length > 1 ? (
        <div className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-1">
          <div className="flex items-center gap-3">
            <input id={toggleId} type="checkbox" className="size-6 accent-brand-700" checked={onlyDifferences} onChange={(e) => setOnlyDifferences(e.target.checked)} />
            <label htmlFor={toggleId} className="min-h-11 cursor-pointer py-2.5 font-semibold">
              Show only differences
            </label>
          </div>
          {onlyDifferences ? (
            <p className="text-sm text-stone-600" aria-live="polite">
              {hiddenCount === 0 ? "Every row differs." : `${hiddenCount} ${hiddenCount === 1 ? "row" : "rows"} with the same values hidden.`}
            </p>
          ) : null}
        </div>
      ) : null}
      {/* Phones scroll the table sideways; the row names stay in view. */}
      <div className="relative -mx-4 overflow-x-auto sm:mx-0" role="region" aria-label="Comparison table" tabIndex={0}>
        <table className="w-full min-w-max border-separate border-spacing-0 bg-white text-left text-sm sm:rounded-lg sm:text-base">
          <caption className="sr-only">Products side by side: price, stock and specification</caption>
          <thead>
            <tr>
              <td className="sticky left-0 z-10 w-28 border-b border-r border-stone-200 bg-stone-100 p-2 sm:w-44 sm:p-3" />
              {products.map((p) => (
                <th key={p.id} scope="col" className="w-44 border-b border-stone-200 p-2 align-top font-normal sm:w-56 sm:p-3">
                  <div className="grid gap-2">
                    {p.image ? <Picture image={p.image} alt="" sizes="144px" width={160} height={160} priority="eager" className="aspect-square w-full max-w-36 rounded bg-stone-100 object-contain" /> : null}
                    <Link to={`/product/${p.slug}`} className="link font-semibold">
                      {p.name}
                    </Link>
                    <span className="text-xs text-stone-600">SKU {p.sku}</span>
                    <form method="post" action="/compare" onSubmit={(event) => onRemove(p, event)}>
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="product_id" value={p.id} />
                      <button type="submit" className="btn-secondary min-h-11 w-full px-3 text-sm" aria-label={`Remove ${p.name} from compare`}>
                        Remove
                      </button>
                    </form>
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => {
              const same = products.length > 1 && allEqual(row.values);
              return (
                <tr key={row.label} data-same={same ? "true" : undefined}>
                  <th scope="row" className="sticky left-0 z-10 border-b border-r border-stone-200 bg-stone-100 p-2 align-top font-semibold sm:p-3">
                    {row.label}
                  </th>
                  {row.values.map((value, i) => (
                    <td key={products[i]!.id} className={`border-b border-stone-200 p-2 align-top sm:p-3 ${row.label === "Price inc VAT" ? "text-lg font-bold" : ""}`}>
                      {value === MISSING ? (
                        <>
                          <span aria-hidden="true">{MISSING}</span>
                          <span className="sr-only">Not stated</span>
                        </>
                      ) : (
                        value
                      )}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
