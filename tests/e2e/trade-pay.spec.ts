// Paying trade invoices (issue 7): the demo trade owner, whose account is
// blocked from paying on account by an overdue invoice, pays one of its unpaid
// invoices by bank transfer on /trade/invoices/pay, sees the reference to quote
// and the bank details, and the invoice shows payment pending. Then the same
// without JavaScript. (Paying on account at checkout and paying its invoice
// are one journey in trade.spec.ts.)
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { DEMO_TRADE_OWNER, PAY_SLOTS, seededUnpaidInvoice, signInAs } from "./trade-helpers.ts";

/** Only this invoice ticked: other tests' invoices of the demo account are left alone. */
async function chooseOnly(page: Page, number: string): Promise<void> {
  const boxes = page.getByTestId("pay-form").getByRole("checkbox");
  for (const box of await boxes.all()) await box.uncheck();
  await page.getByTestId("pay-form").getByRole("checkbox", { name: new RegExp(number) }).check();
}

test("an overdue invoice blocks pay on account; pay an invoice by bank transfer and quote the reference", async ({ page }) => {
  test.setTimeout(90_000);
  await signInAs(page.request, DEMO_TRADE_OWNER);
  const options = await (await page.request.get("/api/checkout/delivery-options")).json();
  expect((options.data.payment as { id: string }[]).map((p) => p.id)).not.toContain("pay_on_account");
  const invoice = await seededUnpaidInvoice(page.request, PAY_SLOTS.payScreen);
  const po = invoice.po_reference;

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
    await signInAs(page.request, DEMO_TRADE_OWNER);
    const invoice = await seededUnpaidInvoice(page.request, PAY_SLOTS.payWithoutJavaScript);

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
