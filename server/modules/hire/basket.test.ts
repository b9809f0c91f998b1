import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expectNotFoundWith, testShopForFile, servicesOf } from "../../test/app.ts";
import { TestBrowser, freshBrowser } from "../../test/browser.ts";
import { auditLog } from "../audit/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import { addDays, londonDate } from "./pricing.ts";
import { hireAllocations, hireItems, hireRequests, hireUnits } from "./schema.ts";

const shop = testShopForFile();

const day = (n: number) => addDays(londonDate(), n);
let ipCounter = 1;
const guest = () => freshBrowser(shop().app, `198.18.0.${ipCounter++ % 250}`);
async function itemId(slug: string) {
  const [item] = await shop().database.db.select({ id: hireItems.id }).from(hireItems).where(eq(hireItems.slug, slug));
  return item!.id;
}

const requester = {
  name: "Sam Builder",
  email: "sam@example.co.uk",
  phone: "07700 900456",
  company: "Builder Ltd",
  fulfilment: "delivery",
  address_line1: "Plot 4, Mill Lane",
  town: "Leeds",
  postcode: "ls1 4ap",
  notes: "Gate code 1234",
};

describe("the hire basket", () => {
  it("answers {success, message, errors, cart} for a guest with nothing yet", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/hire-basket" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: "", errors: {}, cart: { items: [], depot: null, totals: { hire_cost: 0, deposit: 0, vat: 0, total: 0 }, itemCount: 0 } });
  });

  it("adds, merges the same dates, changes and removes lines, with totals", async () => {
    const browser = await guest();
    const id = await itemId("cement-mixer-110v");
    const add = await browser.post("/api/hire-basket", { hire_item_id: id, quantity: 1, start_date: day(1), end_date: day(3) });
    expect(add.statusCode).toBe(200);
    expect(browser.cookies.has("tc_guest")).toBe(true);
    const again = await browser.post("/api/hire-basket", { hire_item_id: id, quantity: 2, start_date: day(1), end_date: day(3) });
    const cart = again.json().cart;
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({ hire_item_id: id, quantity: 3, start_date: day(1), end_date: day(3), days: 2, deposit: 150 });
    expect(cart.itemCount).toBe(3);
    expect(cart.totals.vat).toBeCloseTo(cart.totals.hire_cost * 0.2, 2);
    expect(cart.totals.total).toBeCloseTo(cart.totals.hire_cost + cart.totals.vat + cart.totals.deposit, 2);

    const lineId = cart.items[0].id;
    const put = await browser.put(`/api/hire-basket/${lineId}`, { quantity: 1, end_date: day(8) });
    expect(put.json().cart.items[0]).toMatchObject({ quantity: 1, days: 7 });
    const del = await browser.delete(`/api/hire-basket/${lineId}`);
    expect(del.json()).toMatchObject({ success: true, message: "Removed from your hire request.", cart: { items: [], itemCount: 0 } });
  });

  it("joins a guest's lines to the customer's own on signing in, the same item and dates as one line", async () => {
    const id = await itemId("cement-mixer-110v");
    const own = new TestBrowser(shop().app, "198.18.1.1");
    await own.signIn("customer@example.com", "demo-password-2026");
    await own.post("/api/hire-basket", { hire_item_id: id, quantity: 1, start_date: day(20), end_date: day(22) });
    const browser = await guest();
    await browser.post("/api/hire-basket", { hire_item_id: id, quantity: 2, start_date: day(20), end_date: day(22) });
    await browser.post("/api/hire-basket", { hire_item_id: id, quantity: 1, start_date: day(30), end_date: day(31) });
    await browser.signIn("customer@example.com", "demo-password-2026");
    const cart = (await browser.get("/api/hire-basket")).json().cart as { items: { start_date: string; quantity: number }[] };
    expect(cart.items.map((i) => [i.start_date, i.quantity])).toEqual([
      [day(20), 3],
      [day(30), 1],
    ]);
  });

  it.each([
    [{ start_date: addDays(londonDate(), -1), end_date: addDays(londonDate(), 1) }, "start_date", "The hire cannot start in the past."],
    [{ start_date: addDays(londonDate(), 3), end_date: addDays(londonDate(), 1) }, "end_date", "The return date must not be before the start date."],
    [{ start_date: addDays(londonDate(), 1), end_date: addDays(londonDate(), 100) }, "end_date", "A hire can last at most 90 days."],
    // Five at Leeds (the default depot) and one at Harrogate that can be moved there (demo-hire.ts).
    [{ quantity: 7 }, "quantity", "Only 6 available at Leeds, Canal Wharf for those dates."],
    [{ quantity: 0 }, "quantity", "The quantity must be at least 1."],
    [{ quantity: 1.5 }, "quantity", "Enter a whole number."],
  ])("refuses %j with 422, in the basket's shape", async (change, field, message) => {
    const browser = await guest();
    const res = await browser.post("/api/hire-basket", {
      hire_item_id: await itemId("heavy-duty-breaker-110v"),
      quantity: 1,
      start_date: day(20),
      end_date: day(22),
      ...change,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().success).toBe(false);
    expect(res.json().errors[field]).toEqual([message]);
    expect(res.json().cart).toBeDefined();
  });

  it("keeps each guest's basket to itself: another's line answers 404", async () => {
    const a = await guest();
    const b = await guest();
    const added = await a.post("/api/hire-basket", { hire_item_id: await itemId("carpet-cleaner"), quantity: 1, start_date: day(2), end_date: day(3) });
    const lineId = added.json().cart.items[0].id;
    expect((await b.put(`/api/hire-basket/${lineId}`, { quantity: 2 })).statusCode).toBe(404);
    expect((await b.delete(`/api/hire-basket/${lineId}`)).statusCode).toBe(404);
    expect((await a.get("/api/hire-basket")).json().cart.items).toHaveLength(1);
  });

  it("moves a guest's basket into the account on sign-in", async () => {
    const browser = await guest();
    await browser.post("/api/hire-basket", { hire_item_id: await itemId("rotavator-5hp"), quantity: 2, start_date: day(4), end_date: day(6) });
    const reg = await browser.register("Hire", "Guest", `hire.${Date.now()}@example.co.uk`);
    expect(reg.statusCode).toBe(201);
    const cart = (await browser.get("/api/hire-basket")).json().cart;
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({ quantity: 2, start_date: day(4) });
    // From any device: the bearer token alone sees the same basket.
    const byToken = await shop().app.inject({ method: "GET", url: "/api/hire-basket", headers: { authorization: `Bearer ${reg.json().token}` } });
    expect(byToken.json().cart.items).toHaveLength(1);
  });

  it("answers 404 everywhere when HIRE_BASKET_ENABLED is off", async () => {
    await expectNotFoundWith({ HIRE_BASKET_ENABLED: "off" }, ["GET /api/hire-basket", "POST /api/hire-basket", "DELETE /api/hire-basket/1", "POST /api/hire-requests"]);
  });
});

