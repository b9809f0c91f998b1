// The hire catalogue's API over HTTP, signed in as the demo staff: the list
// and its filters, creating and editing hire items with each refused field
// named, a new rate on the storefront's next read and in its quotes, old slugs
// that answer 301, units (a duplicate asset number refused, a booked unit not
// retired), the audit log, and who may do which.
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "../audit/schema.ts";
import { products } from "../catalog/schema.ts";
import { addDays, londonDate } from "./pricing.ts";
import { hireAllocations, hireCategories, hireItems, hireUnits } from "./schema.ts";
import { createHireService } from "./service.ts";
import { staffTestShop } from "../../test/staff-browsers.ts";

const { as, shop } = staffTestShop("198.51.103");
const db = () => shop().database.db;

/** A demo hire item, chosen by offset so each test has its own. */
async function item(offset: number) {
  const [row] = await db().select().from(hireItems).orderBy(hireItems.id).offset(offset).limit(1);
  return row!;
}

async function lastAudit(entity: string, entityId: string) {
  const [entry] = await db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, entityId)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry;
}

describe("the hire item list", () => {
  it("searches by name, filters by hire category, pages by keyset, and answers no-store", async () => {
    const first = await as.manager.get("/api/admin/hire/items?limit=5");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers["cache-control"]).toBe("no-store");
    const one = first.json();
    expect(one.data).toHaveLength(5);
    const two = (await as.manager.get(`/api/admin/hire/items?limit=5&cursor=${one.next_cursor}`)).json();
    const names = [...one.data, ...two.data].map((r: { name: string }) => r.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set([...one.data, ...two.data].map((r: { slug: string }) => r.slug)).size).toBe(10);
    expect((await as.manager.get("/api/admin/hire/items?cursor=bm9wZQ")).statusCode).toBe(422);

    const target = await item(2);
    const words = target.name.split(" ").reverse().slice(0, 2).join(" ");
    const found = (await as.sales.get(`/api/admin/hire/items?q=${encodeURIComponent(words)}`)).json().data;
    expect(found.map((r: { slug: string }) => r.slug)).toContain(target.slug);
    expect(found[0]).toMatchObject({ day_rate: expect.any(Number), units: expect.any(Number), category: { id: expect.any(Number) } });

    const byCategory = (await as.manager.get(`/api/admin/hire/items?category=${target.hireCategoryId}&limit=100`)).json().data as { category: { id: number } }[];
    expect(byCategory.length).toBeGreaterThan(0);
    expect(byCategory.every((r) => r.category.id === target.hireCategoryId)).toBe(true);
    expect((await as.manager.get("/api/admin/hire/categories")).json().data.length).toBeGreaterThan(2);
  });
});

