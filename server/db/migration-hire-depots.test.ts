// Migration 0040 (hire depots) on a shop that already hires: a database at
// 0037 with branches (the default one not a hire depot, a second that is), a
// hire item with units and a booked request is upgraded. Its units are based
// at the first hire depot, the request goes out from it, the booking holds
// and still guards its unit, and a unit added by older code lands there too.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHireService } from "../modules/hire/service.ts";
import { type MigratingDatabase, databaseBefore } from "../test/migrations.ts";

let shop: MigratingDatabase;
const rows = <T,>(query: ReturnType<typeof sql>) => shop.rows<T>(query);
const db = () => shop.database.db;

beforeAll(async () => {
  shop = await databaseBefore("0040_hire_depots");
  await db().execute(sql`insert into branches (slug, name, line_1, town, postcode, services) values ('depot-north', 'North depot', '1 Yard Lane', 'Leeds', 'LS11 5PS', '{hire}')`);
  await db().execute(sql`insert into hire_categories (slug, name) values ('access', 'Access')`);
  await db().execute(sql`insert into hire_items (slug, name, hire_category_id, day_rate, weekend_rate, week_rate) select 'old-lift', 'Old lift', id, 5000, 7500, 15000 from hire_categories`);
  await db().execute(sql`insert into hire_units (hire_item_id, asset_number) select id, a from hire_items, unnest(array['OLD-1', 'OLD-2']) a`);
  await db().execute(sql`insert into hire_requests (number, name, email, phone, fulfilment, hire_cost, vat, deposit, hold_expires_at, status)
    values ('HR-000001', 'Old Customer', 'old@example.com', '07700 900000', 'collection', 10000, 2000, 0, now() + interval '1 day', 'confirmed')`);
  await db().execute(sql`insert into hire_request_lines (request_id, hire_item_id, name, quantity, start_date, end_date, days, hire_cost, vat, deposit)
    select r.id, i.id, i.name, 1, current_date + 3, current_date + 5, 2, 10000, 2000, 0 from hire_requests r, hire_items i`);
  await db().execute(sql`insert into hire_allocations (unit_id, request_line_id, kind, period)
    select u.id, l.id, 'booking', daterange(current_date + 3, current_date + 5) from hire_units u, hire_request_lines l where u.asset_number = 'OLD-1'`);
  await shop.upgrade();
}, 120_000);

afterAll(() => shop?.close());

describe("migration 0040 on a shop that hires", () => {
  it("bases every unit at the first hire depot when the default branch is not one, and sends the old request from it", async () => {
    expect(await rows(sql`select u.asset_number, b.slug from hire_units u join branches b on b.id = u.branch_id order by u.asset_number`)).toEqual([
      { asset_number: "OLD-1", slug: "depot-north" },
      { asset_number: "OLD-2", slug: "depot-north" },
    ]);
    expect(await rows(sql`select r.number, b.slug, r.delivery_charge_pence, r.delivery_vat_pence from hire_requests r join branches b on b.id = r.branch_id`)).toEqual([
      { number: "HR-000001", slug: "depot-north", delivery_charge_pence: null, delivery_vat_pence: 0 },
    ]);
  });

  it("keeps the booking live and guarding its unit, and counts the depot's units", async () => {
    const hire = createHireService(db());
    const [item] = await rows<{ id: number }>(sql`select id from hire_items where slug = 'old-lift'`);
    const [depot] = await rows<{ id: number }>(sql`select id from branches where slug = 'depot-north'`);
    const [day] = await rows<{ start: string }>(sql`select (current_date + 3)::text as start`);
    const days = await hire.availability(item!.id, day!.start, day!.start, depot!.id);
    expect(days[0]!.free).toBe(1);
    await expect(
      db().execute(sql`insert into hire_allocations (unit_id, kind, period) select id, 'service', daterange(current_date + 4, current_date + 6) from hire_units where asset_number = 'OLD-1'`),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: "23P01" }) });
  });

  it("bases a unit added by code that names no depot at the default depot", async () => {
    await db().execute(sql`insert into hire_units (hire_item_id, asset_number) select id, 'NEW-1' from hire_items`);
    expect(await rows(sql`select b.slug from hire_units u join branches b on b.id = u.branch_id where u.asset_number = 'NEW-1'`)).toEqual([{ slug: "depot-north" }]);
    expect(await rows(sql`select count(*)::int as n from hire_delivery_bands`)).toEqual([{ n: 0 }]);
  });
});
