// Quotes end to end through the API (issue 32): a trade buyer asks from the
// basket, staff price it (never below the floor without a manager) and send
// it with its PDF, the buyer asks for changes, then accepts it into an order
// at exactly the quoted prices on account, once. Two acceptances at once make
// one order: on PostgreSQL too (npm run test:db).
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF, DEMO_TRADE } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { readPdf } from "../../test/pdf.ts";
import { oneVariantProduct } from "../../test/products.ts";
import { auditLog } from "../audit/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { addDays, londonDate } from "../hire/calendar.ts";
import { mailOutbox as outbox } from "../mail/schema.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { outboxOn } from "../trade/credit/ledger-fixtures.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { tradeSites } from "../trade/accounts/sites-schema.ts";
import { sweepQuotes } from "./jobs.ts";
import { quotes } from "./schema.ts";

const PASSWORD = "demo-password-2026";
const shop = testShopForFile();
let ip = 1;
const staff = {} as Record<"manager" | "sales" | "warehouse", TestBrowser>;

async function signedIn(email: string) {
  const b = new TestBrowser(shop().app, `198.51.130.${ip++ % 250}`);
  await b.csrf();
  await b.signIn(email, PASSWORD);
  return b;
}

let offset = 0;
/** A one-variant product with this stock at this list price (pence ex VAT, 20% VAT). */
const product = (stock: number, pricePence: number) => oneVariantProduct(shop().database.db, ++offset, stock, pricePence);

