// Whose address the sign-in limit counts in production (TRUST_PROXY's default,
// server/config.ts): behind nginx on this machine or a private network, the
// visitor's own; a visitor cannot choose it by sending X-Forwarded-For, whether
// they reach the shop directly or through a proxy that appends to the header.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMER } from "../../db/seed/index.ts";
import { createTestShop, type TestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop({ NODE_ENV: "production" });
});
afterAll(async () => {
  await shop?.close();
});

/** Wrong passwords for the demo customer, each with its own X-Forwarded-For; the statuses answered. */
async function guesses(browser: TestBrowser, forwardedFor: (i: number) => string | null, count: number) {
  await browser.csrf();
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const forwarded = forwardedFor(i);
    const res = await browser.request("POST", "/api/auth/login", { email: DEMO_CUSTOMER.email, password: `guess ${i}` }, { headers: forwarded ? { "x-forwarded-for": forwarded } : {} });
    statuses.push(res.statusCode);
  }
  return statuses;
}

const LOCKED_AFTER_FIVE = [422, 422, 422, 422, 422, 429];

describe("the address the sign-in limit counts (production)", () => {
  it("trusts a proxy on loopback or a private network by default, and nobody in development", () => {
    expect(shop.config.trustProxy).toEqual(["loopback", "linklocal", "uniquelocal"]);
  });

  it("ignores X-Forwarded-For from a visitor who connects directly: changing it every time does not escape the limit", async () => {
    const direct = new TestBrowser(shop.app, "203.0.113.77");
    expect(await guesses(direct, (i) => `198.18.0.${i + 1}`, 6)).toEqual(LOCKED_AFTER_FIVE);
  });

  it("behind nginx, counts the visitor's address and not what the visitor wrote before it in the header", async () => {
    // A proxy that appends: the visitor's own made-up entries first, then the address nginx saw.
    const throughProxy = new TestBrowser(shop.app, "127.0.0.1");
    expect(await guesses(throughProxy, (i) => `10.9.9.${i + 1}, 198.51.100.7`, 6)).toEqual(LOCKED_AFTER_FIVE);

    // Another visitor through the same proxy is not locked out by the first one's guesses.
    const neighbour = new TestBrowser(shop.app, "127.0.0.1");
    await neighbour.csrf();
    const res = await neighbour.request("POST", "/api/auth/login", { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password }, { headers: { "x-forwarded-for": "198.51.100.8" } });
    expect(res.statusCode).toBe(200);
  });
});
