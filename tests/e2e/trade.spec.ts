// The trade account journey of issue 7, end to end: a new user applies on
// /trade/setup, staff approve with the real CLI (`npm run shop -- trade:approve`),
// the owner sees trade prices ex VAT (a switch to inc VAT is remembered), pays on
// account, views the invoice and its PDF, invites a buyer who accepts from the
// email and orders on account too, pays both invoices by bank transfer, and
// staff confirm the money with `npm run shop -- invoice:paid`.
//
// The CLI opens the database the way the server does, and an embedded PGlite
// database admits one process at a time. So this journey runs its own server on
// its own DATA_DIR and stops it while the CLI decides, as staff would on a
// one-process shop; the suite's shared server is left alone.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext } from "@playwright/test";
import { newUser, PASSWORD, registerThroughForm, waitForEmailTo } from "./auth-helpers.ts";
import { collectOnAccount } from "./checkout-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { freePort, node, root } from "./server-process.ts";

const env = (dataDir: string, port: number) => ({ ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "test", DATABASE_URL: "" });

async function startShop(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(node, ["server/main.ts"], { cwd: root, env: env(dataDir, port), stdio: ["ignore", "ignore", "inherit"] });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the shop exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGTERM");
  throw new Error("the shop did not start in time");
}

async function stopShop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

async function csrf(request: APIRequestContext, base: string): Promise<Record<string, string>> {
  await request.get(`${base}/sanctum/csrf-cookie`);
  const token = (await request.storageState()).cookies.find((c) => c.name === "XSRF-TOKEN")?.value;
  return { "X-XSRF-TOKEN": decodeURIComponent(token ?? "") };
}

// Chromium logs the 422 of the form's first, incomplete, submission as a console error; and
// the shop stops for each of the CLI's turns, so a request the page had under way then is
// cut short, refused, or answered 503 by the draining server (React Router's fetch of the
// routes its links lead to, say).
test.use({ allowedConsoleErrors: [/the server responded with a status of (422|503)|Failed to fetch manifest patches TypeError: Failed to fetch|net::ERR_CONNECTION_REFUSED/] });

