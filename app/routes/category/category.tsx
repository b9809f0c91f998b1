import { Link } from "react-router";
import { appContext } from "#app-context";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/category";

export async function loader({ context, params }: Route.LoaderArgs) {
  // The splat is the category's slug path, several segments deep.
  const path = (params["*"] ?? "").replace(/\/+$/, "");
  if (!path || path.length > 300) notFound();
  const found = await context.get(appContext).services.catalog.categoryByPath(path);
  if (!found) notFound();
  return found;
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.category.name ?? "Category", loaderData?.category.description || undefined);

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, ancestors } = loaderData;
  return (
    <>
      <Breadcrumbs
        items={[
          { label: "Home", to: "/" },
          { label: "Categories", to: "/category" },
          ...ancestors.map((a) => ({ label: a.name, to: `/category/${a.path}` })),
          { label: category.name },
        ]}
      />
      <PageHeading title={category.name} intro={category.description || undefined} />
      {category.children.length ? (
        <nav aria-label={`Within ${category.name}`} className="mb-8">
          <ul className="flex flex-wrap gap-2">
            {category.children.map((c) => (
              <li key={c.path}>
                <Link to={`/category/${c.path}`} className="inline-block rounded-full border border-stone-300 bg-white px-4 py-2 text-sm font-medium hover:border-brand-700">
                  {c.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <EmptyState title={`No products in ${category.name} yet.`} action={{ to: "/category", label: "Browse other categories" }} />
    </>
  );
}
