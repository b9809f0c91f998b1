// Guest checkout in the browser: an address found by postcode, a delivery method
// priced for it, payment, a purchase-order reference, then the thank-you page.
import type { APIRequestContext, Page } from "@playwright/test";
import { newUser, openPage, registerByApi } from "./auth-helpers.ts";
import { chooseAddressByPostcode } from "./checkout-helpers.ts";
import { expect, test } from "./fixtures.ts";

async function csrf(request: APIRequestContext): Promise<Record<string, string>> {
  await request.get("/sanctum/csrf-cookie");
  const { cookies } = await request.storageState();
  const token = cookies.find((c) => c.name === "XSRF-TOKEN")?.value;
  expect(token, "the API set the XSRF-TOKEN cookie").toBeTruthy();
  return { "X-XSRF-TOKEN": decodeURIComponent(token!) };
}

async function addSomething(page: Page): Promise<{ name: string }> {
  const response = await page.request.get("/api/products", { params: { in_stock: 1, per_page: 48 } });
  const { items } = (await response.json()) as { items: { id: number; name: string; stock: number }[] };
  const product = items.filter((p) => p.stock >= 5 && p.stock < 900).at(-1)!;
  const added = await page.request.post("/api/basket", { headers: await csrf(page.request), data: { product_id: product.id, quantity: 1 } });
  expect(added.status(), await added.text()).toBe(200);
  return product;
}

test("an empty basket has nothing to check out", async ({ page }) => {
  await openPage(page, "/checkout");
  await expect(page.getByText("There is nothing to check out.")).toBeVisible();
});

test("guest checkout: postcode lookup fills the address, delivery for the postcode, place order, thank-you", async ({ page }) => {
  test.slow();
  const product = await addSomething(page);
  await openPage(page, "/checkout");
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(page.getByTestId("checkout-totals")).toBeVisible();

  await page.getByLabel("Email address").fill("guest-buyer@example.com");
  await page.getByLabel("Phone").fill("0113 496 0000");
  await chooseAddressByPostcode(page, "LS1 1AA", { town: "Leeds", postcode: "LS1 1AA" });
  // Editable by hand.
  await page.getByLabel("Address line 2").fill("Site office");

  await page.getByRole("radio", { name: /Click & collect/ }).check();
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.getByLabel("Purchase-order reference").fill("PO-4471");
  await page.getByRole("button", { name: "Place order" }).click();

  await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+&expires=\d+&signature=/);
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(page.getByTestId("order-number")).toHaveText(/^TC-\d+$/);
  await expect(page.getByText(product.name)).toBeVisible();
  await expect(page.getByText("PO-4471")).toBeVisible();
  await expect(page.getByText("Site office").first()).toBeVisible();
  await expect(page.getByTestId("basket-count")).toHaveText("0");
});

test("signed in: the order appears in the order history and opens with its lines and totals", async ({ page }) => {
  test.slow();
  const user = await registerByApi(page.request, newUser("Orla"));
  const product = await addSomething(page);
  await openPage(page, "/checkout");
  await expect(page.getByLabel("Email address")).toHaveValue(user.email);
  await page.getByLabel("Address line 1").fill("12 Mill Lane");
  await page.getByLabel("Town or city").fill("Leeds");
  await page.getByLabel("Postcode", { exact: true }).fill("LS6 2AA");
  await page.getByLabel("Postcode", { exact: true }).blur();
  await page.getByRole("radio", { name: /Standard delivery/ }).check();
  // Paying on collection is offered with click & collect only.
  await expect(page.getByRole("radio", { name: /Pay on collection/ })).toHaveCount(0);
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  const number = (await page.getByTestId("order-number").textContent())!;

  await openPage(page, "/account/orders/history");
  await page.getByRole("link", { name: `Order ${number}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Order ${number}` })).toBeVisible();
  await expect(page.getByRole("link", { name: product.name })).toBeVisible();
  await expect(page.getByTestId("order-totals")).toContainText("VAT");
  await expect(page.getByText("12 Mill Lane").first()).toBeVisible();
});
