// Promotions in the browser (issue 32): a consumer's basket takes the demo's
// 3 for 2 on work gloves by itself, refuses a code with its reason, takes a
// code, and checkout by card carries both discounts onto the order and its email.
import { csrfHeaders, newUser, openPage, waitForEmailTo } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

// The refused code is a 422, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 422/] });

test("a consumer's 3 for 2 and discount code reach the order, paid by card, and its email", async ({ page }) => {
  test.slow();
  const guest = newUser("Promo");
  const listed = await page.request.get("/api/products", { params: { category: "safety-and-workwear/gloves", in_stock: 1, per_page: 48 } });
  const gloves = ((await listed.json()) as { items: { id: number; stock: number }[] }).items.find((p) => p.stock >= 10 && p.stock < 900)!;
  // Three pairs of gloves, and a drill to pass WELCOME10's £50.
  const added = await page.request.post("/api/basket", { headers: await csrfHeaders(page.request), data: { product_id: gloves.id, quantity: 3 } });
  expect(added.status(), await added.text()).toBe(200);
  const others = await page.request.get("/api/products", { params: { category: "power-tools", in_stock: 1, per_page: 24 } });
  const drill = ((await others.json()) as { items: { id: number; stock: number }[] }).items.find((p) => p.stock >= 5 && p.stock < 900)!;
  expect((await page.request.post("/api/basket", { headers: await csrfHeaders(page.request), data: { product_id: drill.id, quantity: 1 } })).status()).toBe(200);

  await openPage(page, "/basket");
  const totals = page.getByTestId("basket-totals");
  await expect(totals).toContainText("3 for 2 on work gloves");
  await expect(page.getByTestId("line-discount")).toContainText("3 for 2 on work gloves");

  const box = page.getByLabel("Discount code");
  await box.fill("NOTACODE");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("discount-error")).toHaveText("We do not recognise the code NOTACODE. Check it and try again.");
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await box.fill("welcome10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Code WELCOME10 applied: 10% off your first order over £50.")).toBeVisible();
  await expect(totals).toContainText("(WELCOME10)");
  await expectAccessible(page);

  // Checkout shows both, and the card pays the discounted total.
  await openPage(page, "/checkout");
  await expect(page.getByTestId("checkout-totals")).toContainText("3 for 2 on work gloves");
  await expect(page.getByTestId("checkout-totals")).toContainText("(WELCOME10)");
  await page.getByLabel("Email address").fill(guest.email);
  await page.getByRole("radio", { name: /Click & collect/ }).check();
  await page.getByLabel("Name of the person collecting").fill("Priya Promo");
  await page.getByLabel("Address line 1").fill("1 Test Street");
  await page.getByLabel("Town or city").fill("Leeds");
  await page.getByRole("textbox", { name: "Postcode" }).fill("LS1 1AA");
  await page.getByRole("radio", { name: /Card \(test payment\)/ }).check();
  const total = (await page.getByTestId("checkout-totals").locator("dd").last().textContent())!.trim();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/payments\/test\/cs_test_/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Pay ${total}`);
  await page.getByRole("button", { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
  const number = (await page.getByTestId("order-number").textContent())!.trim();
  await expect.poll(async () => (await waitForEmailTo(guest.email)).includes(`Thank you for your order ${number}`), { timeout: 15_000 }).toBe(true);
  const email = await waitForEmailTo(guest.email);
  expect(email).toContain("Your savings:");
  expect(email).toContain("off ex VAT");
});
