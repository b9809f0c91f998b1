// Text from outside shown on pages (issue 9): script payloads stored in a
// product, a customer's address, a trade account's invoice and an enquiry,
// and sent in a search, must reach the rendered page (and the staff email)
// as text, never as markup.
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMER } from "../db/seed/index.ts";
import { sanitizeDescription } from "../modules/catalog/products/sanitize.ts";
import { products } from "../modules/catalog/schema.ts";
import { mailOutbox } from "../modules/mail/schema.ts";
import { isoDay, tradeFixtures } from "../modules/trade/test-fixtures.ts";
import { tradeAccounts } from "../modules/trade/schema.ts";
import { createTestShop, type TestShop } from "./app.ts";
import { TestBrowser } from "./browser.ts";

const SCRIPT = "<script>alert(1)</script>";
const IMG = '"><img src=x onerror=alert(1)>';
const PAYLOAD = `${SCRIPT}${IMG}`;

/** The payload is on the page (so the test shows something) but only as text. */
function expectInert(html: string): void {
  expect(html).toContain("alert(1)");
  expect(html).not.toContain("<script>alert(1)");
  expect(html).not.toMatch(/<img src=x onerror/i);
}

let shop: TestShop;
beforeAll(async () => {
  // The real storefront, without the page cache: each visit renders afresh.
  shop = await createTestShop({}, { storefront: { mode: "build" }, pageCache: false });
}, 240_000);
afterAll(() => shop.close());

const page = async (browser: TestBrowser, url: string) => {
  const res = await browser.get(url);
  expect(res.statusCode, url).toBe(200);
  return res.body;
};

describe("script payloads reach pages as text", () => {
  it("in a product's name, summary and description, on its page and in listings", async () => {
    const [p] = await shop.database.db.select({ id: products.id, slug: products.slug }).from(products).orderBy(products.id).limit(1);
    // The description is sanitised when written, as every writer does; name and summary are plain text.
    await shop.database.db
      .update(products)
      .set({ name: `Drill ${PAYLOAD}`, summary: PAYLOAD, descriptionHtml: sanitizeDescription(`<p>Sturdy</p>${PAYLOAD}<a href="javascript:alert(1)">x</a>`) })
      .where(eq(products.id, p!.id));
    const guest = new TestBrowser(shop.app);
    const html = await page(guest, `/product/${p!.slug}`);
    expectInert(html);
    expect(html).not.toContain("javascript:alert(1)");
    expectInert(await page(guest, `/products?q=${encodeURIComponent("drill")}&per_page=96`));
  });

  it("in a search that is echoed back", async () => {
    const guest = new TestBrowser(shop.app);
    for (const url of [`/search?q=${encodeURIComponent(PAYLOAD)}`, `/products?q=${encodeURIComponent(PAYLOAD)}`]) {
      const res = await guest.get(url);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body).not.toContain("<script>alert(1)");
      expect(res.body).not.toMatch(/<img src=x onerror/i);
    }
  });

  it("in a customer's address, on their addresses page", async () => {
    const customer = new TestBrowser(shop.app, "198.51.100.201");
    await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const res = await customer.post("/api/account/addresses", { firstname: "Sam", lastname: "Carter", company: PAYLOAD, line1: PAYLOAD, town: "Leeds", postcode: "LS1 4AP" });
    expect(res.statusCode, res.body).toBe(201);
    expectInert(await page(customer, "/account/addresses"));
  });

  it("in a trade account's address and an invoice line, on the invoice", async () => {
    const fixtures = tradeFixtures(() => shop);
    const company = await fixtures.company(`Acme ${SCRIPT}`);
    await shop.database.db.update(tradeAccounts).set({ line1: PAYLOAD, town: IMG }).where(eq(tradeAccounts.id, company.accountId));
    const invoice = await fixtures.invoiceFor(company.accountId, company.buyer.id, { po: PAYLOAD.slice(0, 50), invoiceDate: isoDay(0), dueDate: isoDay(30), lines: [{ name: `Timber ${PAYLOAD}`, qty: 1, unit: 1000, rate: 20 }] });
    expectInert(await page(company.owner.browser, `/trade/invoices/view/${invoice.id}`));
    expectInert(await page(company.owner.browser, "/trade/invoices"));
  });

  it("in an enquiry, in the email to staff", async () => {
    const guest = new TestBrowser(shop.app, "198.51.100.202");
    await guest.csrf();
    const res = await guest.post("/api/enquiries", { type: "contact", name: "Eve", email: "eve@example.com", message: `Hello ${PAYLOAD} there` });
    expect(res.statusCode, res.body).toBe(201);
    const [mail] = await shop.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, shop.config.shopEmail)).orderBy(desc(mailOutbox.id)).limit(1);
    expect(mail).toBeDefined();
    expectInert(mail!.html);
  });
});
