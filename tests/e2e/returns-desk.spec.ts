// The returns desk in a real browser (issue 31): a new customer's delivered
// order (placed, paid by bank transfer, dispatched and delivered through the
// API) is asked back as faulty through the API; sales find it on the desk and
// approve it, the warehouse receives one unit resaleable and one damaged, and
// sales refund it by hand, each seeing the confirmation. axe over the list
// and the return's page.
import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { csrfHeaders, openPage, registerByApi } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { PASSWORD } from "./staff-helpers.ts";

const address = { name: "Rita Returner", line_1: "1 Canal Street", town: "Leeds", postcode: "LS1 4AP" };

/** A member of staff signed in through the API in a browser context (its pages share the session); the desk's API with its CSRF header. */
async function signIn(context: BrowserContext, email: string): Promise<(path: string, body: Record<string, string | undefined>) => Promise<void>> {
  const login = await context.request.post("/api/admin/auth/login", { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const token = (await context.storageState()).cookies.find((c) => c.name === "tc_admin_csrf")!.value;
  return async (path, body) => {
    const res = await context.request.post(path, { headers: { "X-Admin-CSRF": decodeURIComponent(token) }, data: body });
    expect(res.status(), await res.text()).toBe(200);
  };
}

/** Two of a product in stock (under £100 each, within a sales member's refund limit), ordered by a new customer by bank transfer, then paid, dispatched and delivered by `desk`. */
async function deliveredOrder(customer: APIRequestContext, desk: (path: string, body: Record<string, string | undefined>) => Promise<void>): Promise<{ number: string; lineId: number; name: string }> {
  const user = await registerByApi(customer);
  const listed = await customer.get("/api/products", { params: { in_stock: 1, per_page: 48 } });
  const product = ((await listed.json()) as { items: { id: number; name: string; stock: number; price: number }[] }).items.find((p) => p.stock >= 5 && p.stock < 900 && p.price < 100)!;
  const headers = await csrfHeaders(customer);
  expect((await customer.post("/api/basket", { headers, data: { product_id: product.id, quantity: 2 } })).status()).toBe(200);
  const placed = await customer.post("/api/checkout", { headers, data: { email: user.email, phone: "0113 496 0000", delivery_method: "standard", payment_method: "bank_transfer", delivery_address: address, billing_address: address } });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order_number: number, order_id: orderId } = (await placed.json()) as { order_number: string; order_id: number };
  for (const step of [{ to: "paid" }, { to: "processing" }, { to: "dispatched", carrier: "DPD", tracking_number: "15509876" }, { to: "completed" }]) await desk(`/api/admin/orders/${number}/transitions`, step);
  const order = (await (await customer.get(`/api/account/orders/${orderId}`)).json()) as { data: { lines: { id: number }[] } };
  return { number, lineId: order.data.lines[0]!.id, name: product.name };
}

test("a faulty return is approved, received one resaleable and one damaged, and refunded, each confirmed", async ({ page: sales, request: customer, browser }) => {
  test.slow();
  const order = await deliveredOrder(customer, await signIn(sales.context(), "sales@staff.example.com"));
  const asked = await customer.post(`/api/orders/${order.number}/returns`, {
    headers: await csrfHeaders(customer),
    data: { lines: [{ line_id: order.lineId, quantity: 2, reason: "faulty", note: "Both stopped working" }], method: "post" },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const rma = ((await asked.json()) as { data: { number: string } }).data.number;

  // Sales: the desk's Requested tab, the search by the order's number, the return's page; approve.
  await openPage(sales, "/admin");
  await sales.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Returns" }).click();
  await sales.getByRole("navigation", { name: "Returns by status" }).getByRole("link", { name: /^Requested/ }).click();
  await sales.getByLabel("Search").fill(order.number);
  await sales.getByRole("button", { name: "Apply filters" }).click();
  await expect(sales.getByRole("link", { name: order.number })).toBeVisible();
  await expectAccessible(sales, "the returns list");
  await sales.getByRole("link", { name: rma }).click();
  await expect(sales.getByRole("heading", { level: 1 })).toHaveText(`Return ${rma}`);
  await expect(sales.getByText("Both stopped working")).toBeVisible();
  await sales.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(sales.getByRole("status").filter({ hasText: `Return ${rma} is approved. The customer has been emailed how to send it back.` })).toBeVisible();

  // The warehouse: one back in stock, one damaged.
  const warehouseContext = await browser.newContext();
  await signIn(warehouseContext, "warehouse@staff.example.com");
  const warehouse = await warehouseContext.newPage();
  await openPage(warehouse, `/admin/returns/${rma}`);
  const receive = warehouse.getByRole("group", { name: `2 × ${order.name}` });
  await receive.getByRole("spinbutton", { name: "Resaleable" }).fill("1");
  await receive.getByRole("spinbutton", { name: "Damaged" }).fill("1");
  await warehouse.getByRole("button", { name: "Receive the goods" }).click();
  await expect(warehouse.getByRole("status").filter({ hasText: `Return ${rma} is received: 1 back in stock, 1 received damaged. The customer has been emailed.` })).toBeVisible();

  // Sales again: the days left to refund, the proposal and how it goes back; refund what the rules propose.
  await openPage(sales, `/admin/returns/${rma}`);
  await expect(sales.getByTestId("refund-due")).toContainText("14 days left to refund");
  await expect(sales.getByTestId("refund-proposal")).toContainText("Proposed refund");
  await expect(sales.getByText("By hand: the customer paid by bank transfer")).toBeVisible();
  await expectAccessible(sales, "the return's page, received");
  const proposed = await sales.getByLabel("Refund (£)").inputValue();
  await sales.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(sales.getByRole("status").filter({ hasText: `Refunded £${proposed} by hand (recorded here; pay it back the way the customer paid) for return ${rma}. The customer has been emailed.` })).toBeVisible();
  await expect(sales.getByTestId("return-outcome")).toContainText(`£${proposed}`);
  await expect(sales.getByTestId("return-timeline")).toContainText("1 back in stock, 1 received damaged.");
});
