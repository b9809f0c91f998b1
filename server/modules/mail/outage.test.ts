// SMTP down while orders are placed: the orders succeed, their emails wait in
// the outbox, and once SMTP is back the shop's own worker delivers every one of
// them exactly once. A real SMTP server (in this process) on a fixed port; it
// is "down" while nothing listens there, so each attempt is refused.
import { createServer } from "node:net";
import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestShop, type TestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { products } from "../catalog/schema.ts";
import { mailOutbox } from "./schema.ts";
import { createMailService } from "./service.ts";
import { startTestSmtpServer, type TestSmtpServer } from "./smtp-test-server.ts";
import { createMailTransport } from "./transport.ts";

let shop: TestShop;
let port: number;
let smtp: TestSmtpServer | undefined;

beforeAll(async () => {
  // A port that was free a moment ago: SMTP is down until the server starts there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  shop = await createTestShop({ SMTP_URL: `smtp://127.0.0.1:${port}`, SHOP_EMAIL: "orders@example.com" });
});
afterAll(async () => {
  await shop?.close();
  await smtp?.close();
});

const quiet = { info() {}, warn() {}, error() {} };

describe("SMTP down while orders are placed", () => {
  it("places the orders, keeps their emails, and delivers each once when SMTP returns", async () => {
    const placed: string[] = [];
    const stocked = await shop.database.db
      .update(products)
      .set({ stock: 10 })
      .where(sql`${products.id} in (select id from products where sku not like 'GEN-%' order by id limit 3)`)
      .returning({ id: products.id });
    for (const [i, product] of stocked.entries()) {
      const b = new TestBrowser(shop.app, `198.51.100.${20 + i}`);
      await b.csrf();
      expect((await b.post("/api/basket", { product_id: product.id, quantity: 1 })).statusCode).toBe(200);
      const res = await b.post("/api/checkout", {
        email: `buyer${i}@example.co.uk`,
        phone: "0113 496 0000",
        delivery_method: "collect", collector_name: "Test Collector",
        payment_method: "pay_on_collection",
      });
      // SMTP being down is no reason to refuse an order.
      expect(res.statusCode).toBe(201);
      placed.push(res.json().order_number);
    }
    const subjects = placed.flatMap((n) => [`Your order ${n}`, `Order ${n}`]);
    const ours = inArray(mailOutbox.subject, subjects);

    // The worker was kicked by each order and tried: every email is still pending, refused at least once.
    await vi.waitFor(
      async () => {
        const rows = await shop.database.db.select().from(mailOutbox).where(ours);
        expect(rows).toHaveLength(6);
        for (const row of rows) {
          expect(row.status).toBe("pending");
          expect(row.attempts).toBeGreaterThanOrEqual(1);
          expect(row.lastError).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
        }
      },
      { timeout: 20_000, interval: 250 },
    );

    // SMTP returns, and the retries fall due (the backoff is 30 seconds and more; the test moves the schedule, not the clock).
    smtp = await startTestSmtpServer(port);
    await shop.database.db.update(mailOutbox).set({ nextAttemptAt: sql`now()` }).where(ours);

    // The shop's own worker (every 5 seconds) delivers them.
    await vi.waitFor(() => expect(smtp!.received).toHaveLength(6), { timeout: 30_000, interval: 250 });
    expect(smtp.received.map((m) => m.subject).sort()).toEqual([...subjects].sort());
    const rows = await shop.database.db.select().from(mailOutbox).where(ours);
    expect(rows.every((r) => r.status === "sent" && r.sentAt !== null && r.lastError === null)).toBe(true);

    // Nothing is sent twice: another worker now (a second process) finds nothing due, and a later pass of the shop's sends nothing more.
    const second = createMailService(shop.database.db, { transport: createMailTransport({ smtpUrl: smtp.url, dataDir: "/nonexistent" }, quiet), from: "x <x@example.com>", log: quiet });
    expect(await second.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect(smtp.received).toHaveLength(6);
  }, 90_000);
});
