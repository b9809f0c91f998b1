import { Form, Link } from "react-router";
import { appContext } from "#app-context";
import { Pagination } from "../components/catalog/pagination.tsx";
import { ProductGrid } from "../components/catalog/product-card.tsx";
import { EmptyState, PageHeading } from "../components/page.tsx";
import { MAX_PAGE, PER_PAGE } from "../lib/catalog/listing-query.ts";
import { requestOrigin } from "../lib/catalog/listing.server.ts";
import { seoMeta } from "../lib/catalog/seo.ts";
import type { Route } from "./+types/search";

const searchHref = (q: string, page = 1) => `/search?${new URLSearchParams({ q, ...(page > 1 ? { page: String(page) } : {}) })}`;

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").replace(/\s+/g, " ").trim().slice(0, 200);
  const origin = requestOrigin(request);
  // A page the address cannot give is page 1, as the API's bounds say.
  const rawPage = url.searchParams.get("page") ?? "1";
  const page = /^\d{1,6}$/.test(rawPage) ? Math.min(MAX_PAGE, Math.max(1, Number(rawPage))) : 1;
  if (!q) return { q, origin, result: null };
  const app = context.get(appContext);
  const result = await app.services.search.search(q, { page, perPage: PER_PAGE }, app.prices);
  return {
    q,
    origin,
    result: { items: result.items, total: result.total, page: result.page, lastPage: result.last_page, perPage: result.per_page, didYouMean: result.did_you_mean },
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  const { q, result, origin } = loaderData;
  if (!q || !result) {
    return seoMeta(matches, { title: "Search", description: "Search our products by name, brand or product code.", origin, path: "/search" });
  }
  return seoMeta(matches, {
    title: `Search results for “${q}”${result.page > 1 ? ` (page ${result.page})` : ""}`,
    description: result.total ? `${result.total} ${result.total === 1 ? "product matches" : "products match"} “${q}”.` : `No products match “${q}”.`,
    origin,
    path: searchHref(q, result.page),
    // Search results are for visitors, not for search engines' indexes.
    noindex: true,
  });
};

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, result } = loaderData;
  if (!q || !result) {
    return (
      <>
        <PageHeading title="Search" />
        <SearchForm q="" />
        <EmptyState title="What are you looking for?" action={{ to: "/category", label: "Browse categories" }}>
          Type a product name, code or brand in the search box.
        </EmptyState>
      </>
    );
  }
  const { items, total, page, lastPage, perPage, didYouMean } = result;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return (
    <>
      <PageHeading title={`Search results for “${q}”`} />
      {/* The header holds a search box too; this one keeps the words for another try when nothing was found. */}
      {total === 0 ? <SearchForm q={q} /> : null}
      <h2 className="mb-4 text-base font-semibold text-stone-800" aria-live="polite" data-testid="result-count">
        {total === 0 ? "No products found" : items.length ? `${first}–${last} of ${total} ${total === 1 ? "product" : "products"}` : `${total} products`}
      </h2>
      {total === 0 ? (
        <EmptyState title={`No products found for “${q}”.`} action={{ to: "/category", label: "Browse categories" }}>
          {didYouMean ? (
            <p className="text-lg" data-testid="did-you-mean">
              Did you mean{" "}
              <Link to={searchHref(didYouMean)} className="link font-semibold">
                {didYouMean}
              </Link>
              ?
            </p>
          ) : null}
          <p className="mt-2">Check the spelling, or try a product code, a brand or fewer words.</p>
        </EmptyState>
      ) : items.length === 0 ? (
        <EmptyState title={`There is no page ${page} of these results.`} action={{ to: searchHref(q, lastPage), label: `Go to page ${lastPage}` }} />
      ) : (
        <ProductGrid products={items} eagerCount={4} />
      )}
      <Pagination page={page} lastPage={lastPage} hrefFor={(p) => searchHref(q, p)} label="Result pages" />
    </>
  );
}

/** A search box on the page itself that keeps the words typed. */
function SearchForm({ q }: { q: string }) {
  return (
    <Form method="get" action="/search" role="search" aria-label="Search again" className="mb-6 flex max-w-xl" key={q}>
      <label htmlFor="search-page-q" className="sr-only">
        Search products
      </label>
      <input
        id="search-page-q"
        name="q"
        type="search"
        defaultValue={q}
        maxLength={200}
        placeholder="Product, brand or code"
        className="min-h-11 w-full min-w-0 rounded-l-md border border-stone-400 bg-white px-3 text-base"
      />
      <button type="submit" className="btn-primary rounded-l-none">
        Search
      </button>
    </Form>
  );
}
