import { Link } from "react-router";
import { appContext } from "#app-context";
import { ProductTile } from "../../components/compare/product-tile.tsx";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/showcase";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Showcase", "Featured ranges from our shelves and the departments builders use most.");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { products } = app.services;
  const [featured, tree] = await Promise.all([products.featured(8, app.prices), app.categoryTree()]);
  return {
    featured,
    categories: tree.slice(0, 6).map((c) => ({ name: c.name, path: c.path, description: c.description, count: c.children.length })),
  };
}

export default function Showcase({ loaderData }: Route.ComponentProps) {
  const { featured, categories } = loaderData;
  return (
    <>
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Showcase" }]} />
      <PageHeading title="Showcase" intro="Ranges we stock in depth and recommend to the trade: picked by our counter staff, priced as on the shelf." />

      <section aria-labelledby="featured-heading">
        <h2 id="featured-heading" className="text-xl font-bold sm:text-2xl">
          Featured ranges
        </h2>
        {featured.length ? (
          <ul className="mt-4 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            {featured.map((p) => (
              <li key={p.id}>
                <ProductTile product={p} />
              </li>
            ))}
          </ul>
        ) : (
          <div className="mt-4">
            <EmptyState title="Nothing is featured at the moment." action={{ to: "/products", label: "Browse products" }} />
          </div>
        )}
      </section>

      {categories.length ? (
        <section aria-labelledby="departments-heading" className="mt-12">
          <h2 id="departments-heading" className="text-xl font-bold sm:text-2xl">
            Departments
          </h2>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {categories.map((c) => (
              <li key={c.path}>
                <Link to={`/category/${c.path}`} className="block h-full rounded-lg border border-stone-200 bg-white p-5 shadow-sm hover:border-brand-700 hover:shadow">
                  <span className="block text-lg font-semibold text-brand-800">{c.name}</span>
                  {c.description ? <span className="mt-1 block text-sm text-stone-600">{c.description}</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="mt-12 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
        <h2 className="text-xl font-bold">Planning a kitchen or bathroom?</h2>
        <p className="mt-2 max-w-prose text-stone-700">Our designers plan and price it with you from the ranges we stock.</p>
        <Link to="/kitchens-and-bathrooms" className="btn-primary mt-4">
          See Kitchens &amp; Bathrooms
        </Link>
      </section>
    </>
  );
}
