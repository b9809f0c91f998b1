// Pay on account (issue 7): who is offered it, each refusal, the invoice made
// with the order, and the credit limit held by the database under concurrency.
// The concurrency case proves something only on PostgreSQL:
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/trade/credit/on-account.test.ts
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client.ts";
import { testShopForFile } from "../../../test/app.ts";
import { TestBrowser } from "../../../test/browser.ts";
import { tableOutbox } from "../../../test/outbox.ts";
import { users } from "../../auth/schema.ts";
import { products } from "../../catalog/schema.ts";
import { mailOutbox } from "../../mail/schema.ts";
import { orders } from "../../orders/schema.ts";
import { ON_ACCOUNT } from "./credit.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { type TradeRole, tradeAccounts, tradeMembers } from "../schema.ts";
import { type TradeService, createTradeService } from "../service.ts";

const shop = testShopForFile();
let trade: TradeService;
let db: Db;
beforeAll(async () => {
  db = shop().database.db;
  const mail = tableOutbox;
  trade = createTradeService(db, { mail, appName: "Tradecounter", publicUrl: "http://shop.test", shopEmail: shop().config.shopEmail });
});

let n = 0;
async function signedUp() {
  n += 1;
  const browser = new TestBrowser(shop().app, `198.51.${Math.floor(n / 250)}.${n % 250}`);
  const email = `on-account.${n}.${Date.now()}@example.co.uk`;
  await browser.csrf();
  const res = await browser.register("Dana", "Fitter", email);
  expect(res.statusCode).toBe(201);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { browser, email, userId: user!.id };
}

const application = {
  company_name: "Fitter & Sons",
  company_type: "sole_trader",
  trade: "Plumber",
  line1: "1 Park Row",
  town: "Leeds",
  postcode: "LS1 4AP",
  phone: "0113 496 0123",
  accounts_email: "accounts@fitter.example.com",
  expected_monthly_spend: 2500,
  requested_credit_limit: 5000,
};

/** An owner with an approved account (no discount, so prices are plain). */
async function approvedOwner(creditLimit = 500, termsDays = 30) {
  const owner = await signedUp();
  const res = await owner.browser.post("/api/trade/setup", application);
  expect(res.statusCode).toBe(201);
  const accountId = res.json().data.id as number;
  await trade.decide(owner.email, "approve", { creditLimit, termsDays, discountPercent: 0 });
  return { ...owner, accountId };
}

/** Another user in the same company with a role (invitations are another piece of work). */
async function memberOf(accountId: number, role: TradeRole) {
  const member = await signedUp();
  await db.insert(tradeMembers).values({ tradeAccountId: accountId, userId: member.userId, role });
  await db.update(users).set({ tradeAccountId: accountId }).where(eq(users.id, member.userId));
  return member;
}

let offset = 100;
/** A product at £100.00 ex VAT, 20% VAT: £120.00 a unit. */
async function product(stock = 100) {
  offset += 1;
  const [p] = await db
    .update(products)
    .set({ stock, heavy: false, pricePence: 10_000, vatRate: 20 })
    .where(eq(products.id, sql`(select id from products order by id offset ${offset} limit 1)`))
    .returning({ id: products.id });
  return p!.id;
}

const onAccount = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  phone: "0113 496 0123",
  delivery_method: "collect", collector_name: "Test Collector",
  payment_method: "pay_on_account",
  ...extra,
});

async function paymentOptions(b: TestBrowser) {
  const res = await b.get("/api/checkout/delivery-options");
  expect(res.statusCode).toBe(200);
  return res.json().data.payment as { id: string; available_credit?: number; credit_limit?: number; po_required?: boolean }[];
}
const offered = async (b: TestBrowser) => (await paymentOptions(b)).find((p) => p.id === "pay_on_account") ?? null;

async function londonToday(): Promise<string> {
  const rows = (await db.execute(sql`select ((now() at time zone 'Europe/London')::date)::text as today`)) as unknown as { rows?: { today: string }[] } & { today: string }[];
  return (rows.rows ?? rows)[0]!.today;
}
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function overdueInvoice(accountId: number, status: "unpaid" | "paid" = "unpaid") {
  const b = await signedUp();
  const [order] = await db
    .insert(orders)
    .values({ number: `TC-OLD-${n}`, userId: b.userId, email: b.email, status: "completed", deliveryMethod: "collect", deliveryName: "Click & collect", subtotal: 1000, vat: 200, delivery: 0, total: 1200, paymentMethod: "pay_on_account" })
    .returning({ id: orders.id });
  await db.insert(tradeInvoices).values({
    number: `INV-OLD-${n}`,
    tradeAccountId: accountId,
    orderId: order!.id,
    invoiceDate: sql`(now() at time zone 'Europe/London')::date - 40`,
    dueDate: sql`(now() at time zone 'Europe/London')::date - 10`,
    subtotal: 1000,
    vat: 200,
    delivery: 0,
    total: 1200,
    status,
  });
}

