// Two customers booking the last unit at one depot, at once, on PostgreSQL
// (PGlite runs one query at a time, so it proves nothing here). The per-item
// advisory lock and the exclusion constraint decide: one gets the unit, the
// other hears a plain 422, and the other depot's units are untouched when none
// of them is free for the transfer day. With one free there, the loser is
// served from it by a transfer, never by the same unit twice.
// TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx --no-install vitest run server/modules/hire/depots/concurrency.test.ts
import { eq, inArray, isNull, and, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, createTestShop } from "../../../test/app.ts";
import { TestBrowser } from "../../../test/browser.ts";
import { branches } from "../../branches/schema.ts";
import { addDays, londonDate } from "../pricing.ts";
import { hireAllocations, hireCategories, hireItems, hireUnits } from "../schema.ts";

const day = (n: number) => addDays(londonDate(), n);

describe.skipIf(!process.env.TEST_DATABASE_URL)("the last unit at a depot under concurrent requests (PostgreSQL)", () => {
  let shop: TestShop;
  let ip = 1;
  const db = () => shop.database.db;

  beforeAll(async () => {
    shop = await createTestShop();
  }, 120_000);
  afterAll(() => shop?.close());

  async function fleet(prefix: string, at: string[]) {
    const [category] = await db().select().from(hireCategories).limit(1);
    const [item] = await db().insert(hireItems).values({ slug: prefix.toLowerCase(), name: `Lift ${prefix}`, hireCategoryId: category!.id, dayRate: 1000, weekendRate: 1500, weekRate: 4000 }).returning();
    const units = [];
    for (const [i, slug] of at.entries()) {
      const [b] = await db().select({ id: branches.id }).from(branches).where(eq(branches.slug, slug));
      const [unit] = await db().insert(hireUnits).values({ hireItemId: item!.id, assetNumber: `${prefix}-${i + 1}`, branchId: b!.id }).returning();
      units.push(unit!);
    }
    return { item: item!, units };
  }

  /** A customer with the item in their basket at the depot, ready to send. */
  async function ready(itemId: number, start: string, end: string, depot: string) {
    const b = new TestBrowser(shop.app, `198.51.130.${ip++ % 250}`);
    await b.csrf();
    const added = await b.post("/api/hire-basket", { hire_item_id: itemId, quantity: 1, start_date: start, end_date: end, depot });
    expect(added.statusCode, added.body).toBe(200);
    return () => b.post("/api/hire-requests", { name: "Rae Racer", email: "rae.racer@example.co.uk", phone: "07700 900444", company: "", fulfilment: "collection" });
  }

  const live = (unitIds: number[]) =>
    db()
      .select({ unit: hireAllocations.unitId, kind: hireAllocations.kind, period: sql<string>`${hireAllocations.period}::text` })
      .from(hireAllocations)
      .where(and(inArray(hireAllocations.unitId, unitIds), isNull(hireAllocations.releasedAt)))
      .orderBy(hireAllocations.unitId, hireAllocations.id);

  it("gives Harrogate's last unit to one of two customers; Leeds' unit, busy on the transfer day, is untouched", async () => {
    const { item, units } = await fleet("RCA", ["harrogate", "leeds"]);
    const [harrogate, leeds] = units;
    await db().insert(hireAllocations).values({ unitId: leeds!.id, kind: "service", note: "Repair", period: `[${day(5)},${day(6)})` });
    const sends = await Promise.all([ready(item.id, day(6), day(8), "harrogate"), ready(item.id, day(6), day(8), "harrogate")]);
    // Both baskets were filled while the unit was free; now both send at once.
    const answers = await Promise.all(sends.map((send) => send()));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    const loser = answers.find((a) => a.statusCode === 422)!;
    expect(loser.json().errors.quantity[0]).toMatch(/^Lift RCA: (none available at Harrogate hire depot for those dates\.|Some of those dates were just taken)/);
    expect(await live([harrogate!.id, leeds!.id])).toEqual([
      { unit: harrogate!.id, kind: "hold", period: `[${day(6)},${day(8)})` },
      { unit: leeds!.id, kind: "service", period: `[${day(5)},${day(6)})` },
    ]);
  });

  it("serves three customers racing for Harrogate's last unit from it and from Leeds by transfer: two bookings on two units, the third refused", async () => {
    const { item, units } = await fleet("RCB", ["harrogate", "leeds"]);
    const sends = await Promise.all([0, 1, 2].map(() => ready(item.id, day(10), day(12), "harrogate")));
    const answers = await Promise.all(sends.map((send) => send()));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 422]);
    const held = await live(units.map((u) => u.id));
    expect(held).toEqual([
      { unit: units[0]!.id, kind: "hold", period: `[${day(10)},${day(12)})` },
      { unit: units[1]!.id, kind: "hold", period: `[${day(9)},${day(12)})` },
    ]);
  });
});
