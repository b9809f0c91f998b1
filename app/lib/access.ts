import { redirect } from "react-router";
import { safeRedirect } from "./safe-redirect.ts";

/**
 * The page a request is for. A client-side navigation asks for its data as
 * `/path.data?_routes=…`: that names the page `/path`. A path ending in `/`
 * is asked for as `/path/_.data` (React Router 8's `singleFetchUrl`; `/_root.data`
 * for / before it): that names `/path/`.
 */
export function pagePath(url: URL): string {
  if (!url.pathname.endsWith(".data")) return `${url.pathname}${url.search}`;
  const path = url.pathname.slice(0, -".data".length);
  const query = new URLSearchParams(url.search);
  query.delete("_routes");
  const search = query.size ? `?${query}` : "";
  const page = path === "/_root" ? "/" : path.endsWith("/_") ? path.slice(0, -1) : path;
  return `${page}${search}`;
}

/** The login URL that brings a guest back to where they were going. */
export function loginUrlFor(url: URL): string {
  return `/auth/login?${new URLSearchParams({ redirect: pagePath(url) })}`;
}

/** Signed-in only: guests are sent to /auth/login?redirect={the path they wanted}. */
export function requireSignedIn(user: unknown, request: Request): void {
  if (!user) throw redirect(loginUrlFor(new URL(request.url)));
}

/** Guest only: a signed-in user goes to ?redirect (when it is on this site) or to /. */
export function requireGuest(user: unknown, request: Request): void {
  if (user) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirect")));
}

/**
 * A storefront form post (a screen's `action`) from another site is refused.
 * The session cookie is SameSite=Lax, so such a post arrives signed out anyway;
 * the API's own origin (API_BASE_URL) counts as this site.
 */
export function requireOwnOrigin(request: Request, apiBaseUrl: string): void {
  const origin = request.headers.get("origin");
  if (origin && origin !== new URL(request.url).origin && origin !== apiBaseUrl) throw new Response("Forbidden", { status: 403 });
}
