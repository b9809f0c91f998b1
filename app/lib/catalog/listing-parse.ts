import { z } from "zod";
import { DEFAULT_SORT, type ListingState, MAX_ATTRIBUTES, MAX_BRANDS, MAX_PAGE, SORTS, type Sort } from "./listing-query.ts";

// Reads a listing's state from its URL by the rules of GET /api/products
// (server/modules/catalog/routes.ts), but a page never answers 422: a value it
// cannot use is left out and the page says which. Loaders only (keeps zod out
// of the browser's bundle).

export interface ParsedListing {
  state: ListingState;
  /** What the address asked for that the page could not use, in the shop's words. */
  problems: string[];
}

const id = z.string().regex(/^\d{1,9}$/).transform(Number).pipe(z.number().int().positive());
const money = z
  .string()
  .trim()
  .regex(/^\d{1,7}(\.\d{1,2})?$/)
  .transform(Number)
  .pipe(z.number().min(0).max(1_000_000));
const flag = z.enum(["true", "false", "1", "0", "yes", "no", "on", "off"]).transform((v) => v === "true" || v === "1" || v === "yes" || v === "on");
const attribute = z.string().max(200).regex(/^[^:]{1,80}:.{1,100}$/);
const sort = z.enum(SORTS);
const page = z.string().regex(/^\d{1,6}$/).transform(Number).pipe(z.number().int().min(1).max(MAX_PAGE));

/** Values of a repeated parameter, with empty ones (an empty form field) dropped. */
function values(params: URLSearchParams, name: string): string[] {
  return params.getAll(name).filter((v) => v.trim() !== "");
}

function single(params: URLSearchParams, name: string): string | undefined {
  const all = values(params, name);
  return all[all.length - 1];
}

export function parseListingQuery(params: URLSearchParams): ParsedListing {
  const problems: string[] = [];

  const manufacturer: number[] = [];
  let badBrand = false;
  for (const raw of values(params, "manufacturer").flatMap((v) => v.split(","))) {
    const parsed = id.safeParse(raw.trim());
    if (parsed.success) {
      if (!manufacturer.includes(parsed.data)) manufacturer.push(parsed.data);
    } else badBrand = true;
  }
  if (badBrand) problems.push("a brand that is not a number");
  if (manufacturer.length > MAX_BRANDS) {
    manufacturer.length = MAX_BRANDS;
    problems.push(`brands past the first ${MAX_BRANDS}`);
  }

  const attr: string[] = [];
  let badAttribute = false;
  for (const raw of values(params, "attr")) {
    if (attribute.safeParse(raw).success) {
      if (!attr.includes(raw)) attr.push(raw);
    } else badAttribute = true;
  }
  if (badAttribute) problems.push("a specification filter not written as Name:Value");
  if (attr.length > MAX_ATTRIBUTES) {
    attr.length = MAX_ATTRIBUTES;
    problems.push(`specification filters past the first ${MAX_ATTRIBUTES}`);
  }

  // Option values, as Name:Value too (the API's option[Name]=Value).
  const opt: string[] = [];
  for (const raw of values(params, "opt")) if (attribute.safeParse(raw).success && !opt.includes(raw) && opt.length < MAX_ATTRIBUTES) opt.push(raw);

  const readMoney = (name: string, label: string): number | undefined => {
    const raw = single(params, name);
    if (raw === undefined) return undefined;
    const parsed = money.safeParse(raw);
    if (parsed.success) return parsed.data;
    problems.push(`the ${label} price “${raw.slice(0, 20)}”`);
    return undefined;
  };
  let priceMin = readMoney("price_min", "lowest");
  let priceMax = readMoney("price_max", "highest");
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
    [priceMin, priceMax] = [priceMax, priceMin];
  }

  let inStock = false;
  const rawStock = single(params, "in_stock");
  if (rawStock !== undefined) {
    const parsed = flag.safeParse(rawStock.toLowerCase());
    if (parsed.success) inStock = parsed.data;
    else problems.push("the in-stock choice");
  }

  let sortValue: Sort = DEFAULT_SORT;
  const rawSort = single(params, "sort");
  if (rawSort !== undefined) {
    const parsed = sort.safeParse(rawSort);
    if (parsed.success) sortValue = parsed.data;
    else problems.push("the sort order");
  }

  let pageValue = 1;
  const rawPage = single(params, "page");
  if (rawPage !== undefined) {
    const parsed = page.safeParse(rawPage.trim());
    if (parsed.success) pageValue = parsed.data;
    else problems.push(`page “${rawPage.slice(0, 20)}”`);
  }

  return { state: { manufacturer, attr, opt, priceMin, priceMax, inStock, sort: sortValue, page: pageValue }, problems };
}

