import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export async function loader({ context }: Route.LoaderArgs) {
  return { categories: await context.get(appContext).services.catalog.categoryTree() };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "All categories");

export default function Categories({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="All categories" />
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {loaderData.categories.map((c) => (
          <li key={c.path}>
            <h2 className="text-lg font-semibold">
              <Link to={`/category/${c.path}`} className="text-brand-800 hover:underline">
                {c.name}
              </Link>
            </h2>
            <ul className="mt-2 grid gap-1 text-sm">
              {c.children.map((s) => (
                <li key={s.path}>
                  <Link to={`/category/${s.path}`} className="hover:underline">
                    {s.name}
                  </Link>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
