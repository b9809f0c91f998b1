// The new hire screen (issue 34) on the production build, driven as a browser
// without scripts drives it: a planner cell's address chooses the unit and
// day, the page shows the rate card's price and deposit and finds customers
// with accounts for the hire desk; a booking without a customer is refused
// naming the fields, then booked for a walk-in. The rules are proven through
// the API in bookings.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../../test/app.ts";
import { type TestBrowser } from "../../../test/browser.ts";
import { textOf } from "../../../test/page-text.ts";
import { users } from "../../auth/schema.ts";
import { addDays, londonDate } from "../pricing.ts";
import { testFleet } from "../test-fleet.ts";
import { staffBrowser } from "../../../test/staff-browsers.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let desk: TestBrowser;
const day = (n: number) => addDays(londonDate(), n);

beforeAll(async () => {
  desk = await staffBrowser(shop().app, "198.51.122.1", "hire@staff.example.com");
}, 240_000);

describe("the new hire screen", () => {
  it("prices a planner cell, finds the customer, refuses a booking with no one, and books a walk-in", async () => {
    const { units } = await testFleet(shop().database.db, { name: "Roller BS", prefix: "BS", units: 2, deposit: 1000 });
    await shop().database.db.insert(users).values({ email: "rhona.roller@example.co.uk", firstname: "Rhona", lastname: "Roller", phone: "07700 900666", passwordHash: "x" });
    const url = `/admin/hire/bookings/new?unit=${units[1]!.id}&starts_on=${day(7)}&ends_on=${day(14)}&q=rhona`;
    const page = await desk.get(url);
    expect(page.statusCode).toBe(200);
    const text = textOf(page);
    expect(text).toContain("Roller BS , 7 days £40.00");
    expect(text).toContain("Refundable deposit £10.00");
    expect(text).toContain("Rhona Roller ( Account )");
    expect(page.body).toMatch(new RegExp(`<option value="${units[1]!.id}" selected="">BS-2</option>`));

    const fields: [string, string][] = [
      ["hire_item", "bs"],
      ["unit_id", String(units[1]!.id)],
      ["starts_on", day(7)],
      ["ends_on", day(14)],
    ];
    const refused = await desk.postForm(url, [...fields, ["who", "walk_in"], ["name", ""], ["phone", ""]]);
    expect(refused.statusCode).toBe(422);
    expect(textOf(refused)).toContain("Enter the customer's name.");
    expect(textOf(refused)).toContain("Enter the customer's phone number.");

    const booked = await desk.postForm(url, [...fields, ["who", "walk_in"], ["name", "Walt Walker"], ["phone", "07700 900667"]]);
    expect(booked.statusCode).toBe(200);
    expect(textOf(booked)).toMatch(/Booked HR-\d{6} : unit BS-2 from .+ Hire £48\.00 including VAT, deposit £10\.00 \./);

    const again = await desk.postForm(url, [...fields, ["who", "walk_in"], ["name", "Second Walker"], ["phone", "07700 900668"]]);
    expect(again.statusCode).toBe(409);
    expect(textOf(again)).toMatch(/Unit BS-2 is booked for HR-\d{6} \(Walt Walker\)/);
  });
});