describe("creating and editing hire items", () => {
  it("creates a hire item, refusing each bad field by name, and audits it", async () => {
    const [category] = await db().select().from(hireCategories).limit(1);
    const bad = await as.manager.post("/api/admin/hire/items", { name: "", hire_category_id: category!.id, day_rate: -1, weekend_rate: "12.345", week_rate: 100, vat_rate: 17 });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["day_rate", "name", "vat_rate", "weekend_rate"]);

    const missing = await as.manager.post("/api/admin/hire/items", { name: "Matrix Mixer", hire_category_id: 2_000_000, day_rate: 10, weekend_rate: 15, week_rate: 40, product_sku: "NO-SUCH-SKU" });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toMatchObject({ hire_category_id: ["That hire category does not exist."], product_sku: ["No product has the SKU NO-SUCH-SKU."] });

    const taken = (await item(0)).slug;
    const clash = await as.manager.post("/api/admin/hire/items", { name: "Clash", slug: taken, hire_category_id: category!.id, day_rate: 10, weekend_rate: 15, week_rate: 40 });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors.slug[0]).toContain(`/hire/${taken}`);

    const [product] = await db().select({ sku: products.sku, name: products.name }).from(products).limit(1);
    const made = await as.manager.post("/api/admin/hire/items", {
      name: "Cement Mixer 110V Deluxe",
      hire_category_id: category!.id,
      day_rate: "18.50",
      weekend_rate: 27,
      week_rate: 55,
      deposit: 50,
      vat_rate: 20,
      description: '<p>Mixes <strong>fast</strong>.</p><script>alert("x")</script><img src=x onerror=alert(1)>',
      specifications: [{ name: "Drum", value: "130 litres" }],
      product_sku: product!.sku.toLowerCase(),
    });
    expect(made.statusCode, made.body).toBe(201);
    const body = made.json();
    expect(body).toMatchObject({ slug: "cement-mixer-110v-deluxe", day_rate: 18.5, weekend_rate: 27, week_rate: 55, deposit: 50, units: 0, product: { sku: product!.sku }, extra_day_rate: 7.86 });
    expect(body.description).toBe("<p>Mixes <strong>fast</strong>.</p>");
    // The worked examples are the storefront engine's: a day at the day rate, a weekend at its rate, a week, ten days (a week and three sevenths).
    expect(body.examples.map((e: { label: string; hire_ex_vat: number; weekend_rate: boolean }) => [e.label, e.hire_ex_vat, e.weekend_rate])).toEqual([
      ["1 day", 18.5, false],
      ["A weekend", 27, true],
      ["1 week", 55, false],
      ["10 days", 78.57, false],
    ]);
    expect(body.examples[0]).toMatchObject({ vat: 3.7, hire_inc_vat: 22.2, deposit: 50, total: 72.2 });

    const entry = await lastAudit("hire_item", "cement-mixer-110v-deluxe");
    expect(entry).toMatchObject({ action: "hire_item.created", via: "api" });
    expect(entry!.after).toMatchObject({ day_rate: 18.5, product_sku: product!.sku });
    // On the storefront at once.
    const front = await as.guest.get("/api/hire/cement-mixer-110v-deluxe");
    expect(front.statusCode).toBe(200);
    expect(front.json().data).toMatchObject({ name: "Cement Mixer 110V Deluxe", rates: { day: 18.5 }, product: { name: product!.name } });
  });

  it("changes a rate: the storefront's next read and its quotes show it; a 422 names each bad field and changes nothing", async () => {
    const target = await item(3);
    const refused = await as.manager.patch(`/api/admin/hire/items/${target.slug}`, { week_rate: "abc", deposit: -5, specifications: [{ name: "A", value: "1" }, { name: "a", value: "2" }], colour: "red" });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(expect.arrayContaining(["week_rate", "deposit", "specifications"]));
    expect((await item(3)).weekRate).toBe(target.weekRate);

    // Warm the storefront's read, then change the rates.
    expect((await as.guest.get(`/api/hire/${target.slug}`)).json().data.rates.day).toBe(target.dayRate / 100);
    const res = await as.manager.patch(`/api/admin/hire/items/${target.slug}`, { day_rate: 31.25, week_rate: 100, vat_rate: 5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ day_rate: 31.25, week_rate: 100, vat_rate: 5 });
    expect((await as.guest.get(`/api/hire/${target.slug}`)).json().data).toMatchObject({ rates: { day: 31.25, week: 100 }, vat_rate: 5 });

    // A Tuesday-to-Thursday hire: two days at the new day rate, VAT at 5%.
    let start = addDays(londonDate(), 7);
    while (new Date(`${start}T12:00:00Z`).getUTCDay() !== 2) start = addDays(start, 1);
    const quote = (await as.guest.get(`/api/hire/${target.slug}/quote?start_date=${start}&end_date=${addDays(start, 2)}`)).json().data;
    expect(quote).toMatchObject({ days: 2, hire_cost: 62.5, vat: 3.13 });

    const entry = await lastAudit("hire_item", target.slug);
    expect(entry).toMatchObject({ action: "hire_item.updated" });
    expect(entry!.before).toEqual({ day_rate: target.dayRate / 100, week_rate: target.weekRate / 100, vat_rate: target.vatRate });
    expect(entry!.after).toEqual({ day_rate: 31.25, week_rate: 100, vat_rate: 5 });
  });

  it("moves the web address: the old one answers 301 on the page and in the API", async () => {
    const target = await item(4);
    const res = await as.manager.patch(`/api/admin/hire/items/${target.slug}`, { slug: "renamed-hire-item", name: "Renamed Hire Item" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().old_slugs).toEqual([target.slug]);
    const api = await as.guest.get(`/api/hire/${target.slug}`);
    expect(api.statusCode).toBe(301);
    expect(api.headers.location).toBe("/api/hire/renamed-hire-item");
    // The storefront's page (app/routes/hire/item.tsx) asks the same movedSlug: the built-page test is the e2e's.
    expect(await createHireService(db()).movedSlug(target.slug)).toBe("renamed-hire-item");
    // The old slug can be taken back: its redirect goes.
    const back = await as.manager.patch("/api/admin/hire/items/renamed-hire-item", { slug: target.slug });
    expect(back.json().old_slugs).toEqual(["renamed-hire-item"]);
    expect((await as.guest.get(`/api/hire/${target.slug}`)).statusCode).toBe(200);
  });
});

