import { appContext } from "#app-context";
import { ProductTile } from "../../components/compare/product-tile.tsx";
import { ConsultationBooking } from "../../components/appointments/booking.tsx";
import { bookConsultation } from "../../lib/appointments.ts";
import { Breadcrumbs, SectionHead } from "../../components/page.tsx";
import { LinkItems, categoryLink } from "../../components/link-items.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/kitchens-and-bathrooms";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Kitchens & Bathrooms", "Sinks, taps, worktops, showers, baths and tiles, with a free design consultation for your kitchen or bathroom.");

const DEPARTMENTS = [
  { path: "kitchens", blurb: "Sinks, taps, worktops and everything under them." },
  { path: "bathrooms", blurb: "Showers, baths, basins, toilets and tiles." },
] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const { products, appointments } = app.services;
  const [showrooms, departments] = await Promise.all([
    appointments.showrooms(),
    Promise.all(
      DEPARTMENTS.map(async (d) => {
        const [found, list] = await Promise.all([app.categoryByPath(d.path), products.list({ category: d.path, perPage: 4, sort: "relevance" }, app.prices)]);
        if (!found) return null;
        return {
          name: found.category.name,
          path: found.category.path,
          blurb: found.category.description || d.blurb,
          children: found.category.children.map((c) => ({ name: c.name, path: c.path })),
          products: list?.items ?? [],
        };
      }),
    ),
  ]);
  return { departments: departments.filter((d) => d !== null), showrooms: showrooms.data };
}

export const clientAction = ({ request }: Route.ClientActionArgs) => bookConsultation(request);

export default function KitchensAndBathrooms({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Kitchens & Bathrooms" }]} />
      <section className="-mx-4 bg-gradient-to-br from-brand-700 to-brand-900 px-4 py-8 text-white sm:mx-0 sm:rounded-xl sm:px-10 sm:py-12">
        <h1 className="max-w-2xl text-3xl font-extrabold tracking-tight sm:text-4xl">Kitchens &amp; Bathrooms</h1>
        <p className="mt-3 max-w-xl text-lg text-white/85">
          Everything to fit out a kitchen or bathroom, from the sink to the last tile, and a designer to help you plan it.
        </p>
        <div className="mt-6">
          <a href="#book" className="btn bg-accent-400 text-stone-900 hover:bg-accent-500">
            Book a design consultation
          </a>
        </div>
      </section>

      {loaderData.departments.map((d) => (
        <section key={d.path} aria-labelledby={`dept-${d.path}`} className="mt-10">
          <SectionHead id={`dept-${d.path}`} title={d.name} to={`/category/${d.path}`} link={`All ${d.name.toLowerCase()}`} titleClassName="text-xl font-bold sm:text-2xl" linkClassName="link text-sm" />
          <p className="mt-1 text-stone-700">{d.blurb}</p>
          {d.children.length ? (
            <ul className="mt-4 flex flex-wrap gap-2" aria-label={`${d.name} categories`}>
              <LinkItems links={d.children.map(categoryLink)} className="inline-flex min-h-11 items-center rounded-full border border-stone-300 bg-white px-4 font-medium hover:border-brand-700 hover:bg-brand-50" />
            </ul>
          ) : null}
          {d.products.length ? (
            <ul className="mt-5 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
              {d.products.map((p) => (
                <li key={p.id}>
                  <ProductTile product={p} />
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}

      <section id="book" aria-labelledby="book-heading" className="mt-12 scroll-mt-4 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
        <h2 id="book-heading" className="text-xl font-bold sm:text-2xl">
          Book a design consultation
        </h2>
        <p className="mt-2 max-w-prose text-stone-700">
          Meet one of our kitchen and bathroom designers in the showroom: bring your measurements and ideas, and they draw a plan with you and price it from our ranges. The consultation is free and there is no obligation to buy.
        </p>
        <div className="mt-6">
          <ConsultationBooking showrooms={loaderData.showrooms} action="/kitchens-and-bathrooms" />
        </div>
      </section>
    </>
  );
}
