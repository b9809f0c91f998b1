import { createHmac, timingSafeEqual } from "node:crypto";

/** A year: long enough to return goods and to look back at the order. */
const ORDER_LINK_SECONDS = 365 * 24 * 60 * 60;

/**
 * The order's own page for whoever holds the link in its emails (issue 31):
 * a guest follows it to see the order and to return or cancel items, with no
 * account. An HMAC of the number and the expiry, under the cookie secret.
 */
export function createOrderLinks(secret: string) {
  const sign = (number: string, expires: number) => createHmac("sha256", secret).update(`order|${number}|${expires}`).digest("base64url");
  return {
    /** `/orders/TC-000123?expires=…&signature=…`, relative to the shop. */
    orderLink(number: string, now = Date.now()): string {
      const expires = Math.floor(now / 1000) + ORDER_LINK_SECONDS;
      return `/orders/${number}?${new URLSearchParams({ expires: String(expires), signature: sign(number, expires) })}`;
    },
    verifyOrderLink(number: string, expires: string | undefined, signature: string | undefined, now = Date.now()): boolean {
      if (!expires || !signature) return false;
      const exp = Number(expires);
      if (!Number.isSafeInteger(exp) || exp * 1000 < now) return false;
      const expected = Buffer.from(sign(number, exp));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type OrderLinks = ReturnType<typeof createOrderLinks>;
