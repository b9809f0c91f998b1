import { redirect } from "react-router";
import { safeRedirect } from "./safe-redirect.ts";

/** The login URL that brings a guest back to where they were going. */
export function loginUrlFor(url: URL): string {
  return `/auth/login?${new URLSearchParams({ redirect: `${url.pathname}${url.search}` })}`;
}

/** Signed-in only: guests are sent to /auth/login?redirect={the path they wanted}. */
export function requireSignedIn(user: unknown, request: Request): void {
  if (!user) throw redirect(loginUrlFor(new URL(request.url)));
}

/** Guest only: a signed-in user goes to ?redirect (when it is on this site) or to /. */
export function requireGuest(user: unknown, request: Request): void {
  if (user) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirect")));
}
