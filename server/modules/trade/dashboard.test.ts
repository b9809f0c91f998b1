// The trade dashboard (issue 7): the figures, the company's orders (linked at
// checkout), unpaid invoices by due date, 12 months of spend, who sees what,
// and the demo trade data it is shown with.
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { DEMO_TRADE, DEMO_TRADE_USERS } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { users } from "../auth/schema.ts";
import { products } from "../catalog/schema.ts";
import { hireRequests } from "../hire/schema.ts";
import { orderLines, orders } from "../orders/schema.ts";
import type { TradeDashboardJson } from "./dashboard.ts";
import { tradeInvoices } from "./invoices/invoice-schema.ts";
import { payment } from "./credit/ledger-fixtures.ts";
import { isoDay } from "./test-fixtures.ts";
import { type TradeRole, tradeAccounts, tradeMembers } from "./schema.ts";

const shop = testShopForFile();
let db: Db;
beforeAll(async () => {
  db = shop().database.db;
});

let n = 0;
const ip = () => `198.51.${Math.floor(n / 250)}.${n % 250}`;

async function signedIn(email: string, password = DEMO_TRADE.password) {
  n += 1;
  const browser = new TestBrowser(shop().app, ip());
  await browser.csrf();
  expect((await browser.post("/api/auth/login", { email, password })).statusCode).toBe(200);
  return browser;
}

async function signedUp() {
  n += 1;
  const browser = new TestBrowser(shop().app, ip());
  const email = `dashboard.${n}.${Date.now()}@example.co.uk`;
  await browser.csrf();
  const res = await browser.register("Dana", `Fitter${n}`, email);
  expect(res.statusCode).toBe(201);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { browser, email, userId: user!.id };
}

/** A company of its own, approved with a £2,000 limit and 30 days, owned by a new user. */
async function company(state: "approved" | "pending" = "approved") {
  const owner = await signedUp();
  const [account] = await db
    .insert(tradeAccounts)
    .values({ companyName: `Fitters ${n}`, companyType: "sole_trader", trade: "Plumber", line1: "1 Park Row", town: "Leeds", postcode: "LS1 4AP", phone: "0113 496 0123", accountsEmail: "a@example.co.uk", expectedMonthlySpend: 0, requestedCreditLimit: 0, state, creditLimit: 200_000, termsDays: 30 })
    .returning({ id: tradeAccounts.id });
  await joinCompany(account!.id, owner.userId, "owner");
  return { owner, accountId: account!.id };
}

async function joinCompany(accountId: number, userId: number, role: TradeRole) {
  await db.insert(tradeMembers).values({ tradeAccountId: accountId, userId, role });
  await db.update(users).set({ tradeAccountId: accountId }).where(eq(users.id, userId));
}

async function memberOf(accountId: number, role: TradeRole) {
  const member = await signedUp();
  await joinCompany(accountId, member.userId, role);
  return member;
}

let seq = 0;
/** An order as checkout would have written it, placed `monthsAgo` months back (mid-month, London). */
async function orderFor(accountId: number | null, userId: number, total: number, opts: { monthsAgo?: number; status?: string } = {}) {
  seq += 1;
  const [order] = await db
    .insert(orders)
    .values({
      number: `TC-DASH-${seq}`,
      userId,
      email: "x@example.co.uk",
      status: opts.status ?? "completed",
      deliveryMethod: "collect",
      deliveryName: "Click & collect",
      subtotal: total,
      vat: 0,
      delivery: 0,
      total,
      paymentMethod: "bank_transfer",
      tradeAccountId: accountId,
      createdAt: sql`date_trunc('month', now() at time zone 'Europe/London') - ${opts.monthsAgo ?? 0} * interval '1 month' + interval '14 days 12 hours'`,
    })
    .returning({ id: orders.id });
  return order!.id;
}

async function invoiceFor(accountId: number, orderId: number, total: number, dueInDays: number, status: "unpaid" | "payment_pending" | "paid" = "unpaid") {
  seq += 1;
  const [inv] = await db
    .insert(tradeInvoices)
    .values({
      number: `INV-DASH-${seq}`,
      tradeAccountId: accountId,
      orderId,
      invoiceDate: sql`(now() at time zone 'Europe/London')::date + ${dueInDays - 30}::int`,
      dueDate: sql`(now() at time zone 'Europe/London')::date + ${dueInDays}::int`,
      subtotal: total,
      vat: 0,
      delivery: 0,
      total,
      status,
    })
    .returning({ id: tradeInvoices.id });
  await db.update(tradeAccounts).set({ balance: sql`${tradeAccounts.balance} + ${total}` }).where(eq(tradeAccounts.id, accountId));
  // A paid invoice was paid by a payment, so the ledger's sums hold (ADR 0040).
  if (status === "paid") await payment(db, accountId, isoDay(0), total, [{ invoiceId: inv!.id, amount: total }]);
  return inv!.id;
}

