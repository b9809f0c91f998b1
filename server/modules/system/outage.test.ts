// The database going away for a moment: requests answer 503 with Retry-After,
// /readyz says not ready, and the same server answers again once the database
// is back, with no restart. The outage needs PostgreSQL (PGlite runs in the
// process and cannot go away), so that part runs only with TEST_DATABASE_URL:
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/system
// The shop reaches the database through a TCP proxy in this test; stopping the
// proxy (refusing new connections and cutting the open ones) is the outage.
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, type Server, type Socket, connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { type Database, openPostgres } from "../../db/client.ts";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../../lib/database-outage.ts";
import { createTestDatabase, type TestDatabase } from "../../test/database.ts";
import { TestBrowser } from "../../test/browser.ts";
import { DEMO_TRADE } from "../../db/seed/demo-trade.ts";
import { products } from "../catalog/schema.ts";

/**
 * A TCP proxy to host:port that can be taken down and brought back on the same
 * port, or fall silent: connections stay open, nothing passes either way.
 */
function tcpProxy(host: string, targetPort: number) {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let server: Server | null = null;
  let port = 0;
  let silent = false;
  const pass = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  return {
    get port() {
      return port;
    },
    async up() {
      server = createServer((client) => {
        const upstream = connect(targetPort, host);
        const pair: [Socket, Socket] = [client, upstream];
        sockets.add(client).add(upstream);
        pairs.add(pair);
        const end = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
          pairs.delete(pair);
        };
        for (const s of pair) s.on("error", end).on("close", end);
        if (!silent) pass(pair);
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    },
    silence() {
      silent = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream).pause();
        upstream.unpipe(client).pause();
      }
    },
    speak() {
      silent = false;
      for (const pair of pairs) pass(pair);
    },
    async down() {
      if (!server) return;
      const closed = new Promise((resolve) => server!.close(resolve));
      for (const s of sockets) s.destroy();
      sockets.clear();
      server = null;
      await closed;
    },
  };
}

