import { createHmac, randomBytes } from "node:crypto";
import { sameSecret } from "./same-secret.ts";

/**
 * `nonce.HMAC(key, purpose:nonce)`: a token only the holder of `key` can make,
 * good for one purpose only (the storefront's and the back office's CSRF
 * tokens, bound to a session; a member's device cookie, bound to their account).
 */
export function signNonce(key: string, purpose: string, nonce = randomBytes(18).toString("base64url")): string {
  return `${nonce}.${createHmac("sha256", key).update(`${purpose}:${nonce}`).digest("base64url")}`;
}

/** The nonce of a token `signNonce(key, purpose)` made, or null for any other string. */
export function signedNonce(token: string, key: string, purpose: string): string | null {
  const nonce = token.split(".")[0];
  return nonce && sameSecret(signNonce(key, purpose, nonce), token) ? nonce : null;
}
