import type { FastifyRequest } from "fastify";
import { priceViewOf } from "../modules/trade/pricing.ts";

/**
 * The catalogue pages a signed-in customer sees exactly as anyone with their
 * price view does (ADR 0043): home, categories, products, hire items, search,
 * brands and content. Everything else (basket, checkout, account, trade area,
 * sign-in pages, compare) is personal by nature and rendered per request.
 * A positive list: a new page is personal until it is added here.
 */
const SHARED_PAGES = [
  /^\/$/,
  /^\/(category|products|search|hire|manufacturer|about|contact|delivery|showcase|kitchens-and-bathrooms)$/,
  /^\/(category|product|hire|manufacturer)\/[^?]+$/,
];

/** The page a request asks for: a client navigation's data request (`/x.data`; the home page's `/_.data`, `/_root.data` before React Router 8) names its page. */
function pagePath(url: string): string {
  const pathname = url.split("?", 1)[0]!;
  if (pathname === "/_.data" || pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

export function isSharedPage(url: string): boolean {
  const path = pagePath(url);
  return SHARED_PAGES.some((pattern) => pattern.test(path));
}

/** A signed-in customer's price view when the page they ask for is shared; null renders it for them alone. */
export function signedInView(request: FastifyRequest): string | null {
  return request.user && isSharedPage(request.url) ? priceViewOf(request.trade) : null;
}
