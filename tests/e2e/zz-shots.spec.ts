import { openPage } from "./auth-helpers.ts";
import { test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";

const SCREENS = ["/admin", "/admin/orders", "/admin/customers", "/admin/audit", "/admin/products", "/admin/stock", "/admin/trade", "/admin/hire/planner"];
test("shots", async ({ browser }) => {
  test.setTimeout(300_000);
  const page = await staffPage(browser, "owner@example.com");
  for (const [w, h] of [[1366, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const s of SCREENS) {
      await openPage(page, s);
      await page.screenshot({ path: `/tmp/shots/${s.replaceAll("/", "_")}-${w}.png`, fullPage: false });
    }
  }
  const shop = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await openPage(shop, "/");
  await shop.screenshot({ path: "/tmp/shots/home-1366.png" });
  await shop.setViewportSize({ width: 820, height: 1180 });
  await openPage(shop, "/");
  await shop.screenshot({ path: "/tmp/shots/home-820.png" });
});
