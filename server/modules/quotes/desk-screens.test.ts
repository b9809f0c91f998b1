// The quotes desk's screens over HTTP, as a browser without scripts uses them
// (the built storefront): the list by status with its New quote link for
// those who may price; a new quote refused beside its fields with nothing
// typed lost, then started; a trade buyer's request priced by sales, whose
// price below their floor is refused with the service's own words (what they
// typed kept), then priced by a discount with delivery and a last day, saved,
// sent with its PDF and listed as Sent; a request declined once a reason is
// given. Accounts read the quote without any form. The rules themselves are
// proven in quotes.test.ts.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF, DEMO_TRADE } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { htmlOf } from "../../test/page-text.ts";
import { oneVariantProduct } from "../../test/products.ts";
import { addDays, londonDate } from "../hire/calendar.ts";
import { mailOutbox } from "../mail/schema.ts";
import { quoteLines, quotes } from "./schema.ts";

const PASSWORD = "demo-password-2026";
const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let ip = 1;
const staff = {} as Record<"sales" | "accounts", TestBrowser>;

beforeAll(async () => {
  for (const role of ["sales", "accounts"] as const) {
    staff[role] = new TestBrowser(shop().app, `198.51.118.${ip++}`);
    await staff[role].staffSignIn(DEMO_STAFF.find((m) => m.role === role)!.email, PASSWORD);
  }
}, 240_000);

/** The demo trade owner asks for a quote of `quantity` of a product at £10.00 ex VAT (their trade price: £9.00). */
async function requested(quantity: number) {
  const product = await oneVariantProduct(shop().database.db, 3, 500, 1000);
  const owner = new TestBrowser(shop().app, `198.51.119.${ip++}`);
  await owner.signIn(DEMO_TRADE.email, PASSWORD);
  expect((await owner.post("/api/basket", { product_id: product.id, quantity })).statusCode).toBe(200);
  const res = await owner.post("/api/quotes", { notes: "For the Mill Lane job" });
  expect(res.statusCode, res.body).toBe(201);
  const number = res.json().data.number as string;
  const [line] = await shop().database.db.select({ id: quoteLines.id }).from(quoteLines).innerJoin(quotes, eq(quotes.id, quoteLines.quoteId)).where(eq(quotes.number, number));
  return { number, sku: product.sku, lineId: line!.id };
}