test("apply → approved by the CLI → trade prices ex VAT, with a remembered switch to inc VAT → pay on account → invoice and PDF → invite a buyer who accepts and orders → pay the invoices → confirmed by the CLI", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "tradecounter-trade-e2e-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let shop = await startShop(dataDir, port);
  try {
    // A new user, signed in in this page's browser.
    const user = newUser("Tariq");
    const registered = await page.request.post(`${base}/api/auth/register`, {
      headers: await csrf(page.request, base),
      data: { firstname: user.firstname, lastname: user.lastname, email: user.email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(registered.status()).toBe(201);
    const list = await (await page.request.get(`${base}/api/products?per_page=1&sort=name`)).json();
    const product = list.items[0] as { slug: string; price: number; price_ex_vat: number; vat_rate: number };

    // Before: consumer prices, inc VAT first, and no trade strip.
    await page.goto(`${base}/product/${product.slug}`);
    await expect(page.getByRole("main").getByTestId("price-inc-vat").first()).toHaveText(`£${product.price.toFixed(2)}`);
    await expect(page.getByTestId("trade-bar")).toHaveCount(0);

    // Apply, with the postcode lookup filling the business address.
    await page.goto(`${base}/trade/setup`);
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apply for a trade account");
    await page.getByLabel("Company name").fill("Tariq Roofing Ltd");
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
    await expect(page).toHaveURL(`${base}/trade/dashboard`);
    await expect(page.getByTestId("trade-state")).toHaveText("Pending review");

    // Staff approve with the CLI while the shop is stopped (PGlite is one process).
    await page.goto("about:blank");
    await stopShop(shop);
    const { stdout } = await promisify(execFile)(
      node,
      ["scripts/shop.ts", "trade:approve", user.email, "--credit-limit", "5000", "--terms", "30", "--discount", "10"],
      { cwd: root, env: env(dataDir, port) },
    );
    expect(stdout).toContain("Trade account Tariq Roofing Ltd");
    expect(stdout).toContain("is now approved: credit limit £5000.00, 30 days, 10% discount.");
    shop = await startShop(dataDir, port);

    // The dashboard shows the terms.
    await page.goto(`${base}/trade/dashboard`);
    await expect(page.getByTestId("trade-state")).toHaveText("Approved");
    await expect(page.getByTestId("trade-credit-limit")).toHaveText("£5,000.00");
    await expect(page.getByTestId("trade-terms")).toHaveText("30 days");
    await expect(page.getByTestId("trade-discount")).toHaveText("10%");

    // Trade prices, ex VAT first, worked on the server.
    const tradeEx = Math.floor((Math.round(product.price_ex_vat * 100) * 9000 + 5000) / 10000);
    const tradeInc = Math.floor((tradeEx * (100 + product.vat_rate) + 50) / 100);
    const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
    await page.goto(`${base}/product/${product.slug}`);
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
    const added = await page.request.post(`${base}/api/basket`, { headers: await csrf(page.request, base), data: { product_id: list.items[0].id, quantity: 2 } });
    expect((await added.json()).cart.subtotal).toBe((tradeEx * 2) / 100);
    await page.goto(`${base}/basket`);
    const line = page.getByTestId("basket-line");
    await expect(line).toContainText(`${pounds(tradeEx)} each ex VAT`);
    await expect(line.getByTestId("line-total")).toHaveText(pounds(tradeEx * 2));

    // Listings carry trade prices too.
    await page.goto(`${base}/products?sort=name`);
    await expect(page.getByRole("main").getByTestId("trade-price").first()).toBeVisible();
    await expect(page.getByText("Your trade prices (10% off) are shown ex VAT, with the inc-VAT price beside each.")).toBeVisible();

    // Pay on account at checkout: offered with the available credit, the order and its invoice made together.
    await collectOnAccount(page, `${base}/checkout`);
    await expect(page.getByTestId("available-credit")).toContainText("Available credit: £5,000.00 of £5,000.00");
    await page.getByLabel("Purchase-order reference").fill("PO-ROOF-1");
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
    await expect(page.getByText("We invoice this order to your trade account")).toBeVisible();
    await expect(page.getByText("Payment: Pay on account")).toBeVisible();
    const options = await (await page.request.get(`${base}/api/checkout/delivery-options`)).json();
    const onAccount = options.data.payment.find((p: { id: string }) => p.id === "pay_on_account");
    expect(onAccount.available_credit).toBe(5000 - Math.floor((tradeEx * 2 * (100 + product.vat_rate) + 50) / 100) / 100);

    // The invoice: listed on /trade/invoices, found by its PO, viewed, and its PDF downloaded.
    await page.goto(`${base}/trade/invoices?status=unpaid&q=PO-ROOF-1`);
    const row = page.getByTestId("trade-invoices").getByRole("row", { name: /PO-ROOF-1/ });
    await expect(row).toContainText("Unpaid");
    const axe = async () => expect((await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze()).violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await axe();
    await row.getByRole("link", { name: /^INV-\d{6}$/ }).click();
    await expect(page).toHaveURL(/\/trade\/invoices\/view\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(/Invoice INV-\d{6}/);
    await expect(page.getByTestId("invoice-lines")).toContainText(pounds(tradeEx * 2));
    await axe();
    const pdf = await page.request.get(`${base}${await page.getByRole("link", { name: "Download the PDF" }).getAttribute("href")}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");

    // A guest still sees the shop's price.
    const guest = await page.context().browser()!.newContext();
    try {
      const guestPage = await guest.newPage();
      await guestPage.goto(`${base}/product/${product.slug}`);
      await expect(guestPage.getByRole("main").getByTestId("price-inc-vat").first()).toHaveText(`£${product.price.toFixed(2)}`);
      await expect(guestPage.getByTestId("trade-price")).toHaveCount(0);
    } finally {
      await guest.close();
    }

    // Invite a buyer: they follow the emailed link in their own browser, register with that email and accept.
    await page.goto(`${base}/trade/manage/invite`);
    await page.waitForLoadState("networkidle");
    const buyer = newUser("Bilal");
    await page.getByLabel("Email address").fill(buyer.email);
    await page.getByLabel("Role").selectOption("buyer");
    await page.getByRole("button", { name: "Send the invitation" }).click();
    await expect(page).toHaveURL(`${base}/trade/manage`);
    const invitation = /https?:\/\/[^\s"'<>]+\/trade\/invitation\?token=[^\s"'<>]+/.exec(await waitForEmailTo(buyer.email, 15_000, dataDir));
    expect(invitation, "the invitation email carries a link").toBeTruthy();
    const link = new URL(invitation![0].replace(/&amp;/g, "&"));
    const buyerContext = await browser.newContext();
    try {
      const theirs = await buyerContext.newPage();
      await theirs.goto(`${base}${link.pathname}${link.search}`);
      await expect(theirs).toHaveURL(/\/auth\/login\?redirect=/);
      const back = new URL(theirs.url()).searchParams.get("redirect")!;
      await theirs.goto(`${base}/auth/register?${new URLSearchParams({ redirect: back })}`);
      await theirs.waitForLoadState("networkidle");
      await registerThroughForm(theirs, buyer);
      await expect(theirs).toHaveURL(/\/trade\/invitation\?token=/);
      await theirs.waitForLoadState("networkidle");
      await theirs.getByRole("button", { name: "Accept the invitation" }).click();
      await expect(theirs).toHaveURL(`${base}/trade/dashboard`);
      await expect(theirs.getByRole("main")).toContainText(/Your role\s*buyer/i);

      // The buyer orders on account, at the company's trade price.
      const bought = await theirs.request.post(`${base}/api/basket`, { headers: await csrf(theirs.request, base), data: { product_id: list.items[0].id, quantity: 1 } });
      expect((await bought.json()).cart.subtotal).toBe(tradeEx / 100);
      await collectOnAccount(theirs, `${base}/checkout`);
      await theirs.getByLabel("Purchase-order reference").fill("PO-ROOF-2");
      await theirs.getByRole("button", { name: "Place order" }).click();
      await expect(theirs).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
      await expect(theirs.getByText("Payment: Pay on account")).toBeVisible();
    } finally {
      await buyerContext.close();
    }

    // The owner pays both invoices by bank transfer and is given the reference to quote.
    await page.goto(`${base}/trade/invoices/pay`);
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

    // Staff confirm the money arrived with the CLI: the invoices are paid and the credit is free again.
    await page.goto("about:blank");
    await stopShop(shop);
    for (const number of numbers) {
      const confirmed = await promisify(execFile)(node, ["scripts/shop.ts", "invoice:paid", number], { cwd: root, env: env(dataDir, port) });
      expect(confirmed.stdout).toContain(number);
    }
    shop = await startShop(dataDir, port);
    await page.goto(`${base}/trade/invoices?status=paid`);
    for (const number of numbers) await expect(page.getByTestId("trade-invoices").getByRole("row", { name: new RegExp(number) })).toContainText("Paid");
    await page.goto(`${base}/trade/dashboard`);
    await expect(page.getByTestId("trade-available")).toHaveText("£5,000.00");
  } finally {
    // Leave the shop's page first: a request it still has under way (a link's
    // prefetch, the manifest's patches) would be cut short by the stop and logged.
    await page.goto("about:blank").catch(() => undefined);
    await stopShop(shop);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
