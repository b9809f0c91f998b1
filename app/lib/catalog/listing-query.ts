// The state of a product listing lives in the URL, so every listing is
// shareable and works without scripts. This module is shared by the server and
// the browser and carries no validation library; the strict reading of an
// address is listing-parse.ts, used by loaders only.

/** The same bounds as the API (server/modules/catalog/products/products.ts). */
export const MAX_PAGE = 500;
export const PER_PAGE = 24;
export const MAX_ATTRIBUTES = 20;
export const MAX_BRANDS = 30;

export const SORTS = ["relevance", "newest", "price_asc", "price_desc", "name"] as const;
export type Sort = (typeof SORTS)[number];
/** Listings open with featured products first. */
export const DEFAULT_SORT: Sort = "relevance";

export const SORT_LABELS: Record<Sort, string> = {
  relevance: "Featured",
  newest: "Newest",
  price_asc: "Price: low to high",
  price_desc: "Price: high to low",
  name: "Name: A to Z",
};

export interface ListingState {
  /** Brand ids (manufacturer=1&manufacturer=2 or manufacturer=1,2). */
  manufacturer: number[];
  /** `Name:Value` pairs, as the API takes them. */
  attr: string[];
  /** Option values, `Name:Value` (Length:3.0 m): products with a variant of that value. */
  opt: string[];
  priceMin?: number;
  priceMax?: number;
  inStock: boolean;
  sort: Sort;
  page: number;
}

// The API's own reading of `attr`, so a page and the API read a filter alike.
export { attributeFilters } from "../../../server/modules/catalog/attribute-filters.ts";

/** True when the visitor has narrowed the listing (the sort and page do not count). */
export function hasFilters(state: ListingState): boolean {
  return state.manufacturer.length > 0 || state.attr.length > 0 || state.opt.length > 0 || state.priceMin !== undefined || state.priceMax !== undefined || state.inStock;
}

/**
 * The query string for a listing state, in one stable order, leaving out
 * defaults: `?manufacturer=2&attr=Voltage%3A18V&sort=price_asc&page=2`.
 */
export function listingSearch(state: ListingState, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  for (const m of state.manufacturer) params.append("manufacturer", String(m));
  for (const a of state.attr) params.append("attr", a);
  for (const o of state.opt) params.append("opt", o);
  if (state.priceMin !== undefined) params.set("price_min", String(state.priceMin));
  if (state.priceMax !== undefined) params.set("price_max", String(state.priceMax));
  if (state.inStock) params.set("in_stock", "1");
  if (state.sort !== DEFAULT_SORT) params.set("sort", state.sort);
  if (state.page > 1) params.set("page", String(state.page));
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}

/** The state with some parts changed; any change but the page goes back to page 1. */
export function withChanges(state: ListingState, changes: Partial<ListingState>): ListingState {
  return { ...state, page: 1, ...changes };
}

/** A form's fields as a clean query string: empty fields and the page left out. */
export function formSearch(form: HTMLFormElement, submitter?: HTMLElement | null): string {
  const data = new FormData(form, submitter ?? undefined);
  const params = new URLSearchParams();
  for (const [name, value] of data) {
    if (typeof value !== "string" || value.trim() === "" || name === "page") continue;
    if (name === "sort" && value === DEFAULT_SORT) continue;
    params.append(name, value.trim());
  }
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}

/** A listing as it first opens (any page): no filters, the default sort. Only these are indexed. */
export function isPlainListing(state: ListingState): boolean {
  return !hasFilters(state) && state.sort === DEFAULT_SORT;
}

/** The canonical address of a listing page: its path and page number only. */
export function canonicalListingPath(basePath: string, page: number): string {
  return page > 1 ? `${basePath}?page=${page}` : basePath;
}