async function dashboard(browser: TestBrowser): Promise<TradeDashboardJson> {
  const res = await browser.get("/api/trade/dashboard");
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["cache-control"]).toBe("private, no-store");
  return res.json().data as TradeDashboardJson;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

describe("the demo trade data", () => {
  it("has the owner's colleagues, with the demo password", async () => {
    for (const u of DEMO_TRADE_USERS) {
      const d = await dashboard(await signedIn(u.email));
      expect(d).toMatchObject({ company_name: "Shah Building Services Ltd", role: u.role });
    }
  });

  it("keeps the balance equal to the unpaid invoices, totals equal to their lines, and has paid, unpaid and overdue invoices", async () => {
    const [account] = await db
      .select()
      .from(tradeAccounts)
      .where(eq(tradeAccounts.id, sql`(select m.trade_account_id from trade_members m join users u on u.id = m.user_id where u.email = ${DEMO_TRADE.email})`));
    expect(account).toMatchObject({ state: "approved", creditLimit: 1_000_000, termsDays: 30, discountBasisPoints: 1000 });
    const invoices = await db.select().from(tradeInvoices).where(eq(tradeInvoices.tradeAccountId, account!.id));
    const unpaid = invoices.filter((i) => i.status !== "paid");
    expect(account!.balance).toBe(unpaid.reduce((s, i) => s + i.total, 0));
    expect(account!.balance).toBeLessThan(account!.creditLimit);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date());
    expect(invoices.some((i) => i.status === "paid")).toBe(true);
    expect(unpaid.some((i) => i.dueDate >= today)).toBe(true);
    expect(unpaid.some((i) => i.dueDate < today)).toBe(true);
    for (const i of invoices) expect(i.number).toBe(`INV-${String(i.id).padStart(6, "0")}`);

    const companyOrders = await db.select().from(orders).where(eq(orders.tradeAccountId, account!.id));
    expect(companyOrders.length).toBeGreaterThanOrEqual(40);
    const lines = await db.select().from(orderLines).where(inArray(orderLines.orderId, companyOrders.map((o) => o.id)));
    for (const o of companyOrders) {
      expect(o.number).toBe(`TC-${String(o.id).padStart(6, "0")}`);
      const mine = lines.filter((l) => l.orderId === o.id);
      expect(mine.length).toBeGreaterThan(0);
      for (const l of mine) {
        expect(l.lineTotal).toBe(l.unitPrice * l.quantity);
        expect(l.lineVat).toBe(Math.floor((l.lineTotal * (100 + l.vatRate) + 50) / 100) - l.lineTotal);
      }
      expect(o.subtotal).toBe(mine.reduce((s, l) => s + l.lineTotal, 0));
      expect(o.vat).toBe(mine.reduce((s, l) => s + l.lineVat, 0));
      expect(o.total).toBe(o.subtotal + o.vat + o.delivery);
      const invoice = invoices.find((i) => i.orderId === o.id);
      if (invoice) expect(invoice).toMatchObject({ subtotal: o.subtotal, vat: o.vat, delivery: o.delivery, total: o.total, poReference: o.poReference });
      else expect(o.paymentMethod).not.toBe("pay_on_account");
    }
  });

  it("shows the demo owner a year of spend and every figure on the dashboard", async () => {
    const d = await dashboard(await signedIn(DEMO_TRADE.email));
    expect(d.scope).toBe("company");
    expect(d.credit!.limit).toBe(10_000);
    expect(d.credit!.available).toBeCloseTo(10_000 - d.credit!.balance, 2);
    expect(d.credit!.overdue).toBeGreaterThan(0);
    expect(d.monthly_spend).toHaveLength(12);
    // Every month but (on the first days of a month) the current one has orders.
    expect(d.monthly_spend.slice(0, 11).every((m) => m.total > 0)).toBe(true);
    expect(d.recent_orders.length).toBe(8);
    const unpaid = d.unpaid_invoices!;
    expect(unpaid.length).toBeGreaterThan(1);
    expect(unpaid.map((i) => i.due_date)).toEqual([...unpaid.map((i) => i.due_date)].sort());
    expect(unpaid[0]!.overdue).toBe(true);
    expect(d.credit!.overdue).toBeCloseTo(unpaid.filter((i) => i.overdue).reduce((s, i) => s + i.total, 0), 2);
  });

  it("still lets a fresh account pay on account: the demo owner's overdue invoice blocks only the demo owner", async () => {
    const { owner } = await company();
    const res = await owner.browser.get("/api/checkout/delivery-options");
    expect(res.json().data.payment.map((p: { id: string }) => p.id)).toContain("pay_on_account");
  });
});

