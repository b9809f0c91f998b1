// The showroom appointments screen on the production build: it opens at the
// member's own showroom (staff.branch_ids, issue 30) when they work at one,
// else at the first, and at the one the filters name.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { type TestBrowser } from "../../test/browser.ts";
import { textOf } from "../../test/page-text.ts";
import { branches } from "../branches/schema.ts";
import { staff } from "../staff/schema.ts";
import { staffBrowser } from "../../test/staff-browsers.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let sales: TestBrowser;

beforeAll(async () => {
  // Manchester takes bookings too, after York in the merchant's order.
  await shop().database.db.update(branches).set({ services: sql`array_append(${branches.services}, 'showroom')` }).where(eq(branches.slug, "manchester"));
  sales = await staffBrowser(shop().app, "198.51.111.1", "sales@staff.example.com");
}, 240_000);

const heading = async (url: string) => {
  const res = await sales.get(url);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return textOf(res);
};

describe("/admin/appointments", () => {
  it("opens at the first showroom, at the member's own once they work at one, and at the one asked for", async () => {
    // The day's heading names the showroom shown: "York, Foss Islands, Saturday, 28 November 2026".
    expect(await heading("/admin/appointments")).toMatch(/Show York, Foss Islands\s*, \w+day/);
    const [manchester] = await shop().database.db.select({ id: branches.id, name: branches.name }).from(branches).where(eq(branches.slug, "manchester"));
    await shop().database.db.update(staff).set({ branchIds: [manchester!.id] }).where(eq(staff.email, "sales@staff.example.com"));
    expect(await heading("/admin/appointments")).toMatch(new RegExp(`Show ${manchester!.name}\\s*, \\w+day`));
    expect(await heading("/admin/appointments?branch=york")).toMatch(/Show York, Foss Islands\s*, \w+day/);
  });
});
