import { useId, useState } from "react";
import { Link, useSubmit } from "react-router";
import { optionsLabel } from "../../../server/modules/catalog/variants/variant-names.ts";
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
  /** Its variants on sale (one for a product without options). */
  variants?: CompareVariant[];
}

export interface CompareVariant {
  id: number;
  sku: string;
  options: Record<string, string>;
  price: number;
  price_ex_vat: number;
  stock: number;
  in_stock: boolean;
}

/** The variant chosen for a product on the compare page (by SKU), or null: a product with several shows their range. */
export function chosenVariant(p: ComparedProduct, chosen: ReadonlyMap<number, string>): CompareVariant | null {
  const sku = chosen.get(p.id);
  return sku === undefined ? null : (p.variants?.find((v) => v.sku === sku) ?? null);
}

const several = (p: ComparedProduct) => (p.variants?.length ?? 0) > 1;

/** "£4.19" or, when they differ, "£4.19 – £8.38". */
function priceRange(values: number[]): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? formatPounds(low) : `${formatPounds(low)} – ${formatPounds(high)}`;
}

/** The URL parameter naming a product's chosen variant: ?v12=TCL-CLS3863-30M. */
export const variantParam = (productId: number) => `v${productId}`;

interface Row {
  label: string;
  values: string[];
}

const MISSING = "—";

/**
 * The rows the table shows below the products: the variant where any has
 * several, price, stock, brand, then one per attribute name. A product with
 * several variants shows the chosen one's figures, or their range.
 */
export function compareRows(products: readonly ComparedProduct[], attributeNames: readonly string[], chosen: ReadonlyMap<number, string> = new Map()): Row[] {
  const figures = products.map((p) => {
    const v = chosenVariant(p, chosen);
    if (v || !several(p)) {
      const one = v ?? p;
      return { price: formatPounds(one.price), exVat: formatPounds(one.price_ex_vat), stock: one.in_stock ? `In stock (${one.stock})` : "Out of stock", variant: v ? optionsLabel(v.options) : MISSING };
    }
    const variants = p.variants!;
    const inStock = variants.filter((x) => x.in_stock).length;
    return {
      price: priceRange(variants.map((x) => x.price)),
      exVat: priceRange(variants.map((x) => x.price_ex_vat)),
      stock: inStock === 0 ? "Out of stock" : `${inStock} of ${variants.length} in stock`,
      variant: `Any of ${variants.length}`,
    };
  });
  const fixed: Row[] = [
    ...(products.some(several) ? [{ label: "Variant", values: figures.map((f) => f.variant) }] : []),
    { label: "Price inc VAT", values: figures.map((f) => f.price) },
    { label: "Price ex VAT", values: figures.map((f) => f.exVat) },
    { label: "Stock", values: figures.map((f) => f.stock) },
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

const VARIANTS_FORM = "compare-variants";

export function CompareTable({
  products,
  attributeNames,
  chosen,
  onRemove,
}: {
  products: readonly ComparedProduct[];
  attributeNames: readonly string[];
  /** The variant chosen for each product, by SKU (the page's ?v{id}= parameters). */
  chosen: ReadonlyMap<number, string>;
  onRemove: (product: ComparedProduct, event: React.FormEvent<HTMLFormElement>) => void;
}) {
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const toggleId = useId();
  const submit = useSubmit();
  const rows = compareRows(products, attributeNames, chosen);
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
      {/* A variant chosen in any column is a GET of this page: with scripts on change, without them by the button. */}
      {products.some(several) ? (
        <form id={VARIANTS_FORM} method="get" action="/compare">
          <noscript>
            <button type="submit" className="btn-secondary mb-3 min-h-11">
              Show the chosen variants
            </button>
          </noscript>
        </form>
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
                    <span className="text-xs text-stone-600">SKU {chosenVariant(p, chosen)?.sku ?? p.sku}</span>
                    {several(p) ? (
                      <label className="grid gap-1 text-xs font-semibold text-stone-700">
                        Variant
                        <select
                          form={VARIANTS_FORM}
                          name={variantParam(p.id)}
                          defaultValue={chosenVariant(p, chosen)?.sku ?? ""}
                          // The select sits in the table, outside its form: its change does not bubble there, so it submits the form itself.
                          onChange={(event) => event.currentTarget.form && submit(event.currentTarget.form, { replace: true, preventScrollReset: true })}
                          className="min-h-11 w-full rounded-md border border-stone-400 bg-white px-2 py-1 text-sm font-normal text-stone-900" aria-label={`Variant of ${p.name}`}>
                          <option value="">All {p.variants!.length} (price range)</option>
                          {p.variants!.map((v) => (
                            <option key={v.id} value={v.sku}>
                              {optionsLabel(v.options)}
                              {v.in_stock ? "" : " (out of stock)"}
                            </option>
                          ))}
                        </select>
                      </label>
                    ) : null}
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
