// The wishlist in the browser (issue 4): the heart for guests (section 5's
// sign-in messages) and for the demo customer, and /account/wishlist.
import { openPage, signInThroughForm } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

const DEMO = { email: "customer@example.com", password: "demo-password-2026" };

test("a guest is asked to sign in, with a way back", async ({ page }) => {
  await openPage(page, "/showcase");
  const heart = page.getByRole("main").getByTestId("wishlist-button").first();
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  await heart.click();
  const tile = page.getByRole("main").getByRole("article").first();
  await expect(tile.getByRole("status")).toContainText("Authentication required to add to wishlist.");
  await expect(heart).toHaveAttribute("aria-pressed", "false");
  const signIn = tile.getByRole("link", { name: "Sign in" });
  await expect(signIn).toHaveAttribute("href", "/auth/login?redirect=%2Fshowcase");
  await signIn.click();
  await signInThroughForm(page, DEMO);
  await expect(page).toHaveURL("/showcase");
});

test.describe("signed in", () => {
  // The demo customer's list is shared by these tests: one at a time.
  test.describe.configure({ mode: "serial" });
  test.use({ allowedConsoleErrors: [/status of 500/] });

  test("the demo customer saves a product, finds it on /account/wishlist and removes it", async ({ page }) => {
    await openPage(page, "/auth/login?redirect=/kitchens-and-bathrooms");
    await signInThroughForm(page, DEMO);
    await expect(page).toHaveURL("/kitchens-and-bathrooms");
    await page.waitForLoadState("networkidle");

    const tile = page.getByRole("main").getByRole("article").first();
    const name = (await tile.getByRole("heading", { level: 3 }).textContent())!;
    const heart = tile.getByRole("button", { name: `Save ${name} to your wishlist` });
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await heart.click();
    await expect(heart).toHaveAttribute("aria-pressed", "true");

    // Coming back, the saved hearts are fetched again.
    await page.reload();
    await expect(page.getByRole("main").getByRole("button", { name: `Save ${name} to your wishlist` })).toHaveAttribute("aria-pressed", "true");

    await openPage(page, "/account/wishlist");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your wishlist");
    const saved = page.getByRole("list", { name: "Saved products" }).getByRole("listitem");
    await expect(saved).toHaveCount(1);
    await expect(saved.getByRole("link", { name, exact: true })).toBeVisible();
    await expect(saved).toContainText(/Added \d{1,2} \w+ \d{4}/);
    await expect(saved).toContainText(/£\d/);

    await saved.getByRole("button", { name: `Remove ${name} from your wishlist` }).click();
    await expect(page.getByText("Your wishlist is empty.")).toBeVisible();
    await page.reload();
    await expect(page.getByText("Your wishlist is empty.")).toBeVisible();
  });

  test("a refused save puts the heart back and says so", async ({ page }) => {
    await openPage(page, "/auth/login?redirect=/showcase");
    await signInThroughForm(page, DEMO);
    await expect(page).toHaveURL("/showcase");
    await page.waitForLoadState("networkidle");
    await page.route("**/api/account/wishlist", (route) =>
      route.request().method() === "POST" ? route.fulfill({ status: 500, json: { message: "Server Error" } }) : route.continue(),
    );
    const tile = page.getByRole("main").getByRole("article").nth(1);
    const heart = tile.getByTestId("wishlist-button");
    await heart.click();
    await expect(tile.getByRole("status")).toHaveText("Failed to add product to wishlist.");
    await expect(heart).toHaveAttribute("aria-pressed", "false");
  });
});
