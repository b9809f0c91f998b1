// "Add to basket" on the product page (issues 4 and 5): a quantity from 1 up to
// the stock, out of stock disabled, a success message read out with a way to
// the basket, and the section 8 messages (or the server's stock message) when
// the basket refuses.
import type { Page } from "@playwright/test";
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

// The refusals below are a 422 and a 500 the browser logs as console errors.
test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (422|500)/] });

interface Listed {
  name: string;
  slug: string;
  stock: number;
  in_stock: boolean;
}

async function listed(page: Page, keep: (p: Listed) => boolean): Promise<Listed> {
  const response = await page.request.get("/api/products", { params: { per_page: 96 } });
  const { items } = (await response.json()) as { items: Listed[] };
  const found = items.find(keep);
  expect(found, "a seeded product of the kind this test needs").toBeTruthy();
  return found!;
}

const form = (page: Page, product: Listed) => page.getByRole("form", { name: `Add ${product.name} to basket` });

test("out of stock, the quantity and the button are disabled", async ({ page }) => {
  const product = await listed(page, (p) => !p.in_stock);
  await openPage(page, `/product/${product.slug}`);
  await expect(form(page, product).getByLabel("Quantity")).toBeDisabled();
  await expect(form(page, product).getByRole("button", { name: "Out of stock" })).toBeDisabled();
  // Compare and the heart still work for a product nobody can buy today.
  await expect(page.getByRole("button", { name: `Add ${product.name} to compare`, exact: true })).toBeEnabled();
});

test("the quantity stops at the stock; past it, the server's message; the basket keeps what it had", async ({ page }) => {
  const product = await listed(page, (p) => p.in_stock && p.stock >= 2 && p.stock <= 20);
  await openPage(page, `/product/${product.slug}`);
  const quantity = form(page, product).getByLabel("Quantity");
  await expect(quantity).toHaveValue("1");
  await expect(quantity).toHaveAttribute("min", "1");
  await expect(quantity).toHaveAttribute("max", String(product.stock));

  await quantity.fill(String(product.stock));
  await form(page, product).getByRole("button", { name: "Add to basket" }).click();
  await expect(form(page, product).getByRole("status")).toHaveText(`Added ${product.stock} × ${product.name} to your basket. View basket`);
  await expect(page.getByTestId("basket-count")).toHaveText(String(product.stock));

  await quantity.fill("1");
  await form(page, product).getByRole("button", { name: "Add to basket" }).click();
  await expect(form(page, product).getByRole("alert")).toHaveText(`Only ${product.stock} left in stock.`);
  await expect(form(page, product).getByRole("status")).toHaveText("");
  await expect(page.getByTestId("basket-count")).toHaveText(String(product.stock));
});

test("a failure says \"Failed to add item to cart.\"", async ({ page }) => {
  const product = await listed(page, (p) => p.in_stock && p.stock >= 1);
  await openPage(page, `/product/${product.slug}`);
  await page.route("**/api/basket", (route) =>
    route.request().method() === "POST" ? route.fulfill({ status: 500, json: { message: "Internal Server Error" } }) : route.fallback(),
  );
  await form(page, product).getByRole("button", { name: "Add to basket" }).click();
  await expect(form(page, product).getByRole("alert")).toHaveText("Failed to add item to cart.");
  await expect(page.getByTestId("basket-count")).toHaveText("0");
});
