// Migration 0048 (names on orders, issue 34) on a shop with orders from before
// checkout asked for a name: a delivery to a named address, a signed-in
// customer's collection and a guest's collection with no name anywhere. Each
// keeps its number, lines and total; the first two gain the name the shop
// already held, and the guest's stays empty (the desk then shows the email).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseInvariantViolations } from "../test/invariants.ts";
import { type MigratingDatabase, databaseBefore } from "../test/migrations.ts";

let shop: MigratingDatabase;
const rows = <T,>(query: ReturnType<typeof sql>) => shop.rows<T>(query);
const db = () => shop.database.db;

beforeAll(async () => {
  shop = await databaseBefore("0048_counter_names");
  await db().execute(sql`insert into users (email, firstname, lastname, password_hash) values ('sam@example.com', 'Sam', 'Collector', 'x')`);
  await db().execute(sql`insert into orders (number, email, user_id, status, delivery_method, delivery_name, subtotal, vat, delivery, total, payment_method) values
    ('TC-000001', 'dee@example.com', null, 'processing', 'standard', 'Standard delivery', 1000, 200, 0, 1200, 'card'),
    ('TC-000002', 'sam@example.com', (select id from users), 'processing', 'collect', 'Click & collect', 1000, 200, 0, 1200, 'pay_on_collection'),
    ('TC-000003', 'guest@example.com', null, 'processing', 'collect', 'Click & collect', 1000, 200, 0, 1200, 'pay_on_collection')`);
  await db().execute(sql`insert into order_lines (order_id, sku, name, slug, quantity, unit_price, vat_rate, line_total, line_vat)
    select id, 'OLD-HAM', 'Claw hammer', 'claw-hammer', 1, 1000, 20, 1000, 200 from orders`);
  await db().execute(sql`insert into order_addresses (order_id, kind, name, line_1, town, postcode)
    select id, 'delivery', 'Dee Recipient', '1 High Street', 'York', 'YO1 7HH' from orders where number = 'TC-000001'`);
  await shop.upgrade();
}, 120_000);

afterAll(() => shop?.close());

describe("migration 0048 on orders taken before names were asked", () => {
  it("names each order by what the shop already held, and leaves a nameless guest's order empty", async () => {
    expect(await rows(sql`select number, customer_name, total from orders order by number`)).toEqual([
      { number: "TC-000001", customer_name: "Dee Recipient", total: 1200 },
      { number: "TC-000002", customer_name: "Sam Collector", total: 1200 },
      { number: "TC-000003", customer_name: "", total: 1200 },
    ]);
    expect(await rows(sql`select company from order_addresses`)).toEqual([{ company: "" }]);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});
