import { Link } from "react-router";
import { appContext } from "#app-context";
import { ProductListing } from "../components/catalog/listing.tsx";
import { Breadcrumbs, PageHeading } from "../components/page.tsx";
import { canonicalListingPath, isPlainListing } from "../lib/catalog/listing-query.ts";
import { loadListing, requestOrigin } from "../lib/catalog/listing.server.ts";
import { listOfNames, seoMeta } from "../lib/catalog/seo.ts";
import type { Route } from "./+types/products";
import { usePriceDisplay } from "../lib/price-display.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const [listing, tree] = await Promise.all([loadListing(app, request, {}), app.categoryTree()]);
  return { listing: listing!, categories: tree.map((c) => ({ name: c.name, path: c.path })), origin: requestOrigin(request) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  const { listing, origin } = loaderData;
  const paged = listing.page > 1 ? ` (page ${listing.page})` : "";
  return seoMeta(matches, {
    title: `All products${paged}`,
    description: `Every product we sell: ${listing.total} building materials, tools and fittings from ${listOfNames(listing.facets.manufacturers.map((m) => m.name))}, with prices inc and ex VAT.`,
    origin,
    path: canonicalListingPath("/products", listing.page),
    image: listing.items[0]?.image?.src,
    noindex: !isPlainListing(listing.state),
  });
};

export default function Products({ loaderData }: Route.ComponentProps) {
  const display = usePriceDisplay();
  const prices = display.trade
    ? `Your trade prices (${display.discountPercent}% off) are shown ${display.incVat ? "inc VAT, with the ex-VAT price" : "ex VAT, with the inc-VAT price"} beside each.`
    : "Prices include VAT, with the ex-VAT price beside each.";
  return (
    <>
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "All products" }]} />
      <PageHeading title="All products" intro={`Building materials, tools and fittings for trade and DIY. ${prices}`} />
      <nav aria-label="Shop by category" className="mb-6">
        <ul className="flex flex-wrap gap-2">
          {loaderData.categories.map((c) => (
            <li key={c.path}>
              <Link
                to={`/category/${c.path}`}
                className="inline-flex min-h-11 items-center rounded-full border border-stone-300 bg-white px-4 text-sm font-medium hover:border-brand-700 hover:text-brand-800"
              >
                {c.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ProductListing data={loaderData.listing} basePath="/products" />
    </>
  );
}
