import { Link } from "react-router";
import { appContext } from "#app-context";
import { ProductGrid } from "../components/catalog/product-card.tsx";
import { LinkItems, categoryLink } from "../components/link-items.tsx";
import { SectionHead } from "../components/page.tsx";
import { requestOrigin } from "../lib/catalog/listing.server.ts";
import { seoMeta } from "../lib/catalog/seo.ts";
import type { Route } from "./+types/home";

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const [tree, featured] = await Promise.all([app.categoryTree(), app.services.products.featured(8, app.prices)]);
  return {
    appName: app.config.appName,
    origin: requestOrigin(request),
    categories: tree.map((c) => ({ name: c.name, path: c.path, description: c.description, children: c.children.slice(0, 4).map((s) => ({ name: s.name, path: s.path })) })),
    featured,
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? [
        ...seoMeta(matches, {
          title: "Building supplies, tool hire and trade accounts",
          description: "Building materials, tools and equipment hire, with trade accounts for the professional.",
          origin: loaderData.origin,
          path: "/",
          image: loaderData.featured[0]?.image?.src,
        }),
      ]
    : [];

/** A section's heading on this page, with its link to the whole list. */
function HomeHead({ id, title, to, all }: { id: string; title: string; to: string; all: string }) {
  return <SectionHead id={id} title={title} to={to} link={all} titleClassName="text-xl font-bold sm:text-2xl" linkClassName="link inline-flex min-h-11 items-center text-sm" />;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section className="-mx-4 -mt-6 bg-gradient-to-br from-brand-700 to-brand-900 px-4 py-10 text-white sm:mx-0 sm:mt-0 sm:rounded-xl sm:px-10 sm:py-14">
        <h1 className="max-w-2xl text-3xl font-extrabold tracking-tight sm:text-4xl">Everything for the build, from one counter.</h1>
        <p className="mt-3 max-w-xl text-lg text-white/85">
          Buy materials and tools, hire equipment by the day or week, and run your trade account at {loaderData.appName}.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to="/category" className="btn bg-accent-400 text-stone-900 hover:bg-accent-500">
            Shop by category
          </Link>
          <Link to="/hire" className="btn border border-white/40 text-white hover:bg-white/10">
            Hire equipment
          </Link>
        </div>
      </section>

      <section aria-labelledby="categories-heading" className="mt-10">
        <HomeHead id="categories-heading" title="Shop by category" to="/category" all="All categories" />
        <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {loaderData.categories.map((c) => (
            <li key={c.path} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
              <Link to={`/category/${c.path}`} className="text-lg font-semibold text-brand-800 hover:underline">
                {c.name}
              </Link>
              {c.description ? <p className="mt-1 text-sm text-stone-600">{c.description}</p> : null}
              {c.children.length ? (
                <ul className="mt-3 flex flex-wrap gap-2 text-sm">
                  <LinkItems links={c.children.map(categoryLink)} className="inline-block rounded-full bg-stone-100 px-3 py-1 hover:bg-stone-200" />
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      {loaderData.featured.length ? (
        <section aria-labelledby="featured-heading" className="mt-10">
          <HomeHead id="featured-heading" title="Featured products" to="/products" all="All products" />
          <div className="mt-4">
            <ProductGrid products={loaderData.featured} />
          </div>
        </section>
      ) : null}

      <section className="mt-10 grid gap-4 md:grid-cols-3" aria-label="Our services">
        <Link to="/hire" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 hover:ring-brand-700">
          <h2 className="text-lg font-bold">Equipment hire</h2>
          <p className="mt-1 text-stone-600">Day, weekend and weekly rates, with the deposit shown before you ask.</p>
        </Link>
        <Link to="/trade/setup" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 hover:ring-brand-700">
          <h2 className="text-lg font-bold">Trade accounts</h2>
          <p className="mt-1 text-stone-600">Trade prices, pay on account and invoices for your whole team.</p>
        </Link>
        <Link to="/kitchens-and-bathrooms" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 hover:ring-brand-700">
          <h2 className="text-lg font-bold">Kitchens &amp; Bathrooms</h2>
          <p className="mt-1 text-stone-600">Worktops, sinks, showers and tiles for every project.</p>
        </Link>
      </section>
    </>
  );
}
