import fastifyCookie from "@fastify/cookie";
import { gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMER } from "../db/seed/index.ts";
import { DEMO_JOINERY, DEMO_TRADE, DEMO_TRADE_TERMS, DEMO_TRADE_USERS } from "../db/seed/demo-trade.ts";
import { tradeAccounts } from "../modules/trade/schema.ts";
import { unitPence } from "../modules/trade/pricing.ts";
import { products } from "../modules/catalog/schema.ts";
import { hireItems } from "../modules/hire/schema.ts";
import { createTestShop, type TestShop, servicesOf } from "../test/app.ts";
import { TestBrowser } from "../test/browser.ts";
import { registerPageCache } from "./page-cache.ts";
import { SESSION_COOKIE } from "./auth.ts";
import { registerSecurityHeaders } from "./security-headers.ts";

const nonceOfHeader = (res: LightMyRequestResponse) => /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
const noncesInBody = (body: string) => [...new Set([...body.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]))];

describe("the visitor page cache, on the built storefront", () => {
  let shop: TestShop;
  let slug: string;
  let productId: number;
  let sku: string;
  /** A staff price change (pence ex VAT), through the catalogue desk's service. */
  const setPrice = async (pence: number) => services().adminProducts.update(await services().staff.systemActor(), sku, { price_ex_vat: pence });
  beforeAll(async () => {
    shop = await createTestShop({}, { storefront: { mode: "build" } });
    const [p] = await shop.database.db.select({ id: products.id, slug: products.slug, sku: products.sku }).from(products).orderBy(products.id).limit(1);
    slug = p!.slug;
    productId = p!.id;
    sku = p!.sku;
    await shop.database.db.update(products).set({ vatRate: 20 }).where(eq(products.id, productId));
    // Migrating, seeding and importing the build: slow on a busy machine.
  }, 180_000);
  afterAll(() => shop.close());

  const visit = (url: string, headers: Record<string, string> = {}) => shop.app.inject({ method: "GET", url, headers });
  const priceOf = (res: LightMyRequestResponse) => /property="product:price:amount" content="([\d.]+)"/.exec(res.body)?.[1];

  it("serves the second visitor the kept page, with a nonce of its own that the CSP header names", async () => {
    const first = await visit("/");
    const second = await visit("/");
    expect(first.statusCode).toBe(200);
    expect([first.headers["x-cache"], second.headers["x-cache"]]).toEqual(["miss", "hit"]);
    for (const res of [first, second]) {
      expect(res.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
      expect(res.headers["set-cookie"]).toBeUndefined();
      expect(res.body).not.toContain("tcnonce");
      const nonces = noncesInBody(res.body);
      expect(nonces).toEqual([nonceOfHeader(res)]);
    }
    expect(nonceOfHeader(first)).not.toBe(nonceOfHeader(second));
    // The ETag names the body and its nonce (a 304 must keep the copy's nonce).
    const bodyTag = (res: LightMyRequestResponse) => String(res.headers.etag).replace(/\.[^.]*"$/, "");
    expect(bodyTag(second)).toBe(bodyTag(first));
    expect(first.headers.etag).toBe(`W/"${bodyTag(first).slice(3)}.${nonceOfHeader(first)}"`);
    expect(second.body.replaceAll(nonceOfHeader(second)!, "N")).toBe(first.body.replaceAll(nonceOfHeader(first)!, "N"));
  });

  it("sends a kept page gzipped to a browser that takes it, its nonce spliced into the compressed stream", async () => {
    await visit("/hire");
    const zipped = await visit("/hire", { "accept-encoding": "gzip, deflate, br" });
    expect(zipped.headers["x-cache"]).toBe("hit");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    const html = gunzipSync(zipped.rawPayload).toString();
    expect(noncesInBody(html)).toEqual([nonceOfHeader(zipped)]);
    expect(zipped.rawPayload.byteLength).toBeLessThan(html.length / 3);
    expect((await visit("/hire", { "accept-encoding": "gzip;q=0, identity" })).headers["content-encoding"]).toBeUndefined();
  });

  it("keys by path and sorted query, and keeps a client navigation's data request too", async () => {
    expect((await visit("/products?sort=name&page=2")).headers["x-cache"]).toBe("miss");
    expect((await visit("/products?page=2&sort=name")).headers["x-cache"]).toBe("hit");
    const data = await visit(`/product/${slug}.data`);
    expect(data.statusCode).toBe(200);
    expect(data.headers["x-cache"]).toBe("miss");
    expect((await visit(`/product/${slug}.data`)).headers["x-cache"]).toBe("hit");
  });

  it("answers 304 to If-None-Match, kept or not, naming the nonce of the copy the browser keeps", async () => {
    const page = await visit("/category");
    const again = await visit("/category", { "if-none-match": String(page.headers.etag) });
    expect(again.headers["x-cache"]).toBe("hit");
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(page.headers.etag);
    expect(nonceOfHeader(again)).toBe(nonceOfHeader(page));
    // Rendered anew after a change, and the same body: still 304, still their nonce.
    await shop.database.db.execute(sql`update categories set name = name`);
    const rendered = await visit("/category", { "if-none-match": `W/"stale.${"A".repeat(22)}==", ${String(page.headers.etag)}` });
    expect(rendered.headers["x-cache"]).toBe("miss");
    expect(rendered.statusCode).toBe(304);
    expect(nonceOfHeader(rendered)).toBe(nonceOfHeader(page));
    // A validator of another body, or a nonce of the wrong shape, gets the page.
    expect((await visit("/category", { "if-none-match": `W/"other.${nonceOfHeader(page)}"` })).statusCode).toBe(200);
    expect((await visit("/category", { "if-none-match": String(page.headers.etag).replace(/\.[^"]*"/, '.x"') })).statusCode).toBe(200);
  });

  it("shows a price changed through the products service on the very next request", async () => {
    const before = await visit(`/product/${slug}`);
    expect((await visit(`/product/${slug}`)).headers["x-cache"]).toBe("hit");
    await setPrice(12_345);
    const after = await visit(`/product/${slug}`);
    expect(after.headers["x-cache"]).toBe("miss");
    expect(priceOf(after)).toBe("148.14");
    expect(priceOf(after)).not.toBe(priceOf(before));
    expect((await visit(`/product/${slug}.data`)).body).toContain("148.14");
  });

  it("shows a price changed straight in the database (another process, psql) on the very next request", async () => {
    await visit(`/product/${slug}`);
    expect((await visit(`/product/${slug}`)).headers["x-cache"]).toBe("hit");
    await shop.database.db.execute(sql`update products set price_pence = 20000, vat_rate = 20 where id = ${productId}`);
    const after = await visit(`/product/${slug}`);
    expect(after.headers["x-cache"]).toBe("miss");
    expect(priceOf(after)).toBe("240.00");
  });

  it("shows the stock an order took on the very next request", async () => {
    await services().adminProducts.update(await services().staff.systemActor(), sku, { stock: 1 });
    expect((await visit(`/product/${slug}`)).body).toMatch(/only (<!-- -->)?1(<!-- -->)? left/);
    expect((await visit(`/product/${slug}`)).headers["x-cache"]).toBe("hit");
    const buyer = new TestBrowser(shop.app, "198.51.100.7");
    await buyer.csrf();
    expect((await buyer.post("/api/basket", { product_id: productId, quantity: 1 })).statusCode).toBeLessThan(300);
    const placed = await buyer.post("/api/checkout", {
      email: "buyer@example.co.uk",
      phone: "0113 496 0000",
      delivery_method: "collect", collector_name: "Test Collector",
      delivery_address: { name: "Test Recipient", line_1: "1 High Street", town: "Leeds", postcode: "LS1 1AB" },
      payment_method: "pay_on_collection",
    });
    expect(placed.statusCode).toBeLessThan(300);
    const after = await visit(`/product/${slug}`);
    expect(after.headers["x-cache"]).toBe("miss");
    expect(after.body).toContain("Out of stock");
  });

  it("keeps a hire item's page until its hire catalogue changes", async () => {
    const [item] = await shop.database.db.select({ id: hireItems.id, slug: hireItems.slug }).from(hireItems).limit(1);
    await visit(`/hire/${item!.slug}`);
    expect((await visit(`/hire/${item!.slug}`)).headers["x-cache"]).toBe("hit");
    await shop.database.db.update(hireItems).set({ name: "Renamed for the page cache test" }).where(eq(hireItems.id, item!.id));
    const after = await visit(`/hire/${item!.slug}`);
    expect(after.headers["x-cache"]).toBe("miss");
    expect(after.body).toContain("Renamed for the page cache test");
  });

  /** A customer signed in through the API, as the browser's sign-in form does. */
  const signedIn = async (email: string, ip: string) => {
    const browser = new TestBrowser(shop.app, ip);
    await browser.signIn(email, DEMO_CUSTOMER.password);
    return browser;
  };
  const withoutNonce = (res: LightMyRequestResponse) => res.body.replaceAll(nonceOfHeader(res)!, "N");

  it("serves a signed-in consumer the visitor's page from the cache: the browser, not the HTML, names them", async () => {
    const visitor = await visit("/");
    const consumer = await signedIn(DEMO_CUSTOMER.email, "198.51.100.8");
    for (const url of ["/", `/product/${slug}`, "/category/power-tools", "/search?q=drill", `/product/${slug}.data`]) {
      await visit(url);
      const page = await consumer.get(url);
      expect(page.headers["x-cache"], url).toBe("hit");
      expect(page.headers["cache-control"], url).toBe("public, max-age=0, must-revalidate");
      expect(page.body, url).not.toContain(DEMO_CUSTOMER.email);
      expect(page.body, url).not.toContain(DEMO_CUSTOMER.lastname);
    }
    const home = await consumer.get("/");
    expect(withoutNonce(home)).toBe(withoutNonce(visitor));
    // The header is the visitor's until the browser has asked the API who is signed in.
    expect(home.body).toContain("Sign in");
  });

  it("renders personal pages per request and keeps none of them", async () => {
    const consumer = await signedIn(DEMO_CUSTOMER.email, "198.51.100.10");
    const member = await signedIn(DEMO_TRADE.email, "198.51.100.11");
    for (const [browser, url] of [
      [consumer, "/account/wishlist"],
      [consumer, "/account/addresses"],
      [member, "/trade/invoices"],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const page = await browser.get(url);
        expect(page.statusCode, url).toBe(200);
        expect(page.headers["x-cache"], url).toBe("bypass");
        expect(page.headers["cache-control"], url).toBe("private, no-store");
        expect(page.headers.etag, url).toBeUndefined();
      }
    }
    // A guest-only page redirects a signed-in customer: never a visitor's kept sign-in form.
    await visit("/auth/login");
    expect((await consumer.get("/auth/login")).statusCode).toBe(302);
    expect((await visit("/")).body).not.toContain(DEMO_CUSTOMER.email);
  });

  it("keeps a personal page's frame once per price view for signed-in customers only: it names no one, and visitors are still sent to sign in (ADR 0061)", async () => {
    const consumer = await signedIn(DEMO_CUSTOMER.email, "198.51.100.20");
    // A second consumer, new to the shop.
    const other = new TestBrowser(shop.app, "198.51.100.21");
    await other.csrf();
    const registered = await other.request("POST", "/api/auth/register", { firstname: "Frame", lastname: "Tester", email: "frame.tester@example.com", password: "frame-password-2026", password_confirmation: "frame-password-2026" });
    expect(registered.statusCode).toBe(201);
    const member = await signedIn(DEMO_TRADE.email, "198.51.100.22");
    for (const url of ["/account", "/account/orders/history", "/trade/dashboard", "/basket"]) {
      const first = await consumer.get(url);
      const second = await consumer.get(url);
      expect(first.statusCode, url).toBe(200);
      expect([first.headers["x-cache"], second.headers["x-cache"]], url).toEqual(["miss", "hit"]);
      for (const page of [first, second]) {
        // Served from memory, never by a browser's or a CDN's copy.
        expect(page.headers["cache-control"], url).toBe("private, no-store");
        expect(page.headers.etag, url).toBeUndefined();
        expect(page.body, url).not.toContain(DEMO_CUSTOMER.email);
        expect(page.body, url).not.toContain(DEMO_CUSTOMER.firstname);
        expect(page.body, url).not.toContain(DEMO_CUSTOMER.lastname);
      }
      // Another consumer shares the copy, byte for byte bar the nonce.
      const theirs = await other.get(url);
      expect(theirs.headers["x-cache"], url).toBe("hit");
      expect(withoutNonce(theirs), url).toBe(withoutNonce(second));
      // A trade member with their own prices has a copy of their own view, naming them no more.
      const mine = await member.get(url);
      expect(mine.statusCode, url).toBe(200);
      expect(mine.body, url).not.toContain(DEMO_TRADE.email);
      expect(mine.body, url).not.toContain(DEMO_TRADE.lastname);
      // A visitor never gets a signed-in frame: a personal page still sends them to sign in.
      const visitor = await visit(url);
      if (url === "/basket") expect(visitor.statusCode).toBe(200);
      else {
        expect(visitor.statusCode, url).toBe(302);
        expect(String(visitor.headers.location), url).toContain("/auth/login");
      }
    }
    // A session cookie that no longer signs anyone in is a visitor's: sent to sign in, never the frame.
    const stale = await shop.app.inject({ method: "GET", url: "/account", headers: { cookie: `${SESSION_COOKIE}=not-a-session` } });
    expect(stale.statusCode).toBe(302);
  });

  it("keeps a trade member's catalogue pages once per price view: never another account's prices", async () => {
    const joinery = eq(tradeAccounts.companyName, DEMO_JOINERY.company);
    await shop.database.db.update(tradeAccounts).set({ discountBasisPoints: 2300 }).where(joinery);
    const [{ pricePence }] = (await shop.database.db.select({ pricePence: products.pricePence }).from(products).where(eq(products.id, productId))) as [{ pricePence: number }];
    const exVat = (basisPoints: number) => `£${(unitPence(pricePence, { discountBasisPoints: basisPoints }) / 100).toFixed(2)}`;
    const [tenOff, quarterOff, fifteenOff] = [exVat(1000), exVat(2300), exVat(1500)];
    const url = `/product/${slug}`;

    const priya = await signedIn(DEMO_TRADE.email, "198.51.100.12");
    const dan = await signedIn(DEMO_JOINERY.email, "198.51.100.13");
    // Marcus is in Priya's company: the same price view, so the same kept copy.
    const marcus = await signedIn(DEMO_TRADE_USERS[0]!.email, "198.51.100.14");

    const a = await priya.get(url);
    const b = await dan.get(url);
    expect([a.headers["x-cache"], b.headers["x-cache"]]).toEqual(["miss", "miss"]);
    expect(a.body).toContain(tenOff);
    expect(a.body).not.toContain(quarterOff);
    expect(b.body).toContain(quarterOff);
    expect(b.body).not.toContain(tenOff);
    const again = [await priya.get(url), await marcus.get(url), await dan.get(url)];
    expect(again.map((r) => r.headers["x-cache"])).toEqual(["hit", "hit", "hit"]);
    expect(withoutNonce(again[1]!)).toBe(withoutNonce(a));
    expect(withoutNonce(again[2]!)).toBe(withoutNonce(b));
    for (const res of [a, b, ...again]) {
      // Private to the view: no browser or CDN may keep it, and it names no one.
      expect(res.headers["cache-control"]).toBe("private, no-store");
      expect(res.headers.etag).toBeUndefined();
      for (const who of [DEMO_TRADE, DEMO_JOINERY, DEMO_TRADE_USERS[0]!]) expect(res.body).not.toContain(who.email);
    }
    // Visitors never get a trade copy.
    const visitor = await visit(url);
    expect(visitor.body).not.toContain(tenOff);
    expect(visitor.body).not.toContain(quarterOff);

    // The account's discount changes: the very next page is the new view's.
    await shop.database.db.update(tradeAccounts).set({ discountBasisPoints: 1500 }).where(eq(tradeAccounts.companyName, "Shah Building Services Ltd"));
    const changed = await priya.get(url);
    expect(changed.headers["x-cache"]).toBe("miss");
    expect(changed.body).toContain(fifteenOff);
    expect(changed.body).not.toContain(tenOff);
    // A member switching to inc-VAT prices is a view of their own too.
    expect((await marcus.put("/api/trade/price-display", { prices_inc_vat: true })).statusCode).toBe(200);
    expect((await marcus.get(url)).headers["x-cache"]).toBe("miss");
    expect((await priya.get(url)).headers["x-cache"]).toBe("hit");
    await shop.database.db.update(tradeAccounts).set({ discountBasisPoints: DEMO_TRADE_TERMS.discountBasisPoints }).where(eq(tradeAccounts.companyName, "Shah Building Services Ltd"));
  });

  it("never keeps a page drawn from the visitor's cookies (compare) or a page that is not a 200", async () => {
    const compare = await visit("/compare", { cookie: `compare=${productId}` });
    expect(compare.headers["x-cache"]).toBe("bypass");
    expect(compare.headers["cache-control"]).toBe("private, no-store");
    expect((await visit("/compare.data", { cookie: `compare=${productId}` })).headers["x-cache"]).toBe("bypass");
    const missing = await visit("/no-such-page");
    expect(missing.statusCode).toBe(404);
    expect((await visit("/no-such-page")).headers["x-cache"]).toBe("bypass");
    expect(noncesInBody(missing.body)).toEqual([nonceOfHeader(missing)]);
  });

  it("keeps visitors' catalogue JSON under the same version: a price change is in the very next answer", async () => {
    const url = `/api/products/${slug}`;
    const priceInc = (res: LightMyRequestResponse) => (JSON.parse(res.body) as { data: { price: number } }).data.price;
    const first = await visit(url);
    const second = await visit(url);
    expect(first.statusCode).toBe(200);
    expect([first.headers["x-cache"], second.headers["x-cache"]]).toEqual(["miss", "hit"]);
    expect(second.headers["content-type"]).toMatch(/^application\/json/);
    expect(second.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(second.body).toBe(first.body);
    // Gzipped for a client that takes it, the same JSON inside.
    const zipped = await visit(url, { "accept-encoding": "gzip, deflate, br" });
    expect([zipped.headers["x-cache"], zipped.headers["content-encoding"]]).toEqual(["hit", "gzip"]);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(first.body);
    // Listings, search and suggestions are kept too.
    for (const list of ["/api/products?category=power-tools&per_page=24", "/api/search?q=drill", "/api/search/suggest?q=dri"]) {
      await visit(list);
      expect((await visit(list)).headers["x-cache"], list).toBe("hit");
    }

    await setPrice(31_000);
    const after = await visit(url);
    expect(after.headers["x-cache"]).toBe("miss");
    expect(priceInc(after)).toBe(372);
    expect(priceInc(after)).not.toBe(priceInc(first));
    const listing = await visit("/api/products?category=power-tools&per_page=24");
    expect(listing.headers["x-cache"]).toBe("miss");
  });

  it("never keeps a signed-in client's catalogue JSON (trade prices), nor any write, basket or account read", async () => {
    const member = new TestBrowser(shop.app, "198.51.100.9");
    await member.signIn(DEMO_TRADE.email, DEMO_TRADE.password);
    await visit(`/api/products/${slug}`);
    const theirs = await member.get(`/api/products/${slug}`);
    expect(theirs.headers["x-cache"]).toBe("bypass");
    // The trade discount is theirs alone: the visitor's kept answer is not it, and theirs is not kept.
    expect(theirs.body).not.toBe((await visit(`/api/products/${slug}`)).body);
    expect((await visit(`/api/products/${slug}`)).headers["x-cache"]).toBe("hit");
    for (const url of ["/api/basket", "/api/user", "/healthz"]) expect((await visit(url)).headers["x-cache"], url).toBeUndefined();
    expect((await visit("/favicon.svg")).headers["x-cache"]).toBeUndefined();
  });

  // The service layer the app's routes use, on the same database.
  const services = () => servicesOf(shop);
});

describe("the page cache's rules, on a stand-in page", () => {
  let app: FastifyInstance;
  let version = 1;
  beforeAll(async () => {
    app = Fastify();
    await app.register(fastifyCookie);
    registerSecurityHeaders(app, { isProduction: false, isDevServer: false, connectOrigins: [] });
    await app.register(async (scope) => {
      registerPageCache(scope, { buildId: "test", versions: { current: async () => String(version) }, maxEntries: 10, maxBytes: 1 << 20, ttlMs: 60_000 });
      scope.all("*", async (request, reply) => {
        const url = new URL(request.url, "http://x");
        if (url.searchParams.has("cookie")) reply.header("set-cookie", "tc_guest=abc; Path=/");
        reply.type("text/html; charset=utf-8");
        return `<p>${url.pathname}</p><script nonce="${request.renderNonce}"></script>`;
      });
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url, headers });

  it("does not keep a response that sets a cookie", async () => {
    expect((await get("/a?cookie=1")).headers["x-cache"]).toBe("bypass");
    const again = await get("/a?cookie=1");
    expect(again.headers["x-cache"]).toBe("bypass");
    expect(noncesInBody(again.body)).toEqual([nonceOfHeader(again)]);
  });

  it("renders anew once the version moves", async () => {
    await get("/b");
    expect((await get("/b")).headers["x-cache"]).toBe("hit");
    version++;
    expect((await get("/b")).headers["x-cache"]).toBe("miss");
  });

  it("passes by anyone with a session cookie or a bearer token, and every write", async () => {
    await get("/c");
    expect((await get("/c", { cookie: "tc_session=x" })).headers["x-cache"]).toBe("bypass");
    expect((await get("/c", { authorization: "Bearer x" })).headers["x-cache"]).toBe("bypass");
    expect((await app.inject({ method: "POST", url: "/c" })).headers["x-cache"]).toBe("bypass");
  });

  it("answers HEAD from a kept page", async () => {
    await get("/d");
    const head = await app.inject({ method: "HEAD", url: "/d" });
    expect(head.headers["x-cache"]).toBe("hit");
    expect(head.body).toBe("");
  });
});
