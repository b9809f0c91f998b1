import { Link } from "react-router";
import { appContext } from "#app-context";
import { Breadcrumbs, PageHeading } from "../../components/page.tsx";
import { LinkItems, categoryLink } from "../../components/link-items.tsx";
import { requestOrigin } from "../../lib/catalog/listing.server.ts";
import { breadcrumbJsonLd, seoMeta } from "../../lib/catalog/seo.ts";
import type { Route } from "./+types/index";

export async function loader({ context, request }: Route.LoaderArgs) {
  return { categories: await context.get(appContext).categoryTree(), origin: requestOrigin(request) };
}

const crumbs = [{ label: "Home", to: "/" }, { label: "All categories" }];

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? seoMeta(matches, {
        title: "All categories",
        description: `Shop by category: ${loaderData.categories.map((c) => c.name).join(", ")}.`,
        origin: loaderData.origin,
        path: "/category",
        jsonLd: [breadcrumbJsonLd(loaderData.origin, crumbs, "/category")],
      })
    : [];

export default function Categories({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Breadcrumbs items={crumbs} />
      <PageHeading title="All categories" intro="Everything we stock, by department." />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {loaderData.categories.map((c) => (
          <li key={c.path} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
            <h2 className="text-lg font-bold">
              <Link to={`/category/${c.path}`} className="inline-flex min-h-11 items-center text-brand-800 hover:underline">
                {c.name}
              </Link>
            </h2>
            {c.description ? <p className="text-sm text-stone-700">{c.description}</p> : null}
            {c.children.length ? (
              <ul className="mt-2 grid text-sm">
                <LinkItems
                  links={c.children.map(categoryLink)}
                  className="inline-flex min-h-11 items-center hover:text-brand-800 hover:underline"
                  after={(s) =>
                    s.children.length ? (
                      <ul className="mb-1 ml-4 grid border-l border-stone-200 pl-3">
                        <LinkItems links={s.children.map(categoryLink)} className="inline-flex min-h-11 items-center text-stone-700 hover:text-brand-800 hover:underline" />
                      </ul>
                    ) : null
                  }
                />
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
