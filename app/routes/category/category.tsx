import { redirect } from "react-router";
import { appContext } from "#app-context";
import { CategoryChips } from "../../components/catalog/category-chips.tsx";
import { ProductListing } from "../../components/catalog/listing.tsx";
import { Breadcrumbs, PageHeading } from "../../components/page.tsx";
import { loadListing, requestOrigin } from "../../lib/catalog/listing.server.ts";
import { listOfNames, listingSeoMeta } from "../../lib/catalog/seo.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/category";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  // The splat is the category's slug path, several segments deep.
  const path = (params["*"] ?? "").replace(/\/+$/, "");
  if (!path || path.length > 300 || !/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(path)) notFound();
  const app = context.get(appContext);
  // The category (from the tree the header reads too) and its listing, at once.
  const [found, listing] = await Promise.all([app.categoryByPath(path), loadListing(app, request, { category: path })]);
  if (!found || !listing) {
    // A renamed or moved category's old address keeps its links and rankings.
    const moved = await app.services.catalog.movedCategory(path);
    if (moved) throw redirect(`/category/${moved}${new URL(request.url).search}`, 301);
    notFound();
  }
  const crumbs = [
    { label: "Home", to: "/" },
    { label: "Categories", to: "/category" },
    ...found.ancestors.map((a) => ({ label: a.name, to: `/category/${a.path}` })),
    { label: found.category.name },
  ];
  return { ...found, crumbs, listing, origin: requestOrigin(request) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  const { category, listing, origin, crumbs } = loaderData;
  const basePath = `/category/${category.path}`;
  const brands = listing.facets.manufacturers.map((m) => m.name);
  const lead = category.description || `Shop ${category.name.toLowerCase()}.`;
  return listingSeoMeta(matches, {
    name: category.name,
    description: `${lead} ${listing.total} ${listing.total === 1 ? "product" : "products"}${brands.length ? ` from ${listOfNames(brands)}` : ""}, prices inc and ex VAT.`,
    origin,
    basePath,
    listing,
    image: listing.items[0]?.image?.src,
    crumbs,
  });
};

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, crumbs, listing } = loaderData;
  return (
    <>
      <Breadcrumbs items={crumbs} />
      <PageHeading title={category.name} intro={category.description || undefined} />
      {category.children.length ? <CategoryChips label={`Within ${category.name}`} categories={category.children} /> : null}
      <ProductListing
        key={category.path}
        data={listing}
        basePath={`/category/${category.path}`}
        emptyTitle={`No products in ${category.name} yet.`}
        emptyAction={{ to: "/category", label: "Browse other categories" }}
      />
    </>
  );
}