describe("which errors mean the database is out of reach", () => {
  it("knows a refused, cut or shutting-down connection, also wrapped, and nothing else", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: new Error("Connection terminated unexpectedly") }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: new Error("timeout exceeded when trying to connect") }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("the database system is starting up"), { code: "57P03" }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused], "connect failed"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: new Error("Query read timeout") }))).toBe(true);
    // A query's own fault is not an outage.
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: Object.assign(new Error("duplicate key"), { code: "23505" }) }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("deadlock detected"), { code: "40P01" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the database going away for a moment (PostgreSQL)", () => {
  let database: TestDatabase;
  let proxied: Database;
  let proxy: ReturnType<typeof tcpProxy>;
  let app: FastifyInstance;
  /** The same shop with its storefront, for pages (no page cache: every page reaches its loaders). */
  let pages: FastifyInstance;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase({ seeded: true });
    const real = new URL(database.url!);
    proxy = tcpProxy(real.hostname, Number(real.port || 5432));
    await proxy.up();
    const through = new URL(real);
    through.hostname = "127.0.0.1";
    through.port = String(proxy.port);
    proxied = await openPostgres(through.toString(), { max: 4, connectionTimeoutMillis: 2_000, queryTimeoutMillis: 2_000 });
    dataDir = mkdtempSync(path.join(tmpdir(), "tc-outage-"));
    const config = loadConfig({ NODE_ENV: "test", COOKIE_SECRET: "x".repeat(32), DATA_DIR: dataDir });
    app = await buildApp({ config, database: proxied, storefront: { mode: "none" }, logger: false });
    await app.ready();
    pages = await buildApp({ config, database: proxied, storefront: { mode: "build" }, pageCache: false, logger: false });
    await pages.ready();
  });

  afterAll(async () => {
    await app?.close();
    await pages?.close();
    await proxied?.close();
    await proxy?.down();
    await database?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 503 with Retry-After while it is gone, reports it on /readyz, and recovers by itself", async () => {
    const browser = new TestBrowser(app, "198.51.100.7");
    await browser.csrf();
    const [first] = await database.db
      .update(products)
      .set({ stock: 10 })
      .where(sql`${products.id} = (select id from products where sku not like 'GEN-%' order by id limit 1)`)
      .returning({ id: products.id, slug: products.slug });
    if (!first) throw new Error("no product");

    // Healthy: ready, and the pool holds open connections through the proxy.
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: `/api/products/${first.slug}` })).statusCode).toBe(200);
    expect((await browser.post("/api/basket", { product_id: first.id, quantity: 1 })).statusCode).toBe(200);

    await proxy.down();

    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(Number(ready.headers["retry-after"])).toBeGreaterThan(0);
    expect(ready.headers["cache-control"]).toBe("no-store");
    // Reads and writes, signed out and as a basket owner: 503 with Retry-After, never a 500.
    const answers = await Promise.all([
      app.inject({ method: "GET", url: `/api/products/${first.slug}` }),
      app.inject({ method: "GET", url: "/api/products?page=2" }),
      browser.get("/api/basket"),
      browser.post("/api/basket", { product_id: first.id, quantity: 1 }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(503);
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      expect(res.json()).toEqual({ message: DATABASE_UNAVAILABLE });
    }
    // The process itself is up.
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);

    await proxy.up();

    // The same server, not restarted, answers again.
    await vi.waitFor(async () => expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200), { timeout: 10_000, interval: 200 });
    expect((await app.inject({ method: "GET", url: `/api/products/${first.slug}` })).statusCode).toBe(200);
    const added = await browser.post("/api/basket", { product_id: first.id, quantity: 1 });
    expect(added.statusCode).toBe(200);
    // The add refused during the outage changed nothing: one before it, one now.
    expect(added.json().cart.items[0].quantity).toBe(2);
  });

  it("answers pages with a 503 page and Retry-After, for a visitor (in the loaders) and a signed-in user (reading the session)", async () => {
    const member = new TestBrowser(pages, "198.51.100.8");
    await member.signIn(DEMO_TRADE.email, DEMO_TRADE.password);
    const [product] = await database.db.select({ slug: products.slug }).from(products).limit(1);
    const visitorPages = ["/", "/category/power-tools", `/product/${product!.slug}`, "/search?q=drill"];
    for (const url of visitorPages) expect((await pages.inject({ method: "GET", url })).statusCode).toBe(200);
    expect((await member.get("/account")).statusCode).toBe(200);

    await proxy.down();

    for (const res of [...(await Promise.all(visitorPages.map((url) => pages.inject({ method: "GET", url })))), await member.get("/account")]) {
      expect(res.statusCode).toBe(503);
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain("Service Unavailable");
      expect(res.body).toContain(DATABASE_UNAVAILABLE);
      expect(res.body).not.toMatch(/ECONNREFUSED|Connection terminated|timeout exceeded|at .*\.ts:/);
    }

    await proxy.up();
    await vi.waitFor(async () => expect((await pages.inject({ method: "GET", url: "/" })).statusCode).toBe(200), { timeout: 10_000, interval: 200 });
    expect((await member.get("/account")).statusCode).toBe(200);
  });

  it("gives up on a database that falls silent (connections open, no answers) with a 503, and recovers when it speaks again", async () => {
    const [product] = await database.db.select({ slug: products.slug }).from(products).limit(1);
    expect((await app.inject({ method: "GET", url: `/api/products/${product!.slug}` })).statusCode).toBe(200);

    proxy.silence();
    // Without the query timeout these requests would wait for ever.
    const [read, page] = await Promise.all([app.inject({ method: "GET", url: `/api/products/${product!.slug}` }), pages.inject({ method: "GET", url: "/category/power-tools" })]);
    expect(read.statusCode).toBe(503);
    expect(read.json()).toEqual({ message: DATABASE_UNAVAILABLE });
    expect(page.statusCode).toBe(503);
    expect(Number(page.headers["retry-after"])).toBeGreaterThan(0);

    proxy.speak();
    await vi.waitFor(async () => expect((await app.inject({ method: "GET", url: `/api/products/${product!.slug}` })).statusCode).toBe(200), { timeout: 10_000, interval: 200 });
    expect((await pages.inject({ method: "GET", url: "/category/power-tools" })).statusCode).toBe(200);
  });
});
