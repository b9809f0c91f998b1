// Card payments (issue 19) in real browsers against the production build, on
// the built-in test payment page (no Stripe keys: it sends the shop the same
// signed events Stripe would): a guest pays and sees the order paid; a
// declined card comes back to checkout with the basket intact; staff refund
// one line from the orders desk and the customer's email says so.
import type { Page } from "@playwright/test";
import { csrfHeaders, newUser, openPage, waitForEmailTo } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { openOrder, staffPage } from "./staff-helpers.ts";

/** Two of a product in stock in the guest's basket; its name. */
async function basketOfTwo(page: Page): Promise<string> {
  const listed = await page.request.get("/api/products", { params: { in_stock: 1, per_page: 48 } });
  const product = ((await listed.json()) as { items: { id: number; name: string; stock: number }[] }).items.find((p) => p.stock >= 5 && p.stock < 900)!;
  const added = await page.request.post("/api/basket", { headers: await csrfHeaders(page.request), data: { product_id: product.id, quantity: 2 } });
  expect(added.status(), await added.text()).toBe(200);
  return product.name;
}

/** Checkout for collection, by card, to the test payment page. */
async function payByCard(page: Page, email: string): Promise<void> {
  await openPage(page, "/checkout");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("radio", { name: /Click & collect/ }).check();
  await page.getByLabel("Name of the person collecting").fill("Carla Card");
  await page.getByLabel("Address line 1").fill("1 Test Street");
  await page.getByLabel("Town or city").fill("Leeds");
  await page.getByRole("textbox", { name: "Postcode" }).fill("LS1 1AA");
  await page.getByRole("radio", { name: /Card \(test payment\)/ }).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/payments\/test\/cs_test_/);
  await expect(page.getByTestId("test-banner")).toContainText("no real card is charged");
}

test("a guest pays by card on the test page and sees the thank-you page with the order paid", async ({ page }) => {
  test.slow();
  const guest = newUser("Carda");
  const name = await basketOfTwo(page);
  await payByCard(page, guest.email);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Pay £\d+\.\d{2}$/);
  await page.getByRole("button", { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(page.getByTestId("card-payment")).toHaveText(/^Payment received: £\d+\.\d{2} by card\. Thank you\.$/);
  await expect(page.getByText(name)).toBeVisible();
  await expect(page.getByTestId("basket-count")).toHaveText("0");
  const number = (await page.getByTestId("order-number").textContent())!.trim();
  await expect.poll(async () => (await waitForEmailTo(guest.email)).includes(`Thank you for your order ${number}`), { timeout: 15_000 }).toBe(true);
});

test("a declined card returns to checkout with a clear message and the basket intact", async ({ page }) => {
  test.slow();
  const name = await basketOfTwo(page);
  await payByCard(page, newUser("Decla").email);
  await page.getByRole("button", { name: "Use a card that is declined" }).click();
  await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
  await page.getByRole("link", { name: /Back to .* without paying/ }).click();
  await expect(page).toHaveURL(/\/checkout\?payment=cancelled$/);
  await expect(page.getByRole("alert")).toContainText("The card payment was not completed, so your order was not placed. Nothing was charged and your basket is as it was");
  await expect(page.getByRole("complementary", { name: "Order summary" })).toContainText(`2 × ${name}`);
  await expect(page.getByTestId("basket-count")).toHaveText("2");
});

test("staff refund one line from the orders desk, and the customer's email says so", async ({ page, browser }) => {
  test.slow();
  const guest = newUser("Refa");
  await basketOfTwo(page);
  await payByCard(page, guest.email);
  await page.getByRole("button", { name: /^Pay £/ }).click();
  await expect(page.getByTestId("card-payment")).toContainText("Payment received");
  const number = (await page.getByTestId("order-number").textContent())!.trim();

  const accounts = await staffPage(browser, "accounts@staff.example.com");
  await openOrder(accounts, number);
  const card = accounts.getByTestId("card-payment");
  await expect(card).toContainText("Paid");
  await card.getByRole("radio", { name: "Some lines" }).check();
  await card.getByRole("spinbutton", { name: /Quantity of .* to refund/ }).fill("1");
  await card.getByLabel("Reason (the customer is told)").fill("One arrived damaged");
  await card.getByRole("button", { name: "Refund to the card" }).click();
  await expect(accounts.getByRole("status").filter({ hasText: /^Refunded £\d+\.\d{2} to the card\. The customer has been emailed\.$/ })).toBeVisible();
  const refunded = (await accounts.getByTestId("result-banner").textContent())!.match(/£\d+\.\d{2}/)![0];
  await expect(card.getByTestId("refunded")).toHaveText(refunded);
  await expect(accounts.getByTestId("order-timeline")).toContainText("One arrived damaged");

  await expect.poll(async () => (await waitForEmailTo(guest.email)).includes(`We have refunded ${refunded} to the card you paid with for order ${number}`), { timeout: 15_000 }).toBe(true);
});