/** The allocations of a hire item's units not yet released (holds and bookings), with their units. */
const unreleasedOf = (hireItemId: number) =>
  shop()
    .database.db.select()
    .from(hireAllocations)
    .innerJoin(hireUnits, eq(hireUnits.id, hireAllocations.unitId))
    .where(and(eq(hireUnits.hireItemId, hireItemId), isNull(hireAllocations.releasedAt)));

describe("hire requests", () => {
  it("hold specific units for 48 hours, empty the basket and email the customer and the shop", async () => {
    const browser = await guest();
    const id = await itemId("trench-rammer");
    await browser.post("/api/hire-basket", { hire_item_id: id, quantity: 2, start_date: day(5), end_date: day(7) });
    const res = await browser.post("/api/hire-requests", requester);
    expect(res.statusCode).toBe(201);
    const number = res.json().number as string;
    expect(number).toMatch(/^HR-\d{6}$/);
    expect((await browser.get("/api/hire-basket")).json().cart.items).toEqual([]);

    const [request] = await shop().database.db.select().from(hireRequests).where(eq(hireRequests.number, number));
    expect(request).toMatchObject({ status: "pending", postcode: "LS1 4AP", fulfilment: "delivery" });
    const hours = (request!.holdExpiresAt.getTime() - Date.now()) / 3_600_000;
    expect(Math.round(hours)).toBe(48);
    const holds = await unreleasedOf(id);
    expect(holds).toHaveLength(2);
    expect(new Set(holds.map((h) => h.hire_allocations.unitId)).size).toBe(2);
    // Nothing left for those dates.
    const quote = await shop().app.inject({ method: "GET", url: `/api/hire/trench-rammer/quote?start_date=${day(6)}&end_date=${day(7)}` });
    expect(quote.json().data.available).toBe(0);

    const mails = await shop().database.db.select().from(mailOutbox).where(sql`${mailOutbox.subject} like ${`%${number}%`}`);
    expect(mails.map((m) => m.to).sort()).toEqual([requester.email, shop().config.shopEmail].sort());
  });

  it("validate the form: delivery needs a site address; an empty basket is refused", async () => {
    const browser = await guest();
    const bad = await browser.post("/api/hire-requests", { ...requester, address_line1: "", town: "", postcode: "" });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["address_line1", "postcode", "town"]);
    const empty = await browser.post("/api/hire-requests", { ...requester, fulfilment: "collection" });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.basket).toEqual(["Your hire request is empty."]);
  });

  it("are listed in the account, and staff decisions turn holds into bookings or free them", async () => {
    const browser = await guest();
    const reg = await browser.register("Req", "User", `req.${Date.now()}@example.co.uk`);
    expect(reg.statusCode).toBe(201);
    await browser.post("/api/hire-basket", { hire_item_id: await itemId("log-splitter-8-tonne"), quantity: 1, start_date: day(9), end_date: day(10) });
    const made = await browser.post("/api/hire-requests", { ...requester, fulfilment: "collection" });
    const number = made.json().number as string;
    const list = (await browser.get("/api/account/hire-requests")).json().data;
    expect(list[0]).toMatchObject({ number, status: "pending", lines: [{ name: "Log Splitter 8 Tonne", quantity: 1 }] });

    expect(await shop().app.inject({ method: "GET", url: "/api/account/hire-requests" }).then((r) => r.statusCode)).toBe(401);

    // Staff act through the service, as the shop CLI does.
    const services = servicesOf(shop());
    const system = await services.staff.systemActor();
    await services.hireRequests.decide(number, "confirm", system);
    const allocations = await shop().database.db
      .select()
      .from(hireAllocations)
      .where(sql`${hireAllocations.requestLineId} in (select id from hire_request_lines where request_id = (select id from hire_requests where number = ${number}))`);
    expect(allocations.every((a) => a.kind === "booking" && a.expiresAt === null)).toBe(true);
    await expect(services.hireRequests.decide(number, "confirm")).rejects.toThrow(/is approved, so it cannot be approved/);
    await services.hireRequests.decide(number, "complete", system);
    expect((await browser.get("/api/account/hire-requests")).json().data[0].status).toBe("completed");
    // Each decision is audited as the member who made it, in its transaction; the refused one is not.
    const audit = await shop().database.db.select().from(auditLog).where(and(eq(auditLog.entity, "hire_request"), eq(auditLog.entityId, number))).orderBy(auditLog.id);
    expect(audit.map((e) => [e.action, e.before, e.after, e.staffName, e.via])).toEqual([
      ["hire_request.confirm", { status: "pending" }, { status: "confirmed" }, "system", "cli"],
      ["hire_request.complete", { status: "confirmed" }, { status: "completed" }, "system", "cli"],
    ]);
  });
});

