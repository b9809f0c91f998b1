// Hire depots over the API (issue 30), on the demo shop: Leeds (the default
// branch) and Harrogate hire; availability and quotes count one depot's units,
// a request short at its depot takes a unit from another depot with a transfer
// day, the desk records the transfer, and delivery is priced by the bands.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../../test/app.ts";
import { type TestBrowser, freshBrowser } from "../../../test/browser.ts";
import { auditLog } from "../../audit/schema.ts";
import { branches } from "../../branches/schema.ts";
import { addDays, londonDate } from "../pricing.ts";
import { hireAllocations, hireCategories, hireItems, hireRequests, hireUnits } from "../schema.ts";
import { hireUnitTransfers } from "./schema.ts";
import { staffBrowser } from "../../../test/staff-browsers.ts";

const day = (n: number) => addDays(londonDate(), n);
const shop = testShopForFile();
let desk: TestBrowser;
let ip = 1;
const db = () => shop().database.db;

beforeAll(async () => {
  desk = await staffBrowser(shop().app, "198.51.120.1", "hire@staff.example.com");
}, 120_000);

async function depotId(slug: string) {
  const [b] = await db().select({ id: branches.id }).from(branches).where(eq(branches.slug, slug));
  return b!.id;
}

/** A hire item with units at the depots named, in that order. */
async function fleet(prefix: string, at: string[]) {
  const [category] = await db().select().from(hireCategories).limit(1);
  const [item] = await db().insert(hireItems).values({ slug: prefix.toLowerCase(), name: `Breaker ${prefix}`, hireCategoryId: category!.id, dayRate: 1000, weekendRate: 1500, weekRate: 4000 }).returning();
  const units = [];
  for (const [i, slug] of at.entries()) {
    const [unit] = await db().insert(hireUnits).values({ hireItemId: item!.id, assetNumber: `${prefix}-${i + 1}`, branchId: await depotId(slug) }).returning();
    units.push(unit!);
  }
  return { item: item!, units };
}

const customer = () => freshBrowser(shop().app, `198.51.121.${ip++ % 250}`);

const collection = { name: "Dee Depot", email: "dee.depot@example.co.uk", phone: "07700 900321", company: "", fulfilment: "collection" };