describe("offering pay on account", () => {
  it("is offered to owners, admins and buyers of an approved account, with the available credit", async () => {
    const owner = await approvedOwner(500);
    const option = await offered(owner.browser);
    expect(option).toMatchObject({ id: "pay_on_account", name: "Pay on account", available_credit: 500, credit_limit: 500, po_required: false });
    expect(await offered((await memberOf(owner.accountId, "admin")).browser)).not.toBeNull();
    expect(await offered((await memberOf(owner.accountId, "buyer")).browser)).not.toBeNull();
  });

  it("is not offered to guests, consumers, the accounts role, or pending, declined and suspended accounts", async () => {
    const guest = new TestBrowser(shop().app, "198.51.200.1");
    expect((await paymentOptions(guest)).map((p) => p.id)).toEqual(["bank_transfer", "pay_on_collection", "card"]);
    expect(await offered((await signedUp()).browser)).toBeNull();

    const owner = await approvedOwner();
    expect(await offered((await memberOf(owner.accountId, "accounts")).browser)).toBeNull();

    const pending = await signedUp();
    await pending.browser.post("/api/trade/setup", application);
    expect(await offered(pending.browser)).toBeNull();
    const declined = await signedUp();
    await declined.browser.post("/api/trade/setup", application);
    await trade.decide(declined.email, "decline");
    expect(await offered(declined.browser)).toBeNull();

    await trade.decide(owner.email, "suspend");
    expect(await offered(owner.browser)).toBeNull();
  });

  it("is withdrawn while an invoice is overdue, and back once it is paid", async () => {
    const owner = await approvedOwner();
    await overdueInvoice(owner.accountId, "paid");
    expect(await offered(owner.browser)).not.toBeNull();
    await overdueInvoice(owner.accountId, "unpaid");
    expect(await offered(owner.browser)).toBeNull();
    await owner.browser.post("/api/basket", { product_id: await product(), quantity: 1 });
    const refused = await owner.browser.post("/api/checkout", onAccount(owner.email));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ payment_method: [ON_ACCOUNT.overdue] });
    await db.update(tradeInvoices).set({ status: "paid" }).where(eq(tradeInvoices.tradeAccountId, owner.accountId));
    expect(await offered(owner.browser)).not.toBeNull();
  });
});

