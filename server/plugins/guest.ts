import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sha256 } from "../modules/auth/tokens.ts";
import { type PriceContext, RETAIL } from "../modules/trade/pricing.ts";

/** An opaque, HttpOnly cookie that lets a guest keep baskets without an account. */
export const GUEST_COOKIE = "tc_guest";
const GUEST_SECONDS = 30 * 24 * 60 * 60;

export function guestTokenOf(request: FastifyRequest): string | null {
  const value = request.cookies[GUEST_COOKIE];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/** The hash a basket is stored under (the cookie value itself is never stored). */
export function guestHashOf(request: FastifyRequest): string | null {
  const token = guestTokenOf(request);
  return token ? sha256(token) : null;
}

/** The guest's hash, issuing the cookie first when the guest has none. */
export function ensureGuestHash(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  let token = guestTokenOf(request);
  if (!token) {
    token = randomBytes(32).toString("base64url");
    reply.setCookie(GUEST_COOKIE, token, { path: "/", httpOnly: true, sameSite: "lax", secure, maxAge: GUEST_SECONDS });
  }
  return sha256(token);
}

/**
 * Who a basket belongs to: the signed-in user, else the guest cookie. A user
 * carries the request's prices (a trade member's discount); a guest pays retail.
 */
export type BasketOwner = { userId: number; prices?: PriceContext } | { guestHash: string };

export function pricesOf(owner: BasketOwner): PriceContext {
  return "userId" in owner ? (owner.prices ?? RETAIL) : RETAIL;
}
