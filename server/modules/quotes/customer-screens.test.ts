// The customer's quote screens (issue 32) on the production build, driven as a
// browser without scripts drives them: pages requested and forms posted to the
// routes' actions. A company's buyer asks for a quote from the basket page,
// reads it in the list and on its page while it is priced, then accepts it on
// account with a PO (one order for two posts of the same form), asks for
// changes to another and declines a third; the company's accounts user reads
// them without the buttons; a stranger gets the 404 page. The rules are proven
// through the API in quotes.test.ts; this proves the screens keep to them.
import { eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { staffBrowser } from "../../test/staff-browsers.ts";
import { textOf } from "../../test/page-text.ts";
import { oneVariantProduct } from "../../test/products.ts";
import { addDays, londonDate } from "../hire/calendar.ts";
import { orders } from "../orders/schema.ts";
import { tradeFixtures } from "../trade/test-fixtures.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { quotes } from "./schema.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let sales: TestBrowser;
const fx = tradeFixtures(shop);
let company: Awaited<ReturnType<typeof fx.company>>;
let offset = 40;

beforeAll(async () => {
  sales = await staffBrowser(shop().app, "198.51.140.1", DEMO_STAFF.find((m) => m.role === "sales")!.email);
  company = await fx.company("Quoting Roofers Ltd");
  await shop().database.db.update(tradeAccounts).set({ poRequired: true }).where(eq(tradeAccounts.id, company.accountId));
}, 240_000);

/** A form post to a screen, as a browser without scripts sends it, from this site. */
function postForm(b: TestBrowser, url: string, form: Record<string, string>, origin = "http://localhost") {
  return b.request("POST", url, new URLSearchParams(form).toString(), { headers: { "content-type": "application/x-www-form-urlencoded", origin } });
}

/** A fresh product in the browser's basket. */
async function inBasket(b: TestBrowser, quantity = 4) {
  const product = await oneVariantProduct(shop().database.db, ++offset, 500, 2500);
  expect((await b.post("/api/basket", { product_id: product.id, quantity })).statusCode).toBe(200);
  return product;
}

/** Asked for on the basket page: the redirect to the new quote's page. */
async function requestFromBasket(b: TestBrowser, form: Record<string, string> = {}): Promise<string> {
  await inBasket(b);
  const res = await postForm(b, "/basket", { intent: "quote", notes: "", needed_by: "", ...form });
  expect(res.statusCode, textOf(res).slice(0, 300)).toBe(302);
  const to = String(res.headers.location);
  expect(to).toMatch(/^\/account\/quotes\/Q-\d{6}\?done=requested$/);
  return /Q-\d{6}/.exec(to)![0];
}

/** Priced at £22.00 a unit ex VAT (12% off the buyer's £25.00) and sent, as the desk does. */
async function priceAndSend(number: string): Promise<void> {
  const desk = (await sales.get(`/api/admin/quotes/${number}`)).json().data;
  const patched = await sales.patch(`/api/admin/quotes/${number}`, { lines: [{ line_id: desk.lines[0].id, unit_price_ex_vat: 22 }], terms: "Prices held for the whole order only." });
  expect(patched.statusCode, patched.body).toBe(200);
  expect((await sales.post(`/api/admin/quotes/${number}/send`)).statusCode).toBe(200);
}

/** The value of a named input on the page. */
function inputValue(res: LightMyRequestResponse, name: string): string {
  const m = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(res.body) ?? new RegExp(`<input[^>]*value="([^"]*)"[^>]*name="${name}"`).exec(res.body);
  expect(m, `the ${name} input`).toBeTruthy();
  return m![1]!;
}

const statusOf = async (number: string) => (await shop().database.db.select({ status: quotes.status }).from(quotes).where(eq(quotes.number, number)))[0]!.status;

describe("asking for a quote on the basket page", () => {
  it("makes the quote from the basket's lines and opens its page with the confirmation, the lines being priced", async () => {
    const b = company.buyer.browser;
    const product = await inBasket(b, 6);
    const res = await postForm(b, "/basket", { intent: "quote", notes: "Re-roof at 9 Elm Road", needed_by: addDays(londonDate(), 14) });
    expect(res.statusCode).toBe(302);
    const to = String(res.headers.location);
    const number = /Q-\d{6}/.exec(to)![0];
    expect((await b.get("/api/basket")).json().cart.items).toEqual([]);

    const page = await b.get(to);
    expect(page.statusCode).toBe(200);
    const text = textOf(page);
    expect(text).toContain(`We have your quote request ${number}; we will email you when it is priced. Your basket has been emptied: the quote holds its lines.`);
    expect(text).toContain("Requested");
    expect(text).toContain(product.sku);
    expect(text).toContain("Being priced");
    expect(text).toContain("Re-roof at 9 Elm Road");
    // Nothing to accept yet, and no PDF; the buyer may still decline it.
    expect(text).not.toContain("Accept this quote");
    expect(text).toContain("Decline this quote");
    expect(text).toContain("The PDF comes with the priced quote");
  });

  it("keeps a guest, another site, an empty basket and a past date out, saying why", async () => {
    const guest = new TestBrowser(shop().app, "198.51.140.2");
    const toSignIn = await postForm(guest, "/basket", { intent: "quote" });
    expect(toSignIn.statusCode).toBe(302);
    expect(toSignIn.headers.location).toBe("/auth/login?redirect=%2Fbasket");

    const b = company.buyer.browser;
    // Another site's post is refused before the action runs (React Router's own check) or by it.
    const foreign = await postForm(b, "/basket", { intent: "quote" }, "https://evil.example");
    expect([400, 403]).toContain(foreign.statusCode);
    const empty = await postForm(b, "/basket", { intent: "quote", notes: "Kept" });
    expect(empty.statusCode).toBe(200);
    expect(textOf(empty)).toContain("We could not ask for your quote. Your basket is empty: add what you need a price for first.");

    await inBasket(b);
    const past = await postForm(b, "/basket", { intent: "quote", notes: "Kept as typed", needed_by: "2020-01-01" });
    expect(past.statusCode).toBe(200);
    // Said at the top; the form (drawn in the browser with the basket's lines) marks the field and keeps what was typed.
    expect(textOf(past)).toContain("We could not ask for your quote. The date you need the goods by cannot be in the past.");
    expect(past.body).toContain("Kept as typed");
    await b.delete("/api/basket");
  });
});

describe("the list", () => {
  it("shows the buyer's own, the owner and accounts user the company's with who asked, and an empty state to anyone without", async () => {
    const number = await requestFromBasket(company.buyer.browser);
    const own = textOf(await company.buyer.browser.get("/account/quotes"));
    expect(own).toContain(`Quote ${number}`);
    expect(own).toContain("Being priced");
    for (const reader of [company.owner, company.accounts]) {
      const listed = textOf(await reader.browser.get("/account/quotes"));
      expect(listed).toContain(`Quote ${number}`);
      expect(listed).toContain("by buyer Fitter for Quoting Roofers Ltd");
    }

    const stranger = await fx.signedUp("stranger");
    const none = await stranger.browser.get("/account/quotes");
    expect(none.statusCode).toBe(200);
    expect(textOf(none)).toContain("You have no quotes yet.");
    expect(textOf(none)).toContain("choose “Request a quote” there");

    // Keyset: past the oldest there is nothing older, and a way back to the newest.
    const [oldest] = await shop().database.db.select({ id: sql<number>`min(${quotes.id})` }).from(quotes);
    const older = textOf(await company.buyer.browser.get(`/account/quotes?cursor=${oldest!.id}`));
    expect(older).toContain("There are no older quotes.");
    expect(older).toContain("Newest quotes");
  });
});

describe("a sent quote", () => {
  it("shows its prices, discount, totals, validity, terms, PDF and timeline, and is accepted on account once for two posts of its form", async () => {
    const b = company.buyer.browser;
    const number = await requestFromBasket(b);
    await priceAndSend(number);

    const page = await b.get(`/account/quotes/${number}`);
    const text = textOf(page);
    expect(text).toContain("Sent");
    // 4 × £22.00 = £88.00, VAT £17.60: £105.60; the buyer's own price was £25.00.
    expect(text).toContain("£22.00");
    expect(text).toContain("12% off your price");
    expect(text).toContain("£88.00");
    expect(text).toContain("£105.60");
    expect(text).toContain("At our usual rates");
    expect(text).toContain(`Valid until ${text.match(/Valid until (\d{1,2} \w+ \d{4})/)![1]}`);
    expect(text).toContain("Prices held for the whole order only.");
    expect(page.body).toContain(`href="/api/quotes/${number}/pdf"`);
    expect(page.body).toContain(`href="/api/quotes/${number}/pdf?revision=1"`);
    expect(text).toMatch(/sent revision 1, valid until/);
    expect(text).toContain("Accept this quote");
    expect(text).toContain("Pay on account");
    expect(text).toContain("Available credit");
    const pdf = await b.get(`/api/quotes/${number}/pdf`);
    expect(pdf.headers["content-type"]).toBe("application/pdf");

    const key = inputValue(page, "idempotency_key");
    // Click & collect from the default branch, on account.
    const accept = { intent: "accept", idempotency_key: key, priced_for: "", delivery_method: "collect", collector_name: "Test Collector", payment_method: "pay_on_account", notes: "Gate code 1234", po_reference: "" };
    // The account needs a PO reference: refused beside its field, the rest kept.
    const noPo = await postForm(b, `/account/quotes/${number}`, accept);
    expect(noPo.statusCode).toBe(200);
    expect(textOf(noPo)).toContain("Enter a purchase-order reference: your trade account requires one for orders on account.");
    expect(noPo.body).toMatch(/name="po_reference"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="po_reference"/);
    expect(noPo.body).toContain("Gate code 1234");
    expect(await statusOf(number)).toBe("sent");

    const first = await postForm(b, `/account/quotes/${number}`, { ...accept, po_reference: "PO-ROOF-7" });
    expect(first.statusCode, textOf(first).slice(0, 400)).toBe(302);
    const thanks = String(first.headers.location);
    expect(thanks).toMatch(/^\/checkout\/thank-you\?order=TC-\d+/);
    const again = await postForm(b, `/account/quotes/${number}`, { ...accept, po_reference: "PO-ROOF-7" });
    expect(again.statusCode).toBe(302);
    expect(new URL(String(again.headers.location), "http://shop").searchParams.get("order")).toBe(new URL(thanks, "http://shop").searchParams.get("order"));
    const order = new URL(thanks, "http://shop").searchParams.get("order")!;
    // One order for the two posts, at the quoted prices.
    const placed = await shop().database.db.select({ total: orders.total, po: orders.poReference, notes: orders.notes }).from(orders).where(eq(orders.poReference, "PO-ROOF-7"));
    expect(placed).toEqual([{ total: 10560, po: "PO-ROOF-7", notes: "Gate code 1234" }]);

    const after = await b.get(`/account/quotes/${number}`);
    expect(textOf(after)).toContain("Accepted");
    expect(textOf(after)).toContain(`It is order ${order}`);
    expect(after.body).toMatch(/href="\/account\/orders\/\d+"/);
    expect(textOf(after)).not.toContain("Accept this quote");
    expect(after).not.toContain("Accept this quote");
    // A new form's post after that: refused, saying which order it became.
    const late = await postForm(b, `/account/quotes/${number}`, { ...accept, idempotency_key: "another-key-123", po_reference: "PO-ROOF-8" });
    expect(late.statusCode).toBe(200);
    expect(textOf(late)).toContain("This quote has already been accepted: it is order TC-");
  });

  it("shows the delivery priced for the address given, when it changes the total, before accepting", async () => {
    const b = company.owner.browser;
    const number = await requestFromBasket(b);
    await priceAndSend(number);
    const page = await b.get(`/account/quotes/${number}`);
    // £105.60 of goods: standard delivery is free in Leeds, and £20.00 more to the Highlands.
    const send = { intent: "accept", idempotency_key: inputValue(page, "idempotency_key"), priced_for: "LS1 1AA", delivery_method: "standard", payment_method: "bank_transfer", delivery_line_1: "1 Harbour Road", delivery_town: "Inverness", delivery_postcode: "IV1 1AA" };
    const repriced = await postForm(b, `/account/quotes/${number}`, send);
    expect(repriced.statusCode).toBe(200);
    expect(textOf(repriced)).toContain("Delivery to IV1 1AA makes the total £125.60, not what the page showed. Check the delivery prices below and accept again.");
    expect(inputValue(repriced, "priced_for")).toBe("IV1 1AA");
    expect(repriced.body).toContain('value="1 Harbour Road"');
    expect(await statusOf(number)).toBe("sent");

    const accepted = await postForm(b, `/account/quotes/${number}`, { ...send, priced_for: "IV1 1AA", idempotency_key: inputValue(repriced, "idempotency_key") });
    expect(accepted.statusCode, textOf(accepted).slice(0, 300)).toBe(302);
    const [order] = await shop().database.db.select({ total: orders.total, delivery: orders.delivery }).from(orders).where(eq(orders.number, new URL(String(accepted.headers.location), "http://shop").searchParams.get("order")!));
    expect(order).toEqual({ total: 12560, delivery: 2000 });
  });

  it("takes a request for changes, then is priced again; the accounts user reads it without the buttons", async () => {
    const number = await requestFromBasket(company.buyer.browser);
    await priceAndSend(number);

    const reader = await company.accounts.browser.get(`/account/quotes/${number}`);
    expect(textOf(reader)).toContain("Only the buyer who asked, or an owner or admin of your company, can answer this quote.");
    expect(textOf(reader)).not.toContain("Accept this quote");
    const refused = await postForm(company.accounts.browser, `/account/quotes/${number}`, { intent: "decline", reason: "Not mine to say" });
    expect(refused.statusCode).toBe(200);
    expect(textOf(refused)).toContain("Only the buyer who asked, or an owner or admin of the company, may answer this quote.");
    expect(await statusOf(number)).toBe("sent");

    const b = company.buyer.browser;
    const blank = await postForm(b, `/account/quotes/${number}`, { intent: "changes", message: "  " });
    expect(textOf(blank)).toContain("Say what you would like changed.");
    const asked = await postForm(b, `/account/quotes/${number}`, { intent: "changes", message: "Make it 10 packs, please" });
    expect(asked.statusCode).toBe(302);
    expect(asked.headers.location).toBe(`/account/quotes/${number}?done=changes`);
    const page = textOf(await b.get(String(asked.headers.location)));
    expect(page).toContain("We have your changes: we will price the quote again and email you when the new version is ready.");
    expect(page).toContain("Changes asked for: Make it 10 packs, please");
    expect(page).toContain("Revision 2");
    expect(await statusOf(number)).toBe("requested");
  });

  it("is declined by the owner with a reason", async () => {
    const number = await requestFromBasket(company.buyer.browser);
    const declined = await postForm(company.owner.browser, `/account/quotes/${number}`, { intent: "decline", reason: "Went with the slate instead" });
    expect(declined.statusCode).toBe(302);
    expect(declined.headers.location).toBe(`/account/quotes/${number}?done=declined`);
    const page = textOf(await company.owner.browser.get(String(declined.headers.location)));
    expect(page).toContain("You declined this quote.");
    expect(page).toContain("Reason: Went with the slate instead");
    expect(page).not.toContain("Decline this quote");
    expect(await statusOf(number)).toBe("declined");
  });
});

describe("someone else's quote", () => {
  it("is the 404 page to a stranger and to another company, page and post alike, and left as it was", async () => {
    const number = await requestFromBasket(company.buyer.browser);
    const stranger = await fx.signedUp("nosy");
    const other = await fx.company("Other Glaziers Ltd");
    for (const b of [stranger.browser, other.owner.browser]) {
      const page = await b.get(`/account/quotes/${number}`);
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain(`Page Not Found: /account/quotes/${number}`);
      expect(page.body).not.toContain("Quoting Roofers Ltd");
      expect((await b.get(`/account/quotes/${number}.data`)).statusCode).toBe(404);
      const post = await postForm(b, `/account/quotes/${number}`, { intent: "decline", reason: "Mine now" });
      expect(post.statusCode).toBe(404);
      expect(textOf(await b.get("/account/quotes"))).not.toContain(number);
    }
    expect((await stranger.browser.get("/account/quotes/not-a-quote")).statusCode).toBe(404);
    expect(await statusOf(number)).toBe("requested");
  });
});
