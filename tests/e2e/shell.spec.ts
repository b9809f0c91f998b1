import { expect, test } from "./fixtures.ts";

test.describe("home page", () => {
  test("renders the shop's shell with no console errors or CSP violations", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/Tradecounter/);

    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Tradecounter", exact: true })).toBeVisible();
    await expect(header.getByRole("search").first()).toBeAttached();

    const categories = page.getByRole("navigation", { name: "Categories" });
    await expect(categories.getByRole("link", { name: "Power Tools" })).toBeVisible();
    await expect(categories.getByRole("link", { name: "Hire", exact: true })).toBeVisible();
    await expect(categories.getByRole("link", { name: "Kitchens & Bathrooms" })).toBeVisible();

    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    const footer = page.getByRole("contentinfo");
    for (const [name, href] of [
      ["About us", "/about"],
      ["Contact us", "/contact"],
      ["Delivery", "/delivery"],
    ] as const) {
      await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }

    // Wait until the page has hydrated so late errors are caught too.
    await page.waitForLoadState("networkidle");
  });

  test("a footer link navigates in the browser", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.getByRole("contentinfo").getByRole("link", { name: "Delivery", exact: true }).click();
    await expect(page).toHaveURL("/delivery");
    await expect(page.getByRole("heading", { level: 1, name: "Delivery" })).toBeVisible();
  });
});

test.describe("mobile navigation", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the Menu opens by keyboard and its category links navigate", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const menu = page.locator("summary", { hasText: "Menu" });
    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main).toBeHidden();

    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(main).toBeVisible();
    await expect(main.getByRole("link", { name: "Power Tools" })).toBeVisible();

    // Escape closes it and gives focus back to the summary.
    await page.keyboard.press("Escape");
    await expect(main).toBeHidden();
    await expect(menu).toBeFocused();

    await page.keyboard.press("Enter");
    await main.getByRole("link", { name: "Power Tools" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/category/power-tools");
    await expect(page.getByRole("heading", { level: 1, name: "Power Tools" })).toBeVisible();
    // The menu closes after a navigation.
    await expect(main).toBeHidden();
  });

  test("the Menu opens by tap and its links navigate", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const main = page.getByRole("navigation", { name: "Main" });
    await page.locator("summary", { hasText: "Menu" }).tap();
    await expect(main).toBeVisible();
    await expect(main.getByRole("link", { name: "Building Materials" })).toBeVisible();

    await main.getByRole("link", { name: "Hire", exact: true }).tap();
    await expect(page).toHaveURL("/hire");
    await expect(page.getByRole("heading", { level: 1, name: "Equipment hire" })).toBeVisible();
    await expect(main).toBeHidden();
  });

  test("the page does not scroll sideways", async ({ page }) => {
    await page.goto("/");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
