import { signNonce, signedNonce } from "../../lib/signed-nonce.ts";

/** The staff session cookie: its own name, scoped to the back office's two paths, never sent to the storefront. */
export const ADMIN_COOKIE = "tc_admin";
/** The back office's own request-forgery token, echoed by its scripts in X-Admin-CSRF. */
export const ADMIN_CSRF_COOKIE = "tc_admin_csrf";
export const ADMIN_CSRF_HEADER = "x-admin-csrf";
// `/admin.data` too: a client-side move to the dashboard (`/admin`) fetches its
// data there, and a cookie on `/admin` is not sent to `/admin.data`.
const ADMIN_PATHS = ["/admin", "/admin.data", "/api/admin"];

function cookie(name: string, value: string, path: string, attributes: { httpOnly: boolean; secure: boolean; maxAge?: number }): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${path}`,
    ...(attributes.maxAge !== undefined ? [`Max-Age=${attributes.maxAge}`] : []),
    ...(attributes.httpOnly ? ["HttpOnly"] : []),
    "SameSite=Strict",
    ...(attributes.secure ? ["Secure"] : []),
  ].join("; ");
}

/**
 * Set-Cookie values that sign a member in: the session (HttpOnly, SameSite=Strict,
 * a browser-session cookie on `/admin` and on `/api/admin`, and `/admin.data`; the server ends it
 * after 20 idle minutes or 8 hours) and a fresh CSRF token for the scripts.
 * One function for the API's answer and the sign-in screen's redirect.
 */
export function staffSignInCookies(token: string, secure: boolean): string[] {
  const csrf = signNonce(token, ADMIN_CSRF_PURPOSE);
  return [...ADMIN_PATHS.map((path) => cookie(ADMIN_COOKIE, token, path, { httpOnly: true, secure })), cookie(ADMIN_CSRF_COOKIE, csrf, "/", { httpOnly: false, secure })];
}

/**
 * The back office's CSRF token is bound to the session it was issued with (issue 33): a nonce signed with the
 * session's own secret token, so only that session's token passes, and a pair planted by another site (or a
 * token of the attacker's own session) does not.
 */
const ADMIN_CSRF_PURPOSE = "admin-csrf";

/** Whether the token echoed was issued with this session. */
export function adminCsrfValid(token: string, session: string): boolean {
  return signedNonce(token, session, ADMIN_CSRF_PURPOSE) !== null;
}

/** Set-Cookie values that sign a member out of this browser. */
export function staffSignOutCookies(secure: boolean): string[] {
  return [...ADMIN_PATHS.map((path) => cookie(ADMIN_COOKIE, "", path, { httpOnly: true, secure, maxAge: 0 })), cookie(ADMIN_CSRF_COOKIE, "", "/", { httpOnly: false, secure, maxAge: 0 })];
}

export function isAdminPath(url: string): boolean {
  return /^\/(api\/)?admin(\/|\?|\.|$)/.test(url);
}

/** A browser a member has signed in from (modules/staff/sign-in.ts): kept a year, through sign-outs, sent only to sign-in. */
export const STAFF_DEVICE_COOKIE = "tc_admin_device";
const DEVICE_SECONDS = 365 * 24 * 60 * 60;

/** Set-Cookie values for it: the sign-in screen's path and the API's. */
export function staffDeviceCookies(value: string, secure: boolean): string[] {
  return ["/admin/login", "/admin/login.data", "/api/admin/auth/login"].map((path) => cookie(STAFF_DEVICE_COOKIE, value, path, { httpOnly: true, secure, maxAge: DEVICE_SECONDS }));
}