describe("placing an order on account", () => {
  it("makes the order and its invoice together: readable number, due date after the terms, balance raised", async () => {
    const owner = await approvedOwner(500, 30);
    const buyer = await memberOf(owner.accountId, "buyer");
    await buyer.browser.post("/api/basket", { product_id: await product(), quantity: 2 });
    const res = await buyer.browser.post("/api/checkout", onAccount(buyer.email, { po_reference: "PO-1234", expected_total: 240 }));
    expect(res.statusCode).toBe(201);
    const placed = res.json();
    expect(placed.total).toBe(240);
    const [invoice] = await db.select().from(tradeInvoices).where(eq(tradeInvoices.orderId, placed.order_id));
    const today = await londonToday();
    expect(invoice).toMatchObject({
      tradeAccountId: owner.accountId,
      invoiceDate: today,
      dueDate: addDays(today, 30),
      subtotal: 20_000,
      vat: 4_000,
      delivery: 0,
      total: 24_000,
      poReference: "PO-1234",
      status: "unpaid",
    });
    expect(invoice!.number).toBe(`INV-${String(invoice!.id).padStart(6, "0")}`);
    const [order] = await db.select().from(orders).where(eq(orders.id, placed.order_id));
    expect(order).toMatchObject({ status: "processing", paymentMethod: "pay_on_account", poReference: "PO-1234" });
    const [account] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.id, owner.accountId));
    expect(account!.balance).toBe(24_000);
    expect(await offered(owner.browser)).toMatchObject({ available_credit: 260, credit_limit: 500 });
    const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.subject, `Your order ${placed.order_number}`));
    expect(mail!.text).toContain(`We invoice this order (${placed.order_number}) to your trade account`);

    // A second order gets the next number.
    await owner.browser.post("/api/basket", { product_id: await product(), quantity: 1 });
    const second = await owner.browser.post("/api/checkout", onAccount(owner.email));
    expect(second.statusCode).toBe(201);
    const [next] = await db.select().from(tradeInvoices).where(eq(tradeInvoices.orderId, second.json().order_id));
    expect(next!.id).toBeGreaterThan(invoice!.id);
    expect(next!.number).toMatch(/^INV-\d{6}$/);
  });

  it("refuses an order over the available credit, and keeps the basket and the stock", async () => {
    const owner = await approvedOwner(300);
    const id = await product(10);
    await owner.browser.post("/api/basket", { product_id: id, quantity: 3 });
    const res = await owner.browser.post("/api/checkout", onAccount(owner.email));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      payment_method: ["This order (£360.00) is more than your available credit (£300.00). Choose another way to pay, or pay an invoice first."],
    });
    const [p] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, id));
    expect(p!.stock).toBe(10);
    expect((await owner.browser.get("/api/basket")).json().cart.items).toHaveLength(1);
    const [account] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.id, owner.accountId));
    expect(account!.balance).toBe(0);
    expect(await db.select().from(tradeInvoices).where(eq(tradeInvoices.tradeAccountId, owner.accountId))).toEqual([]);
  });

  it("asks for a purchase-order reference when the account requires one", async () => {
    const owner = await approvedOwner();
    await db.update(tradeAccounts).set({ poRequired: true }).where(eq(tradeAccounts.id, owner.accountId));
    expect(await offered(owner.browser)).toMatchObject({ po_required: true });
    await owner.browser.post("/api/basket", { product_id: await product(), quantity: 1 });
    const refused = await owner.browser.post("/api/checkout", onAccount(owner.email, { po_reference: "  " }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ po_reference: [ON_ACCOUNT.poRequired] });
    expect((await owner.browser.post("/api/checkout", onAccount(owner.email, { po_reference: "PO-9" }))).statusCode).toBe(201);
  });

  it("refuses, with a message each, guests, the accounts role, pending and suspended accounts", async () => {
    const cases: [TestBrowser, string, string][] = [];
    const guest = new TestBrowser(shop().app, "198.51.200.2");
    await guest.csrf();
    cases.push([guest, "guest@example.co.uk", ON_ACCOUNT.signIn]);
    const owner = await approvedOwner();
    const accounts = await memberOf(owner.accountId, "accounts");
    cases.push([accounts.browser, accounts.email, ON_ACCOUNT.noRight]);
    const consumer = await signedUp();
    cases.push([consumer.browser, consumer.email, ON_ACCOUNT.noRight]);
    const pending = await signedUp();
    await pending.browser.post("/api/trade/setup", application);
    cases.push([pending.browser, pending.email, ON_ACCOUNT.pending]);
    const suspended = await approvedOwner();
    await trade.decide(suspended.email, "suspend");
    cases.push([suspended.browser, suspended.email, ON_ACCOUNT.suspended]);
    for (const [browser, email, message] of cases) {
      await browser.post("/api/basket", { product_id: await product(), quantity: 1 });
      const res = await browser.post("/api/checkout", onAccount(email));
      expect(res.statusCode, message).toBe(422);
      expect(res.json().errors).toEqual({ payment_method: [message] });
    }
  });
});

describe("the credit limit under concurrency", () => {
  it("lets only the orders that fit through when many are placed at once", async () => {
    // £500 limit, £120 orders: four fit (£480), the rest are refused.
    const owner = await approvedOwner(500);
    const buyers = await Promise.all(Array.from({ length: 10 }, () => memberOf(owner.accountId, "buyer")));
    const id = await product(100);
    for (const b of buyers) await b.browser.post("/api/basket", { product_id: id, quantity: 1 });
    const results = await Promise.all(buyers.map((b) => b.browser.post("/api/checkout", onAccount(b.email))));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(4);
    expect(codes.filter((c) => c === 422)).toHaveLength(6);
    const [account] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.id, owner.accountId));
    expect(account!.balance).toBe(48_000);
    expect(account!.balance).toBeLessThanOrEqual(account!.creditLimit);
    const invoices = await db.select().from(tradeInvoices).where(eq(tradeInvoices.tradeAccountId, owner.accountId));
    expect(invoices).toHaveLength(4);
    expect(invoices.reduce((s, i) => s + i.total, 0)).toBe(account!.balance);
    const [p] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, id));
    expect(p!.stock).toBe(96);
  });
});
