// How many statements (each a round trip) adding to the basket, reading it
// and placing an order send to PostgreSQL, made as `npm run bench` makes them
// (issue 35): counted at the pg driver (server/test/statements.ts) and held to
// upper bounds, so the count cannot grow unnoticed. Also the outbox worker's
// statements for an order's two emails. PostgreSQL only: PGlite has no round
// trips to count. A bound that fails lists the statements sent.
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
import { orderNumberOf } from "../orders/statuses.ts";
import { countSoleVariantsTo } from "../stock/ledger.ts";
import { orderNumberSql } from "./write-order.ts";

/** At most `bound` statements sent; the statements themselves when there were more. */
function expectAtMost(statements: string[], bound: number) {
  expect(statements.length, statements.map((s) => s.replace(/\s+/g, " ").slice(0, 160)).join("\n")).toBeLessThanOrEqual(bound);
}

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

  it("add to basket (a guest's first, a guest's to a basket holding the line, a signed-in customer's) and GET /api/basket: 2, 2, 3 and 1", async () => {
    const add = (b: TestBrowser) => statementsOf(() => b.post("/api/basket", { product_id: productId, quantity: 1 }));
    const guest = await browser();
    const first = await add(guest);
    expect(first.result.statusCode).toBeLessThan(300);
    expectAtMost(first.statements, 2);
    // The bench's visitors add to baskets already holding the line.
    const again = await add(guest);
    expect(again.result.statusCode).toBeLessThan(300);
    expectAtMost(again.statements, 2);
    const customer = await browser();
    await customer.signIn("customer@example.com", "demo-password-2026");
    // A session's first request after sign-in stamps its last use; later ones within minutes do not.
    await customer.get("/api/basket");
    const signedIn = await add(customer);
    expect(signedIn.result.statusCode).toBeLessThan(300);
    expectAtMost(signedIn.statements, 3);
    const read = await statementsOf(() => guest.get("/api/basket"));
    expect(read.result.statusCode).toBe(200);
    expectAtMost(read.statements, 1);
  });

  it("place order as the bench places it (a guest, collection, pay on collection): 12, its number written with it", async () => {
    const guest = await browser();
    await guest.post("/api/basket", { product_id: productId, quantity: 1 });
    const placed = await statementsOf(() => guest.request("POST", "/api/checkout", guestOrder, { headers: { "idempotency-key": randomUUID() } }));
    expect(placed.result.statusCode, placed.result.body).toBe(201);
    // Counted at all: the order's transaction, from its start to its end.
    expect([placed.statements[0], placed.statements.at(-1)]).toEqual(["begin", "commit"]);
    expectAtMost(placed.statements, 12);
    const order = placed.result.json() as { order_id: number; order_number: string };
    expect(order.order_number).toBe(orderNumberOf(order.order_id));
    // The number's SQL is the same as orderNumberOf's, past six digits too.
    for (const id of [1, 999_999, 1_000_000, 123_456_789]) {
      const [row] = await shop.database.db.select({ number: orderNumberSql(sql`${id}::int`) }).from(sql`(select 1) one`);
      expect(row!.number).toBe(orderNumberOf(id));
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the outbox worker's statements per email (PostgreSQL)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.destroy());

  it("sends an order's two emails in 2: one claim of the batch and one mark of those sent", async () => {
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const mail = createMailService(database.db, { transport: { send: async () => {}, close: () => {} }, from: "shop@example.com", log });
    const message = (to: string) => ({ to, subject: "Your order", html: "<p>Thank you.</p>", text: "Thank you." });
    const queued = await statementsOf(() => database.db.transaction((tx) => mail.enqueueAll(tx as unknown as Db, [message("customer@example.com"), message("shop@example.com")])));
    // begin, the one insert, commit.
    expectAtMost(queued.statements, 3);
    const sent = await statementsOf(() => mail.deliverDue());
    expect(sent.result).toEqual({ sent: 2, retried: 0, failed: 0 });
    expectAtMost(sent.statements, 2);
  });
});