describe("hire depots", () => {
  it("lists the depots, the default first", async () => {
    const res = await (await customer()).get("/api/hire-depots");
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((d: { slug: string }) => d.slug)).toEqual(["leeds", "harrogate"]);
  });

  it("counts one depot's units: the one asked for, else my branch when it is a depot, else the default", async () => {
    const { item } = await fleet("DPA", ["leeds", "leeds", "harrogate"]);
    const b = await customer();
    const days = (res: { json(): { data: { free: number }[]; depot: { slug: string } } }) => ({ depot: res.json().depot.slug, free: res.json().data[0]!.free });
    expect(days(await b.get(`/api/hire/${item.slug}/availability?from=${day(2)}&to=${day(3)}`))).toEqual({ depot: "leeds", free: 2 });
    expect(days(await b.get(`/api/hire/${item.slug}/availability?from=${day(2)}&to=${day(3)}&depot=harrogate`))).toEqual({ depot: "harrogate", free: 1 });
    b.cookies.set("tc_branch", "harrogate");
    expect(days(await b.get(`/api/hire/${item.slug}/availability?from=${day(2)}&to=${day(3)}`))).toEqual({ depot: "harrogate", free: 1 });
    // My branch that is not a depot: the default depot.
    b.cookies.set("tc_branch", "york");
    expect(days(await b.get(`/api/hire/${item.slug}/availability?from=${day(2)}&to=${day(3)}`))).toEqual({ depot: "leeds", free: 2 });
    const wrong = await b.get(`/api/hire/${item.slug}/availability?depot=york`);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.depot).toEqual(["Choose one of our hire depots."]);
    // The quote: one free at Harrogate, two more that can be moved there the day before.
    const quote = await b.get(`/api/hire/${item.slug}/quote?start_date=${day(4)}&end_date=${day(6)}&quantity=3&depot=harrogate`);
    expect(quote.json().data).toMatchObject({ available: 1, by_transfer: 2, quantity: 3, depot: { slug: "harrogate" } });
  });

  it("fulfils a request from another depot with a transfer day, and the desk records the unit's transfer", async () => {
    const { item, units } = await fleet("DPB", ["harrogate", "leeds"]);
    const b = await customer();
    expect((await b.post("/api/hire-basket", { hire_item_id: item.id, quantity: 2, start_date: day(5), end_date: day(7), depot: "harrogate" })).statusCode).toBe(200);
    const made = await b.post("/api/hire-requests", collection);
    expect(made.statusCode, made.body).toBe(201);
    const number = made.json().number as string;
    const [request] = await db().select().from(hireRequests).where(eq(hireRequests.number, number));
    expect(request!.branchId).toBe(await depotId("harrogate"));
    const held = await db().select({ unit: hireAllocations.unitId, period: sql<string>`${hireAllocations.period}::text` }).from(hireAllocations).where(sql`${hireAllocations.requestLineId} in (select id from hire_request_lines where request_id = ${request!.id})`).orderBy(hireAllocations.unitId);
    // Harrogate's own for the dates; Leeds' from the day before, to travel.
    expect(held).toEqual([
      { unit: units[0]!.id, period: `[${day(5)},${day(7)})` },
      { unit: units[1]!.id, period: `[${day(4)},${day(7)})` },
    ]);

    const detail = (await desk.get(`/api/admin/hire/requests/${number}`)).json();
    expect(detail.depot).toEqual({ slug: "harrogate", name: "Harrogate hire depot" });
    const shown = detail.lines[0].units.map((u: { asset_number: string; transfer_from: unknown }) => [u.asset_number, u.transfer_from]);
    expect(shown).toEqual([
      ["DPB-1", null],
      ["DPB-2", { slug: "leeds", name: "Leeds, Canal Wharf" }],
    ]);

    const moved = await desk.post(`/api/admin/hire/units/${units[1]!.id}/transfer`, { depot: "harrogate", request_number: number, reason: "For the hire" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ asset_number: "DPB-2", from: { slug: "leeds" }, to: { slug: "harrogate" } });
    const [unit] = await db().select().from(hireUnits).where(eq(hireUnits.id, units[1]!.id));
    expect(unit!.branchId).toBe(await depotId("harrogate"));
    expect(await db().select({ request: hireUnitTransfers.requestId, reason: hireUnitTransfers.reason }).from(hireUnitTransfers).where(eq(hireUnitTransfers.unitId, unit!.id))).toEqual([{ request: request!.id, reason: "For the hire" }]);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "hire_unit.transferred"), eq(auditLog.entityId, "DPB-2")));
    expect(audit).toMatchObject({ before: { depot: "leeds" }, after: { depot: "harrogate", request: number } });
    const after = (await desk.get(`/api/admin/hire/requests/${number}`)).json();
    expect(after.lines[0].units.every((u: { transfer_from: unknown }) => u.transfer_from === null)).toBe(true);
    const history = (await desk.get(`/api/admin/hire/units/${unit!.id}/transfers`)).json().data;
    expect(history).toEqual([expect.objectContaining({ from: { slug: "leeds", name: "Leeds, Canal Wharf" }, to: { slug: "harrogate", name: "Harrogate hire depot" }, request_number: number })]);

    // Already there: said plainly. Only the hire desk moves units.
    const again = await desk.post(`/api/admin/hire/units/${unit!.id}/transfer`, { depot: "harrogate" });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.depot).toEqual(["Unit DPB-2 is already at Harrogate hire depot."]);
    const accounts = await staffBrowser(shop().app, "198.51.120.9", "accounts@staff.example.com");
    expect((await accounts.post(`/api/admin/hire/units/${unit!.id}/transfer`, { depot: "leeds" })).statusCode).toBe(403);

    // The planner and the desk's list keep to one depot.
    const planner = (await desk.get(`/api/admin/hire/planner?item=${item.id}&depot=leeds&from=${day(4)}`)).json();
    expect(planner.items[0].units).toEqual([]);
    const atHarrogate = (await desk.get(`/api/admin/hire/planner?item=${item.id}&depot=harrogate&from=${day(4)}`)).json();
    expect(atHarrogate.items[0].units.map((u: { asset_number: string }) => u.asset_number)).toEqual(["DPB-1", "DPB-2"]);
    const listed = async (depot: string) => (await desk.get(`/api/admin/hire/requests?depot=${depot}&q=${number}`)).json().data.map((r: { number: string }) => r.number);
    expect(await listed("harrogate")).toEqual([number]);
    expect(await listed("leeds")).toEqual([]);
  });

  it("refuses a request short at its depot when no other depot has a unit free from the day before", async () => {
    const { item } = await fleet("DPC", ["harrogate", "leeds"]);
    const b = await customer();
    // Leeds' unit is busy on the transfer day only.
    const [leedsUnit] = await db().select().from(hireUnits).where(eq(hireUnits.assetNumber, "DPC-2"));
    await db().insert(hireAllocations).values({ unitId: leedsUnit!.id, kind: "service", note: "Repair", period: `[${day(8)},${day(9)})` });
    const add = await b.post("/api/hire-basket", { hire_item_id: item.id, quantity: 2, start_date: day(9), end_date: day(10), depot: "harrogate" });
    expect(add.statusCode).toBe(422);
    expect(add.json().errors.quantity).toEqual(["Only 1 available at Harrogate hire depot for those dates."]);
  });

  it("prices delivery by the band from the depot to the site, keeps it on the request, and refuses a site past the last band", async () => {
    const b = await customer();
    const near = await b.get("/api/hire-depots/leeds/delivery?postcode=LS11%205PS");
    expect(near.json()).toMatchObject({ data: { band_up_to_miles: 10, price: 25, vat: 5, total: 30 }, depot: { slug: "leeds" } });
    const york = await b.get("/api/hire-depots/leeds/delivery?postcode=YO31%207UL");
    expect(york.json().data).toMatchObject({ band_up_to_miles: 25, price: 45 });
    const far = await b.get("/api/hire-depots/leeds/delivery?postcode=SW1A%201AA");
    expect(far.statusCode).toBe(422);
    expect(far.json().errors.postcode[0]).toMatch(/^SW1A 1AA is \d+(\.\d)? miles from Leeds, Canal Wharf; we deliver up to 50 miles\. Choose collection from the depot, or a nearer depot\.$/);

    const { item } = await fleet("DPD", ["leeds"]);
    expect((await b.post("/api/hire-basket", { hire_item_id: item.id, quantity: 1, start_date: day(3), end_date: day(4) })).statusCode).toBe(200);
    const site = { ...collection, fulfilment: "delivery", address_line1: "1 Site Road", town: "London", postcode: "SW1A 1AA" };
    const refused = await b.post("/api/hire-requests", site);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.postcode[0]).toMatch(/we deliver up to 50 miles/);
    const made = await b.post("/api/hire-requests", { ...site, town: "York", postcode: "YO31 7UL", depot: "leeds" });
    expect(made.statusCode, made.body).toBe(201);
    const [request] = await db().select().from(hireRequests).where(eq(hireRequests.number, made.json().number));
    expect(request).toMatchObject({ deliveryCharge: 4500, deliveryVat: 900, branchId: await depotId("leeds") });
    expect(request!.deliveryMiles).toBeGreaterThan(10);
  });

  it("lets a manager set the bands (audited); a longer band may not be cheaper", async () => {
    const manager = await staffBrowser(shop().app, "198.51.120.3", "manager@staff.example.com");
    const bad = await manager.put("/api/admin/hire/delivery-bands", { bands: [{ up_to_miles: 10, price: 30 }, { up_to_miles: 20, price: 20 }] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.bands[0]).toMatch(/costs less than/);
    const saved = await manager.put("/api/admin/hire/delivery-bands", { bands: [{ up_to_miles: 50, price: 75 }, { up_to_miles: 10, price: 25 }, { up_to_miles: 25, price: 45 }, { up_to_miles: 100, price: 120 }] });
    expect(saved.json().data).toEqual([
      { up_to_miles: 10, price: 25 },
      { up_to_miles: 25, price: 45 },
      { up_to_miles: 50, price: 75 },
      { up_to_miles: 100, price: 120 },
    ]);
    expect((await manager.get("/api/admin/hire/delivery-bands")).json().data).toHaveLength(4);
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "hire_delivery_bands.saved"));
    expect(audit).toBeDefined();
    expect((await desk.put("/api/admin/hire/delivery-bands", { bands: [] })).statusCode).toBe(403);
  });

  it("moves a unit to another depot from the hire item's units, as a transfer with its history", async () => {
    const manager = await staffBrowser(shop().app, "198.51.120.4", "manager@staff.example.com");
    const { item, units } = await fleet("DPE", ["leeds"]);
    const res = await manager.patch(`/api/admin/hire/items/${item.slug}/units/${units[0]!.id}`, { depot: "harrogate" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data ?? res.json()).toMatchObject({ depot: { slug: "harrogate", name: "Harrogate hire depot" } });
    expect(await db().select({ to: hireUnitTransfers.toBranchId }).from(hireUnitTransfers).where(eq(hireUnitTransfers.unitId, units[0]!.id))).toEqual([{ to: await depotId("harrogate") }]);
    const wrong = await manager.patch(`/api/admin/hire/items/${item.slug}/units/${units[0]!.id}`, { depot: "york" });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.depot).toEqual(["Choose one of our hire depots."]);
  });
});
