import { appContext } from "#app-context";
import { ProductListing } from "../../components/catalog/listing.tsx";
import { Breadcrumbs } from "../../components/page.tsx";
import { loadListing, requestOrigin } from "../../lib/catalog/listing.server.ts";
import { listingSeoMeta } from "../../lib/catalog/seo.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/item";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  if (!/^\d{1,9}$/.test(params.id)) notFound();
  const app = context.get(appContext);
  const brand = await app.services.catalog.manufacturer(Number(params.id));
  if (!brand) notFound();
  const listing = (await loadListing(app, request, { manufacturer: brand.id }))!;
  const crumbs = [{ label: "Home", to: "/" }, { label: "Brands", to: "/manufacturer" }, { label: brand.name }];
  return { brand, listing, crumbs, origin: requestOrigin(request) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  const { brand, listing, crumbs, origin } = loaderData;
  const basePath = `/manufacturer/${brand.id}`;
  return listingSeoMeta(matches, {
    name: brand.name,
    description: `${brand.description ? `${brand.description} ` : ""}${listing.total} ${brand.name} ${listing.total === 1 ? "product" : "products"}, prices inc and ex VAT.`,
    origin,
    basePath,
    listing,
    image: brand.logo || `/images/brands/${brand.slug}.svg`,
    crumbs,
  });
};

export default function Brand({ loaderData }: Route.ComponentProps) {
  const { brand, listing, crumbs } = loaderData;
  return (
    <>
      <Breadcrumbs items={crumbs} />
      <header className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center">
        <img
          src={brand.logo || `/images/brands/${brand.slug}.svg`}
          alt=""
          width={320}
          height={120}
          className="aspect-[8/3] w-40 shrink-0 rounded-md object-contain sm:w-48"
        />
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{brand.name}</h1>
          {brand.description ? <p className="mt-2 max-w-3xl text-stone-700">{brand.description}</p> : null}
        </div>
      </header>
      <ProductListing
        key={brand.id}
        data={listing}
        basePath={`/manufacturer/${brand.id}`}
        emptyTitle={`No ${brand.name} products are listed yet.`}
        emptyAction={{ to: "/manufacturer", label: "See all brands" }}
      />
    </>
  );
}
