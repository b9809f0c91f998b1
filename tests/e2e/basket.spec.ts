// The purchase basket in the browser: lines with prices inc and ex VAT, totals,
// a quantity change, a refusal past the stock, optimistic removal (and a refused
// removal restored in place with its message), clearing and the header's count.
import type { Page } from "@playwright/test";
import { csrfHeaders, openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { type Listed, twoInStock } from "./listed-products.ts";

// The browser logs every refused request as a console error: the 422 and 500 these journeys ask for.
test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (422|500)/] });

/** Adds through the API with the page's cookies, so the page sees the same guest basket. */
async function addByApi(page: Page, product: Listed, quantity: number): Promise<void> {
  const response = await page.request.post("/api/basket", { headers: await csrfHeaders(page.request), data: { product_id: product.id, quantity } });
  expect(response.status(), await response.text()).toBe(200);
}

test("an empty basket says so and offers a way on", async ({ page }) => {
  await openPage(page, "/basket");
  await expect(page.getByRole("heading", { level: 1, name: "Your basket" })).toBeVisible();
  await expect(page.getByText("Your basket is empty.")).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Continue shopping" })).toBeVisible();
  await expect(page.getByTestId("basket-count")).toHaveText("0");
});

test("the basket: quantities, a refusal past the stock, optimistic removal restored on refusal, clearing and the header count", async ({ page }) => {
  test.slow();
  const [first, second] = await twoInStock(page.request, { perPage: 48, minStock: 3 });
  await addByApi(page, first, 1);
  await addByApi(page, second, 2);

  await openPage(page, "/basket");
  const a = page.getByRole("article", { name: first.name });
  const b = page.getByRole("article", { name: second.name });
  await expect(a).toBeVisible();
  await expect(b).toBeVisible();
  await expect(page.getByTestId("basket-count")).toHaveText("3");
  await expect(a.getByRole("link", { name: first.name })).toHaveAttribute("href", `/product/${first.slug}`);
  await expect(a).toContainText("each inc VAT");
  await expect(a).toContainText("ex VAT");
  const totals = page.getByTestId("basket-totals");
  await expect(totals).toContainText("Subtotal (ex VAT)");
  await expect(totals).toContainText("VAT");
  await expect(totals).toContainText("Total (inc VAT)");
  await expect(page.getByRole("link", { name: "Checkout" })).toHaveAttribute("href", "/checkout");

  // A change the server accepts: the line total and the count follow.
  const lineTotalBefore = await a.getByTestId("line-total").textContent();
  await a.getByLabel("Quantity").fill("2");
  await a.getByRole("button", { name: "Update" }).click();
  await expect(page.getByTestId("basket-count")).toHaveText("4");
  await expect(a.getByTestId("line-total")).not.toHaveText(lineTotalBefore ?? "");

  // Past the stock: the server's own message on the line; the basket keeps its quantity.
  await a.getByLabel("Quantity").fill(String(first.stock + 1));
  await a.getByRole("button", { name: "Update" }).click();
  await expect(a.getByRole("alert")).toHaveText(`Only ${first.stock} left in stock.`);
  await expect(page.getByTestId("basket-count")).toHaveText("4");

  // The server refuses a removal: the line comes back in its place with the message.
  let refused = false;
  await page.route("**/api/basket/*", (route) => {
    if (route.request().method() === "DELETE" && !refused) {
      refused = true;
      return route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Internal Server Error" }) });
    }
    return route.fallback();
  });
  await b.getByRole("button", { name: `Remove ${second.name}` }).click();
  await expect(b.getByRole("alert")).toHaveText("Remove failed: Failed to remove item from cart.");
  await expect(page.getByTestId("basket-line").nth(1)).toContainText(second.name);
  await page.unroute("**/api/basket/*");

  // Then it works: the line goes and stays gone.
  await b.getByRole("button", { name: `Remove ${second.name}` }).click();
  await expect(b).toHaveCount(0);
  await expect(page.getByTestId("basket-line")).toHaveCount(1);
  await expect(page.getByTestId("basket-count")).toHaveText("2");
  await page.reload();
  await expect(page.getByRole("article", { name: first.name })).toBeVisible();
  await expect(page.getByRole("article", { name: second.name })).toHaveCount(0);

  await page.getByRole("button", { name: "Clear basket" }).click();
  await expect(page.getByText("Your basket is empty.")).toBeVisible();
  await expect(page.getByTestId("basket-count")).toHaveText("0");
});

test("a failed fetch shows the section 8 message and a way to try again", async ({ page }) => {
  await page.route("**/api/basket", (route) =>
    route.request().method() === "GET" ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Internal Server Error" }) }) : route.fallback(),
  );
  await openPage(page, "/basket");
  await expect(page.getByRole("alert")).toContainText("Failed to fetch cart data.");
  await page.unroute("**/api/basket");
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByText("Your basket is empty.")).toBeVisible();
});

test.describe("the mini-basket", () => {
  test("the header's count opens the lines and totals; Escape closes it and gives focus back", async ({ page }) => {
    const [first] = await twoInStock(page.request, { perPage: 48, minStock: 3 });
    await addByApi(page, first, 2);
    await openPage(page, "/");
    const toggle = page.getByRole("banner").getByRole("button", { name: "Basket, 2 items" });
    const panel = page.getByTestId("mini-basket");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(panel).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(panel).toBeVisible();
    await expect(panel).toBeFocused();
    await expect(panel.getByRole("link", { name: first.name })).toHaveAttribute("href", `/product/${first.slug}`);
    await expect(panel).toContainText("2 ×");
    await expect(panel).toContainText("Subtotal (ex VAT)");
    await expect(panel.getByRole("link", { name: "View basket" })).toHaveAttribute("href", "/basket");
    await expect(panel.getByRole("link", { name: "Checkout" })).toHaveAttribute("href", "/checkout");

    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();

    // A click elsewhere closes it too; a link in it navigates and closes it.
    await toggle.click();
    await page.getByRole("heading", { level: 1 }).click();
    await expect(panel).toBeHidden();
    await toggle.click();
    await panel.getByRole("link", { name: "View basket" }).click();
    await expect(page).toHaveURL("/basket");
    await expect(panel).toBeHidden();
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

    test("opens by touch and fits the screen", async ({ page }) => {
      const [first] = await twoInStock(page.request, { perPage: 48, minStock: 3 });
      await addByApi(page, first, 1);
      await openPage(page, "/");
      await page.getByRole("banner").getByRole("button", { name: "Basket, 1 item" }).tap();
      const panel = page.getByTestId("mini-basket");
      await expect(panel.getByRole("link", { name: first.name })).toBeVisible();
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      await panel.getByRole("link", { name: "Checkout" }).tap();
      await expect(page).toHaveURL("/checkout");
    });
  });
});
