import { Link } from "react-router";
import { appContext } from "#app-context";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { requestOrigin } from "../../lib/catalog/listing.server.ts";
import { breadcrumbJsonLd, listOfNames, seoMeta } from "../../lib/catalog/seo.ts";
import type { Route } from "./+types/index";

export async function loader({ context, request }: Route.LoaderArgs) {
  const brands = await context.get(appContext).services.catalog.manufacturers();
  return { brands, origin: requestOrigin(request) };
}

const crumbs = [{ label: "Home", to: "/" }, { label: "Brands" }];

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? seoMeta(matches, {
        title: "Brands",
        description: `The ${loaderData.brands.length} manufacturers whose products we stock, including ${listOfNames(loaderData.brands.map((b) => b.name), 5)}.`,
        origin: loaderData.origin,
        path: "/manufacturer",
        jsonLd: [breadcrumbJsonLd(loaderData.origin, crumbs, "/manufacturer")],
      })
    : [];

export default function Brands({ loaderData }: Route.ComponentProps) {
  const { brands } = loaderData;
  return (
    <>
      <Breadcrumbs items={crumbs} />
      <PageHeading title="Brands" intro="The manufacturers whose products we stock." />
      {brands.length === 0 ? (
        <EmptyState title="No brands are listed yet." action={{ to: "/category", label: "Browse categories" }} />
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4 xl:grid-cols-5" data-testid="brand-grid">
          {brands.map((b, i) => (
            <li key={b.id}>
              <Link
                to={`/manufacturer/${b.id}`}
                className="flex h-full flex-col rounded-lg border border-stone-200 bg-white p-3 shadow-sm hover:border-brand-700 hover:shadow sm:p-4"
              >
                <img
                  src={b.logo || `/images/brands/${b.slug}.svg`}
                  alt=""
                  width={320}
                  height={120}
                  loading={i < 10 ? "eager" : "lazy"}
                  decoding="async"
                  className="aspect-[8/3] w-full rounded-md object-contain"
                />
                <h2 className="mt-3 font-bold text-stone-900">{b.name}</h2>
                <p className="text-sm text-stone-700">
                  {b.product_count} {b.product_count === 1 ? "product" : "products"}
                </p>
                {b.description ? <p className="mt-1 line-clamp-2 text-sm text-stone-600">{b.description}</p> : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
