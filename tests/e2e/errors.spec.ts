import { expect, test } from "./fixtures.ts";

// Chromium logs the 404 response of the document itself as a console error.
test.use({ allowedConsoleErrors: [/^console error: Failed to load resource: the server responded with a status of 404 \(Not Found\)$/] });

test.describe("error page", () => {
  test("an unknown path answers 404 with the specified page, and Go back home clears it", async ({ page }) => {
    const response = await page.goto("/no-such-page/here");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("Error 404 | Tradecounter");

    const main = page.getByRole("main");
    await expect(main.getByText("404", { exact: true })).toBeVisible();
    // In the storefront's frame: its header (with the search) and footer stay around the error.
    await expect(page.getByRole("banner").getByRole("search")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(main.getByRole("heading", { level: 1 })).toContainText("Not Found");
    await expect(page.getByTestId("error-message")).toHaveText("Page Not Found: /no-such-page/here");

    await page.waitForLoadState("networkidle");
    await main.getByRole("button", { name: "Go back home" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByTestId("error-message")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Everything for the build, from one counter.");
    await expect(page).toHaveTitle(/^(?!Error).*Tradecounter/);
  });

  test("an unknown path inside /category answers 404", async ({ page }) => {
    const response = await page.goto("/category/power-tools/no-such-category");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("Error 404 | Tradecounter");
    await expect(page.getByTestId("error-message")).toHaveText("Page Not Found: /category/power-tools/no-such-category");
  });

  test("an unknown back-office path answers 404 without the storefront's frame, and goes back to the back office", async ({ page }) => {
    const response = await page.goto("/admin/no-such-desk");
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("error-message")).toHaveText("Page Not Found: /admin/no-such-desk");
    await expect(page.getByRole("banner")).toHaveCount(0);
    await expect(page.getByRole("contentinfo")).toHaveCount(0);
    await expect(page.getByRole("main").getByRole("button", { name: "Back to the back office" })).toBeVisible();
  });

  test("a client-side navigation to an unknown page shows the same page", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    // Hydrated first (a card's compare button is enabled by it): a link added to the server's HTML before then
    // is a mismatch React recovers from by rendering again, which takes the link away (seen once under load).
    await expect(page.getByTestId("compare-button").first()).toBeEnabled();
    await page.evaluate(() => {
      const a = document.createElement("a");
      a.href = "/no-such-page";
      a.textContent = "broken link";
      document.querySelector("main")?.append(a);
    });
    await page.getByRole("link", { name: "broken link" }).click();
    await expect(page).toHaveURL("/no-such-page");
    await expect(page.getByTestId("error-message")).toHaveText("Page Not Found: /no-such-page");
  });
});
