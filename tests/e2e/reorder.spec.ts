// Buy again from an order page: the order's lines go into the basket at today's
// prices, capped at the stock, and the page says exactly what was added.
import type { Page } from "@playwright/test";
import { csrfHeaders, newUser, openPage, registerByApi } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.use({ allowedConsoleErrors: [/the server responded with a status of 404/] });

interface ListedProduct {
  id: number;
  name: string;
  slug: string;
  stock: number;
}

/** Places an order through the API (click & collect, bank transfer) for the page's signed-in user. */
async function orderByApi(page: Page, lines: { product: ListedProduct; quantity: number }[]): Promise<number> {
  const headers = await csrfHeaders(page.request);
  for (const { product, quantity } of lines) {
    const added = await page.request.post("/api/basket", { headers, data: { product_id: product.id, quantity } });
    expect(added.status(), await added.text()).toBe(200);
  }
  const placed = await page.request.post("/api/checkout", { headers, data: { email: "reorder@example.com", delivery_method: "collect", collector_name: "Test Collector", payment_method: "bank_transfer" } });
  expect(placed.status(), await placed.text()).toBe(201);
  return ((await placed.json()) as { order_id: number }).order_id;
}

test("buy again adds the order's lines, caps one at the stock and says so", async ({ page }) => {
  test.slow();
  await registerByApi(page.request, newUser("Rory"));
  const response = await page.request.get("/api/products", { params: { in_stock: 1, per_page: 48, sort: "name" } });
  const { items } = (await response.json()) as { items: ListedProduct[] };
  // Products no other test of this run orders by the handful.
  const fit = items.filter((p) => p.stock >= 10 && p.stock < 900).slice(-4, -2);
  expect(fit.length).toBe(2);
  const [whole, short] = fit as [ListedProduct, ListedProduct];
  const orderId = await orderByApi(page, [
    { product: whole, quantity: 1 },
    { product: short, quantity: 2 },
  ]);

  // Since the order, the basket has come to hold all but one of what is left of `short`.
  const now = ((await (await page.request.get(`/api/products/${short.slug}`)).json()) as { data: ListedProduct }).data;
  const headers = await csrfHeaders(page.request);
  expect((await page.request.post("/api/basket", { headers, data: { product_id: short.id, quantity: now.stock - 1 } })).status()).toBe(200);

  await openPage(page, `/account/orders/${orderId}`);
  await expect(page.getByTestId("basket-count")).toHaveText(String(now.stock - 1));
  await page.getByRole("button", { name: "Buy again" }).click();
  const outcome = page.getByTestId("reorder").getByRole("status");
  await expect(outcome).toContainText(`Added to your basket: 1 × ${whole.name}.`);
  await expect(outcome).toContainText(`${short.name}: 1 of the 2 ordered added (only ${now.stock} in stock).`);
  await expect(page.getByTestId("basket-count")).toHaveText(String(now.stock + 1));

  // The order history offers it on each order too, named by the order for screen readers.
  await openPage(page, "/account/orders/history");
  const row = page.getByTestId("order-row");
  await row.getByRole("button", { name: /^Buy order \S+ again$/ }).click();
  const again = row.getByRole("status");
  await expect(again).toContainText(`Added to your basket: 1 × ${whole.name}. Not added: ${short.name} (your basket already holds all we have).`);

  await again.getByRole("link", { name: "View your basket" }).click();
  await expect(page.getByRole("article", { name: whole.name }).getByLabel("Quantity")).toHaveValue("2");
  await expect(page.getByRole("article", { name: short.name }).getByLabel("Quantity")).toHaveValue(String(now.stock));
});

test("another customer's order is not found", async ({ page }) => {
  await registerByApi(page.request, newUser("Owain"));
  const response = await page.request.get("/api/products", { params: { in_stock: 1, per_page: 48 } });
  const product = ((await response.json()) as { items: ListedProduct[] }).items.find((p) => p.stock >= 10 && p.stock < 900)!;
  const orderId = await orderByApi(page, [{ product, quantity: 1 }]);
  await page.request.post("/api/auth/logout", { headers: await csrfHeaders(page.request) });
  await registerByApi(page.request, newUser("Nora"));
  const opened = await page.goto(`/account/orders/${orderId}`);
  expect(opened?.status()).toBe(404);
  await expect(page.getByRole("button", { name: "Buy again" })).toHaveCount(0);
  const refused = await page.request.post(`/api/account/orders/${orderId}/reorder`, { headers: await csrfHeaders(page.request) });
  expect(refused.status()).toBe(404);
});
