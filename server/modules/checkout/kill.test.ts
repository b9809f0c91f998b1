// A shop process killed (SIGKILL) in the middle of checkouts leaves no partial
// order and no lost stock: the order, its lines, the stock taken and the
// emails are one transaction, and PostgreSQL rolls back a transaction whose
// client vanished. To kill it in the middle for certain, the test holds a lock
// on the mail outbox, the last table a checkout writes: every checkout has
// then taken its stock and written its order, and waits. It needs PostgreSQL
// (PGlite lives inside the process it would kill), so it runs only with
// TEST_DATABASE_URL, and the production build (Vitest's global setup makes it).
import type { ChildProcess } from "node:child_process";
import { gt, inArray, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BenchClient } from "../../../scripts/bench/client.ts";
import { freePort } from "../../../scripts/lib/free-port.ts";
import { startShopServer, stopShopServer } from "../../../scripts/lib/shop-server.ts";
import { seedDemo } from "../../db/seed/index.ts";
import { createTestDatabase, type TestDatabase } from "../../test/database.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { products } from "../catalog/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import { orders } from "../orders/schema.ts";

const order = {
  email: "killed@example.co.uk",
  phone: "0113 496 0000",
  delivery_method: "standard",
  delivery_address: { line_1: "1 High Street", town: "Leeds", postcode: "LS1 1AB" },
  payment_method: "bank_transfer",
};
const CHECKOUTS = 3;
const STOCK = 5;

describe.skipIf(!process.env.TEST_DATABASE_URL)("a shop process killed in the middle of checkout (PostgreSQL)", () => {
  let database: TestDatabase;
  let server: ChildProcess | null = null;
  let port = 0;
  const locker = () => new pg.Client({ connectionString: database.url });
  // The second process listens where the first did, so the visitors need not know.
  const start = async () => {
    server = await startShopServer(port, { DATABASE_URL: database.url!, COOKIE_SECRET: "k".repeat(32), SEED_DEMO: "false" });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemo(database.db);
    port = await freePort();
    await start();
  }, 180_000);

  afterAll(async () => {
    if (server) await stopShopServer(server);
    await database?.destroy();
  });

  it("rolls back every checkout in flight: no order, no stock taken, no email; the next process sells normally", async () => {
    // A product each, or the checkouts would queue behind one another's row lock.
    const bought = await database.db
      .update(products)
      .set({ stock: STOCK })
      .where(inArray(products.id, sql`(select id from products where sku not like 'GEN-%' order by id limit ${CHECKOUTS})`))
      .returning({ id: products.id });
    const stockOf = async () => (await database.db.select({ stock: products.stock }).from(products).where(inArray(products.id, bought.map((p) => p.id)))).map((p) => p.stock);
    const [before] = await database.db.select({ id: sql<number>`coalesce(max(${orders.id}), 0)::int` }).from(orders);
    const [outboxBefore] = await database.db.select({ id: sql<number>`coalesce(max(${mailOutbox.id}), 0)::int` }).from(mailOutbox);

    // Visitors over real HTTP, with their cookies, as a browser.
    const visitors = Array.from({ length: CHECKOUTS }, () => new BenchClient(`http://127.0.0.1:${port}`));
    for (const [i, v] of visitors.entries()) {
      await v.csrf();
      await v.post("/api/basket", { product_id: bought[i]!.id, quantity: 1 });
    }

    const lock = locker();
    await lock.connect();
    try {
      await lock.query("begin");
      await lock.query("lock table mail_outbox in exclusive mode");
      const placing = visitors.map((v) => v.timed("POST", "/api/checkout", order).then((res) => res.status, (error: unknown) => error));

      // Every checkout is inside its transaction: it has written an order and
      // waits for the outbox.
      await vi.waitFor(
        async () => {
          const { rows } = await lock.query<{ n: number }>(
            `select count(distinct l.pid)::int as n from pg_locks l join pg_class c on c.oid = l.relation
             where c.relname = 'orders' and l.mode = 'RowExclusiveLock' and l.granted and l.pid <> pg_backend_pid()
               and l.pid in (select pid from pg_stat_activity where wait_event_type = 'Lock')`,
          );
          expect(rows[0]!.n).toBe(CHECKOUTS);
        },
        { timeout: 20_000, interval: 100 },
      );
      // What they took is not visible outside their transactions.
      expect(await stockOf()).toEqual(bought.map(() => STOCK));

      server!.kill("SIGKILL");
      await new Promise((resolve) => server!.once("exit", resolve));
      server = null;
      // None of the visitors got an answer: their connections died with the process.
      for (const outcome of await Promise.all(placing)) expect(outcome).toBeInstanceOf(Error);

      await lock.query("commit");
      // PostgreSQL ends the orphaned sessions once they find their client gone.
      await vi.waitFor(
        async () => {
          const { rows } = await lock.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'",
          );
          expect(rows[0]!.n).toBe(0);
        },
        { timeout: 20_000, interval: 100 },
      );
    } finally {
      await lock.end();
    }

    expect(await database.db.select({ id: orders.id }).from(orders).where(gt(orders.id, before!.id))).toEqual([]);
    expect(await database.db.select({ id: mailOutbox.id }).from(mailOutbox).where(gt(mailOutbox.id, outboxBefore!.id))).toEqual([]);
    expect(await stockOf()).toEqual(bought.map(() => STOCK));
    expect(await databaseInvariantViolations(database.db)).toEqual([]);

    // A new process on the same database: the baskets are still there, and the
    // same visitors' checkouts go through.
    await start();
    for (const v of visitors) expect((await v.timed("POST", "/api/checkout", order)).status).toBe(201);
    const placed = await database.db.select({ id: orders.id }).from(orders).where(gt(orders.id, before!.id));
    expect(placed).toHaveLength(CHECKOUTS);
    expect(await stockOf()).toEqual(bought.map(() => STOCK - 1));
    expect(await databaseInvariantViolations(database.db)).toEqual([]);
  });
});
