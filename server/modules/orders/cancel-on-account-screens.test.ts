// Cancelling an order on account over HTTP, as the API and the order's screen
// (a browser without scripts) do it: an order placed at checkout on account,
// cancelled by sales; its invoice is credited in full and the answer, or the
// banner, names the credit note. The rules are proven at service level in
// cancel-on-account.test.ts.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import type { TestBrowser } from "../../test/browser.ts";
import { staffBrowser } from "../../test/staff-browsers.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { products } from "../catalog/schema.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { tradeCreditNotes } from "../trade/credit/ledger-schema.ts";
import { tradeFixtures } from "../trade/test-fixtures.ts";
import { orders } from "./schema.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let sales: TestBrowser;
const fx = tradeFixtures(shop);

beforeAll(async () => {
  sales = await staffBrowser(shop().app, "198.51.109.1", DEMO_STAFF.find((m) => m.role === "sales")!.email);
}, 240_000);

/** An order on account placed at checkout by a new company's buyer: processing, invoiced. */
async function placeOnAccount(): Promise<string> {
  const company = await fx.company();
  const [p] = await shop().database.db.select({ id: products.id }).from(products).where(sql`${products.status} = 'published' and ${products.stock} >= 2`).orderBy(products.id).limit(1);
  expect((await company.buyer.browser.post("/api/basket", { product_id: p!.id, quantity: 2 })).statusCode).toBe(200);
  const placed = await company.buyer.browser.post("/api/checkout", {
    email: company.buyer.email,
    phone: "07700 900555",
    delivery_method: "standard",
    delivery_address: { name: "Bea Buyer", line_1: "1 Park Row", town: "Leeds", postcode: "LS1 4AP" },
    payment_method: "pay_on_account",
  });
  expect(placed.statusCode, placed.body).toBe(201);
  return placed.json().order_number as string;
}

const invoiceOf = async (number: string) => (await shop().database.db.select().from(tradeInvoices).innerJoin(orders, eq(orders.id, tradeInvoices.orderId)).where(eq(orders.number, number)))[0]!;
const creditNotesOf = (invoiceId: number) => shop().database.db.select().from(tradeCreditNotes).where(eq(tradeCreditNotes.invoiceId, invoiceId));
const text = (html: string) => html.replaceAll("<!-- -->", "");

describe("cancelling an order on account over HTTP", () => {
  it("through the API: its invoice credited in full, the credit note in the answer", async () => {
    const number = await placeOnAccount();
    const res = await sales.post(`/api/admin/orders/${number}/transitions`, { to: "cancelled", note: "Ordered twice", expected_status: "processing" });
    expect(res.statusCode, res.body).toBe(200);
    const invoice = await invoiceOf(number);
    const notes = await creditNotesOf(invoice.trade_invoices.id);
    expect(notes.map((n) => [n.total, n.reason])).toEqual([[invoice.orders.total, `Order ${number} cancelled: Ordered twice`]]);
    expect(res.json()).toMatchObject({ status: "cancelled", credit_note: notes[0]!.number });
    expect(invoice.trade_invoices).toMatchObject({ creditedAmount: invoice.orders.total, status: "paid" });
    expect(await databaseInvariantViolations(shop().database.db)).toEqual([]);
  });

  it("on the order's screen: the cancel says the invoice is credited, and the banner names the credit note", async () => {
    const number = await placeOnAccount();
    const url = `/admin/orders/${number}`;
    const page = await sales.get(url);
    expect(page.statusCode).toBe(200);
    expect(text(page.body)).toContain("Cancel order");
    expect(text(page.body)).toContain("Invoiced on account: its invoice is credited in full with a credit note");
    const done = await sales.request("POST", url, new URLSearchParams([["intent", "transition"], ["to", "cancelled"], ["expected_status", "processing"], ["note", "Customer rang"]]).toString(), {
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    });
    expect(done.statusCode).toBe(200);
    const [note] = await creditNotesOf((await invoiceOf(number)).trade_invoices.id);
    expect(text(done.body)).toContain(`Order ${number} is now cancelled. The customer has been emailed. Its invoice is credited in full with credit note ${note!.number}`);
    expect(await databaseInvariantViolations(shop().database.db)).toEqual([]);
  });
});
