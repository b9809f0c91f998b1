// axe-core on every back-office screen (issue 18: "axe reports nothing on every
// admin screen"), as the owner, and as the warehouse where its view differs;
// forms showing their errors; and the orders desk worked with the keyboard alone.
import type { APIRequestContext, Page } from "@playwright/test";
import { csrfHeaders, newUser, openPage } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

const PASSWORD = "demo-password-2026";

/** Signs a member of staff in through the API: the browser context keeps the session cookies. */
async function staffSignIn(request: APIRequestContext, email: string): Promise<void> {
  const res = await request.post("/api/admin/auth/login", { data: { email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
}

async function adminCsrf(page: Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((c) => c.name === "tc_admin_csrf")!.value;
  return { "X-Admin-CSRF": decodeURIComponent(token) };
}

/** The newest order and the newest customer with an account, as the owner's API lists them. */
async function records(request: APIRequestContext): Promise<{ order: string; customer: number | null; product: string }> {
  const orders = (await (await request.get("/api/admin/orders?limit=1")).json()) as { data: { number: string }[] };
  const products = (await (await request.get("/api/admin/products?limit=1")).json()) as { data: { sku: string }[] };
  const customers = await request.get("/api/admin/customers");
  const customer = customers.ok() ? ((await customers.json()) as { data: { id: number }[] }).data[0]?.id ?? null : null;
  return { order: orders.data[0]!.number, customer, product: products.data[0]!.sku };
}

test.describe("the sign-in screen", () => {
  // The refused sign-in answers 422, which the browser logs.
  test.use({ allowedConsoleErrors: [/status of 422/] });
  test("empty and with its errors", async ({ page }) => {
    await openPage(page, "/admin/login");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Enter your email address.").first()).toBeVisible();
    await expectAccessible(page);
  });
});

test("the set-up screen of an invited member", async ({ page, browser }) => {
  await staffSignIn(page.request, "owner@example.com");
  const invited = await page.request.post("/api/admin/staff", { headers: await adminCsrf(page), data: { email: newUser("Ivy").email, name: "Ivy Invited", role: "sales" } });
  expect(invited.status(), await invited.text()).toBe(201);
  const other = await (await browser.newContext()).newPage();
  await openPage(other, new URL(((await invited.json()) as { setup_url: string }).setup_url).pathname);
  await expectAccessible(other);
});

for (const path of [
  "/admin",
  "/admin/orders",
  "/admin/orders/{order}",
  "/admin/audit",
  "/admin/account",
  "/admin/staff",
  "/admin/staff/tokens",
  "/admin/customers",
  "/admin/customers/{customer}",
  "/admin/products",
  "/admin/products/new",
  "/admin/products/{product}",
  "/admin/products/{product}/photos",
  "/admin/products/{product}/variants",
  "/admin/variants/TCL-EMUL-5L-SOFTGREY/photos",
  "/admin/products/import",
  "/admin/stock",
  "/admin/categories",
  "/admin/brands",
  "/admin/redirects?test=/kitchens",
]) {
  test(`the owner's ${path}`, async ({ page }) => {
    await staffSignIn(page.request, "owner@example.com");
    const { order, customer, product } = await records(page.request);
    test.skip(path.includes("{customer}") && customer === null, "no customer screen in this build");
    await openPage(page, path.replace("{order}", order).replace("{customer}", String(customer)).replace("{product}", encodeURIComponent(product)));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page);
  });
}

/** A hire request of its own, approved and with its unit handed over, so its page shows every section. */
async function hireRequestOnTheDesk(request: APIRequestContext, desk: Page): Promise<string> {
  const item = ((await (await request.get("/api/hire/podium-step-2-tread")).json()) as { data: { id: number } }).data;
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date());
  const headers = await csrfHeaders(request);
  const added = await request.post("/api/hire-basket", { headers, data: { hire_item_id: item.id, quantity: 1, start_date: today, end_date: today } });
  expect(added.status(), await added.text()).toBe(200);
  const made = await request.post("/api/hire-requests", { headers, data: { name: "Axe Tester", email: newUser("Axe").email, phone: "0113 496 0001", fulfilment: "collection" } });
  expect(made.status(), await made.text()).toBe(201);
  const { number } = (await made.json()) as { number: string };
  const approved = await desk.request.post(`/api/admin/hire/requests/${number}/approve`, { headers: await adminCsrf(desk), data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
  return number;
}

for (const path of ["/admin/hire", "/admin/hire/planner", "/admin/hire/requests", "/admin/hire/requests/{hire}", "/admin/trade", "/admin/trade/accounts/{trade}", "/admin/trade/accounts/{trade}/statement", "/admin/trade/aged-debt"]) {
  test(`the hire and trade desks: ${path}`, async ({ page, request }) => {
    await staffSignIn(page.request, "owner@example.com");
    const hire = path.includes("{hire}") ? await hireRequestOnTheDesk(request, page) : "";
    const accounts = (await (await page.request.get("/api/admin/trade/accounts?sort=name")).json()) as { data: { id: number }[] };
    await openPage(page, path.replace("{hire}", hire).replace("{trade}", String(accounts.data[0]!.id)));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page);
  });
}

test("the warehouse's view of an order and of the list", async ({ page }) => {
  await staffSignIn(page.request, "warehouse@staff.example.com");
  const { order } = await records(page.request);
  await openPage(page, `/admin/orders/${order}`);
  await expectAccessible(page);
  await openPage(page, "/admin/orders?status=processing");
  await expectAccessible(page);
});

/** Presses Tab until the locator has focus (at most 60 times), as a keyboard user would. */
async function tabTo(page: Page, target: ReturnType<Page["getByRole"]>): Promise<void> {
  for (let i = 0; i < 60 && !(await target.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(target).toBeFocused();
}

test("the orders desk with the keyboard alone: skip link, search, open an order, add a note", async ({ page }) => {
  await staffSignIn(page.request, "sales@staff.example.com");
  const { order } = await records(page.request);
  await openPage(page, "/admin/orders");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  // From the main landmark, the search box is reached by Tab.
  const search = page.getByLabel("Search");
  await tabTo(page, search);
  await page.keyboard.type(order);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${order}`));
  await tabTo(page, page.getByRole("link", { name: order, exact: true }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${order}`);
  await tabTo(page, page.getByLabel("Add a note for the team"));
  await page.keyboard.type("Checked by phone.");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Add note" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Note added to the timeline." })).toBeFocused();
  await expect(page.getByTestId("order-timeline")).toContainText("Checked by phone.");
});