describe("units", () => {
  it("adds a unit, refuses an asset number another unit has, edits one and audits each", async () => {
    const target = await item(5);
    const [other] = await db().select().from(hireUnits).limit(1);
    const duplicate = await as.manager.post(`/api/admin/hire/items/${target.slug}/units`, { asset_number: other!.assetNumber.toLowerCase(), serial_number: "X" });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors.asset_number[0]).toContain(`asset number ${other!.assetNumber.toLowerCase()} is already a unit`);
    expect((await as.manager.post(`/api/admin/hire/items/${target.slug}/units`, { asset_number: "bad number!" })).statusCode).toBe(422);

    const before = (await as.guest.get(`/api/hire/${target.slug}`)).json().data.units;
    const added = await as.manager.post(`/api/admin/hire/items/${target.slug}/units`, { asset_number: "HA-NEW-1", serial_number: "SN 12345" });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ asset_number: "HA-NEW-1", serial_number: "SN 12345", active: true, allocation: null });
    expect((await as.guest.get(`/api/hire/${target.slug}`)).json().data.units).toBe(before + 1);
    expect(await lastAudit("hire_unit", "HA-NEW-1")).toMatchObject({ action: "hire_unit.created" });

    const edited = await as.manager.patch(`/api/admin/hire/items/${target.slug}/units/${added.json().id}`, { serial_number: "SN 99999" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().serial_number).toBe("SN 99999");
    expect((await lastAudit("hire_unit", "HA-NEW-1"))!.after).toEqual({ serial_number: "SN 99999" });
    // A unit of another item is not this item's.
    expect((await as.manager.patch(`/api/admin/hire/items/${(await item(6)).slug}/units/${added.json().id}`, { serial_number: "Z" })).statusCode).toBe(404);
  });

  it("refuses to retire a unit booked now or later, naming it; retires it once the booking is released", async () => {
    const target = await item(7);
    const [unit] = await db().select().from(hireUnits).where(eq(hireUnits.hireItemId, target.id)).limit(1);
    const start = addDays(londonDate(), 3);
    const [booking] = await db()
      .insert(hireAllocations)
      .values({ unitId: unit!.id, kind: "booking", period: `[${start},${addDays(start, 2)})` })
      .returning();
    const refused = await as.manager.patch(`/api/admin/hire/items/${target.slug}/units/${unit!.id}`, { active: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`Unit ${unit!.assetNumber} is booked from ${start} until ${addDays(start, 2)}: move or end that hire before retiring it.`);
    const shown = (await as.hire.get(`/api/admin/hire/items/${target.slug}`)).json().unit_list.find((u: { id: number }) => u.id === unit!.id);
    expect(shown.allocation).toEqual({ start, end: addDays(start, 2), kind: "booking" });

    await db().update(hireAllocations).set({ releasedAt: new Date() }).where(eq(hireAllocations.id, booking!.id));
    const before = (await as.guest.get(`/api/hire/${target.slug}`)).json().data.units;
    const retired = await as.manager.patch(`/api/admin/hire/items/${target.slug}/units/${unit!.id}`, { active: false });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json().active).toBe(false);
    expect((await as.guest.get(`/api/hire/${target.slug}`)).json().data.units).toBe(before - 1);
    expect(await lastAudit("hire_unit", unit!.assetNumber)).toMatchObject({ action: "hire_unit.retired", before: { active: true }, after: { active: false } });
  });
});

describe("who may do which", () => {
  it("lets the catalogue's readers and the hire desk read; only catalogue.manage writes", async () => {
    const target = await item(8);
    for (const role of ["owner", "manager", "sales", "warehouse", "accounts", "hire"] as const) {
      expect((await as[role].get("/api/admin/hire/items")).statusCode, role).toBe(200);
      expect((await as[role].get(`/api/admin/hire/items/${target.slug}`)).statusCode, role).toBe(200);
    }
    for (const role of ["sales", "warehouse", "accounts", "hire"] as const) {
      expect((await as[role].patch(`/api/admin/hire/items/${target.slug}`, { day_rate: 1 })).statusCode, role).toBe(403);
      expect((await as[role].post(`/api/admin/hire/items/${target.slug}/units`, { asset_number: `NOPE-${role}` })).statusCode, role).toBe(403);
    }
    expect((await item(8)).dayRate).toBe(target.dayRate);
    expect((await as.guest.get("/api/admin/hire/items")).statusCode).toBe(401);
    expect((await as.owner.patch(`/api/admin/hire/items/${target.slug}`, { day_rate: 1 })).statusCode).toBe(200);
  });
});
