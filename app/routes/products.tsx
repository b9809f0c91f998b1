import { appContext } from "#app-context";
import { CategoryChips } from "../components/catalog/category-chips.tsx";
import { ProductListing } from "../components/catalog/listing.tsx";
import { Breadcrumbs, PageHeading } from "../components/page.tsx";
import { loadListing, requestOrigin } from "../lib/catalog/listing.server.ts";
import { listOfNames, listingSeoMeta } from "../lib/catalog/seo.ts";
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
  return listingSeoMeta(matches, {
    name: "All products",
    description: `Every product we sell: ${listing.total} building materials, tools and fittings from ${listOfNames(listing.facets.manufacturers.map((m) => m.name))}, with prices inc and ex VAT.`,
    origin,
    basePath: "/products",
    listing,
    image: listing.items[0]?.image?.src,
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
      <CategoryChips label="Shop by category" categories={loaderData.categories} />
      <ProductListing data={loaderData.listing} basePath="/products" />
    </>
  );
}
