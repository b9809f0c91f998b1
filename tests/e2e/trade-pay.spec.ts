// Paying trade invoices (issue 7): the demo trade owner (an approved account)
// pays on account at checkout, then pays that invoice by bank transfer on
// /trade/invoices/pay, sees the reference to quote and the bank details, and the
// invoice shows payment pending. Then the same without JavaScript.
import type { APIRequestContext, Page } from "@playwright/test";
import { csrfHeaders } from "./auth-helpers.ts";
import { collectOnAccount } from "./checkout-helpers.ts";
import { expect, test } from "./fixtures.ts";

const OWNER = { email: "trade@example.com", password: "demo-password-2026" };

async function signIn(request: APIRequestContext): Promise<void> {
  const res = await request.post("/api/auth/login", { headers: await csrfHeaders(request), data: OWNER });
  expect(res.status(), await res.text()).toBe(200);
}

async function addToBasket(request: APIRequestContext): Promise<void> {
  const { items } = (await (await request.get("/api/products", { params: { in_stock: 1, per_page: 24 } })).json()) as { items: { id: number; stock: number }[] };
  const product = items.find((p) => p.stock >= 3 && p.stock < 900)!;
  const added = await request.post("/api/basket", { headers: await csrfHeaders(request), data: { product_id: product.id, quantity: 1 } });
  expect(added.status(), await added.text()).toBe(200);
}

async function invoiceByPo(request: APIRequestContext, po: string): Promise<{ id: number; number: string }> {
  const res = await request.get("/api/trade/invoices", { params: { q: po } });
  const [invoice] = (await res.json()).data as { id: number; number: string }[];
  expect(invoice, `the invoice with PO ${po}`).toBeTruthy();
  return invoice!;
}

/** Only this invoice ticked: other tests' invoices of the demo account are left alone. */
async function chooseOnly(page: Page, number: string): Promise<void> {
  const boxes = page.getByTestId("pay-form").getByRole("checkbox");
  for (const box of await boxes.all()) await box.uncheck();
  await page.getByTestId("pay-form").getByRole("checkbox", { name: new RegExp(number) }).check();
}

test("pay on account at checkout, then pay the invoice by bank transfer and quote the reference", async ({ page }) => {
  test.setTimeout(90_000);
  const po = `PO-PAY-${Date.now()}`;
  await signIn(page.request);
  await addToBasket(page.request);

  await collectOnAccount(page);
  await page.getByLabel("Purchase-order reference").fill(po);
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
  const invoice = await invoiceByPo(page.request, po);

  // From the invoice list to the pay screen.
  await page.goto("/trade/invoices");
  await page.getByTestId("pay-invoices").click();
  await expect(page).toHaveURL(/\/trade\/invoices\/pay$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay invoices");
  await page.waitForLoadState("networkidle");
  await chooseOnly(page, invoice.number);
  const row = page.getByTestId("pay-form").getByRole("listitem").filter({ hasText: invoice.number });
  await expect(row).toContainText(po);
  const total = (await row.locator(".text-lg").textContent())!.trim();
  await expect(page.getByTestId("pay-total")).toHaveText(`1 invoice chosen: ${total}`);
  await page.getByRole("button", { name: `Pay ${total} by bank transfer` }).click();

  // The confirmation: the reference to quote, the amount and the bank details.
  await expect(page).toHaveURL(/\/trade\/invoices\/pay\?paid=REM-\d{6}$/);
  const panel = page.getByTestId("remittance");
  await expect(panel.getByRole("heading", { level: 2 })).toHaveText(/^Payment REM-\d{6} recorded$/);
  const reference = /REM-\d{6}/.exec((await panel.getByRole("heading", { level: 2 }).textContent())!)![0];
  await expect(panel).toContainText(`Pay ${total} by bank transfer to`);
  await expect(panel).toContainText(`quoting ${reference} as the reference.`);
  await expect(panel).toContainText("Quote this reference so we can match your payment.");
  await expect(panel).toContainText("12-34-56");
  await expect(panel.getByRole("listitem").filter({ hasText: invoice.number })).toContainText("Payment pending");
  await expect(page.getByTestId("pay-form").getByRole("checkbox", { name: new RegExp(invoice.number) })).toHaveCount(0);

  // The invoice itself says payment pending, and offers no second payment.
  await panel.getByRole("link", { name: invoice.number }).click();
  await expect(page.getByTestId("invoice-facts")).toContainText("Payment pending");
  await expect(page.getByRole("link", { name: "Pay this invoice" })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the invoice's page links to the pay screen with it chosen, and the form pays it", async ({ page }) => {
    test.setTimeout(60_000);
    const po = `PO-NOJS-${Date.now()}`;
    await signIn(page.request);
    await addToBasket(page.request);
    const placed = await page.request.post("/api/checkout", {
      headers: await csrfHeaders(page.request),
      data: { email: OWNER.email, phone: "0113 496 0123", delivery_method: "collect", payment_method: "pay_on_account", po_reference: po, billing_address: { line_1: "4 Slate Row", town: "Leeds", postcode: "LS1 1AA" } },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const invoice = await invoiceByPo(page.request, po);

    await page.goto(`/trade/invoices/view/${invoice.id}`);
    await page.getByRole("link", { name: "Pay this invoice" }).click();
    await expect(page).toHaveURL(new RegExp(`/trade/invoices/pay\\?invoice=${invoice.id}$`));
    const boxes = page.getByTestId("pay-form").getByRole("checkbox");
    await expect(boxes.and(page.locator(":checked"))).toHaveCount(1);
    await expect(page.getByTestId("pay-form").getByRole("checkbox", { name: new RegExp(invoice.number) })).toBeChecked();

    // Nothing chosen: the error summary says so.
    await page.getByTestId("pay-form").getByRole("checkbox", { name: new RegExp(invoice.number) }).uncheck();
    await page.getByRole("button", { name: "Pay the chosen invoices by bank transfer" }).click();
    await expect(page.getByRole("alert")).toContainText("Choose at least one invoice to pay.");

    await page.getByTestId("pay-form").getByRole("checkbox", { name: new RegExp(invoice.number) }).check();
    await page.getByRole("button", { name: "Pay the chosen invoices by bank transfer" }).click();
    await expect(page).toHaveURL(/\/trade\/invoices\/pay\?paid=REM-\d{6}$/);
    await expect(page.getByTestId("remittance").getByRole("listitem").filter({ hasText: invoice.number })).toContainText("Payment pending");
  });
});
