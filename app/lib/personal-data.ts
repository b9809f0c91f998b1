import { redirect } from "react-router";
import { loginUrlFor } from "./access.ts";
import { ApiError, type RequestOptions } from "./api-client.ts";
import { browserApiWhenReady } from "./browser-api.ts";

/**
 * A personal page's data (ADR 0061). The page is a frame every signed-in
 * customer with the same price view shares, kept by the page cache, so what is
 * theirs comes from the JSON API in the browser: the route's `clientLoader`
 * reads it here, on hydration and on every navigation. The server's loader reads
 * it only for a page rendered for one customer (without scripts, or with the
 * page cache off); on a frame it answers `NOT_LOADED` and the page draws its
 * placeholders.
 *
 * A session that has ended since the frame was served goes to sign in, as the
 * server would have sent it; any other failure is the route's error to show.
 */
export async function personalJson<T>(request: Request, path: string, query?: RequestOptions["query"]): Promise<T> {
  const api = await browserApiWhenReady();
  try {
    return await api.get<T>(path, { query, signal: request.signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw redirect(loginUrlFor(new URL(request.url)));
    throw error;
  }
}

/**
 * Who is signed in, as far as a personal page needs to know: whether they
 * belong to a trade account, so the page asks only for what they have (a
 * consumer's browser is never sent a 404 for a trade dashboard they do not
 * have). Signed out since the frame was served: to sign in.
 */
export async function personalUser(request: Request): Promise<{ id: number; tradeAccountId: number | null }> {
  const user = await personalJson<{ id?: number; trade_account_id?: number | null } | null>(request, "/api/user");
  if (!user?.id) throw redirect(loginUrlFor(new URL(request.url)));
  return { id: user.id, tradeAccountId: user.trade_account_id ?? null };
}

/** A frame's loader data: nothing of anyone's; the browser fills it in. */
export const NOT_LOADED = { loaded: false } as const;

/**
 * The query that asks for a personal page rendered on the server for this
 * customer instead of the shared frame: the frame's `<noscript>` links to it,
 * since without scripts nothing fills the frame in.
 */
export const WITHOUT_SCRIPTS = "noscript";

/** The page's own address with `?noscript`: its other parameters kept. */
export function withoutScriptsHref(search: string): string {
  const query = new URLSearchParams(search);
  query.set(WITHOUT_SCRIPTS, "");
  return `?${query.toString().replace(`${WITHOUT_SCRIPTS}=`, WITHOUT_SCRIPTS)}`;
}
