// The trade account journey of issue 7, end to end: a new user applies on
// /trade/setup, the accounts desk approves the application, the owner sees
// trade prices ex VAT (a switch to inc VAT is remembered), pays on account,
// views the invoice and its PDF, invites a buyer who accepts from the email and
// orders on account too, pays both invoices by bank transfer, and the accounts
// desk confirms the remittance when the money arrives.
//
// Staff work through the trade desk's API, as its screens do (trade-desk.spec.ts
// works those screens). The same decisions by the staff CLI
// (`npm run shop -- trade:approve`, `invoice:paid`) are tested in
// scripts/shop.test.ts: this journey once stopped a shop of its own for each of
// the CLI's turns (PGlite admits one process), three starts and a minute and a
// half of the browser suite.
import { newUser, PASSWORD, csrfHeaders, registerThroughForm, waitForEmailTo } from "./auth-helpers.ts";
import { collectOnAccount } from "./checkout-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { staffApi } from "./trade-helpers.ts";
import { expectAccessible } from "./axe.ts";

// Chromium logs the 422 of the form's first, incomplete, submission as a console error.
test.use({ allowedConsoleErrors: [/the server responded with a status of 422/] });

test("apply → approved by the accounts desk → trade prices ex VAT, with a remembered switch to inc VAT → pay on account → invoice and PDF → invite a buyer who accepts and orders → pay the invoices → the remittance confirmed by the desk", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const company = `Tariq Roofing ${Date.now().toString(36)} Ltd`;
  // A new user, signed in in this page's browser.
  const user = newUser("Tariq");
  const registered = await page.request.post("/api/auth/register", {
    headers: await csrfHeaders(page.request),
    data: { firstname: user.firstname, lastname: user.lastname, email: user.email, password: PASSWORD, password_confirmation: PASSWORD },
  });
  expect(registered.status()).toBe(201);
  const list = await (await page.request.get("/api/products?per_page=1&sort=name")).json();
  const product = list.items[0] as { slug: string; price: number; price_ex_vat: number; vat_rate: number };

  // Before: consumer prices, inc VAT first, and no trade strip.
  await page.goto(`/product/${product.slug}`);
  await expect(page.getByRole("main").getByTestId("price-inc-vat").first()).toHaveText(`£${product.price.toFixed(2)}`);
  await expect(page.getByTestId("trade-bar")).toHaveCount(0);

  // Apply, with the postcode lookup filling the business address.
  await page.goto("/trade/setup");
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apply for a trade account");
  await page.getByLabel("Company name").fill(company);
  await page.getByLabel("Limited company").check();
  await page.getByRole("button", { name: "Apply for a trade account" }).click();
  await expect(page.getByText("Enter the Companies House number: it is required for a limited company.")).toBeVisible();
  await page.getByLabel("Companies House number").fill("12345678");
  await page.getByLabel(/^VAT number/).fill("GB 123 4567 89");
  await page.getByLabel("Your trade").fill("Roofer");
  await page.getByLabel("Find your address by postcode").fill("LS1 1AA");
  await page.getByRole("button", { name: "Find address" }).click();
  await page.getByLabel("Choose your address").selectOption({ index: 1 });
  await expect(page.getByLabel("Postcode", { exact: true })).toHaveValue("LS1 1AA");
  await page.getByLabel("Phone number").fill("0113 496 0555");
  await page.getByLabel("Accounts email").fill("accounts@tariq-roofing.example.com");
  await page.getByLabel("Expected monthly spend (£)").fill("2,500");
  await page.getByLabel("Credit limit you would like (£)").fill("5000");
  await page.getByRole("button", { name: "Apply for a trade account" }).click();
  await expect(page).toHaveURL("/trade/dashboard");
  await expect(page.getByTestId("trade-state")).toHaveText("Pending review");

  // The accounts desk approves the application, with its terms.
  const desk = await staffApi(browser, "accounts@staff.example.com");
  const applications = await desk.request.get("/api/admin/trade/applications");
  expect(applications.status(), await applications.text()).toBe(200);
  const application = ((await applications.json()) as { data: { id: number; company_name: string }[] }).data.find((a) => a.company_name === company);
  expect(application, `${company} waits on the desk`).toBeTruthy();
  const approved = await desk.request.post(`/api/admin/trade/applications/${application!.id}/approve`, {
    headers: desk.headers,
    data: { credit_limit: 5000, terms_days: 30, discount_percent: 10 },
  });
  expect(approved.status(), await approved.text()).toBe(200);

  // The dashboard shows the terms.
  await page.goto("/trade/dashboard");
  await expect(page.getByTestId("trade-state")).toHaveText("Approved");
  await expect(page.getByTestId("trade-credit-limit")).toHaveText("£5,000.00");
  await expect(page.getByTestId("trade-terms")).toHaveText("30 days");
  await expect(page.getByTestId("trade-discount")).toHaveText("10%");

  // Trade prices, ex VAT first, worked on the server.
  const tradeEx = Math.floor((Math.round(product.price_ex_vat * 100) * 9000 + 5000) / 10000);
  const tradeInc = Math.floor((tradeEx * (100 + product.vat_rate) + 50) / 100);
  const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
  await page.goto(`/product/${product.slug}`);
  await page.waitForLoadState("networkidle");
  const price = page.getByRole("main").getByTestId("price").first();
  await expect(price.getByTestId("trade-price")).toHaveText("Trade price");
  await expect(price.getByTestId("price-ex-vat")).toHaveText(pounds(tradeEx));
  await expect(price.getByTestId("price-inc-vat")).toHaveText(`inc VAT ${pounds(tradeInc)}`);
  await expect(price.getByTestId("list-price")).toContainText(`£${product.price_ex_vat.toFixed(2)}`);

  // Switch to inc VAT: remembered after a reload.
  const bar = page.getByTestId("trade-bar");
  await expect(bar).toContainText("10% off");
  await bar.getByRole("button", { name: "inc VAT" }).click();
  await expect(bar.getByRole("button", { name: "inc VAT" })).toHaveAttribute("aria-pressed", "true");
  await expect(price.getByTestId("price-inc-vat")).toHaveText(pounds(tradeInc));
  await page.reload();
  await expect(page.getByTestId("trade-bar").getByRole("button", { name: "inc VAT" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("main").getByTestId("price-inc-vat").first()).toHaveText(pounds(tradeInc));

  // Back to ex VAT; the basket follows, at the trade price.
  await page.getByTestId("trade-bar").getByRole("button", { name: "ex VAT" }).click();
  await expect(page.getByTestId("trade-bar").getByRole("button", { name: "ex VAT" })).toHaveAttribute("aria-pressed", "true");
  const added = await page.request.post("/api/basket", { headers: await csrfHeaders(page.request), data: { product_id: list.items[0].id, quantity: 2 } });
  expect((await added.json()).cart.subtotal).toBe((tradeEx * 2) / 100);
  await page.goto("/basket");
  const line = page.getByTestId("basket-line");
  await expect(line).toContainText(`${pounds(tradeEx)} each ex VAT`);
  await expect(line.getByTestId("line-total")).toHaveText(pounds(tradeEx * 2));

  // Listings carry trade prices too.
  await page.goto("/products?sort=name");
  await expect(page.getByRole("main").getByTestId("trade-price").first()).toBeVisible();
  await expect(page.getByText("Your trade prices (10% off) are shown ex VAT, with the inc-VAT price beside each.")).toBeVisible();

  // Pay on account at checkout: offered with the available credit, the order and its invoice made together.
  await collectOnAccount(page, "/checkout");
  await expect(page.getByTestId("available-credit")).toContainText("Available credit: £5,000.00 of £5,000.00");
  await page.getByLabel("Purchase-order reference").fill("PO-ROOF-1");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
  await expect(page.getByText("We invoice this order to your trade account")).toBeVisible();
  await expect(page.getByText("Payment: Pay on account")).toBeVisible();
  const options = await (await page.request.get("/api/checkout/delivery-options")).json();
  const onAccount = options.data.payment.find((p: { id: string }) => p.id === "pay_on_account");
  expect(onAccount.available_credit).toBe(5000 - Math.floor((tradeEx * 2 * (100 + product.vat_rate) + 50) / 100) / 100);

  // The invoice: listed on /trade/invoices, found by its PO, viewed, and its PDF downloaded.
  await page.goto("/trade/invoices?status=unpaid&q=PO-ROOF-1");
  const row = page.getByTestId("trade-invoices").getByRole("row", { name: /PO-ROOF-1/ });
  await expect(row).toContainText("Unpaid");
  const axe = () => expectAccessible(page);
  await axe();
  await row.getByRole("link", { name: /^INV-\d{6}$/ }).click();
  await expect(page).toHaveURL(/\/trade\/invoices\/view\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/Invoice INV-\d{6}/);
  await expect(page.getByTestId("invoice-lines")).toContainText(pounds(tradeEx * 2));
  await axe();
  const pdf = await page.request.get(`${await page.getByRole("link", { name: "Download the PDF" }).getAttribute("href")}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");

  // A guest still sees the shop's price.
  const guest = await page.context().browser()!.newContext();
  try {
    const guestPage = await guest.newPage();
    await guestPage.goto(`/product/${product.slug}`);
    await expect(guestPage.getByRole("main").getByTestId("price-inc-vat").first()).toHaveText(`£${product.price.toFixed(2)}`);
    await expect(guestPage.getByTestId("trade-price")).toHaveCount(0);
  } finally {
    await guest.close();
  }

  // Invite a buyer: they follow the emailed link in their own browser, register with that email and accept.
  await page.goto("/trade/manage/invite");
  await page.waitForLoadState("networkidle");
  const buyer = newUser("Bilal");
  await page.getByLabel("Email address").fill(buyer.email);
  await page.getByLabel("Role").selectOption("buyer");
  await page.getByRole("button", { name: "Send the invitation" }).click();
  await expect(page).toHaveURL("/trade/manage");
  const invitation = /https?:\/\/[^\s"'<>]+\/trade\/invitation\?token=[^\s"'<>]+/.exec(await waitForEmailTo(buyer.email, 15_000));
  expect(invitation, "the invitation email carries a link").toBeTruthy();
  const link = new URL(invitation![0].replace(/&amp;/g, "&"));
  const buyerContext = await browser.newContext();
  try {
    const theirs = await buyerContext.newPage();
    await theirs.goto(`${link.pathname}${link.search}`);
    await expect(theirs).toHaveURL(/\/auth\/login\?redirect=/);
    const back = new URL(theirs.url()).searchParams.get("redirect")!;
    await theirs.goto(`/auth/register?${new URLSearchParams({ redirect: back })}`);
    await theirs.waitForLoadState("networkidle");
    await registerThroughForm(theirs, buyer);
    await expect(theirs).toHaveURL(/\/trade\/invitation\?token=/);
    await theirs.waitForLoadState("networkidle");
    await theirs.getByRole("button", { name: "Accept the invitation" }).click();
    await expect(theirs).toHaveURL("/trade/dashboard");
    await expect(theirs.getByRole("main")).toContainText(/Your role\s*buyer/i);

    // The buyer orders on account, at the company's trade price.
    const bought = await theirs.request.post("/api/basket", { headers: await csrfHeaders(theirs.request), data: { product_id: list.items[0].id, quantity: 1 } });
    expect((await bought.json()).cart.subtotal).toBe(tradeEx / 100);
    await collectOnAccount(theirs, "/checkout");
    await theirs.getByLabel("Purchase-order reference").fill("PO-ROOF-2");
    await theirs.getByRole("button", { name: "Place order" }).click();
    await expect(theirs).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
    await expect(theirs.getByText("Payment: Pay on account")).toBeVisible();
  } finally {
    await buyerContext.close();
  }

  // The owner pays both invoices by bank transfer and is given the reference to quote.
  await page.goto("/trade/invoices/pay");
  await page.waitForLoadState("networkidle");
  const payForm = page.getByTestId("pay-form");
  for (const po of ["PO-ROOF-1", "PO-ROOF-2"]) await payForm.getByRole("listitem").filter({ hasText: po }).getByRole("checkbox").check();
  await expect(page.getByTestId("pay-total")).toContainText("2 invoices chosen");
  await page.getByRole("button", { name: /^Pay £[\d,.]+ by bank transfer$/ }).click();
  await expect(page).toHaveURL(/\/trade\/invoices\/pay\?paid=REM-\d{6}$/);
  const remittance = page.getByTestId("remittance");
  await expect(remittance).toContainText("Quote this reference so we can match your payment.");
  const numbers = (await remittance.getByRole("link", { name: /^INV-\d{6}$/ }).allTextContents()).sort();
  expect(numbers).toHaveLength(2);

  // The money arrives and the accounts desk confirms the remittance: the invoices are paid and the credit is free again.
  const reference = new URL(page.url()).searchParams.get("paid")!;
  const confirmed = await desk.request.post(`/api/admin/trade/remittances/${reference}/confirm`, { headers: desk.headers, data: { method: "bacs" } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  await page.goto("/trade/invoices?status=paid");
  for (const number of numbers) await expect(page.getByTestId("trade-invoices").getByRole("row", { name: new RegExp(number) })).toContainText("Paid");
  await page.goto("/trade/dashboard");
  await expect(page.getByTestId("trade-available")).toHaveText("£5,000.00");
});
