import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { addDays, londonDate } from "./pricing.ts";
import { hireAllocations, hireItems, hireUnits } from "./schema.ts";

const shop = testShopForFile();

async function get(url: string) {
  const res = await shop().app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.json() };
}

const today = londonDate();
const inDays = (n: number) => addDays(today, n);

describe("the hire catalogue", () => {
  it("has at least 40 items with realistic rates, deposits and units", async () => {
    const res = await get("/api/hire?per_page=48");
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(40);
    for (const item of res.body.items) {
      expect(item.rates.day).toBeGreaterThan(0);
      expect(item.rates.week).toBeGreaterThanOrEqual(item.rates.day);
      expect(item.units).toBeGreaterThan(0);
    }
    expect(res.body.categories.map((c: { slug: string }) => c.slug)).toEqual(expect.arrayContaining(["access", "plant", "pumps"]));
  });

  it("filters by hire category and searches within hire", async () => {
    const plant = await get("/api/hire?category=plant");
    expect(plant.body.items.every((i: { category: { slug: string } }) => i.category.slug === "plant")).toBe(true);
    const search = await get("/api/hire?q=excavatr");
    expect(search.body.items.some((i: { name: string }) => /Excavator/.test(i.name))).toBe(true);
    expect((await get("/api/hire?per_page=49")).status).toBe(422);
  });

  it("answers an item with rates and deposit in pounds ex VAT, and 404 for an unknown one", async () => {
    const res = await get("/api/hire/heavy-duty-breaker-110v");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rates: { day: 40, weekend: 60, week: 80 }, deposit: 100, units: 6 }); // Five at Leeds, one at Harrogate (demo-hire.ts)
    expect(res.body.data.specifications.length).toBeGreaterThan(0);
    expect((await get("/api/hire/no-such-thing")).status).toBe(404);
  });

  it("quotes a hire with VAT on the hire and none on the deposit", async () => {
    const res = await get(`/api/hire/heavy-duty-breaker-110v/quote?start_date=${inDays(1)}&end_date=${inDays(4)}&quantity=2`);
    expect(res.status).toBe(200);
    // 3 days at £40 = £120 > a week at £80, unless it is a weekend hire at £60.
    const perUnit = res.body.data.weekend_rate ? 60 : 80;
    expect(res.body.data).toMatchObject({ days: 3, hire_cost: perUnit * 2, vat: perUnit * 2 * 0.2, deposit: 200, available: 5 });
    expect(res.body.data.total).toBeCloseTo(perUnit * 2 * 1.2 + 200, 2);
  });

  it.each([
    [`start_date=${addDays(londonDate(), -1)}&end_date=${addDays(londonDate(), 2)}`, "start_date", "The hire cannot start in the past."],
    [`start_date=${addDays(londonDate(), 3)}&end_date=${addDays(londonDate(), 2)}`, "end_date", "The return date must not be before the start date."],
    [`start_date=${addDays(londonDate(), 1)}&end_date=${addDays(londonDate(), 92)}`, "end_date", "A hire can last at most 90 days."],
    [`start_date=2026-02-30&end_date=${addDays(londonDate(), 2)}`, "start_date", "The start date must be a date (YYYY-MM-DD)."],
  ])("refuses the dates %s", async (qs, field, message) => {
    const res = await get(`/api/hire/heavy-duty-breaker-110v/quote?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toEqual([message]);
  });
});

describe("availability", () => {
  it("counts the units free on each day, freeing a unit on its return date and ignoring lapsed holds", async () => {
    const [item] = await shop().database.db.select().from(hireItems).where(eq(hireItems.slug, "turf-cutter"));
    const units = await shop().database.db.select().from(hireUnits).where(eq(hireUnits.hireItemId, item!.id));
    expect(units).toHaveLength(2);
    await shop().database.db.insert(hireAllocations).values([
      { unitId: units[0]!.id, kind: "booking", period: `[${inDays(2)},${inDays(5)})` },
      { unitId: units[1]!.id, kind: "hold", period: `[${inDays(3)},${inDays(4)})`, expiresAt: sql`now() + interval '48 hours'` },
      // A lapsed hold takes nothing.
      { unitId: units[1]!.id, kind: "hold", period: `[${inDays(6)},${inDays(8)})`, expiresAt: sql`now() - interval '1 minute'` },
    ]);
    const res = await get(`/api/hire/turf-cutter/availability?from=${inDays(1)}&to=${inDays(7)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { free: number }) => d.free)).toEqual([2, 1, 0, 1, 2, 2, 2]);
    expect(res.body.data[0].date).toBe(inDays(1));

    const quote = await get(`/api/hire/turf-cutter/quote?start_date=${inDays(2)}&end_date=${inDays(5)}`);
    expect(quote.body.data.available).toBe(0);
  });

  it("bounds the range it answers", async () => {
    expect((await get(`/api/hire/turf-cutter/availability?from=${inDays(1)}&to=${inDays(200)}`)).status).toBe(422);
    expect((await get(`/api/hire/turf-cutter/availability?from=${inDays(5)}&to=${inDays(1)}`)).status).toBe(422);
    expect((await get("/api/hire/turf-cutter/availability")).body.data).toHaveLength(28);
  });
});

describe("no double booking, held by the database", () => {
  it("refuses an overlapping allocation of one unit made directly, and allows back-to-back hires", async () => {
    const [item] = await shop().database.db.select().from(hireItems).where(eq(hireItems.slug, "stump-grinder"));
    const [unit] = await shop().database.db.select().from(hireUnits).where(eq(hireUnits.hireItemId, item!.id));
    await shop().database.db.insert(hireAllocations).values({ unitId: unit!.id, kind: "booking", period: `[${inDays(10)},${inDays(13)})` });
    await expect(
      shop().database.db.insert(hireAllocations).values({ unitId: unit!.id, kind: "hold", period: `[${inDays(12)},${inDays(15)})`, expiresAt: sql`now() + interval '1 day'` }),
    ).rejects.toThrow();
    // Out again on the day it comes back.
    await shop().database.db.insert(hireAllocations).values({ unitId: unit!.id, kind: "booking", period: `[${inDays(13)},${inDays(14)})` });
    // A released allocation no longer blocks.
    await shop().database.db.update(hireAllocations).set({ releasedAt: sql`now()` }).where(eq(hireAllocations.unitId, unit!.id));
    await shop().database.db.insert(hireAllocations).values({ unitId: unit!.id, kind: "booking", period: `[${inDays(11)},${inDays(12)})` });
  });
});
