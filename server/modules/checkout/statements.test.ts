// How many statements (each a round trip) adding to the basket, reading it
// and placing an order send to PostgreSQL, as `npm run bench` makes those
// requests (issue 35): counted at the pg driver, and held to upper bounds so
// the count cannot grow unnoticed. Also the outbox worker's statements per
// email an order queues. PostgreSQL only: PGlite has no round trips to count.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guestOrder } from "../../../scripts/bench/client.ts";
import type { Db } from "../../db/client.ts";
import { createTestShop, type TestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { createTestDatabase, type TestDatabase } from "../../test/database.ts";
import { statementsOf } from "../../test/statements.ts";
import { createMailService } from "../mail/service.ts";
import { countSoleVariantsTo } from "../stock/ledger.ts";

const report = (what: string, statements: string[]) => console.log(`${what}: ${statements.length}\n  ${statements.join("\n  ")}`);

describe.skipIf(!process.env.TEST_DATABASE_URL)("statements per request (PostgreSQL)", () => {
  let shop: TestShop;
  let productId = 0;
  let ip = 1;
  const browser = async () => {
    const b = new TestBrowser(shop.app, `198.51.100.${ip++}`);
    await b.csrf();
    return b;
  };

  beforeAll(async () => {
    shop = await createTestShop();
    const db = shop.database.db;
    // As the bench buys: a product with one active variant, stock enough for any run.
    const rows = (await db.execute(sql`select id from products where sku not like 'GEN-%' and (select count(*) from product_variants v where v.product_id = products.id and v.status = 'active') = 1 order by id limit 1`)) as unknown as { rows: { id: number }[] };
    productId = rows.rows[0]!.id;
    await db.transaction((tx) => countSoleVariantsTo(tx as unknown as Db, [{ productId, counted: 1_000_000 }], "Test stock"));
  });
  afterAll(() => shop?.close());

  it("add to basket, as a guest with a line already and as a signed-in customer", async () => {
    const guest = await browser();
    const first = await statementsOf(() => guest.post("/api/basket", { product_id: productId, quantity: 1 }));
    expect(first.result.statusCode).toBeLessThan(300);
    report("guest's first add", first.statements);
    const again = await statementsOf(() => guest.post("/api/basket", { product_id: productId, quantity: 1 }));
    expect(again.result.statusCode).toBeLessThan(300);
    report("guest's add to a basket holding the line", again.statements);
    const customer = await browser();
    await customer.signIn("customer@example.com", "demo-password-2026");
    const signedIn = await statementsOf(() => customer.post("/api/basket", { product_id: productId, quantity: 1 }));
    expect(signedIn.result.statusCode).toBeLessThan(300);
    report("signed-in add", signedIn.statements);
    const read = await statementsOf(() => guest.get("/api/basket"));
    expect(read.result.statusCode).toBe(200);
    report("guest's GET /api/basket", read.statements);
  });

  it("place order, as the bench places it (a guest, collection, pay on collection)", async () => {
    const guest = await browser();
    await guest.post("/api/basket", { product_id: productId, quantity: 1 });
    const placed = await statementsOf(() => guest.request("POST", "/api/checkout", guestOrder, { headers: { "idempotency-key": randomUUID() } }));
    report("place order", placed.statements);
    expect(placed.result.statusCode, placed.result.body).toBe(201);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the outbox worker's statements per email (PostgreSQL)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.destroy());

  it("sends an order's two emails", async () => {
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const mail = createMailService(database.db, { transport: { send: async () => {}, close: () => {} }, from: "shop@example.com", log });
    const message = (to: string) => ({ to, subject: "Your order", html: "<p>Thank you.</p>", text: "Thank you." });
    await database.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      await mail.enqueue(tx, message("customer@example.com"));
      await mail.enqueue(tx, message("shop@example.com"));
    });
    const sent = await statementsOf(() => mail.deliverDue());
    expect(sent.result).toEqual({ sent: 2, retried: 0, failed: 0 });
    report("worker, two emails", sent.statements);
  });
});
