import type { AppContext } from "#app-context";
import { parseListingQuery } from "./listing-parse.ts";
import { type ListingState, PER_PAGE, attributeFilters } from "./listing-query.ts";

/** Where the listing lives: a category, one brand, or the whole shop. */
export interface ListingScope {
  category?: string;
  manufacturer?: number;
}

/**
 * Reads the listing's state from the request's URL and asks the product
 * service for that page, with facet counts for the filters that remain.
 * Returns null when the category does not exist.
 */
export async function loadListing(app: AppContext, request: Request, scope: ListingScope) {
  const url = new URL(request.url);
  const { state, problems } = parseListingQuery(url.searchParams);
  // A brand's page is that brand's products: the address cannot widen it.
  const effective: ListingState = scope.manufacturer ? { ...state, manufacturer: [] } : state;
  const result = await app.services.products.list({
    category: scope.category,
    manufacturer: scope.manufacturer ? [scope.manufacturer] : effective.manufacturer,
    priceMin: effective.priceMin,
    priceMax: effective.priceMax,
    inStock: effective.inStock,
    attributes: attributeFilters(effective.attr),
    options: attributeFilters(effective.opt),
    sort: effective.sort,
    page: effective.page,
    perPage: PER_PAGE,
  }, app.prices);
  if (!result) return null;

  // A chosen brand that no longer has products here still needs a name, so
  // its box can be unticked.
  const brandFacet = result.facets.manufacturers.map((m) => ({ id: m.id, name: m.name, count: m.count }));
  const missing = effective.manufacturer.filter((id) => !brandFacet.some((m) => m.id === id));
  const found = await Promise.all(missing.slice(0, 5).map((id) => app.services.catalog.manufacturer(id)));
  for (const [i, id] of missing.entries()) {
    brandFacet.push({ id, name: found[i]?.name ?? `Brand ${id}`, count: 0 });
  }

  return {
    items: result.items,
    total: result.total,
    page: result.page,
    lastPage: result.last_page,
    perPage: result.per_page,
    state: { ...effective, page: result.page },
    problems,
    facets: {
      manufacturers: scope.manufacturer ? [] : brandFacet,
      attributes: result.facets.attributes,
      options: result.facets.options,
      price: result.facets.price,
      inStock: result.facets.in_stock,
    },
  };
}

export type ListingData = NonNullable<Awaited<ReturnType<typeof loadListing>>>;

/** The origin the visitor used, for canonical and Open Graph URLs. */
export function requestOrigin(request: Request): string {
  return new URL(request.url).origin;
}
