import { Link, type ShouldRevalidateFunctionArgs, redirect, useRouteLoaderData } from "react-router";
import { appContext } from "#app-context";
import { AddToBasket } from "../components/basket/add-to-basket.tsx";
import { GALLERY_SIZES, Gallery } from "../components/catalog/gallery.tsx";
import { preloadMeta } from "../components/catalog/picture.tsx";
import { Price, StockBadge } from "../components/catalog/price.tsx";
import { ProductActions } from "../components/catalog/product-actions.tsx";
import { ProductGrid } from "../components/catalog/product-card.tsx";
import { Breadcrumbs } from "../components/page.tsx";
import { requestOrigin } from "../lib/catalog/listing.server.ts";
import { breadcrumbJsonLd, productJsonLd, seoMeta } from "../lib/catalog/seo.ts";
import { formatPounds } from "../lib/money.ts";
import { notFound } from "../lib/not-found.ts";
import type { RootData } from "../root.tsx";
import type { Route } from "./+types/product";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  if (!/^[a-z0-9-]{1,200}$/.test(params.slug)) notFound();
  const app = context.get(appContext);
  // The tree for the breadcrumbs is read while the product is (the header needs it too).
  void app.categoryTree().catch(() => {});
  const product = await app.services.products.bySlug(params.slug, app.prices);
  if (!product) {
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

/** Changing the picture (`?image=2`) needs no new data. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod === undefined && currentUrl.pathname === nextUrl.pathname) {
    const before = new URLSearchParams(currentUrl.search);
    const after = new URLSearchParams(nextUrl.search);
    before.delete("image");
    after.delete("image");
    if (before.toString() === after.toString()) return false;
  }
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  const { product, crumbs, origin } = loaderData;
  const path = `/product/${product.slug}`;
  const stock = product.in_stock ? "In stock" : "Out of stock";
  return [
    ...seoMeta(matches, {
      // The SKU keeps the title unique when two products share a name.
      title: product.seo_title || `${product.manufacturer && !product.name.startsWith(product.manufacturer.name) ? `${product.manufacturer.name} ${product.name}` : product.name} (${product.sku})`,
      description: product.seo_description || `${product.summary} ${formatPounds(product.price)} inc VAT (${formatPounds(product.price_ex_vat)} ex VAT). ${stock}. SKU ${product.sku}.`,
      origin,
      path,
      image: product.images[0]?.src,
      type: "product",
      jsonLd: [productJsonLd(origin, product), breadcrumbJsonLd(origin, crumbs, path)],
    }),
    { property: "product:price:amount", content: product.price.toFixed(2) },
    { property: "product:price:currency", content: "GBP" },
    // The first photo, fetched before the page's body reaches it (the largest paint).
    ...preloadMeta(product.images[0], GALLERY_SIZES),
  ];
};

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, crumbs } = loaderData;
  const basketEnabled = useRouteLoaderData<RootData>("root")?.config.basketEnabled ?? false;
  return (
    <>
      <Breadcrumbs items={crumbs} />
      <div className="grid gap-6 md:grid-cols-2 md:gap-10">
        <Gallery images={product.images} name={product.name} />
        <div>
          {product.manufacturer ? (
            <Link to={`/manufacturer/${product.manufacturer.id}`} className="inline-flex min-h-11 items-center text-sm font-semibold uppercase tracking-wide text-brand-700 hover:underline" data-testid="product-brand">
              {product.manufacturer.name}
            </Link>
          ) : null}
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{product.name}</h1>
          <p className="mt-1 text-sm text-stone-700">
            SKU: <span className="font-mono" data-testid="product-sku">{product.sku}</span>
          </p>
          <div className="mt-4">
            <Price product={product} size="lg" />
          </div>
          <div className="mt-3">
            <StockBadge inStock={product.in_stock} stock={product.stock} />
          </div>
          {product.summary ? <p className="mt-4 text-lg text-stone-800">{product.summary}</p> : null}
          <div className="mt-6 grid gap-4 border-t border-stone-200 pt-6">
            {basketEnabled ? <AddToBasket product={product} /> : null}
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
              <SpecRow name="SKU" value={product.sku} />
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
            {/* description_html is sanitised on the server when it is written (server/modules/catalog/sanitize.ts), so it is safe to render as HTML here. */}
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
