import { Form, Link } from "react-router";
import { appContext } from "#app-context";
import { HireCard } from "../../components/hire/hire-card.tsx";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { SearchIcon } from "../../components/icons.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

const PER_PAGE = 24;

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const rawCategory = url.searchParams.get("category") ?? "";
  const category = /^[a-z0-9-]{1,100}$/.test(rawCategory) ? rawCategory : undefined;
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const page = Math.min(500, Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const result = await context.get(appContext).services.hire.list({ category, q: q || undefined, page, perPage: PER_PAGE });
  return { ...result, category: category ?? "", q };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const category = loaderData?.categories.find((c) => c.slug === loaderData.category);
  return pageMeta(
    matches,
    category ? `${category.name} hire` : "Equipment hire",
    "Hire tools, plant and site equipment by the day, weekend or week, with clear deposits and live availability.",
  );
};

function hireUrl(params: { category?: string; q?: string; page?: number }): string {
  const search = new URLSearchParams();
  if (params.q) search.set("q", params.q);
  if (params.category) search.set("category", params.category);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  const qs = search.toString();
  return qs ? `/hire?${qs}` : "/hire";
}

export default function HireListing({ loaderData }: Route.ComponentProps) {
  const { items, categories, category, q, page, last_page: lastPage, total } = loaderData;
  const current = categories.find((c) => c.slug === category);
  const allCount = categories.reduce((n, c) => n + c.count, 0);
  const title = current ? `${current.name} hire` : "Equipment hire";

  return (
    <>
      <Breadcrumbs items={current ? [{ label: "Home", to: "/" }, { label: "Hire", to: "/hire" }, { label: current.name }] : [{ label: "Home", to: "/" }, { label: "Hire" }]} />
      <PageHeading title={title} intro="Hire tools, plant and site equipment by the day, weekend or week. Rates are ex VAT; the refundable deposit carries no VAT." />

      <Form method="get" action="/hire" role="search" className="mb-6 flex max-w-xl">
        {category ? <input type="hidden" name="category" value={category} /> : null}
        <label htmlFor="hire-search" className="sr-only">
          Search hire equipment
        </label>
        <input
          id="hire-search"
          name="q"
          type="search"
          defaultValue={q}
          key={q}
          maxLength={200}
          placeholder={current ? `Search ${current.name.toLowerCase()} hire` : "Search hire equipment"}
          className="min-h-11 w-full min-w-0 rounded-l-md border border-stone-400 bg-white px-3 text-base text-stone-900 placeholder:text-stone-500"
        />
        <button type="submit" className="btn-primary rounded-l-none">
          <SearchIcon />
          <span className="sr-only sm:not-sr-only">Search</span>
        </button>
      </Form>

      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="Hire categories" className="min-w-0">
          <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-stone-600">Categories</h2>
          <ul className="flex gap-2 overflow-x-auto pb-2 lg:grid lg:gap-1 lg:overflow-visible lg:pb-0">
            <li className="shrink-0">
              <Link
                to={hireUrl({ q })}
                aria-current={category ? undefined : "page"}
                className={`flex min-h-11 items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm lg:border-0 ${category ? "border-stone-300 bg-white hover:bg-stone-100" : "border-brand-700 bg-brand-700 font-semibold text-white"}`}
              >
                <span>All hire</span>
                <span className={category ? "text-stone-600" : ""}>({allCount})</span>
              </Link>
            </li>
            {categories.map((c) => {
              const active = c.slug === category;
              return (
                <li key={c.slug} className="shrink-0">
                  <Link
                    to={hireUrl({ category: c.slug, q })}
                    aria-current={active ? "page" : undefined}
                    className={`flex min-h-11 items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm lg:border-0 ${active ? "border-brand-700 bg-brand-700 font-semibold text-white" : "border-stone-300 bg-white hover:bg-stone-100"}`}
                  >
                    <span>{c.name}</span>
                    <span className={active ? "" : "text-stone-600"}>({c.count})</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <section aria-labelledby="hire-results" className="min-w-0">
          <h2 id="hire-results" className="mb-3 text-stone-700" aria-live="polite">
            {total === 0 ? "No hire items" : `${total} hire ${total === 1 ? "item" : "items"}`}
            {q ? <> matching “{q}”</> : null}
            {current ? <> in {current.name}</> : null}
          </h2>
          {items.length === 0 ? (
            <EmptyState
              title={q ? `No hire equipment matches “${q}”${current ? ` in ${current.name}` : ""}.` : "No hire equipment here yet."}
              action={{ to: "/hire", label: "See all hire equipment" }}
            >
              Try another word, or ask us: we can often source what you need.
            </EmptyState>
          ) : (
            <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
              {items.map((item) => (
                <li key={item.id} className="render-when-near">
                  <HireCard item={item} />
                </li>
              ))}
            </ul>
          )}
          {lastPage > 1 ? (
            <nav aria-label="Pages" className="mt-8 flex flex-wrap items-center justify-center gap-2">
              {page > 1 ? (
                <Link className="btn-secondary" to={hireUrl({ category, q, page: page - 1 })} rel="prev">
                  Previous
                </Link>
              ) : null}
              {Array.from({ length: lastPage }, (_, i) => i + 1).map((n) => (
                <Link
                  key={n}
                  to={hireUrl({ category, q, page: n })}
                  aria-current={n === page ? "page" : undefined}
                  aria-label={`Page ${n}`}
                  className={n === page ? "btn-primary min-w-11" : "btn-secondary min-w-11"}
                >
                  {n}
                </Link>
              ))}
              {page < lastPage ? (
                <Link className="btn-secondary" to={hireUrl({ category, q, page: page + 1 })} rel="next">
                  Next
                </Link>
              ) : null}
            </nav>
          ) : null}
        </section>
      </div>
    </>
  );
}