describe("GET /api/trade/dashboard", () => {
  it("counts 12 London months, oldest first, with zeros, leaving out cancelled orders and other companies", async () => {
    const { owner, accountId } = await company();
    const other = await company();
    await orderFor(accountId, owner.userId, 12_345, { monthsAgo: 0 });
    await orderFor(accountId, owner.userId, 10_000, { monthsAgo: 3 });
    await orderFor(accountId, owner.userId, 5_000, { monthsAgo: 3 });
    await orderFor(accountId, owner.userId, 99_999, { monthsAgo: 3, status: "cancelled" });
    await orderFor(accountId, owner.userId, 7_000, { monthsAgo: 11 });
    await orderFor(accountId, owner.userId, 88_888, { monthsAgo: 12 });
    await orderFor(other.accountId, other.owner.userId, 77_777, { monthsAgo: 1 });
    const d = await dashboard(owner.browser);
    expect(d.monthly_spend).toHaveLength(12);
    for (const m of d.monthly_spend) expect(m.month).toMatch(MONTH);
    const months = d.monthly_spend.map((m) => m.month);
    expect(months).toEqual([...months].sort());
    expect(new Set(months).size).toBe(12);
    expect(d.monthly_spend.map((m) => m.total)).toEqual([70, 0, 0, 0, 0, 0, 0, 0, 150, 0, 0, 123.45]);
    expect(d.credit).toEqual({ limit: 2000, balance: 0, available: 2000, overdue: 0 });
    expect(d.unpaid_invoices).toEqual([]);
  });

  it("gives the credit figures and unpaid invoices by due date, overdue flagged", async () => {
    const { owner, accountId } = await company();
    const late = await invoiceFor(accountId, await orderFor(accountId, owner.userId, 30_000), 30_000, -5);
    const soon = await invoiceFor(accountId, await orderFor(accountId, owner.userId, 20_000), 20_000, 10);
    const sent = await invoiceFor(accountId, await orderFor(accountId, owner.userId, 10_000), 10_000, -2, "payment_pending");
    await invoiceFor(accountId, await orderFor(accountId, owner.userId, 40_000), 40_000, -20, "paid");
    const d = await dashboard(owner.browser);
    expect(d.credit).toEqual({ limit: 2000, balance: 600, available: 1400, overdue: 300 });
    expect(d.unpaid_invoices!.map((i) => [i.id, i.overdue, i.total])).toEqual([
      [late, true, 300],
      [sent, false, 100],
      [soon, false, 200],
    ]);
    // Over the limit, available credit is nothing rather than negative.
    await db.update(tradeAccounts).set({ creditLimit: 50_000 }).where(eq(tradeAccounts.id, accountId));
    expect((await dashboard(owner.browser)).credit).toMatchObject({ limit: 500, balance: 600, available: 0 });
  });

  it("shows owners, admins and accounts users the company's orders; a buyer only their own, and no invoices", async () => {
    const { owner, accountId } = await company();
    const buyer = await memberOf(accountId, "buyer");
    const admin = await memberOf(accountId, "admin");
    const accounts = await memberOf(accountId, "accounts");
    const ownersOrder = await orderFor(accountId, owner.userId, 10_000);
    const buyersOrder = await orderFor(accountId, buyer.userId, 2_500);
    await invoiceFor(accountId, ownersOrder, 10_000, 10);

    for (const viewer of [owner, admin, accounts]) {
      const d = await dashboard(viewer.browser);
      expect(d.scope).toBe("company");
      expect(d.recent_orders.map((o) => [o.id, o.placed_by_you])).toEqual([
        [buyersOrder, viewer === buyer],
        [ownersOrder, viewer === owner],
      ]);
      expect(d.unpaid_invoices).toHaveLength(1);
      expect(d.monthly_spend.at(-1)!.total).toBe(125);
    }
    const b = await dashboard(buyer.browser);
    expect(b.scope).toBe("own");
    expect(b.recent_orders).toHaveLength(1);
    expect(b.recent_orders[0]).toMatchObject({ id: buyersOrder, placed_by_you: true, total: 25, payment_method: "bank_transfer", status: "completed", status_label: "Completed" });
    expect(b.recent_orders[0]!.placed_by).toMatch(/^Dana Fitter\d+$/);
    expect(b.unpaid_invoices).toBeNull();
    expect(b.monthly_spend.at(-1)!.total).toBe(25);
    expect(b.credit).toMatchObject({ limit: 2000, balance: 100 });
  });

  it("lists a hire invoice (no order) among the unpaid, by its hire request's number", async () => {
    const { owner, accountId } = await company();
    const [request] = await db
      .insert(hireRequests)
      .values({ number: `HR-DASH-${Date.now() % 1_000_000}`, name: "Hire Fitter", email: "hire@example.com", phone: "0113 496 0000", fulfilment: "collect", hireCost: 10_000, vat: 2_000, deposit: 0, holdExpiresAt: new Date(), status: "completed" })
      .returning();
    const [hire] = await db
      .insert(tradeInvoices)
      .values({ number: `INV-DASH-HIRE-${request!.id}`, tradeAccountId: accountId, hireRequestId: request!.id, invoiceDate: sql`(now() at time zone 'Europe/London')::date`, dueDate: sql`(now() at time zone 'Europe/London')::date + 30`, subtotal: 10_000, vat: 2_000, delivery: 0, total: 12_000 })
      .returning({ id: tradeInvoices.id });
    await db.update(tradeAccounts).set({ balance: sql`${tradeAccounts.balance} + 12000` }).where(eq(tradeAccounts.id, accountId));
    const d = await dashboard(owner.browser);
    expect(d.unpaid_invoices).toEqual([expect.objectContaining({ id: hire!.id, order_number: request!.number, total: 120, status: "unpaid", overdue: false })]);
    expect(d.credit).toMatchObject({ balance: 120 });
  });

  it("answers 401 to a guest, 404 to a customer, and shows another company's owner nothing of this one", async () => {
    const guest = new TestBrowser(shop().app, "198.51.250.1");
    expect((await guest.get("/api/trade/dashboard")).statusCode).toBe(401);
    const customer = await signedUp();
    expect((await customer.browser.get("/api/trade/dashboard")).statusCode).toBe(404);

    const { owner, accountId } = await company();
    const ours = await orderFor(accountId, owner.userId, 10_000);
    await invoiceFor(accountId, ours, 10_000, -1);
    const other = await company();
    const theirs = await dashboard(other.owner.browser);
    expect(theirs.recent_orders).toEqual([]);
    expect(theirs.unpaid_invoices).toEqual([]);
    expect(theirs.credit).toEqual({ limit: 2000, balance: 0, available: 2000, overdue: 0 });
    expect(theirs.monthly_spend.every((m) => m.total === 0)).toBe(true);
  });

  it("answers a pending account with its state and no figures", async () => {
    const { owner } = await company("pending");
    const d = await dashboard(owner.browser);
    expect(d).toMatchObject({ state: "pending", credit: null, recent_orders: [], unpaid_invoices: [] });
    expect(d.monthly_spend).toHaveLength(12);
  });
});

