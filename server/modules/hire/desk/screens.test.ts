// The hire request's screen on the production build, driven as a browser
// without scripts drives it: the page, then each form posted to the route's
// action — a refused decline and hand-over naming their fields and keeping
// what was typed, approval, hand-over of unit 2, an off-hire with its
// reference, a return two days late with a cleaning charge, and settlement.
// The rules are proven through the API in operations.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../../test/app.ts";
import { TestBrowser } from "../../../test/browser.ts";
import { textOf } from "../../../test/page-text.ts";
import { addDays, londonDate } from "../pricing.ts";
import { hireCategories, hireItems, hireUnits } from "../schema.ts";
import { staffBrowser } from "../../../test/staff-browsers.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let desk: TestBrowser;
let sales: TestBrowser;

beforeAll(async () => {
  desk = await staffBrowser(shop().app, "198.51.109.1", "hire@staff.example.com");
  sales = await staffBrowser(shop().app, "198.51.109.2", "sales@staff.example.com");
}, 240_000);

describe("a hire request's page", () => {
  it("takes a hire from waiting to settled through its forms", async () => {
    const db = shop().database.db;
    const [category] = await db.select().from(hireCategories).limit(1);
    const [item] = await db.insert(hireItems).values({ slug: "screen-breaker", name: "Screen Breaker", hireCategoryId: category!.id, dayRate: 1000, weekendRate: 1500, weekRate: 4000 }).returning();
    await db.insert(hireUnits).values([1, 2].map((n) => ({ hireItemId: item!.id, assetNumber: `SCR-${n}` })));
    // From a Monday: the late days (Wednesday to Friday) are plain days, whatever day the test runs.
    let start = addDays(londonDate(), 1);
    while (new Date(`${start}T12:00:00Z`).getUTCDay() !== 1) start = addDays(start, 1);
    const customer = new TestBrowser(shop().app, "198.51.109.3");
    await customer.csrf();
    await customer.post("/api/hire-basket", { hire_item_id: item!.id, quantity: 1, start_date: start, end_date: addDays(start, 2) });
    const number = (await customer.post("/api/hire-requests", { name: "Sam Screen", email: "sam.screen@example.co.uk", phone: "07700 900333", company: "", fulfilment: "collection" })).json().number as string;
    const url = `/admin/hire/requests/${number}`;

    const page = await desk.get(url);
    expect(page.statusCode).toBe(200);
    expect(textOf(page)).toContain(`Hire request ${number}`);
    expect(textOf(page)).toContain("Waiting");
    expect((await sales.get(url)).statusCode).toBe(403);
    expect((await sales.postForm(url, [["intent", "approve"]])).statusCode).toBe(403);

    const refused = await desk.postForm(url, [["intent", "decline"], ["reason", ""]]);
    expect(refused.statusCode).toBe(422);
    expect(textOf(refused)).toContain("Say why the request is declined");

    const approved = await desk.postForm(url, [["intent", "approve"]]);
    expect(approved.statusCode).toBe(200);
    expect(textOf(approved)).toContain(`${number} is approved. The customer has been emailed.`);

    const detail = (await desk.get(`/api/admin/hire/requests/${number}`)).json();
    const allocation = String(detail.lines[0].units[0].allocation_id);
    const noCondition = await desk.postForm(url, [["intent", "hand_over"], ["target", allocation], ["asset_number", "SCR-2"], ["condition", ""], ["accessories", "Spare chisel"], ["id_checked", "no"]]);
    expect(noCondition.statusCode).toBe(422);
    expect(textOf(noCondition)).toContain("Record the unit's condition as it goes out.");
    expect(noCondition.body).toContain('value="Spare chisel"');

    const out = await desk.postForm(url, [["intent", "hand_over"], ["target", allocation], ["asset_number", "SCR-2"], ["condition", "Clean"], ["id_checked", "yes"], ["id_type", "Passport"]]);
    expect(out.statusCode).toBe(200);
    expect(textOf(out)).toMatch(/Unit SCR-2 handed over under agreement HA-\d{6}/);
    expect(out.body).toMatch(/agreement\.pdf/);

    const offHire = await desk.postForm(url, [["intent", "off_hire"], ["date", addDays(start, 4)], ["note", "Phoned in"]]);
    expect(offHire.statusCode).toBe(200);
    expect(textOf(offHire)).toMatch(/reference OH-\d{6}/);

    const handover = String((await desk.get(`/api/admin/hire/requests/${number}`)).json().lines[0].units[0].handover.id);
    // A charge without its reason, typed in the third row: refused there, with the amount kept.
    const noReason = await desk.postForm(url, [["intent", "return"], ["target", handover], ["condition", "Dusty"], ["charge_2_kind", "damage"], ["charge_2_amount", "40"]]);
    expect(noReason.statusCode).toBe(422);
    expect(textOf(noReason)).toContain("Give the reason for the charge: the customer sees it.");
    expect(noReason.body).toMatch(/name="charge_2_amount" value="40"/);
    const error = noReason.body.indexOf("Give the reason for the charge");
    expect(error).toBeGreaterThan(noReason.body.indexOf('name="charge_1_amount"'));
    expect(error).toBeLessThan(noReason.body.indexOf('name="charge_2_amount"'));

    const back = await desk.postForm(url, [
      ["intent", "return"],
      ["target", handover],
      ["returned_on", addDays(start, 4)],
      ["condition", "Dusty"],
      ["charge_0_kind", "cleaning"],
      ["charge_0_reason", "Caked in plaster"],
      ["charge_0_amount", "15"],
    ]);
    expect(back.statusCode).toBe(200);
    // Back two days past the booked return, off-hired then: two days' hire and two late days, each £10 a day.
    expect(textOf(back)).toContain("Hire charged £20.00 for 2 days, 2 late days £20.00 (ex VAT).");
    expect(textOf(back)).toContain("Caked in plaster");

    const settled = await desk.postForm(url, [["intent", "settle"], ["method", "arranged"], ["note", "Paid at the counter"]]);
    expect(settled.statusCode).toBe(200);
    // £20 + £20 + £15, with VAT: £66.
    expect(textOf(settled)).toContain("Final charges £66.00 settled");
    expect(textOf(settled)).toContain("Settled as arranged");
  });

  it("shows the customer their hire's state, off-hire reference and final charges, with a Pay by card button while money is due", async () => {
    const db = shop().database.db;
    const [category] = await db.select().from(hireCategories).limit(1);
    const [item] = await db.insert(hireItems).values({ slug: "screen-sander", name: "Screen Sander", hireCategoryId: category!.id, dayRate: 1000, weekendRate: 1500, weekRate: 4000 }).returning();
    await db.insert(hireUnits).values({ hireItemId: item!.id, assetNumber: "SND-1" });
    const customer = new TestBrowser(shop().app, "198.51.109.4");
    await customer.csrf();
    const email = `sandra.${Date.now()}@example.co.uk`;
    expect((await customer.register("Sandra", "Sander", email)).statusCode).toBe(201);
    let start = addDays(londonDate(), 2);
    while (new Date(`${start}T12:00:00Z`).getUTCDay() !== 1) start = addDays(start, 1);
    await customer.post("/api/hire-basket", { hire_item_id: item!.id, quantity: 1, start_date: start, end_date: addDays(start, 2) });
    const number = (await customer.post("/api/hire-requests", { name: "Sandra Sander", email, phone: "07700 900777", company: "", fulfilment: "collection" })).json().number as string;
    await desk.post(`/api/admin/hire/requests/${number}/approve`, {});

    const approved = await customer.get("/account/hire-requests");
    expect(approved.statusCode).toBe(200);
    expect(textOf(approved)).toContain("Approved");
    expect(textOf(approved)).toContain("Pay £24.00 by card");
    // The button opens the same payment page as the emailed link.
    const pay = await customer.request("POST", "/account/hire-requests", new URLSearchParams([["number", number]]).toString(), { headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" } });
    expect(pay.statusCode).toBe(302);
    expect(pay.headers.location).toMatch(/\/payments\/test\/cs_test_/);

    const allocation = (await desk.get(`/api/admin/hire/requests/${number}`)).json().lines[0].units[0].allocation_id;
    const handover = (await desk.post(`/api/admin/hire/requests/${number}/handovers`, { allocation_id: allocation, asset_number: "SND-1", condition: "Good", id_checked: false })).json().handover_id;
    const reference = (await desk.post(`/api/admin/hire/requests/${number}/off-hire`, { date: addDays(start, 1) })).json().references[0];
    const offHired = await customer.get("/account/hire-requests");
    expect(textOf(offHired)).toContain("Off-hired");
    expect(textOf(offHired)).toContain(reference);
    await desk.post(`/api/admin/hire/requests/${number}/handovers/${handover}/return`, { returned_on: addDays(start, 3), condition: "Dusty", charges: [{ kind: "cleaning", reason: "Dust bag full", amount: 10 }] });
    await desk.post(`/api/admin/hire/requests/${number}/settle`, { method: "arranged" });
    const done = await customer.get("/account/hire-requests");
    expect(textOf(done)).toContain("Completed");
    expect(textOf(done)).toContain("Dust bag full");
    // A day's hire (£10) and cleaning (£10), with VAT.
    expect(textOf(done)).toContain("Final charges: £24.00 including VAT · As arranged with us");
    expect(textOf(done)).not.toContain("by card");
  });
});
