// Orders taken by staff (issue 34): a counter member takes a phone order for
// a trade member on account, and a walk-in sale paid at the counter; axe over
// the new order screen and the drafts list.
import type { Page } from "@playwright/test";
import { openPage } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";
import { approvedTradeOwner } from "./trade-helpers.ts";

/** A product the demo shop has at least two of, found through the counter's own picker. */
async function stockedSku(page: Page, q: string): Promise<string> {
  const res = await page.request.get(`/api/admin/orders/lookup/products?q=${encodeURIComponent(q)}`);
  expect(res.status()).toBe(200);
  const found = ((await res.json()) as { data: { sku: string; total_stock: number }[] }).data.find((p) => p.total_stock >= 2);
  expect(found, `a product for "${q}" in stock`).toBeDefined();
  return found!.sku;
}

/** Types the SKU into the product picker and adds the line it finds. */
async function addLine(page: Page, sku: string): Promise<void> {
  await page.getByLabel("Add a product").fill(sku);
  await page.getByRole("list", { name: "Products found" }).getByRole("button").filter({ hasText: sku }).first().click();
  await expect(page.getByLabel("SKU, line 1")).toHaveValue(sku);
}

test("a counter member takes a phone order for a trade member on account", async ({ browser }) => {
  // A trade member in good standing (the demo company has an overdue invoice, so it is on hold).
  const customer = await (await browser.newContext()).newPage();
  await approvedTradeOwner(customer, browser);
  const page = await staffPage(browser, "sales@staff.example.com");
  await openPage(page, "/admin/orders");
  await page.getByRole("link", { name: "New order" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New order");
  await expectAccessible(page, "the new order screen");

  await page.getByLabel("Find a customer").fill("Quinn Roofing");
  await page.getByRole("list", { name: "Customers found" }).getByRole("button", { name: /trade: Quinn Roofing/ }).last().click();
  await expect(page.getByTestId("chosen-customer")).toContainText("Credit available £5,000.00");

  await addLine(page, await stockedSku(page, "saw"));
  await page.getByLabel("Delivery", { exact: true }).check();
  await page.getByLabel("Recipient's name").fill("Site Manager");
  await page.getByLabel("Address line 1").fill("Plot 4, Canal Road");
  await page.getByLabel("Town or city").fill("Leeds");
  await page.getByLabel("Postcode").fill("LS1 4AP");
  await page.getByLabel("On account").check();
  await page.getByLabel("Customer's PO reference (optional)").fill("PO-PHONE-1");
  await expectAccessible(page, "the new order screen, filled in");
  await page.getByRole("button", { name: "Place order" }).click();

  await expect(page).toHaveURL(/\/admin\/orders\/TC-\d+\?placed=1$/);
  await expect(page.getByTestId("result-banner")).toContainText(/placed: processing/i);
  await expect(page.locator("main")).toContainText("Site Manager");
});

test("a walk-in sale paid at the counter, after a refused price and a draft", async ({ browser }) => {
  const page = await staffPage(browser, "sales@staff.example.com");
  await openPage(page, "/admin/orders/new");
  await page.getByLabel("Walk-in's name").fill("Walter Walkin");
  await page.getByLabel("Phone (optional)").fill("07700 900777");
  const sku = await stockedSku(page, "drill");
  await addLine(page, sku);

  // Saved as a draft, then reopened from the drafts list.
  await page.getByRole("button", { name: "Save as draft" }).click();
  await expect(page).toHaveURL(/\/admin\/orders\/drafts\?saved=\d+$/);
  await expectAccessible(page, "the drafts list");
  await page.getByRole("link", { name: "Open the draft for Walter Walkin" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finish a draft order");
  await expect(page.getByLabel("SKU, line 1")).toHaveValue(sku);

  // A lower price with no reason is refused, and says why.
  await page.getByLabel("Price £ ex VAT").fill("0.01");
  await page.getByLabel("Collection from a branch").check();
  await page.getByLabel("Paid at the counter (card terminal or cash)").check();
  await page.getByLabel("Terminal or receipt reference").fill("CASH-0042");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByTestId("result-banner")).toContainText("Say why the price is changed.");
  await page.getByLabel("Price £ ex VAT").fill("");
  await page.getByLabel("Paid at the counter (card terminal or cash)").check();
  await page.getByRole("button", { name: "Place order" }).click();

  await expect(page).toHaveURL(/\/admin\/orders\/TC-\d+\?placed=1$/);
  await expect(page.getByTestId("result-banner")).toContainText(/placed: paid/i);
  await expect(page.locator("main")).toContainText("Walter Walkin");
});
