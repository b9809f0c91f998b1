// The quotes desk in a real browser (issue 32): the demo trade owner asks for
// a quote from their basket; sales open it from the Requested tab, take 10%
// off its line, quote delivery, save it, and send it with its PDF: it reads
// Sent. axe over the list and the quote page.
import { csrfHeaders, openPage } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { PASSWORD } from "./staff-helpers.ts";
import { DEMO_TRADE_OWNER, signInAs } from "./trade-helpers.ts";

test("sales price a requested quote with a discount and delivery, save it and send it", async ({ page, request }) => {
  // The customer's request, through the API: a line in the basket, then the quote.
  await signInAs(request, DEMO_TRADE_OWNER);
  const listed = await request.get("/api/products", { params: { in_stock: 1, per_page: 48 } });
  const product = ((await listed.json()) as { items: { id: number; stock: number }[] }).items.find((p) => p.stock >= 10 && p.stock < 900)!;
  const headers = await csrfHeaders(request);
  expect((await request.post("/api/basket", { headers, data: { product_id: product.id, quantity: 4 } })).status()).toBe(200);
  const asked = await request.post("/api/quotes", { headers, data: { notes: "E2E: for the Mill Lane job" } });
  expect(asked.status(), await asked.text()).toBe(201);
  const { number } = (await asked.json()).data as { number: string };
  const { lines } = (await (await request.get(`/api/quotes/${number}`)).json()).data as { lines: { sku: string }[] };
  const sku = lines[0]!.sku;

  const login = await page.context().request.post("/api/admin/auth/login", { data: { email: "sales@staff.example.com", password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  await openPage(page, "/admin");
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Quotes" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quotes");
  await expect(page.getByRole("navigation", { name: "Quotes by status" }).getByRole("link", { name: "Requested" })).toHaveAttribute("aria-current", "page");
  await expectAccessible(page, "the quotes list");

  await page.getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Quote ${number}`);
  await expect(page.getByText("E2E: for the Mill Lane job", { exact: true })).toBeVisible();
  await expectAccessible(page, "a requested quote");

  await page.getByLabel(`Discount % for ${sku}`).fill("10");
  await page.getByLabel("Delivery ex VAT (£)").fill("25");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved: revision 1 drafting." })).toBeVisible();
  await expect(page.getByText("Now: 10% off their price")).toBeVisible();
  await expect(page.getByTestId("quote-totals")).toContainText("£30.00");

  await page.getByRole("button", { name: "Send to customer" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Sent to ${DEMO_TRADE_OWNER.email} with its PDF` })).toBeVisible();
  await expect(page.getByRole("main").getByText("Sent", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Revision 1 as sent (PDF)" })).toHaveAttribute("href", `/api/admin/quotes/${number}/pdf?revision=1`);
  await expect(page.getByRole("button", { name: "Send to customer" })).toHaveCount(0);
  await expectAccessible(page, "a sent quote");
});
