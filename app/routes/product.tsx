import { useState } from "react";
import { Link, type ShouldRevalidateFunctionArgs, redirect, useRouteLoaderData, useSearchParams } from "react-router";
import { UNIT_LABELS, pricePerCoverage, COVERAGE_LABELS } from "../../server/modules/catalog/products/units.ts";
import { lineName } from "../../server/modules/catalog/variants/variant-names.ts";
import { CoverageCalculator } from "../components/catalog/coverage-calculator.tsx";
import { VariantPicker, variantBySku } from "../components/catalog/variant-picker.tsx";
import { appContext } from "#app-context";
import { AddToBasket } from "../components/basket/add-to-basket-form.tsx";
import { GALLERY_SIZES, Gallery } from "../components/catalog/gallery.tsx";
import { preloadMeta } from "../components/catalog/picture.tsx";
import { Price, StockBadge } from "../components/catalog/price.tsx";
import { ProductActions } from "../components/catalog/product-actions.tsx";
import { OfferBadges, ProductGrid } from "../components/catalog/product-card.tsx";
import { Breadcrumbs } from "../components/page.tsx";
import { requestOrigin } from "../lib/catalog/listing.server.ts";
import { breadcrumbJsonLd, productGroupJsonLd, productJsonLd, seoMeta } from "../lib/catalog/seo.ts";
import { formatPounds } from "../lib/money.ts";
import { notFound } from "../lib/not-found.ts";
import type { RootData } from "../lib/root-data.ts";
import { BranchStock } from "../components/branches/branch-choice.tsx";
import type { Route } from "./+types/product";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  if (!/^[a-z0-9-]{1,200}$/.test(params.slug)) notFound();
  const app = context.get(appContext);
  // The tree for the breadcrumbs is read while the product is (the header needs it too).
  void app.categoryTree().catch(() => {});
  // `?variant={sku}`: that variant's own page; a SKU that is not one of its variants is not found.
  const variant = new URL(request.url).searchParams.get("variant") ?? undefined;
  if (variant !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/.test(variant)) notFound();
  const product = await app.services.products.bySlug(params.slug, app.prices, variant);
  if (!product) {
    if (variant !== undefined && (await app.services.products.bySlug(params.slug, app.prices))) notFound();
    // An earlier slug of a renamed product keeps its links and search rankings.
    const moved = await app.services.products.movedSlug(params.slug);
    if (moved) throw redirect(`/product/${moved}${new URL(request.url).search}`, 301);
    notFound();
  }
  // Breadcrumbs follow the product's first category.
  const first = product.categories[0];
  const found = first ? await app.categoryByPath(first.path) : null;
  const crumbs = [
    { label: "Home", to: "/" },
    ...(found ? [...found.ancestors, found.category].map((c) => ({ label: c.name, to: `/category/${c.path}` })) : [{ label: "All products", to: "/products" }]),
    { label: product.name },
  ];
  return { product, crumbs, origin: requestOrigin(request) };
}