describe("the quotes desk's screens", () => {
  it("start a quote after a refused first try, keeping what was typed", async () => {
    const product = await oneVariantProduct(shop().database.db, 4, 50, 2000);
    const fields: [string, string][] = [
      ["customer_email", "no.such.customer@example.com"],
      ["lines", `${product.sku} 2\nNOT-A-SKU 1`],
      ["notes", "Phoned in"],
      ["needed_by", ""],
    ];
    const refused = await staff.sales.postForm("/admin/quotes/new", fields);
    expect(refused.statusCode).toBe(422);
    const page = htmlOf(refused.body);
    expect(page).toContain("Nothing was saved. Check the fields marked below.");
    expect(page).toContain("No customer has an account with this email.");
    expect(refused.body).toMatch(/id="new-quote-customer_email"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="new-quote-customer_email"/);
    expect(page).toContain('value="no.such.customer@example.com"');
    expect(page).toContain("NOT-A-SKU 1");

    // A line that is not a whole number is named by its line as typed.
    const badLine = await staff.sales.postForm("/admin/quotes/new", [["customer_email", "customer@example.com"], ["lines", `${product.sku} two`]]);
    expect(badLine.statusCode).toBe(422);
    expect(htmlOf(badLine.body)).toContain(`Line 1 (${product.sku}): the quantity “two” is not a whole number.`);
    const unknown = await staff.sales.postForm("/admin/quotes/new", [["customer_email", "customer@example.com"], ["lines", `${product.sku} 2\nNOT-A-SKU 1`]]);
    expect(htmlOf(unknown.body)).toContain("Line 2 (NOT-A-SKU): No product has the SKU NOT-A-SKU.");

    const made = await staff.sales.postForm("/admin/quotes/new", [["customer_email", "customer@example.com"], ["lines", `${product.sku} 2`], ["notes", "Phoned in"], ["needed_by", addDays(londonDate(), 7)]]);
    expect(made.statusCode, htmlOf(made.body).slice(0, 400)).toBe(302);
    const number = /\/admin\/quotes\/(Q-\d+)\?created=1$/.exec(String(made.headers.location))![1]!;
    const [row] = await shop().database.db.select().from(quotes).where(eq(quotes.number, number));
    expect(row).toMatchObject({ status: "drafting", notes: "Phoned in", neededBy: addDays(londonDate(), 7) });
    expect(htmlOf((await staff.sales.get(`/admin/quotes/${number}?created=1`)).body)).toContain("Started: drafting, at the customer's own prices.");
    expect(htmlOf((await staff.sales.get("/admin/quotes?status=drafting")).body)).toContain(`href="/admin/quotes/${number}"`);
  });

  it("price a request down to the floor for sales, save, send and list it as Sent; accounts only read", async () => {
    const { number, sku, lineId } = await requested(10);
    const url = `/admin/quotes/${number}`;

    // The list: under Requested (the first tab), with the New quote link for sales and not for accounts.
    const list = htmlOf((await staff.sales.get("/admin/quotes")).body);
    expect(list).toContain(`href="${url}"`);
    expect(list).toContain("New quote");
    expect(htmlOf((await staff.accounts.get("/admin/quotes")).body)).not.toContain("New quote");
    expect(htmlOf((await staff.sales.get("/admin/quotes?status=expired")).body)).toContain("No expired quotes");

    // The page: the customer, their notes, each line's fields by name, the floor for sales.
    const page = htmlOf((await staff.sales.get(url)).body);
    expect(page).toContain(DEMO_TRADE.email);
    expect(page).toContain("For the Mill Lane job");
    expect(page).toContain(`aria-label="Unit price for ${sku} (£ ex VAT)"`);
    expect(page).toContain("Lowest you may quote: £7.65");
    expect(page).toContain(">Send to customer<");

    const line = (price: string, discount = ""): [string, string][] => [
      ["line", String(lineId)],
      [`line_${lineId}_was_quantity`, "10"],
      [`line_${lineId}_was_price`, "9.00"],
      [`line_${lineId}_quantity`, "10"],
      [`line_${lineId}_price`, price],
      [`line_${lineId}_discount`, discount],
    ];
    const validUntil = addDays(londonDate(), 14);
    const rest: [string, string][] = [["intent", "save"], ["add_lines", ""], ["delivery_ex_vat", "25"], ["valid_until", validUntil], ["terms", "Kerbside delivery."]];

    // A line removed meanwhile (no such line): said at the top, as the field it belonged to is gone.
    const gone = await staff.sales.postForm(url, [["intent", "save"], ["line", "2147483"], ["line_2147483_was_quantity", "1"], ["line_2147483_quantity", "2"], ["line_2147483_was_price", "1.00"], ["line_2147483_price", "1.00"]]);
    expect(gone.statusCode).toBe(422);
    expect(htmlOf(gone.body)).toMatch(/role="alert"[^>]*>Nothing was saved\. Check the fields marked below\. This line is not on the quote \(it may have been removed meanwhile\): reload the quote\./);

    // Below the floor: the service's 403, said at the top; what was typed stays.
    const below = await staff.sales.postForm(url, [...line("7.00"), ...rest]);
    expect(below.statusCode).toBe(403);
    expect(htmlOf(below.body)).toContain(`More than 15% off the customer's price needs a manager: ${sku} at £7.00 (the lowest you may quote is £7.65).`);
    expect(below.body).toContain('value="7.00"');
    expect(below.body).toContain("Kerbside delivery.");
    const [unchanged] = await shop().database.db.select({ status: quotes.status }).from(quotes).where(eq(quotes.number, number));
    expect(unchanged!.status).toBe("requested");

    // A last day in the past: refused beside its field.
    const past = await staff.sales.postForm(url, [...line("9.00"), ...rest.map(([k, v]): [string, string] => [k, k === "valid_until" ? "2020-01-01" : v])]);
    expect(past.statusCode).toBe(422);
    expect(htmlOf(past.body)).toContain("The last day cannot be in the past.");

    // 10% off wins over the price typed: £8.10, delivery £25.00 ex VAT.
    const saved = await staff.sales.postForm(url, [...line("1.00", "10"), ...rest]);
    expect(saved.statusCode, htmlOf(saved.body).slice(0, 400)).toBe(200);
    expect(htmlOf(saved.body)).toContain("Saved: revision 1 drafting.");
    const [priced] = await shop().database.db.select({ unitPrice: quoteLines.unitPrice }).from(quoteLines).where(eq(quoteLines.id, lineId));
    expect(priced!.unitPrice).toBe(810);
    // 10 × £8.10 = £81.00 + VAT £16.20 + delivery £30.00 inc VAT = £127.20.
    expect(htmlOf(saved.body)).toContain("£127.20");

    // Accounts read it: no form, and a post of theirs is refused.
    const read = htmlOf((await staff.accounts.get(url)).body);
    expect(read).toContain("Your role may read quotes but not change them.");
    expect(read).not.toContain(">Save<");
    expect(read).not.toContain(">Send to customer<");
    expect((await staff.accounts.postForm(url, [["intent", "send"]])).statusCode).toBe(403);

    const sent = await staff.sales.postForm(url, [["intent", "send"]]);
    expect(sent.statusCode, htmlOf(sent.body).slice(0, 400)).toBe(200);
    expect(htmlOf(sent.body)).toContain(`Sent to ${DEMO_TRADE.email} with its PDF: revision 1`);
    expect(sent.body).toContain(`href="/api/admin/quotes/${number}/pdf?revision=1"`);
    const [mail] = await shop().database.db.select({ to: mailOutbox.to }).from(mailOutbox).where(eq(mailOutbox.subject, `Your quote ${number}`));
    expect(mail!.to).toBe(DEMO_TRADE.email);
    expect(htmlOf((await staff.sales.get("/admin/quotes?status=sent")).body)).toContain(`href="${url}"`);

    // Sent: no more sending; a second send is refused with the status's words.
    expect(htmlOf(sent.body)).not.toContain(">Send to customer<");
    const again = await staff.sales.postForm(url, [["intent", "send"]]);
    expect(again.statusCode).toBe(409);
    expect(htmlOf(again.body)).toContain("This quote is sent, so it cannot be sent.");
  });

  it("decline a request only with a reason, which the customer is told", async () => {
    const { number } = await requested(2);
    const url = `/admin/quotes/${number}`;
    const empty = await staff.sales.postForm(url, [["intent", "decline"], ["reason", "  "]]);
    expect(empty.statusCode).toBe(422);
    expect(htmlOf(empty.body)).toContain("Say why, for the customer.");
    expect(empty.body).toMatch(/id="decline-reason"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="decline-reason"/);

    const declined = await staff.sales.postForm(url, [["intent", "decline"], ["reason", "We no longer stock this range."]]);
    expect(declined.statusCode).toBe(200);
    const page = htmlOf(declined.body);
    expect(page).toContain("Declined. The customer has been emailed the reason.");
    expect(page).toContain("We no longer stock this range.");
    // Declined: read-only, nothing more to do.
    expect(page).toContain("This quote is declined: it can no longer be changed.");
    expect(page).not.toContain(">Save<");
    expect(htmlOf((await staff.sales.get("/admin/quotes?status=declined")).body)).toContain(`href="${url}"`);
  });
});