describe("lapsed holds", () => {
  it("turn a pending request into a lapsed one and free its units", async () => {
    const browser = await guest();
    const id = await itemId("engine-crane-2-tonne"); // 1 unit
    await browser.post("/api/hire-basket", { hire_item_id: id, quantity: 1, start_date: day(40), end_date: day(41) });
    const number = (await browser.post("/api/hire-requests", { ...requester, fulfilment: "collection" })).json().number as string;
    await shop().database.db.update(hireRequests).set({ holdExpiresAt: sql`now() - interval '1 minute'` }).where(eq(hireRequests.number, number));
    await shop().database.db.execute(sql`update hire_allocations set expires_at = now() - interval '1 minute' where unit_id in (select id from hire_units where hire_item_id = ${id})`);
    const services = servicesOf(shop());
    expect(await services.hireRequests.lapseExpired()).toBeGreaterThanOrEqual(1);
    const [request] = await shop().database.db.select().from(hireRequests).where(eq(hireRequests.number, number));
    expect(request?.status).toBe("lapsed");
    await expect(services.hireRequests.decide(number, "confirm")).rejects.toThrow(/lapsed/);
    const quote = await shop().app.inject({ method: "GET", url: `/api/hire/engine-crane-2-tonne/quote?start_date=${day(40)}&end_date=${day(41)}` });
    expect(quote.json().data.available).toBe(1);
  });
});

describe("no double booking under concurrent requests", () => {
  it("30 requests at once for the last 2 units over overlapping dates give exactly 2 holds", async () => {
    const id2 = await itemId("generator-6-0kva-diesel"); // 2 units
    const browsers = await Promise.all(Array.from({ length: 30 }, () => guest()));
    for (const [i, b] of browsers.entries()) {
      const start = day(30 + (i % 3));
      const res = await b.post("/api/hire-basket", { hire_item_id: id2, quantity: 1, start_date: start, end_date: day(34) });
      expect(res.statusCode).toBe(200);
    }
    const results = await Promise.all(browsers.map((b) => b.post("/api/hire-requests", { ...requester, fulfilment: "collection" })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 422)).toHaveLength(28);
    const live = await unreleasedOf(id2);
    expect(live).toHaveLength(2);
  });
});