/** Changing the picture (`?image=2`) or the variant (`?variant=`: every variant is in the data) needs no new data. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod === undefined && currentUrl.pathname === nextUrl.pathname) {
    const before = new URLSearchParams(currentUrl.search);
    const after = new URLSearchParams(nextUrl.search);
    for (const key of ["image", "variant"]) {
      before.delete(key);
      after.delete(key);
    }
    if (before.toString() === after.toString()) return false;
  }
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ matches, loaderData, location }) => {
  if (!loaderData) return [];
  const { product, crumbs, origin } = loaderData;
  // A variant's page is its own: its title, figures and canonical address.
  const chosen = variantBySku(product.variants, new URLSearchParams(location.search).get("variant"));
  const shown = chosen ?? product;
  const name = chosen ? lineName(product.name, chosen.options) : product.name;
  const path = `/product/${product.slug}${chosen ? `?variant=${encodeURIComponent(chosen.sku)}` : ""}`;
  const stock = shown.in_stock ? "In stock" : "Out of stock";
  const from = !chosen && product.price_varies ? "From " : "";
  const images = chosen?.images.length ? chosen.images : product.images;
  return [
    ...seoMeta(matches, {
      // The SKU keeps the title unique when two products share a name.
      title: (!chosen && product.seo_title) || `${product.manufacturer && !name.startsWith(product.manufacturer.name) ? `${product.manufacturer.name} ${name}` : name} (${shown.sku})`,
      description:
        (!chosen && product.seo_description) || `${product.summary} ${from}${formatPounds(shown.price)} inc VAT (${formatPounds(shown.price_ex_vat)} ex VAT). ${stock}. SKU ${shown.sku}.`,
      origin,
      path,
      image: images[0]?.src,
      type: "product",
      jsonLd: [product.options.length ? productGroupJsonLd(origin, product) : productJsonLd(origin, product), breadcrumbJsonLd(origin, crumbs, path)],
    }),
    { property: "product:price:amount", content: shown.price.toFixed(2) },
    { property: "product:price:currency", content: "GBP" },
    // The first photo, fetched before the page's body reaches it (the largest paint).
    ...preloadMeta(images[0], GALLERY_SIZES),
  ];
};

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, crumbs } = loaderData;
  const basketEnabled = useRouteLoaderData<RootData>("root")?.config.basketEnabled ?? false;
  const [search] = useSearchParams();
  const quantity = useState("1");
  // The variant in the address, else a product's only one; none yet for a product with several.
  const chosen = variantBySku(product.variants, search.get("variant")) ?? (product.variants.length === 1 ? product.variants[0]! : null);
  const picking = product.options.length > 0;
  const shown = chosen ?? product;
  const units = UNIT_LABELS[product.unit];
  const unitName = (n: number) => (product.unit === "each" ? "" : n === 1 || product.unit === "m2" || product.unit === "kg" ? units.one : `${units.one}s`);
  const firstOption = product.options[0]?.name.toLowerCase() ?? "option";
  return (
    <>
      <Breadcrumbs items={crumbs} />
      <div className="grid gap-6 md:grid-cols-2 md:gap-10">
        <Gallery images={chosen?.images.length ? chosen.images : product.images} name={product.name} />
        <div>
          {product.manufacturer ? (
            <Link to={`/manufacturer/${product.manufacturer.id}`} className="inline-flex min-h-11 items-center text-sm font-semibold uppercase tracking-wide text-brand-700 hover:underline" data-testid="product-brand">
              {product.manufacturer.name}
            </Link>
          ) : null}
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{product.name}</h1>
          <p className="mt-1 text-sm text-stone-700">
            {chosen || !picking ? (
              <>
                SKU: <span className="font-mono" data-testid="product-sku">{shown.sku}</span>
              </>
            ) : (
              <span data-testid="product-sku-hint">Choose a {firstOption} to see its SKU and stock.</span>
            )}
          </p>
          <div className="mt-4">
            {!chosen && product.price_varies ? <p className="text-sm font-semibold text-stone-700">From</p> : null}
            <Price product={{ ...shown, vat_rate: product.vat_rate }} size="lg" />
            <UnitPrice unit={product.unit} coverage={product.coverage} price={shown.price} />
            <OfferBadges offers={product.offers} className="mt-2" />
          </div>
          <div className="mt-3" aria-live="polite">
            <StockBadge inStock={shown.in_stock} stock={chosen ? chosen.stock : picking ? undefined : product.stock} />
          </div>
          {chosen || !picking ? (
            <div className="mt-2">
              <BranchStock productSlug={product.slug} sku={shown.sku} />
            </div>
          ) : null}
          {product.summary ? <p className="mt-4 text-lg text-stone-800">{product.summary}</p> : null}
          {picking ? (
            <div className="mt-6">
              <VariantPicker options={product.options} variants={product.variants} chosen={chosen} />
            </div>
          ) : null}
          <div className="mt-6 grid gap-4 border-t border-stone-200 pt-6">
            {basketEnabled && product.coverage ? (
              <CoverageCalculator
                coverage={product.coverage}
                unit={product.unit}
                onUse={(n) => {
                  quantity[1](String(n));
                  document.getElementById("quantity")?.focus();
                }}
              />
            ) : null}
            {basketEnabled ? (
              <AddToBasket
                product={product}
                variant={picking ? (chosen ? { ...chosen, name: lineName(product.name, chosen.options) } : null) : undefined}
                choose={`Choose a ${firstOption}`}
                unitName={product.unit === "each" ? undefined : unitName}
                quantity={quantity}
              />
            ) : null}
            <ProductActions product={product} variant="page" />
          </div>
        </div>
      </div>

      <div className="mt-10 grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="specification-heading">
          <h2 id="specification-heading" className="mb-3 text-xl font-bold">
            Specification
          </h2>
          <table className="w-full border-collapse overflow-hidden rounded-lg bg-white text-sm shadow-sm ring-1 ring-stone-200" data-testid="specification">
            <tbody>
              {product.manufacturer ? <SpecRow name="Brand" value={product.manufacturer.name} /> : null}
              {chosen || !picking ? <SpecRow name="SKU" value={shown.sku} /> : null}
              {chosen && Object.keys(chosen.options).length
                ? Object.entries(chosen.options).map(([name, value]) => <SpecRow key={`option-${name}`} name={name} value={value} />)
                : null}
              {chosen?.barcode ? <SpecRow name="Barcode (EAN)" value={chosen.barcode} /> : null}
              {product.unit !== "each" ? <SpecRow name="Sold by" value={units.one} /> : null}
              {product.attributes.map((a) => (
                <SpecRow key={a.name} name={a.name} value={a.value} />
              ))}
              <SpecRow name="VAT rate" value={`${product.vat_rate}%`} />
            </tbody>
          </table>
        </section>
        {product.description_html ? (
          <section aria-labelledby="description-heading">
            <h2 id="description-heading" className="mb-3 text-xl font-bold">
              Description
            </h2>
            {/* description_html is sanitised on the server when it is written (server/modules/catalog/products/sanitize.ts), so it is safe to render as HTML here. */}
            <div
              className="space-y-3 text-stone-800 [&_a]:text-brand-700 [&_a]:underline [&_h3]:font-bold [&_li]:mt-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5"
              data-testid="description"
              dangerouslySetInnerHTML={{ __html: product.description_html }}
            />
          </section>
        ) : null}
      </div>

      {product.related.length ? (
        <section aria-labelledby="related-heading" className="mt-12">
          <h2 id="related-heading" className="mb-4 text-xl font-bold">
            Related products
          </h2>
          <ProductGrid products={product.related} />
        </section>
      ) : null}
    </>
  );
}

function SpecRow({ name, value }: { name: string; value: string }) {
  return (
    <tr className="border-b border-stone-200 last:border-0 even:bg-stone-50">
      <th scope="row" className="w-2/5 px-3 py-2.5 text-left align-top font-semibold text-stone-800">
        {name}
      </th>
      <td className="px-3 py-2.5 text-stone-900">{value}</td>
    </tr>
  );
}

/** The price per unit sold, and where a unit covers an area or a length, per m² or m: "per pack · £13.19 per m²". */
function UnitPrice({ unit, coverage, price }: { unit: keyof typeof UNIT_LABELS; coverage: { per_unit: number; unit: keyof typeof COVERAGE_LABELS } | null; price: number }) {
  if (unit === "each" && !coverage) return null;
  return (
    <p className="mt-1 text-sm font-semibold text-stone-800" data-testid="unit-price">
      {UNIT_LABELS[unit].per}
      {coverage ? ` · ${formatPounds(pricePerCoverage(Math.round(price * 100), coverage.per_unit) / 100)} per ${COVERAGE_LABELS[coverage.unit]} inc VAT` : ""}
    </p>
  );
}
