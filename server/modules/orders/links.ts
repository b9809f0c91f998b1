import { createHmac, timingSafeEqual } from "node:crypto";

/** A year: long enough to return goods and to look back at the order. */
const ORDER_LINK_SECONDS = 365 * 24 * 60 * 60;

/**
 * A link only its holder can have made: an HMAC of what it is for, the
 * order's number and an expiry, under the cookie secret. Checkout's
 * thank-you link and the order's own page both sign theirs here.
 */
export function orderSignature(secret: string, purpose: string, seconds: number) {
  const sign = (number: string, expires: number) => createHmac("sha256", secret).update(`${purpose}|${number}|${expires}`).digest("base64url");
  return {
    /** `expires` (seconds since the epoch) and `signature` for the number, from `now`. */
    issue(number: string, now = Date.now()): { expires: string; signature: string } {
      const expires = Math.floor(now / 1000) + seconds;
      return { expires: String(expires), signature: sign(number, expires) };
    },
    verify(number: string, expires: string | undefined, signature: string | undefined, now = Date.now()): boolean {
      if (!expires || !signature) return false;
      const exp = Number(expires);
      if (!Number.isSafeInteger(exp) || exp * 1000 < now) return false;
      const expected = Buffer.from(sign(number, exp));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

/**
 * The order's own page for whoever holds the link in its emails (issue 31):
 * a guest follows it to see the order and to return or cancel items, with no
 * account.
 */
export function createOrderLinks(secret: string) {
  const signed = orderSignature(secret, "order", ORDER_LINK_SECONDS);
  return {
    /** `/orders/TC-000123?expires=…&signature=…`, relative to the shop. */
    orderLink: (number: string, now = Date.now()): string => `/orders/${number}?${new URLSearchParams(signed.issue(number, now))}`,
    verifyOrderLink: (number: string, expires: string | undefined, signature: string | undefined, now = Date.now()): boolean => signed.verify(number, expires, signature, now),
  };
}

export type OrderLinks = ReturnType<typeof createOrderLinks>;

/** A fortnight: a phone customer's card payment link stays good while the order waits for it. */
const PAY_LINK_SECONDS = 14 * 24 * 60 * 60;

/**
 * The card payment link emailed for an order taken by staff (issue 34): it
 * opens a payment page for the order's total, or the one still open. Signed,
 * like the order's own page, so it needs no column of its own.
 */
export function createOrderPayLinks(secret: string) {
  const signed = orderSignature(secret, "pay", PAY_LINK_SECONDS);
  return {
    /** `/api/payments/order/TC-000123?expires=…&signature=…`, relative to the shop. */
    payLink: (number: string, now = Date.now()): string => `/api/payments/order/${number}?${new URLSearchParams(signed.issue(number, now))}`,
    verifyPayLink: (number: string, expires: string | undefined, signature: string | undefined, now = Date.now()): boolean => signed.verify(number, expires, signature, now),
  };
}

export type OrderPayLinks = ReturnType<typeof createOrderPayLinks>;
