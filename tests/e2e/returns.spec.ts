// Returns and the right to cancel (issue 31), the customer's side in a real
// browser against the production build: a customer returns one line of a
// delivered card order from its page, staff approve, receive (one unit
// resaleable, one damaged) and refund to the card, and the customer sees the
// refund on the page and in their email (the return sent with a photo, which
// the desk's page shows); a customer cancels an order not yet sent. axe over the order page with its returns.
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { csrfHeaders, newUser, openPage, registerByApi, waitForEmailTo } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";
import { expectAccessible } from "./axe.ts";


interface Listed {
  id: number;
  name: string;
  stock: number;
}

/** An order of `quantity` of a product in stock, placed through the API by the page's signed-in customer. */
async function order(page: Page, email: string, quantity: number, payment: "card" | "bank_transfer", skip: number): Promise<{ id: number; number: string; name: string; redirect?: string }> {
  const listed = (await (await page.request.get("/api/products", { params: { in_stock: 1, per_page: 48, sort: "name" } })).json()) as { items: Listed[] };
  // Products no other spec orders by the handful.
  const product = listed.items.filter((p) => p.stock >= 10 && p.stock < 900).at(-(5 + skip))!;
  const headers = await csrfHeaders(page.request);
  expect((await page.request.post("/api/basket", { headers, data: { product_id: product.id, quantity } })).status()).toBe(200);
  const address = { name: "Rita Turner", line_1: "2 Mill Lane", town: "Leeds", postcode: "LS6 2AB" };
  const placed = await page.request.post("/api/checkout", { headers, data: { email, phone: "0113 496 0000", delivery_method: "standard", payment_method: payment, delivery_address: address } });
  expect(placed.status(), await placed.text()).toBe(201);
  // A card order answers with its payment page beside it; the others with the order alone.
  const body = (await placed.json()) as { order?: { order_id: number; order_number: string }; order_id?: number; order_number?: string; payment?: { redirect_url: string } };
  const made = body.order ?? { order_id: body.order_id!, order_number: body.order_number! };
  return { id: made.order_id, number: made.order_number, name: product.name, redirect: body.payment?.redirect_url };
}

/** A member of staff's API call, with the back office's request-forgery token. */
async function staffPost(staff: Page, path: string, data: Record<string, unknown>) {
  const token = (await staff.context().cookies()).find((c) => c.name === "tc_admin_csrf")!.value;
  const res = await staff.request.post(path, { headers: { "x-admin-csrf": decodeURIComponent(token) }, data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

test("a customer returns one line of a delivered order; staff approve, receive and refund it; the customer sees the refund and the email", async ({ page, browser }) => {
  test.slow();
  const customer = await registerByApi(page.request, newUser("Rita"));
  const placed = await order(page, customer.email, 2, "card", 0);
  // Paid on the built-in test payment page.
  await openPage(page, new URL(placed.redirect!).pathname);
  await page.getByRole("button", { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/checkout\/thank-you/);
  const manager = await staffPage(browser, "manager@staff.example.com");
  for (const step of [{ to: "processing" }, { to: "dispatched", carrier: "DPD", tracking_number: "155012345" }, { to: "completed" }]) await staffPost(manager, `/api/admin/orders/${placed.number}/transitions`, step);

  await openPage(page, `/account/orders/${placed.id}`);
  const form = page.getByRole("region", { name: "Return items" });
  await expect(form).toContainText(/You can return items until \w+day,? \d+ \w+ \d{4}/);
  // Nothing chosen: told so, nothing sent.
  await form.getByRole("button", { name: "Request return" }).click();
  await expect(form.getByRole("alert")).toHaveText("Choose at least one item to return: set how many.");
  await form.getByLabel("How many (up to 2)").fill("2");
  await form.getByLabel("Why").selectOption("faulty");
  await form.getByLabel(/Anything we should know/).fill("The handle snapped on first use");
  await form.getByRole("radio", { name: /Send it by post/ }).check();
  // A photo of the fault, through the page's own action and the image pipeline.
  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#b5651d" } }).jpeg().toBuffer();
  await form.getByLabel(/^Photos/).setInputFiles({ name: "handle.jpg", mimeType: "image/jpeg", buffer: photo });
  await form.getByRole("button", { name: "Request return" }).click();
  const made = page.getByTestId("return-made");
  await expect(made.getByRole("status")).toContainText(/Return RMA-\d{6} is requested/);
  const rma = /RMA-\d{6}/.exec((await made.textContent())!)![0];
  await expect(page.getByTestId("customer-return")).toContainText(`2 × ${placed.name} (Faulty)`);
  await expect(page.getByRole("img", { name: "Your photo 1" })).toHaveJSProperty("complete", true);

  // The desk's page shows it, its thumbnail loaded and linking to the larger photo.
  await openPage(manager, `/admin/returns/${rma}`);
  const thumbnail = manager.getByTestId("return-photos").getByRole("img", { name: "Photo 1 from the customer" });
  await expect(thumbnail).toBeVisible();
  expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await expect(manager.getByRole("link", { name: /Photo 1 from the customer/ })).toHaveAttribute("href", new RegExp(`^/api/admin/returns/${rma}/photos/[a-z0-9]{12}/large$`));

  // The desk: approved, one back on the shelf and one damaged, refunded to the card as the rules propose.
  const lineId = ((await (await page.request.get(`/api/account/orders/${placed.id}`)).json()) as { data: { lines: { id: number }[] } }).data.lines[0]!.id;
  await staffPost(manager, `/api/admin/returns/${rma}/transitions`, { to: "approved" });
  await staffPost(manager, `/api/admin/returns/${rma}/transitions`, { to: "received", lines: [{ line_id: lineId, received: 1, damaged: 1 }] });
  const refunded = await staffPost(manager, `/api/admin/returns/${rma}/transitions`, { to: "refunded" });
  expect(refunded.refund.method).toBe("card");

  await page.reload();
  const card = page.getByTestId("customer-return");
  await expect(card).toContainText("Refunded");
  await expect(card.getByTestId("return-refund")).toContainText(/^Refunded £\d+\.\d{2} to your card on /);
  await expect(card).toContainText("1 back in stock, 1 received damaged.");
  await expect.poll(async () => (await waitForEmailTo(customer.email)).includes(`Refund for order ${placed.number}`), { timeout: 15_000 }).toBe(true);

  await expectAccessible(page);
});

test("a customer cancels an order not yet sent, from its page", async ({ page }) => {
  const customer = await registerByApi(page.request, newUser("Cass"));
  const placed = await order(page, customer.email, 1, "bank_transfer", 1);
  await openPage(page, `/account/orders/${placed.id}`);
  const section = page.getByRole("region", { name: "Cancel this order" });
  await section.getByRole("button", { name: "Cancel the whole order" }).click();
  await expect(section.getByRole("alert")).toHaveText("Tick the box to confirm you want to cancel the whole order.");
  await section.getByLabel(`Yes, cancel the whole of order ${placed.number}`).check();
  await section.getByRole("button", { name: "Cancel the whole order" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Order ${placed.number} is cancelled` })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${placed.number}`);
  await expect(page.getByText("Cancelled", { exact: true }).first()).toBeVisible();
  // Nothing left to cancel.
  await expect(page.getByRole("region", { name: "Cancel this order" })).toHaveCount(0);
});
