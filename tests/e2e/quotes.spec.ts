// Quotes in a real browser (issue 32): a trade owner asks for a quote from the
// basket page; the desk prices and sends it (through the admin API, as the
// demo sales member); the owner finds it in the list, opens its PDF, and
// accepts it paying on account with a PO, landing on the thank-you page with
// the quoted total. axe over the list and the quote's page.
//
// The demo trade company (trade@example.com) keeps an overdue invoice that
// blocks pay on account, and other specs hold it so (trade-pay, the
// dashboard): this journey's owner is of a company of its own, applied for
// and approved (needing a PO) through the APIs, so nothing is shared.
import { csrfHeaders, openPage } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { approvedTradeOwner, staffApi } from "./trade-helpers.ts";

test("a trade owner asks for a quote from the basket, and accepts it priced on account with a PO", async ({ page, browser }) => {
  test.slow();
  await approvedTradeOwner(page, browser);
  const { items } = (await (await page.request.get("/api/products", { params: { in_stock: 1, per_page: 24 } })).json()) as { items: { id: number; stock: number }[] };
  const product = items.find((p) => p.stock >= 10 && p.stock < 900)!;
  const added = await page.request.post("/api/basket", { headers: await csrfHeaders(page.request), data: { product_id: product.id, quantity: 2 } });
  expect(added.status(), await added.text()).toBe(200);

  // The company's site for the job, added on its sites page.
  await openPage(page, "/trade/sites");
  await expect(page.getByText("Your company has no sites yet.")).toBeVisible();
  await page.getByLabel("Site name").fill("Mill Lane extension");
  await page.getByLabel("Address line 1").fill("14 Mill Lane");
  await page.getByLabel("Town or city").fill("Leeds");
  await page.getByLabel("Postcode").fill("ls6 3aa");
  await page.getByLabel("Contact on site").fill("Quinn");
  await page.getByRole("button", { name: "Add the site" }).click();
  await expect(page.getByText("Mill Lane extension is saved.")).toBeVisible();
  await expect(page.getByTestId("site")).toContainText("14 Mill Lane, Leeds, LS6 3AA");
  await expectAccessible(page, "the sites page");

  // From the basket page: the request, for the site, with a note.
  await openPage(page, "/basket");
  const ask = page.getByTestId("quote-request");
  await ask.locator("summary").click();
  await ask.getByLabel("Site").selectOption({ label: "Mill Lane extension (LS6 3AA)" });
  await ask.getByLabel(/Notes for our team/).fill("Roof over the Mill Lane extension");
  await ask.getByRole("button", { name: "Send my quote request" }).click();
  await expect(page).toHaveURL(/\/account\/quotes\/Q-\d{6}\?done=requested$/);
  const number = /Q-\d{6}/.exec(page.url())![0];
  await expect(page.getByTestId("quote-done")).toHaveText(`We have your quote request ${number}; we will email you when it is priced. Your basket has been emptied: the quote holds its lines.`);
  await expect(page.getByTestId("basket-count")).toHaveText("0");
  await expect(page.getByTestId("quote-totals")).toContainText("Being priced");

  // The desk prices it 10% under the owner's price and sends it.
  const sales = await staffApi(browser, "sales@staff.example.com");
  const line = (await (await sales.request.get(`/api/admin/quotes/${number}`)).json()).data.lines[0] as { id: number; base_price_ex_vat: number };
  const priced = await sales.request.patch(`/api/admin/quotes/${number}`, { headers: sales.headers, data: { lines: [{ line_id: line.id, discount_percent: 10 }], terms: "Prices held for the whole order." } });
  expect(priced.status(), await priced.text()).toBe(200);
  const sent = await sales.request.post(`/api/admin/quotes/${number}/send`, { headers: sales.headers });
  expect(sent.status(), await sent.text()).toBe(200);
  const total = ((await sent.json()).data as { total: number }).total;
  const pounds = `£${total.toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

  // The list, then the quote's page: priced, with its PDF.
  await openPage(page, "/account/quotes");
  const row = page.getByTestId("quote-row").filter({ hasText: number });
  await expect(row).toContainText("Sent");
  await expect(row).toContainText(pounds);
  await expectAccessible(page, "the quotes list");
  await row.getByRole("link", { name: `Quote ${number}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Quote ${number}`);
  await expect(page.getByTestId("quote-lines")).toContainText("10% off your price");
  await expect(page.getByTestId("quote-totals")).toContainText(pounds);
  const pdf = await page.request.get((await page.getByTestId("quote-pdf").getAttribute("href"))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  await page.waitForLoadState("networkidle");
  await expectAccessible(page, "the quote's page");

  // Accepted: collected, on account with the PO the account needs.
  const form = page.getByTestId("accept-form");
  await form.getByRole("radio", { name: /Click & collect/ }).check();
  await form.getByRole("radio", { name: /Pay on account/ }).check();
  await expect(form.getByTestId("available-credit")).toContainText("£5,000.00");
  // For the site the quote was asked for.
  await expect(form.getByTestId("site-choice")).toContainText("14 Mill Lane, Leeds, LS6 3AA · Contact: Quinn");
  await form.getByLabel("Purchase-order reference").fill("PO-QUINN-1");
  await expect(form.getByTestId("accept-total")).toContainText(pounds);
  await form.getByRole("button", { name: "Accept and place order" }).click();
  await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you for your order");
  await expect(page.getByTestId("order-totals")).toContainText(pounds);
  await expect(page.getByText("PO-QUINN-1")).toBeVisible();
  await expect(page.getByTestId("order-site")).toHaveText("Mill Lane extension");
});
