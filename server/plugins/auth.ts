import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { isOwnOrigin } from "../lib/own-origin.ts";
import { sameSecret } from "../lib/same-secret.ts";
import { signNonce, signedNonce } from "../lib/signed-nonce.ts";
import type { User } from "../modules/auth/schema.ts";
import { resolveAccessToken } from "../modules/auth/tokens.ts";
import { isAdminPath } from "../modules/staff/cookies.ts";
import { type PriceContext, RETAIL, type TradeMembership, priceContextFor } from "../modules/trade/pricing.ts";

export const SESSION_COOKIE = "tc_session";
export const CSRF_COOKIE = "XSRF-TOKEN";
export const CSRF_HEADER = "x-xsrf-token";
const CSRF_COOKIE_SECONDS = 2 * 60 * 60;
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user, from the bearer token or the session cookie. */
    user: User | null;
    tokenId: number | null;
    authVia: "bearer" | "cookie" | null;
    /** The user's trade membership, read with the user; null for guests and consumers. */
    trade: TradeMembership | null;
    /** The prices this request sees: retail, or the trade discount of an approved account. */
    prices: PriceContext;
  }
}

export interface AuthOptions {
  db: Db;
  secureCookies: boolean;
  /** Signs the CSRF tokens to the session they were issued for (the shop's cookie secret). */
  secret: string;
  /** The shop's own origin: a cookie-less write from a browser must come from it. */
  publicOrigin: string;
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string" || !header.startsWith("Bearer ")) return null;
  return header.slice(7).trim() || null;
}

/**
 * The storefront's request-forgery tokens: a signed double submit (OWASP),
 * `nonce.HMAC(secret, session, nonce)`, bound to the session cookie the browser
 * holds (none for a guest), so a token planted in a victim's browser, or one an
 * attacker got for their own session, is refused (issue 33).
 */
export interface CsrfTokens {
  /** Sets a fresh XSRF-TOKEN cookie bound to `session` (the session cookie's value, or null for a guest). */
  issue(reply: FastifyReply, session: string | null | undefined): string;
  valid(token: string, session: string | null | undefined): boolean;
}

export function csrfTokens(secret: string, secure: boolean): CsrfTokens {
  const purpose = (session: string | null | undefined) => `csrf:${session ?? ""}`;
  return {
    issue(reply, session) {
      const value = signNonce(secret, purpose(session));
      // Readable by the page's script, which echoes it in X-XSRF-TOKEN.
      reply.setCookie(CSRF_COOKIE, value, { path: "/", httpOnly: false, sameSite: "lax", secure, maxAge: CSRF_COOKIE_SECONDS });
      return value;
    },
    valid: (token, session) => signedNonce(token, secret, purpose(session)) !== null,
  };
}

/** The session a browser's CSRF token is bound to: its session cookie while that signs someone in, else none (a guest's). */
export function csrfSessionOf(request: FastifyRequest): string | null {
  return request.authVia ? (request.cookies[SESSION_COOKIE] ?? null) : null;
}

/** Signs a customer in in this browser: the session cookie, and a CSRF token bound to it. */
export function setSessionCookie(reply: FastifyReply, token: string, remember: boolean, maxAge: number, secure: boolean, csrf: CsrfTokens): void {
  // Without "remember me" it is a session cookie: it ends when the browser closes.
  reply.setCookie(SESSION_COOKIE, token, { path: "/", httpOnly: true, sameSite: "lax", secure, ...(remember ? { maxAge } : {}) });
  csrf.issue(reply, token);
}

/** Signs a customer out of this browser: a guest's CSRF token replaces the session's. */
export function clearSessionCookie(reply: FastifyReply, secure: boolean, csrf: CsrfTokens): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
  csrf.issue(reply, null);
}

/**
 * A write from another site's page: its Origin names another site, or (with
 * no Origin) the browser says it is cross-site. The API may live on its own
 * origin (API_BASE_URL), so a same-site request is not refused for that alone.
 */
function crossSite(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin) return !isOwnOrigin(request, origin, publicOrigin);
  return request.headers["sec-fetch-site"] === "cross-site";
}

function isApiPath(url: string): boolean {
  return url.startsWith("/api/") || url.startsWith("/sanctum/");
}

/**
 * Resolves who is calling (bearer header first, then the session cookie) for
 * every request, API and pages alike; refuses every write from another site's
 * page (the API with 419, a screen's form post with 403), and guards
 * cookie-borne API writes with the signed CSRF token. Answers the CSRF tokens
 * the sign-in routes issue.
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): CsrfTokens {
  const csrf = csrfTokens(options.secret, options.secureCookies);
  app.decorateRequest("user", null);
  app.decorateRequest("tokenId", null);
  app.decorateRequest("authVia", null);
  app.decorateRequest("trade", null);
  // A reference type cannot be a decorator's default: null here, RETAIL first thing in the hook below.
  app.decorateRequest("prices", null as unknown as PriceContext);

  // A trade member's prices are theirs alone: no shared cache may keep them.
  app.addHook("onSend", async (request, reply) => {
    if (request.trade) reply.header("cache-control", "private, no-store");
  });

  app.addHook("onRequest", async (request, reply) => {
    request.prices = RETAIL;
    // The back office has a door of its own (plugins/staff-auth.ts): a customer's session means nothing there.
    if (isAdminPath(request.url)) return;
    const fromHeader = bearer(request);
    const fromCookie = request.cookies[SESSION_COOKIE];
    const plain = fromHeader ?? fromCookie;
    if (plain) {
      const found = await resolveAccessToken(options.db, plain);
      if (found) {
        request.user = found.user;
        request.tokenId = found.tokenId;
        request.authVia = fromHeader ? "bearer" : "cookie";
        request.trade = found.trade;
        request.prices = priceContextFor(found.trade);
      } else if (!fromHeader && fromCookie) {
        // A revoked or expired token: drop the stale cookie (and its CSRF token, for a guest's).
        clearSessionCookie(reply, options.secureCookies, csrf);
      }
    }

    if (!UNSAFE.has(request.method)) return;
    const api = isApiPath(request.url);
    // Other API clients authenticate with the header alone: no cookie to abuse, and no Origin to judge.
    if (api && fromHeader && !fromCookie) return;
    if (crossSite(request, options.publicOrigin)) {
      return api ? reply.code(419).send({ message: "CSRF token mismatch." }) : reply.code(403).send("Cross-site requests are not allowed here.");
    }
    // A screen's own form post needs nothing more: SameSite=Lax keeps the session off other sites' posts, and the Origin was checked.
    const hasCookies = typeof request.headers.cookie === "string" && request.headers.cookie.length > 0;
    if (!api || !hasCookies) return;
    const cookie = request.cookies[CSRF_COOKIE];
    const header = request.headers[CSRF_HEADER];
    if (!cookie || typeof header !== "string" || !sameSecret(cookie, header) || !csrf.valid(header, csrfSessionOf(request))) {
      return reply.code(419).send({ message: "CSRF token mismatch." });
    }
  });
  return csrf;
}
