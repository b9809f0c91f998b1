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

/**
 * The personal pages whose frame is shared by every signed-in customer with the
 * same price view (ADR 0061): the page names no one and holds nothing of theirs;
 * the browser fills in the basket, the greeting, the orders and the trade
 * dashboard from the JSON API. Kept apart from visitors' copies (a visitor is
 * sent to sign in), and only for a request whose session is good.
 */
const PERSONAL_FRAMES = [/^\/basket$/, /^\/account$/, /^\/account\/orders\/history$/, /^\/trade\/dashboard$/];

/** `?noscript`: the frame's link for a browser without scripts, which cannot fill a frame in (`app/lib/personal-data.ts`). */
const WITHOUT_SCRIPTS = /[?&]noscript(=|&|$)/;

export function isPersonalFrame(url: string): boolean {
  const path = pagePath(url);
  return PERSONAL_FRAMES.some((pattern) => pattern.test(path)) && !WITHOUT_SCRIPTS.test(url);
}

/** The view a signed-in customer's frame is kept under: never a visitor's (theirs is a redirect to sign in). */
export const FRAME_VIEW_PREFIX = "signed-in ";

/** A signed-in customer's price view when the page they ask for is shared (or a personal page's frame); null renders it for them alone. */
export function signedInView(request: FastifyRequest): string | null {
  if (!request.user) return null;
  if (isSharedPage(request.url)) return priceViewOf(request.trade);
  return isPersonalFrame(request.url) ? `${FRAME_VIEW_PREFIX}${priceViewOf(request.trade)}` : null;
}
