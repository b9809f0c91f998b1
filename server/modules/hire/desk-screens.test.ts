// The hire desk's reading screens on the production build, requested as a
// browser without scripts requests them: the day's overview with each entry
// linking to its request, the planner's table (units as row headers, a bar per
// allocation with its words for a screen reader, today's column, the days'
// links), and the requests list with its filters. The rules are proven
// through the API in desk.test.ts; this proves the screens show them.
import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile, servicesOf } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { textOf } from "../../test/page-text.ts";
import { shortDay } from "../../../app/lib/admin/dashboard.ts";
import { addDays, londonDate } from "./pricing.ts";
import { hireAllocations, hireUnits } from "./schema.ts";
import { testFleet } from "./test-fleet.ts";
import { staffBrowser } from "../../test/staff-browsers.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let hireDesk: TestBrowser;
let sales: TestBrowser;
let ip = 1;
const day = (n: number) => addDays(londonDate(), n);

beforeAll(async () => {
  hireDesk = await staffBrowser(shop().app, "198.51.107.1", "hire@staff.example.com");
  sales = await staffBrowser(shop().app, "198.51.107.2", "sales@staff.example.com");
}, 240_000);

const fleet = (name: string, prefix: string) => testFleet(shop().database.db, { name, prefix, units: 2 });

async function request(itemId: number, start: string, end: string, name: string): Promise<string> {
  const b = new TestBrowser(shop().app, `198.51.108.${ip++}`);
  await b.csrf();
  expect((await b.post("/api/hire-basket", { hire_item_id: itemId, quantity: 1, start_date: start, end_date: end })).statusCode).toBe(200);
  const made = await b.post("/api/hire-requests", { name, email: "screen.hirer@example.co.uk", phone: "07700 900222", fulfilment: "collection" });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().number as string;
}

describe("the hire desk's screens", () => {
  it("shows the day's overview, each entry a link to its request, and the menu item", async () => {
    const { item } = await fleet("Screen Desk Plate", "SDP");
    const waiting = await request(item.id, day(4), day(6), "Wanda Waiting");
    const going = await request(item.id, day(0), day(2), "Gus Going");
    const services = servicesOf(shop());
    const system = await services.staff.systemActor();
    await services.hireRequests.decide(going, "confirm", system);
    // A same-day hire handed over by the desk's own service: due back today.
    const due = await request(item.id, day(0), day(0), "Dora Due");
    await services.hireRequests.decide(due, "confirm", system);
    const [allocation] = await shop().database.db.select().from(hireAllocations).where(eq(hireAllocations.kind, "booking")).orderBy(desc(hireAllocations.id)).limit(1);
    const [unit] = await shop().database.db.select().from(hireUnits).where(eq(hireUnits.id, allocation!.unitId));
    await services.hireOperations.handOver(system, due, { allocation_id: allocation!.id, asset_number: unit!.assetNumber, condition: "Good", id_checked: false });

    const page = await hireDesk.get("/admin/hire");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/admin/hire"');
    expect(page.body).toContain(`href="/admin/hire/requests/${waiting}"`);
    expect(page.body).toContain(`href="/admin/hire/requests/${going}"`);
    const text = textOf(page);
    expect(text).toMatch(/Waiting for a decision \d+/);
    expect(text).toContain("Wanda Waiting");
    expect(text).toMatch(new RegExp(`${going} Gus Going Screen Desk Plate 1 unit going out`));
    expect(page.body).toContain(`href="/admin/hire/requests/${due}"`);
    expect(text).toMatch(new RegExp(`Due back today 1 .*${unit!.assetNumber} Screen Desk Plate ${due} Dora Due 07700 900222 Out on hire`));
    expect(text).toContain("No unit is overdue.");
    expect((await sales.get("/admin/hire")).statusCode).toBe(403);
  });

  it("draws the planner as a table: unit rows, a bar per allocation with words, today's column, and the days' links", async () => {
    const { item, units } = await fleet("Screen Planner Tamper", "SPT");
    const number = await request(item.id, day(2), day(5), "Pia Planner");
    await shop().database.db.insert(hireAllocations).values({ unitId: units[1]!.id, kind: "service", note: "New belt", period: `[${day(-3)},${day(1)})` });

    const page = await hireDesk.get(`/admin/hire/planner?q=${encodeURIComponent("Screen Planner Tamper")}`);
    expect(page.statusCode).toBe(200);
    const text = textOf(page);
    expect(page.body).toMatch(/<th scope="rowgroup"[^>]*><span[^>]*>Screen Planner Tamper/);
    expect(page.body).toMatch(/<th scope="row"[^>]*>SPT-1/);
    // A service bar has no request to open, but still takes the keyboard's focus.
    expect(page.body).toMatch(/<span tabindex="0" title="SPT-2: in service/);
    expect(page.body).toContain(`href="/admin/hire/requests/${number}"`);
    expect(text).toContain(`SPT-1: hold ${number}, ${shortDay(day(2))} to ${shortDay(day(5))}`);
    // The service bar began before the window: it is drawn from the first column, its words give its own dates.
    expect(text).toContain(`SPT-2: in service (New belt), ${shortDay(day(-3))} to ${shortDay(day(1))}`);
    expect(page.body).toContain('aria-current="date"');
    expect(text).toMatch(/Hold ?: waiting for approval/);
    expect(page.body).toContain(`from=${day(14)}`);
    expect(page.body).toContain(`from=${day(-14)}`);

    const later = await hireDesk.get(`/admin/hire/planner?from=${day(20)}&days=7&q=${encodeURIComponent("Screen Planner Tamper")}`);
    expect(textOf(later)).not.toContain(`SPT-1: hold ${number}`);
    expect(later.body).not.toContain('aria-current="date"');

    const bad = await hireDesk.get("/admin/hire/planner?from=2026-02-30&days=90");
    expect(bad.statusCode).toBe(422);
    expect(textOf(bad)).toContain("The first day (from) must be a real date");
    expect(textOf(bad)).toContain("The number of days (days) must be a whole number from 1 to 62.");
    expect(bad.body).toContain('value="2026-02-30"');
    expect((await sales.get("/admin/hire/planner")).statusCode).toBe(403);
  });

  it("lists hire requests with their state, filtered and searched", async () => {
    const { item } = await fleet("Screen List Auger", "SLA");
    const number = await request(item.id, day(10), day(11), "Lars Listed");
    const page = await hireDesk.get("/admin/hire/requests?q=lars+listed");
    expect(page.statusCode).toBe(200);
    const text = textOf(page);
    expect(page.body).toContain(`href="/admin/hire/requests/${number}"`);
    expect(text).toContain("Waiting");
    expect(text).toContain("Screen List Auger");
    const none = await hireDesk.get("/admin/hire/requests?q=lars+listed&status=returned");
    expect(textOf(none)).toContain("No hire requests match these filters");
    expect((await hireDesk.get("/admin/hire/requests?status=shipped")).statusCode).toBe(422);

    expect((await sales.get("/admin/hire/requests")).statusCode).toBe(403);
  });
});
