import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { PARTIAL_SUFFIX, backupName } from "../backups/files.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { type TestShop, createTestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { type FakeStripe, deliver, fakeStripe, sessionIdOf } from "../../test/payments.ts";
import { products } from "../catalog/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import { isPrivateAddress } from "./access.ts";

const TOKEN = "m".repeat(40);
const PUBLIC = "203.0.113.7";

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await shop.close();
});

function scrape(headers: Record<string, string> = {}, remoteAddress = "127.0.0.1") {
  return shop.app.inject({ method: "GET", url: "/metrics", headers, remoteAddress });
}

async function metricsText(): Promise<string> {
  const answer = await scrape();
  expect(answer.statusCode).toBe(200);
  return answer.body;
}

/** The value of one sample, by its name and labels as the text format writes them; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const found = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!found || found[1] !== name) continue;
    const have = Object.fromEntries([...(found[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(found[3]);
  }
  return undefined;
}

describe("who may read /metrics", () => {
  it("answers loopback and the private networks", async () => {
    for (const address of ["127.0.0.1", "::1", "10.1.2.3", "172.20.0.5", "192.168.1.9", "fd12::7", "::ffff:10.0.0.2"]) {
      const answer = await scrape({}, address);
      expect(answer.statusCode, address).toBe(200);
      expect(answer.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    }
  });

  it("refuses a public address, with no metric in the answer", async () => {
    for (const address of [PUBLIC, "8.8.8.8", "172.32.0.1", "2001:db8::1", "::ffff:8.8.8.8"]) {
      const answer = await scrape({}, address);
      expect(answer.statusCode, address).toBe(403);
      expect(answer.body).not.toContain("tradecounter_");
    }
  });

  it("refuses a public visitor that a proxy on loopback forwards, and answers a private one", async () => {
    expect((await scrape({ "x-forwarded-for": PUBLIC })).statusCode).toBe(403);
    expect((await scrape({ "x-forwarded-for": `10.0.0.4, ${PUBLIC}` })).statusCode).toBe(403);
    expect((await scrape({ "x-forwarded-for": "192.168.0.10" })).statusCode).toBe(200);
    // A public peer cannot talk its way in by naming a private address.
    expect((await scrape({ "x-forwarded-for": "127.0.0.1" }, PUBLIC)).statusCode).toBe(403);
  });

  it("answers anyone with the bearer METRICS_TOKEN, and refuses a wrong one", async () => {
    expect((await scrape({ authorization: `Bearer ${TOKEN}` }, PUBLIC)).statusCode).toBe(200);
    expect((await scrape({ authorization: `Bearer ${TOKEN}x` }, PUBLIC)).statusCode).toBe(403);
    expect((await scrape({ authorization: `Bearer ${"n".repeat(40)}` }, PUBLIC)).statusCode).toBe(403);
    expect((await scrape({ authorization: TOKEN }, PUBLIC)).statusCode).toBe(403);
  });

  it("is not in the public API document", async () => {
    const doc = (await shop.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).not.toContain("/metrics");
  });

  it("knows the private ranges' edges", () => {
    expect(isPrivateAddress("172.15.255.255")).toBe(false);
    expect(isPrivateAddress("172.31.255.255")).toBe(true);
    expect(isPrivateAddress("fe00::1")).toBe(false);
    expect(isPrivateAddress("not an address")).toBe(false);
  });
});

describe("what /metrics counts", () => {
  it("counts requests by their route pattern, never their raw path, and unmatched ones under one label", async () => {
    const list = (await shop.app.inject({ method: "GET", url: "/api/products" })).json<{ items: { slug: string }[] }>();
    const slugs = list.items.slice(0, 2).map((p) => p.slug);
    expect(slugs).toHaveLength(2);
    const before = await metricsText();
    const counted = (text: string) => sample(text, "tradecounter_http_request_duration_seconds_count", { route: "/api/products/:slug", method: "GET", status: "200" }) ?? 0;
    const unmatched = (text: string) => sample(text, "tradecounter_http_request_duration_seconds_count", { route: "(unmatched)", status: "404" }) ?? 0;
    for (const slug of slugs) expect((await shop.app.inject({ method: "GET", url: `/api/products/${slug}` })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) await shop.app.inject({ method: "GET", url: `/scan-${i}/wp-login.php` });
    const after = await metricsText();
    expect(counted(after) - counted(before)).toBe(2);
    expect(unmatched(after) - unmatched(before)).toBe(3);
    for (const slug of slugs) expect(after).not.toContain(slug);
    expect(after).not.toContain("scan-");
  });

  it("counts the catalogue cache's misses and hits", async () => {
    const before = await metricsText();
    const url = `/api/products?per_page=3&metrics=${Date.now()}`;
    await shop.app.inject({ method: "GET", url });
    await shop.app.inject({ method: "GET", url });
    const after = await metricsText();
    const count = (text: string, result: string) => sample(text, "tradecounter_page_cache_requests_total", { store: "json", result }) ?? 0;
    expect(count(after, "miss") - count(before, "miss")).toBe(1);
    expect(count(after, "hit") - count(before, "hit")).toBe(1);
  });

  it("reports when the newest complete backup in BACKUP_DIR was taken, and 0 before there is one", async () => {
    const age = () => metricsText().then((text) => sample(text, "tradecounter_backup_last_success_timestamp_seconds"));
    expect(await age()).toBe(0);
    await mkdir(shop.config.backupDir, { recursive: true });
    const taken = new Date("2026-11-27T02:30:00Z");
    await writeFile(path.join(shop.config.backupDir, backupName(taken)), "a backup");
    // One being written (or killed midway) claims nothing.
    await writeFile(path.join(shop.config.backupDir, `${backupName(new Date("2026-11-28T02:30:00Z"))}${PARTIAL_SUFFIX}`), "half");
    expect(await age()).toBe(taken.getTime() / 1000);
  });

  it("counts the sign-in limit's refusals", async () => {
    const refused = (text: string) => sample(text, "tradecounter_rate_limit_refusals_total", { limit: "login" }) ?? 0;
    const before = await metricsText();
    let tooMany = 0;
    for (let i = 0; i < 7; i++) {
      const answer = await shop.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "nobody@example.com", password: "wrong-password" }, remoteAddress: "198.51.100.20" });
      if (answer.statusCode === 429) tooMany++;
    }
    expect(tooMany).toBeGreaterThan(0);
    expect(refused(await metricsText()) - refused(before)).toBe(tooMany);
  });

  it("reads the outbox, the job queue and the database pool when scraped, with the process metrics", async () => {
    const text = await metricsText();
    expect(sample(text, "tradecounter_mail_outbox_pending")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "tradecounter_mail_outbox_oldest_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "tradecounter_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    // Every scheduled job has its line, 0 while none waits.
    expect(sample(text, "tradecounter_job_queue_depth", { job: "payments.sweep" })).toBe(0);
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("counts the mail waiting in the outbox and the oldest one's age", async () => {
    // Created ten minutes ago, its next attempt tomorrow: the outbox worker leaves it waiting.
    const [mail] = await shop.database.db
      .insert(mailOutbox)
      .values({ to: "waiting@example.com", subject: "Waiting", html: "<p>w</p>", text: "w", createdAt: new Date(Date.now() - 10 * 60_000), nextAttemptAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: mailOutbox.id });
    try {
      const text = await metricsText();
      expect(sample(text, "tradecounter_mail_outbox_pending")).toBeGreaterThanOrEqual(1);
      expect(sample(text, "tradecounter_mail_outbox_oldest_age_seconds")).toBeGreaterThanOrEqual(600);
    } finally {
      await shop.database.db.delete(mailOutbox).where(eq(mailOutbox.id, mail!.id));
    }
  });

  it("keeps each app's metrics in its own registry", async () => {
    const other = await createTestShop();
    try {
      const answer = await other.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1" });
      expect(answer.statusCode).toBe(200);
      expect(sample(answer.body, "tradecounter_rate_limit_refusals_total", { limit: "login" })).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe("checkouts and payment webhooks", () => {
  let paying: TestShop;
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await fakeStripe();
    paying = await createTestShop({}, { paymentGateway: stripe.gateway });
  });
  afterAll(async () => {
    await paying.close();
    await stripe.close();
  });

  const counted = async (name: string, outcome: string) => {
    const text = (await paying.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1" })).body;
    return sample(text, name, { outcome }) ?? 0;
  };

  it("counts orders placed, replayed and refused, and webhooks applied, duplicated and refused", async () => {
    const [product] = await paying.database.db
      .update(products)
      .set({ stock: 10, pricePence: 1000, vatRate: 20, heavy: false })
      .where(eq(products.id, sql`(select id from products order by id offset 3 limit 1)`))
      .returning({ id: products.id });
    const b = new TestBrowser(paying.app, "198.51.100.77");
    await b.csrf();
    await b.post("/api/basket", { product_id: product!.id, quantity: 1 });
    const order = { email: "metrics.buyer@example.co.uk", phone: "0113 496 0000", delivery_method: "collect", collector_name: "Test Collector", payment_method: "card" };
    const placed = await b.request("POST", "/api/checkout", order, { headers: { "idempotency-key": "metrics-order-1" } });
    expect(placed.statusCode, placed.body).toBe(201);
    expect((await b.request("POST", "/api/checkout", order, { headers: { "idempotency-key": "metrics-order-1" } })).statusCode).toBe(200);
    // The basket has become the order: a second, different order has nothing to place.
    const refused = await b.request("POST", "/api/checkout", order, { headers: { "idempotency-key": "metrics-order-2" } });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    expect(await counted("tradecounter_checkouts_total", "placed")).toBe(1);
    expect(await counted("tradecounter_checkouts_total", "replayed")).toBe(1);

    const sessionId = sessionIdOf(placed.json<{ payment: { redirect_url: string } }>().payment.redirect_url);
    await stripe.processor.act(sessionId, "pay");
    const completed = [...stripe.processor.events].reverse().find((e) => e.type === "checkout.session.completed")!;
    expect((await deliver(paying.app, completed)).statusCode).toBe(200);
    expect((await deliver(paying.app, completed)).statusCode).toBe(200);
    expect((await deliver(paying.app, completed, completed.signature.replace(/v1=\w+/, `v1=${"0".repeat(64)}`))).statusCode).toBe(400);
    expect(await counted("tradecounter_payment_webhooks_total", "applied")).toBe(1);
    expect(await counted("tradecounter_payment_webhooks_total", "duplicate")).toBe(1);
    expect(await counted("tradecounter_payment_webhooks_total", "refused")).toBe(1);
  });
});