describe("checkout links the order to the buyer's company", () => {
  async function placeOrder(browser: TestBrowser, email: string) {
    const [p] = await db.select({ id: products.id }).from(products).where(and(ne(products.stock, 0), eq(products.heavy, false))).limit(1);
    expect((await browser.post("/api/basket", { product_id: p!.id, quantity: 1 })).statusCode).toBeLessThan(300);
    const res = await browser.post("/api/checkout", { email, phone: "0113 496 0123", delivery_method: "collect", collector_name: "Test Collector", payment_method: "pay_on_collection" });
    expect(res.statusCode, res.body).toBe(201);
    const [order] = await db.select().from(orders).where(eq(orders.id, res.json().order_id));
    return order!;
  }

  it("for a member of an approved account, whatever the payment method; not for a consumer or a pending account", async () => {
    const { accountId } = await company();
    const buyer = await memberOf(accountId, "buyer");
    const placed = await placeOrder(buyer.browser, buyer.email);
    expect(placed.tradeAccountId).toBe(accountId);
    expect((await dashboard(buyer.browser)).recent_orders.map((o) => o.id)).toEqual([placed.id]);

    const consumer = await signedUp();
    expect((await placeOrder(consumer.browser, consumer.email)).tradeAccountId).toBeNull();
    const pending = await company("pending");
    expect((await placeOrder(pending.owner.browser, pending.owner.email)).tradeAccountId).toBeNull();
  });
});