/** A quote asked for from this browser's basket. */
async function requestQuote(b: TestBrowser, lines: { id: number; quantity: number }[], body: Record<string, unknown> = {}) {
  for (const l of lines) expect((await b.post("/api/basket", { product_id: l.id, quantity: l.quantity })).statusCode).toBe(200);
  const res = await b.post("/api/quotes", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.number as string;
}

const collect = { delivery_method: "collect", collector_name: "Test Collector", payment_method: "pay_on_account", po_reference: "EXT-42" };

beforeAll(async () => {
  for (const role of ["manager", "sales", "warehouse"] as const) {
    staff[role] = new TestBrowser(shop().app, `198.51.131.${ip++}`);
    await staff[role].staffSignIn(DEMO_STAFF.find((s) => s.role === role)!.email, PASSWORD);
  }
  // The demo company's seeded invoices are paid up, so it may buy on account here.
  await shop().database.db.update(tradeInvoices).set({ status: "paid" });
  await shop().database.db.update(tradeAccounts).set({ onHold: false, holdReason: "", balance: 0 });
  // Its sites are archived: orders on account here name none (trade/accounts/sites.test.ts covers them, quotes' included).
  await shop().database.db.update(tradeSites).set({ archivedAt: new Date() });
});

describe("asking for a quote", () => {
  it("takes the basket's lines at the buyer's trade price, empties the basket, and tells the buyer and the shop", async () => {
    const a = await product(100, 2000);
    const owner = await signedIn(DEMO_TRADE.email);
    const number = await requestQuote(owner, [{ id: a.id, quantity: 40 }], { notes: "Extension at 4 Mill Lane", needed_by: addDays(londonDate(), 10) });
    expect(number).toMatch(/^Q-\d{6}$/);
    expect((await owner.get("/api/basket")).json().cart.items).toEqual([]);

    const quote = (await owner.get(`/api/quotes/${number}`)).json().data;
    // Still being priced: the lines, no figures yet.
    expect(quote).toMatchObject({ status: "requested", priced: false, total: null, notes: "Extension at 4 Mill Lane", company: { name: expect.any(String) }, can: { accept: false } });
    expect(quote.lines).toMatchObject([{ sku: a.sku, quantity: 40, unit_price_ex_vat: null, base_price_ex_vat: 18 }]);
    const mail = await shop().database.db.select({ to: outbox.to, subject: outbox.subject }).from(outbox).where(sql`${outbox.subject} like ${`%${number}%`}`);
    expect(mail.map((m) => m.to)).toEqual(expect.arrayContaining([DEMO_TRADE.email, shop().config.shopEmail]));
  });

  it("refuses a guest, an empty basket and a date needed by in the past", async () => {
    const g = new TestBrowser(shop().app, "198.51.132.1");
    await g.csrf();
    expect((await g.post("/api/quotes", {})).statusCode).toBe(401);
    const c = await signedIn("customer@example.com");
    const empty = await c.post("/api/quotes", {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.basket[0]).toMatch(/basket is empty/);
    const a = await product(10, 500);
    await c.post("/api/basket", { product_id: a.id, quantity: 1 });
    const past = await c.post("/api/quotes", { needed_by: "2020-01-01" });
    expect(past.json().errors.needed_by).toEqual(["The date you need the goods by cannot be in the past."]);
  });
});

describe("pricing and sending", () => {
  it("lets sales price down to the floor and a manager below it; a sent quote keeps each revision and mails its PDF", async () => {
    const a = await product(100, 1000);
    const b = await product(100, 3000);
    const owner = await signedIn(DEMO_TRADE.email);
    const number = await requestQuote(owner, [{ id: a.id, quantity: 10 }]);
    const desk = (await staff.sales.get(`/api/admin/quotes/${number}`)).json().data;
    // The trade price is £9.00; sales may go 15% below it: £7.65.
    expect(desk.lines[0]).toMatchObject({ unit_price_ex_vat: 9, base_price_ex_vat: 9, floor_ex_vat: 7.65 });
    const line = desk.lines[0].id as number;

    const below = await staff.sales.patch(`/api/admin/quotes/${number}`, { lines: [{ line_id: line, unit_price_ex_vat: 7 }] });
    expect(below.statusCode).toBe(403);
    expect(below.json().message).toMatch(/needs a manager/);
    const atFloor = await staff.sales.patch(`/api/admin/quotes/${number}`, { lines: [{ line_id: line, discount_percent: 15 }], add_lines: [{ sku: b.sku, quantity: 2 }], delivery_ex_vat: 25, terms: "Delivery to site, kerbside." });
    expect(atFloor.statusCode, atFloor.body).toBe(200);
    expect(atFloor.json().data).toMatchObject({ status: "drafting", delivery_ex_vat: 25, delivery: 30 });
    expect(atFloor.json().data.lines.map((l: { unit_price_ex_vat: number }) => l.unit_price_ex_vat)).toEqual([7.65, 27]);
    expect((await staff.manager.get(`/api/admin/quotes/${number}`)).json().data.lines[0].floor_ex_vat).toBeNull();
    const managed = await staff.manager.patch(`/api/admin/quotes/${number}`, { lines: [{ line_id: line, unit_price_ex_vat: 7 }] });
    expect(managed.statusCode, managed.body).toBe(200);
    // 10 × £7.00 + 2 × £27.00 = £124.00, VAT £24.80, delivery £30.00 inc VAT.
    expect(managed.json().data).toMatchObject({ subtotal: 124, vat: 24.8, total: 178.8 });
    const unknown = await staff.manager.patch(`/api/admin/quotes/${number}`, { add_lines: [{ sku: "NO-SUCH-SKU", quantity: 1 }] });
    expect(unknown.json().errors["add_lines.0.sku"]).toEqual(["No product has the SKU NO-SUCH-SKU."]);
    expect((await staff.warehouse.get(`/api/admin/quotes/${number}`)).statusCode).toBe(403);

    const sent = await staff.sales.post(`/api/admin/quotes/${number}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ status: "sent", revision: 1, valid_until: addDays(londonDate(), 30), revisions: [{ revision: 1 }] });
    const [mail] = await shop().database.db.select().from(outbox).where(eq(outbox.subject, `Your quote ${number}`));
    expect(mail!.to).toBe(DEMO_TRADE.email);
    expect(mail!.text).toContain(`/account/quotes/${number}`);

    // The customer reads the figures and the PDF now.
    const seen = (await owner.get(`/api/quotes/${number}`)).json().data;
    expect(seen).toMatchObject({ status: "sent", priced: true, total: 178.8, can: { accept: true, changes: true, decline: true } });
    const pdf = await owner.get(`/api/quotes/${number}/pdf`);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const { text } = await readPdf(pdf.rawPayload);
    expect(text).toContain(number);
    expect(text).toMatch(/£178\.80/);
    expect(text).toContain("Delivery to site, kerbside.");

    // Asking for changes makes revision 2; the sent one is kept.
    const changes = await owner.post(`/api/quotes/${number}/changes`, { message: "Can you do 20 of the first line?" });
    expect(changes.json().data).toMatchObject({ status: "requested", revision: 2, priced: false });
    await staff.sales.patch(`/api/admin/quotes/${number}`, { lines: [{ line_id: line, quantity: 20 }] });
    const resent = (await staff.sales.post(`/api/admin/quotes/${number}/send`)).json().data;
    expect(resent.revisions.map((r: { revision: number }) => r.revision)).toEqual([1, 2]);
    expect((await owner.get(`/api/quotes/${number}/pdf?revision=1`)).statusCode).toBe(200);
    const audit = await shop().database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, number));
    expect(audit.map((x) => x.action)).toEqual(expect.arrayContaining(["quote.updated", "quote.sent"]));
  });
});

/** A sent quote for the demo trade owner: `quantity` of a fresh product at `price` pence ex VAT. */
async function sentQuote(quantity: number, price: number) {
  const a = await product(100, 2000);
  const owner = await signedIn(DEMO_TRADE.email);
  const number = await requestQuote(owner, [{ id: a.id, quantity }]);
  const line = (await staff.manager.get(`/api/admin/quotes/${number}`)).json().data.lines[0].id as number;
  expect((await staff.manager.patch(`/api/admin/quotes/${number}`, { lines: [{ line_id: line, unit_price_ex_vat: price / 100 }], delivery_ex_vat: 0 })).statusCode).toBe(200);
  expect((await staff.manager.post(`/api/admin/quotes/${number}/send`)).statusCode).toBe(200);
  return { number, owner, product: a };
}

describe("accepting", () => {
  it("makes an order at exactly the quoted prices after the list price changed, on account, once", async () => {
    const { number, owner, product: a } = await sentQuote(12, 1250);
    // The list price goes up after the quote was sent.
    await shop().database.db.update(productVariants).set({ pricePence: 9999 }).where(eq(productVariants.productId, a.id));

    const accepted = await owner.request("POST", `/api/quotes/${number}/accept`, collect, { headers: { "idempotency-key": "accept-once-12345" } });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const order = accepted.json();
    expect(order.order_number).toMatch(/^TC-/);
    // 12 × £12.50 = £150.00 + 20% VAT.
    expect(order.total).toBe(180);
    const [line] = await shop().database.db.select().from(orderLines).where(eq(orderLines.orderId, order.order_id));
    expect(line).toMatchObject({ unitPrice: 1250, quantity: 12, lineTotal: 15000, lineVat: 3000, discount: 0 });
    const [placed] = await shop().database.db.select({ status: orders.status, paymentMethod: orders.paymentMethod, poReference: orders.poReference }).from(orders).where(eq(orders.id, order.order_id));
    expect(placed).toMatchObject({ status: "processing", paymentMethod: "pay_on_account", poReference: "EXT-42" });

    // A retry with the key is the same order; another acceptance is refused.
    const retried = await owner.request("POST", `/api/quotes/${number}/accept`, collect, { headers: { "idempotency-key": "accept-once-12345" } });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().order_id).toBe(order.order_id);
    const again = await owner.post(`/api/quotes/${number}/accept`, collect);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`This quote has already been accepted: it is order ${order.order_number}.`);
    expect((await owner.get(`/api/quotes/${number}`)).json().data).toMatchObject({ status: "accepted", order: { number: order.order_number }, can: { accept: false } });
    expect((await staff.manager.patch(`/api/admin/quotes/${number}`, { terms: "x" })).statusCode).toBe(409);
  });

  it("two acceptances at once make one order and one refusal", async () => {
    const { number, owner } = await sentQuote(3, 1000);
    const colleague = await signedIn("admin@example.com");
    const answers = await Promise.all([owner.post(`/api/quotes/${number}/accept`, collect), colleague.post(`/api/quotes/${number}/accept`, collect)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const [row] = await shop().database.db.select({ orderId: quotes.orderId }).from(quotes).where(eq(quotes.number, number));
    const made = await shop().database.db.select({ id: orders.id }).from(orders).where(sql`${orders.id} in (select order_id from order_status_history where note like ${`%${number}%`})`);
    expect(made.map((o) => o.id)).toEqual([row!.orderId]);
  });

  it("goes through checkout's guards: stock, and the credit limit", async () => {
    const short = await sentQuote(5, 1000);
    // Stock sold elsewhere after the quote was sent.
    await shop().database.db.update(products).set({ stock: 2 }).where(eq(products.id, short.product.id));
    const refused = await short.owner.post(`/api/quotes/${short.number}/accept`, collect);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.items[0]).toMatch(/only 2 left/);
    const big = await sentQuote(90, 20000);
    const overLimit = await big.owner.post(`/api/quotes/${big.number}/accept`, collect);
    expect(overLimit.statusCode).toBe(422);
    expect(overLimit.json().errors.payment_method[0]).toMatch(/more than your available credit/);
    expect((await big.owner.get(`/api/quotes/${big.number}`)).json().data.status).toBe("sent");
  });

  it("lets the company's owners and admins act, accounts users read, and hides it from a buyer who did not ask and from strangers", async () => {
    const { number } = await sentQuote(1, 1000);
    const accounts = await signedIn("accounts@example.com");
    expect((await accounts.get(`/api/quotes/${number}`)).json().data.can).toEqual({ accept: false, decline: false, changes: false });
    expect((await accounts.post(`/api/quotes/${number}/accept`, collect)).statusCode).toBe(403);
    for (const email of ["buyer@example.com", "customer@example.com"]) {
      const other = await signedIn(email);
      expect((await other.get(`/api/quotes/${number}`)).statusCode).toBe(404);
      expect((await other.post(`/api/quotes/${number}/accept`, collect)).statusCode).toBe(404);
      expect((await other.get("/api/quotes")).json().data.map((q: { number: string }) => q.number)).not.toContain(number);
    }
    expect((await accounts.get("/api/quotes")).json().data.map((q: { number: string }) => q.number)).toContain(number);
  });

  it("reopens the quote when its card order goes unpaid", async () => {
    const { number, owner } = await sentQuote(1, 1000);
    const accepted = await owner.post(`/api/quotes/${number}/accept`, { ...collect, payment_method: "bank_transfer" });
    expect(accepted.statusCode, accepted.body).toBe(201);
    // As a card order whose payment page expired: cancelled from awaiting payment.
    const id = accepted.json().order_id as number;
    await shop().database.db.update(orders).set({ paymentMethod: "card" }).where(eq(orders.id, id));
    await shop().database.db.update(orders).set({ status: "cancelled" }).where(eq(orders.id, id));
    const reopened = (await owner.get(`/api/quotes/${number}`)).json().data;
    expect(reopened).toMatchObject({ status: "sent", order: null, can: { accept: true } });
    expect(reopened.events.at(-1).note).toMatch(/open to accept again/);
  });
});

describe("expiry and reminders", () => {
  it("reminds once before the last day, refuses acceptance after it, and the daily job expires it", async () => {
    const { number, owner } = await sentQuote(1, 1000);
    const today = londonDate();
    await shop().database.db.update(quotes).set({ validUntil: addDays(today, 2) }).where(eq(quotes.number, number));
    const options = { mail: outboxOn(), appName: "Test", publicUrl: "http://shop.test", shopEmail: "shop@example.com" };
    expect((await sweepQuotes(shop().database.db, options, today)).reminded).toContain(number);
    expect((await sweepQuotes(shop().database.db, options, today)).reminded).not.toContain(number);

    await shop().database.db.update(quotes).set({ validUntil: addDays(today, -1) }).where(eq(quotes.number, number));
    const late = await owner.post(`/api/quotes/${number}/accept`, collect);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/expired/);
    expect((await sweepQuotes(shop().database.db, options, today)).expired).toContain(number);
    expect((await owner.get(`/api/quotes/${number}`)).json().data.status).toBe("expired");
    // Staff may revise an expired quote: the next revision, to send again.
    expect((await staff.sales.patch(`/api/admin/quotes/${number}`, { valid_until: addDays(today, 14) })).json().data).toMatchObject({ status: "drafting", revision: 2 });
  });

  it("lets staff start a quote for a customer and decline a request, telling the customer why", async () => {
    const a = await product(10, 1000);
    const made = await staff.sales.post("/api/admin/quotes", { customer_email: "CUSTOMER@example.com", lines: [{ sku: a.sku, quantity: 3 }] });
    expect(made.statusCode, made.body).toBe(201);
    // A consumer's own price is the list price.
    expect(made.json().data).toMatchObject({ status: "drafting", company: null, lines: [{ sku: a.sku, base_price_ex_vat: 10 }] });
    expect((await staff.sales.post("/api/admin/quotes", { customer_email: "nobody@example.com", lines: [{ sku: a.sku, quantity: 1 }] })).json().errors.customer_email[0]).toMatch(/No customer/);
    const number = made.json().data.number as string;
    const declined = await staff.sales.post(`/api/admin/quotes/${number}/decline`, { reason: "We no longer stock this range." });
    expect(declined.json().data.status).toBe("declined");
    const [mail] = await shop().database.db.select({ text: outbox.text }).from(outbox).where(eq(outbox.subject, `Your quote ${number}`));
    expect(mail!.text).toContain("We no longer stock this range.");
    expect((await staff.sales.get("/api/admin/quotes?status=declined")).json().data.map((q: { number: string }) => q.number)).toContain(number);
  });
});
