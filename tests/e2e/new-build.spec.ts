// New builds: the browser checks every hour and, once a newer build is live,
// the next navigation is a full page load. A failed lazy chunk reloads the page.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

declare global {
  interface Window {
    __samePage?: boolean;
  }
}

async function openHome(page: Page) {
  await page.clock.install();
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  // A marker that survives client navigations and is lost on a full load.
  await page.evaluate(() => (window.__samePage = true));
}

test.describe("new builds", () => {
  test("without a newer build, navigation stays in the page", async ({ page }) => {
    await openHome(page);
    await page.clock.fastForward(3_600_000);
    await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Timber" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Timber" })).toBeVisible();
    expect(await page.evaluate(() => window.__samePage)).toBe(true);
  });

  test("once a newer build is live, the next navigation is a full page load", async ({ page }) => {
    let checks = 0;
    await page.route("**/api/build", (route) => {
      checks += 1;
      return route.fulfill({ json: { buildId: "a-newer-build" } });
    });
    await openHome(page);
    // Not before the hour is up (the page's clock also runs on while the test works: a minute of slack).
    await page.clock.fastForward(3_540_000);
    expect(checks).toBe(0);
    await page.clock.fastForward(60_000);
    await expect.poll(() => checks).toBe(1);

    await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Timber" }).click();
    await expect(page).toHaveURL("/category/timber");
    await expect(page.getByRole("heading", { level: 1, name: "Timber" })).toBeVisible();
    expect(await page.evaluate(() => window.__samePage)).toBeUndefined();
  });
});

test.describe("a failed lazy chunk", () => {
  // The router logs the failed import before it reloads.
  test.use({ allowedConsoleErrors: [/Error loading route module|Failed to fetch dynamically imported module|net::ERR_FAILED/] });

  test("reloads the page once, and the reloaded page works", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => (window.__samePage = true));
    let aborted = 0;
    // The delivery page's route chunk is missing, as after a deploy replaced it.
    await page.route(/\/assets\/delivery-[^/]+\.js$/, (route) => {
      aborted += 1;
      return route.abort();
    });
    let loads = 0;
    page.on("load", () => (loads += 1));
    await page.getByRole("contentinfo").getByRole("link", { name: "Delivery", exact: true }).click();
    await expect.poll(() => loads).toBe(1);
    expect(aborted).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.__samePage)).toBeUndefined();
    // No loop: the reloaded page stays put and renders.
    await page.waitForTimeout(1_500);
    expect(loads).toBe(1);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});
