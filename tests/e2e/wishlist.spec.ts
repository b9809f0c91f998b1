// The wishlist in the browser (issue 4): the heart on listing cards and the
// product page, for guests (section 5's sign-in messages) and for the demo
// customer, and /account/wishlist with remove and add to basket.
import type { Page } from "@playwright/test";
import { openPage, signInThroughForm } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

const DEMO = { email: "customer@example.com", password: "demo-password-2026" };
const CATEGORY = "/category/power-tools/cordless-drills";

const cards = (page: Page) => page.getByRole("main").getByTestId("product-card");

test("a guest is asked to sign in from a listing's card, with a way back", async ({ page }) => {
  await openPage(page, CATEGORY);
  const card = cards(page).first();
  const name = (await card.getByRole("heading", { level: 3 }).textContent())!;
  const heart = card.getByRole("button", { name: `Save ${name} to your wishlist`, exact: true });
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  await heart.click();
  await expect(card.getByRole("status")).toContainText("Authentication required to add to wishlist.");
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  const signIn = card.getByRole("link", { name: "Sign in" });
  await expect(signIn).toHaveAttribute("href", `/auth/login?redirect=${encodeURIComponent(CATEGORY)}`);
  await signIn.click();
  await signInThroughForm(page, DEMO);
  await expect(page).toHaveURL(CATEGORY);
});

test("a guest is asked to sign in from the product page", async ({ page }) => {
  await openPage(page, "/product/bosch-18v-drill-driver");
  const actions = page.getByRole("main").getByTestId("product-actions").first();
  const heart = actions.getByRole("button", { name: "Save Bosch 18V Drill Driver to your wishlist", exact: true });
  await heart.click();
  await expect(actions.getByRole("status")).toHaveText("Authentication required to add to wishlist. Sign in");
  await expect(actions.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/auth/login?redirect=%2Fproduct%2Fbosch-18v-drill-driver");
  await expect(heart).toHaveAttribute("aria-pressed", "false");
});

test.describe("signed in", () => {
  // The demo customer's list is shared by these tests: one at a time.
  test.describe.configure({ mode: "serial" });
  test.use({ allowedConsoleErrors: [/status of 500/] });

  test("the demo customer saves from the product page, sees the heart pressed on the listing, finds it on /account/wishlist and removes it", async ({ page }) => {
    await openPage(page, `/auth/login?redirect=${encodeURIComponent(CATEGORY)}`);
    await signInThroughForm(page, DEMO);
    await expect(page).toHaveURL(CATEGORY);
    await page.waitForLoadState("networkidle");

    // From a card (of a product in stock) to its product page.
    const card = cards(page)
      .filter({ has: page.getByTestId("stock-status").filter({ hasText: /^In stock/ }) })
      .nth(2);
    const name = (await card.getByRole("heading", { level: 3 }).textContent())!;
    await card.getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    const heart = page.getByRole("main").getByTestId("product-actions").first().getByRole("button", { name: `Save ${name} to your wishlist`, exact: true });
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await heart.click();
    await expect(heart).toHaveAttribute("aria-pressed", "true");
    await expect(heart).toHaveText("Saved");

    // Back on the listing the card's heart is pressed; coming back later, the saved hearts are fetched again.
    await page.goBack();
    await expect(page).toHaveURL(CATEGORY);
    const listed = page.getByRole("main").getByRole("button", { name: `Save ${name} to your wishlist`, exact: true });
    await expect(listed).toHaveAttribute("aria-pressed", "true");
    await page.reload();
    await expect(listed).toHaveAttribute("aria-pressed", "true");

    await openPage(page, "/account/wishlist");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your wishlist");
    const saved = page.getByRole("list", { name: "Saved products" }).getByRole("listitem");
    await expect(saved).toHaveCount(1);
    await expect(saved.getByRole("link", { name, exact: true })).toBeVisible();
    await expect(saved).toContainText(/Added \d{1,2} \w+ \d{4}/);
    await expect(saved).toContainText(/£\d/);

    // Straight into the basket from the list.
    await saved.getByRole("button", { name: `Add to basket: ${name}`, exact: true }).click();
    await expect(saved.getByRole("status")).toHaveText("Added to your basket. View basket");
    await expect(page.getByTestId("basket-count")).toHaveText("1");

    // The list empties at once (optimistic); the reload must wait for the removal the server is still making.
    const removal = page.waitForResponse((r) => r.request().method() === "DELETE" && new URL(r.url()).pathname.startsWith("/api/account/wishlist/"));
    await saved.getByRole("button", { name: `Remove ${name} from your wishlist` }).click();
    await expect(page.getByText("Your wishlist is empty.")).toBeVisible();
    expect((await removal).ok()).toBe(true);
    await page.reload();
    await expect(page.getByText("Your wishlist is empty.")).toBeVisible();

    // And the card's heart is no longer pressed.
    await openPage(page, CATEGORY);
    await expect(listed).toHaveAttribute("aria-pressed", "false");

    // The demo customer's basket is left as it was found.
    await openPage(page, "/basket");
    await page.getByRole("button", { name: "Clear basket" }).click();
    await expect(page.getByText("Your basket is empty.")).toBeVisible();
  });

  test("a refused save puts the heart back and says so", async ({ page }) => {
    await openPage(page, `/auth/login?redirect=${encodeURIComponent(CATEGORY)}`);
    await signInThroughForm(page, DEMO);
    await expect(page).toHaveURL(CATEGORY);
    await page.waitForLoadState("networkidle");
    await page.route("**/api/account/wishlist", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 500, json: { message: "Server Error" } }) : route.continue(),
    );
    const card = cards(page).nth(1);
    const heart = card.getByTestId("wishlist-button");
    await heart.click();
    await expect(card.getByRole("status")).toHaveText("Failed to add product to wishlist.");
    await expect(heart).toHaveAttribute("aria-pressed", "false");
  });
});
