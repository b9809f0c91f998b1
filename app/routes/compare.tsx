import { useEffect, useRef, useState } from "react";
import { redirect, useSearchParams } from "react-router";
import { appContext } from "#app-context";
import { CompareTable, type ComparedProduct, variantParam } from "../components/compare/compare-table.tsx";
import { compareStore, useCompareList } from "../components/compare/use-compare.ts";
import { FormAlert } from "../components/form.tsx";
import { Breadcrumbs, EmptyState } from "../components/page.tsx";
import { ApiError } from "../lib/api-client.ts";
import { browserApi } from "../lib/browser-api.ts";
import { clear, compareCookieString, compareListFromCookieHeader, MESSAGES, remove } from "../lib/compare.ts";
import { pageMeta } from "../lib/meta.ts";
import { useHydrated } from "../lib/use-session.ts";
import type { Route } from "./+types/compare";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Compare products", "Compare up to four products side by side: price, stock and specification.");

// The page is rendered from the visitor's cookie: never cache or share it.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

function attributeNamesOf(products: readonly ComparedProduct[]): string[] {
  return [...new Set(products.flatMap((p) => p.attributes.map((a) => a.name)))].sort((a, b) => a.localeCompare(b, "en-GB"));
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const ids = compareListFromCookieHeader(request.headers.get("cookie"));
  if (ids.length === 0) return { ids, products: [] as ComparedProduct[], error: null as string | null };
  try {
    const products: ComparedProduct[] = await context.get(appContext).services.products.byIds(ids, context.get(appContext).prices);
    return { ids, products, error: null };
  } catch {
    return { ids, products: [] as ComparedProduct[], error: MESSAGES.fetchError as string };
  }
}

/** Without scripts, the remove and clear buttons post here; the cookie is rewritten and the page shown again. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const list = compareListFromCookieHeader(request.headers.get("cookie"));
  const id = Number(form.get("product_id"));
  const next = form.get("intent") === "clear" ? clear() : remove(list, id);
  const secure = new URL(request.url).protocol === "https:";
  throw redirect("/compare", { headers: { "Set-Cookie": compareCookieString(next.list, secure) } });
}

interface CompareAnswer {
  success: boolean;
  data: ComparedProduct[];
  unique_attribute_names: string[];
  message: string;
}

/** The variant chosen for each product on the page: ?v12=SKU, an empty one meaning the range. */
function chosenFrom(search: URLSearchParams, ids: readonly number[]): Map<number, string> {
  return new Map(ids.flatMap((id) => (search.get(variantParam(id)) ? [[id, search.get(variantParam(id))!] as const] : [])));
}

export default function Compare({ loaderData }: Route.ComponentProps) {
  const [search] = useSearchParams();
  const list = useCompareList(loaderData.ids);
  const hydrated = useHydrated();
  const [known, setKnown] = useState<ComparedProduct[]>(loaderData.products);
  const [error, setError] = useState<string | null>(loaderData.error);
  const asked = useRef(new Set<number>(loaderData.ids));
  const heading = useRef<HTMLHeadingElement>(null);

  // A product added in another tab, or after this page was rendered: fetch what is missing through the API.
  useEffect(() => {
    const missing = list.filter((id) => !asked.current.has(id));
    if (missing.length === 0) return;
    for (const id of missing) asked.current.add(id);
    const controller = new AbortController();
    browserApi()
      .get<CompareAnswer>("/api/compare", { query: { product_ids: list.join(",") }, signal: controller.signal })
      .then((answer) => {
        if (!answer?.success || !Array.isArray(answer.data)) throw new ApiError(500, MESSAGES.fetchFailed);
        setKnown(answer.data);
        setError(null);
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        setError(e instanceof ApiError ? MESSAGES.fetchFailed : MESSAGES.fetchError);
      });
    return () => controller.abort();
  }, [list]);

  const products = list.map((id) => known.find((p) => p.id === id)).filter((p): p is ComparedProduct => p !== undefined);

  function removeProduct(product: ComparedProduct, event: React.FormEvent<HTMLFormElement>) {
    if (!hydrated) return;
    event.preventDefault();
    compareStore.remove(product.id);
    // The removed column's button is gone: keep focus on the page.
    heading.current?.focus();
  }

  return (
    <>
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Compare products" }]} />
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold tracking-tight focus:outline-none sm:text-3xl">
            Compare products
          </h1>
          <p className="mt-2 text-stone-700">
            Compare up to four products side by side.{" "}
            {list.length > 0 ? <span data-testid="compare-count">{`${list.length} of 4 chosen.`}</span> : null}
          </p>
        </div>
        {list.length > 0 ? (
          <form
            method="post"
            action="/compare"
            onSubmit={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              compareStore.clear();
              heading.current?.focus();
            }}
          >
            <input type="hidden" name="intent" value="clear" />
            <button type="submit" className="btn-secondary">
              Clear all
            </button>
          </form>
        ) : null}
      </div>
      {error ? <FormAlert message={error} className="mb-6" /> : null}
      {list.length === 0 ? (
        <EmptyState title="You have no products to compare." action={{ to: "/products", label: "Browse products" }}>
          Add products to compare from a product page or a listing, up to four at a time.
        </EmptyState>
      ) : products.length === 0 ? (
        error ? null : (
          <EmptyState title="The products you chose are no longer available." action={{ to: "/products", label: "Browse products" }} />
        )
      ) : (
        <CompareTable products={products} attributeNames={attributeNamesOf(products)} chosen={chosenFrom(search, list)} onRemove={removeProduct} />
      )}
    </>
  );
}

