import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
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
  /** The shop's own origin: a cookie-less write from a browser must come from it. */
  publicOrigin: string;
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string" || !header.startsWith("Bearer ")) return null;
  return header.slice(7).trim() || null;
}

export function setSessionCookie(reply: FastifyReply, token: string, remember: boolean, maxAge: number, secure: boolean): void {
  // Without "remember me" it is a session cookie: it ends when the browser closes.
  reply.setCookie(SESSION_COOKIE, token, { path: "/", httpOnly: true, sameSite: "lax", secure, ...(remember ? { maxAge } : {}) });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
}

export function issueCsrfCookie(reply: FastifyReply, secure: boolean): string {
  const value = randomBytes(32).toString("base64url");
  // Readable by the page's script, which echoes it in X-XSRF-TOKEN.
  reply.setCookie(CSRF_COOKIE, value, { path: "/", httpOnly: false, sameSite: "lax", secure, maxAge: CSRF_COOKIE_SECONDS });
  return value;
}

function sameValue(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function isApiPath(url: string): boolean {
  return url.startsWith("/api/") || url.startsWith("/sanctum/");
}

/**
 * Resolves who is calling (bearer header first, then the session cookie) for
 * every request, API and pages alike, and guards cookie-authenticated API
 * writes with the double-submit CSRF token.
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
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
        // A revoked or expired token: drop the stale cookie.
        clearSessionCookie(reply, options.secureCookies);
      }
    }

    if (!UNSAFE.has(request.method) || !isApiPath(request.url)) return;
    // Other API clients authenticate with the header alone and need no CSRF token.
    if (fromHeader && !fromCookie) return;
    const hasCookies = typeof request.headers.cookie === "string" && request.headers.cookie.length > 0;
    if (!hasCookies) {
      // No cookie to abuse; a browser still must not post here from another site.
      const origin = request.headers.origin;
      if (!origin || origin === options.publicOrigin || origin === `${request.protocol}://${request.host}`) return;
      return reply.code(419).send({ message: "CSRF token mismatch." });
    }
    const cookie = request.cookies[CSRF_COOKIE];
    const header = request.headers[CSRF_HEADER];
    if (!cookie || typeof header !== "string" || !sameValue(cookie, header)) {
      return reply.code(419).send({ message: "CSRF token mismatch." });
    }
  });
}
