// The back office's dashboard (issue 18): each figure against orders, hire
// requests, trade accounts, invoices and products made here on an empty
// database, with the clock fixed on a summer day so the London day boundary
// (BST) is exercised; each role's blocks; the takings by day with its empty
// days and the October clock change; then the API over HTTP on the demo shop.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { type TestShop, createTestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { apiOperations } from "../../test/openapi.ts";
import { branches } from "../branches/schema.ts";
import { products } from "../catalog/schema.ts";
import { deliveryMethods } from "../delivery/schema.ts";
import { hireCategories, hireItems, hireRequestLines, hireRequests } from "../hire/schema.ts";
import { type OrderStatus, orders } from "../orders/schema.ts";
import type { StaffActor } from "../staff/actor.ts";
import { STAFF_ROLES, type StaffRole } from "../staff/permissions.ts";
import { returns } from "../returns/schema.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import type { JobFailure } from "../jobs/runner.ts";
import { type DashboardService, REORDER_LEVEL, createDashboardService } from "./service.ts";
import { staffBrowsers } from "../../test/staff-browsers.ts";

let database: TestDatabase;
let db: Db;
let dashboard: DashboardService;
const as = {} as Record<StaffRole, StaffActor>;

// 11:00 on Wednesday 15 July 2026 in London (BST, UTC+1).
const NOW = new Date("2026-07-15T10:00:00Z");
const TODAY = "2026-07-15";
const WEEK_FROM = "2026-07-09";

let seq = 0;
/** An order as checkout leaves one, with the pence given: total = goods ex VAT + VAT + delivery. */
async function order(spec: { status: OrderStatus; at: string; goods?: number; vat?: number; delivery?: number; collect?: boolean; payment?: string }): Promise<number> {
  const goods = spec.goods ?? 10_000;
  const vat = spec.vat ?? Math.round(goods * 0.2);
  const delivery = spec.delivery ?? (spec.collect ? 0 : 600);
  const [row] = await db
    .insert(orders)
    .values({
      number: `TC-${String((seq += 1)).padStart(6, "0")}`,
      email: "someone@example.com",
      status: spec.status,
      deliveryMethod: spec.collect ? "collect" : "standard",
      deliveryName: spec.collect ? "Click & collect" : "Standard delivery",
      subtotal: goods,
      vat,
      delivery,
      total: goods + vat + delivery,
      paymentMethod: spec.payment ?? "bank_transfer",
      createdAt: new Date(spec.at),
    })
    .returning({ id: orders.id });
  return row!.id;
}

let hireItemId: number;
/** A hire request in `status` with lines of [quantity, start, return]. */
async function hireRequest(status: string, lines: [number, string, string][]): Promise<void> {
  const [request] = await db
    .insert(hireRequests)
    .values({ number: `HR-${(seq += 1)}`, status, name: "Harry Hirer", email: "harry@example.com", phone: "07700 900111", fulfilment: "collection", hireCost: 5000, vat: 1000, deposit: 0, holdExpiresAt: new Date("2026-07-20T00:00:00Z") })
    .returning({ id: hireRequests.id });
  await db.insert(hireRequestLines).values(lines.map(([quantity, startDate, endDate]) => ({ requestId: request!.id, hireItemId, name: "Breaker", quantity, startDate, endDate, days: 1, hireCost: 5000, vat: 1000, deposit: 0 })));
}

async function tradeAccount(state: "pending" | "approved" | "declined" | "suspended"): Promise<number> {
  const [row] = await db
    .insert(tradeAccounts)
    .values({ companyName: `Company ${(seq += 1)}`, companyType: "sole_trader", trade: "Builder", line1: "1 Yard", town: "Leeds", postcode: "LS1 4AP", phone: "0113 496 0001", accountsEmail: "accounts@example.com", expectedMonthlySpend: 100_000, requestedCreditLimit: 500_000, state })
    .returning({ id: tradeAccounts.id });
  return row!.id;
}

async function invoice(accountId: number, status: "unpaid" | "payment_pending" | "paid", dueDate: string, total: number): Promise<void> {
  const orderId = await order({ status: "processing", at: "2026-05-01T10:00:00Z", payment: "pay_on_account" });
  await db.insert(tradeInvoices).values({ number: `INV-${(seq += 1)}`, tradeAccountId: accountId, orderId, invoiceDate: "2026-05-01", dueDate, subtotal: total, vat: 0, delivery: 0, total, status });
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  dashboard = createDashboardService(db, { now: () => NOW });
  for (const role of STAFF_ROLES) as[role] = { staffId: 1, name: `${role} member`, email: `${role}@staff.test`, role, via: "screen" };
  await db.insert(deliveryMethods).values([
    { code: "standard", name: "Standard delivery", kind: "delivery", price: 600 },
    { code: "collect", name: "Click & collect", kind: "collect", price: 0 },
  ]);
  const [category] = await db.insert(hireCategories).values({ slug: "breakers", name: "Breakers" }).returning({ id: hireCategories.id });
  const [item] = await db.insert(hireItems).values({ slug: "breaker", name: "Breaker", hireCategoryId: category!.id, dayRate: 5000, weekendRate: 8000, weekRate: 15000 }).returning({ id: hireItems.id });
  hireItemId = item!.id;
}, 60_000);
afterAll(() => database?.destroy());

describe("an empty shop", () => {
  it("has every figure at zero and 30 empty days of takings ending today", async () => {
    const f = await dashboard.figures(as.owner);
    expect(f).toEqual({
      today: TODAY,
      week_from: WEEK_FROM,
      sales: {
        today: { orders: 0, cancelled: 0, takings_inc_vat: 0, takings_ex_vat: 0 },
        last_7_days: { orders: 0, cancelled: 0, takings_inc_vat: 0, takings_ex_vat: 0 },
        has_orders: false,
      },
      queues: { awaiting_payment: 0, paid: 0, processing: 0, to_pick: 0, to_dispatch: 0, ready_for_collection: 0 },
      hire: { going_out: { requests: 0, units: 0 }, coming_back: { requests: 0, units: 0 } },
      trade: { applications_waiting: 0 },
      invoices: { overdue: 0, overdue_total: 0 },
      stock: { at_or_below_reorder_level: 0, reorder_level: REORDER_LEVEL },
      returns: { to_approve: 0, overdue_for_refund: 0 },
      jobs: { failing: [] },
    });
    const days = await dashboard.takings(as.owner);
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: "2026-06-16", orders: 0, inc_vat: 0, ex_vat: 0 });
    expect(days.at(-1)).toEqual({ day: TODAY, orders: 0, inc_vat: 0, ex_vat: 0 });
  });
});

describe("the figures", () => {
  beforeAll(async () => {
    // Today in London: two live orders, one of them placed at 00:30 BST (23:30 UTC the day before), and one cancelled.
    await order({ status: "awaiting_payment", at: "2026-07-15T09:00:00Z", goods: 10_000, vat: 2_000, delivery: 600 }); // £126.00, ex VAT £106.00
    await order({ status: "paid", at: "2026-07-14T23:30:00Z", goods: 5_000, vat: 1_000, delivery: 0, collect: true }); // £60.00, ex VAT £50.00
    await order({ status: "cancelled", at: "2026-07-15T08:00:00Z", goods: 90_000, vat: 18_000 });
    // Earlier in the week: 23:59 BST on the 14th, and 00:30 BST on the 9th (the week's first day).
    await order({ status: "processing", at: "2026-07-14T22:59:00Z", goods: 20_000, vat: 4_000, delivery: 600, payment: "pay_on_account" }); // £246.00
    await order({ status: "processing", at: "2026-07-08T23:30:00Z", goods: 1_000, vat: 200, delivery: 0, collect: true, payment: "pay_on_collection" }); // £12.00
    await order({ status: "cancelled", at: "2026-07-10T12:00:00Z" });
    // 23:30 BST on the 8th: the day before the week.
    await order({ status: "completed", at: "2026-07-08T22:30:00Z", goods: 7_000, vat: 1_400 });
    // Older orders still open, and closed ones.
    await order({ status: "awaiting_payment", at: "2026-06-01T10:00:00Z" });
    await order({ status: "ready_for_collection", at: "2026-06-02T10:00:00Z", collect: true });
    await order({ status: "ready_for_collection", at: "2026-06-03T10:00:00Z", collect: true });
    await order({ status: "dispatched", at: "2026-06-04T10:00:00Z" });
    await order({ status: "processing", at: "2026-06-05T10:00:00Z" });

    // Hire: out today (one request, 3 units over two lines; one same-day hire), back today, and ones that do not count.
    await hireRequest("confirmed", [
      [2, TODAY, "2026-07-17"],
      [1, TODAY, "2026-07-18"],
    ]);
    await hireRequest("confirmed", [[1, "2026-07-10", TODAY]]);
    await hireRequest("confirmed", [[4, TODAY, TODAY]]);
    await hireRequest("pending", [[1, TODAY, "2026-07-16"]]);
    await hireRequest("completed", [[1, "2026-07-12", TODAY]]);
    await hireRequest("declined", [[1, TODAY, "2026-07-16"]]);
    await hireRequest("confirmed", [[1, "2026-07-16", "2026-07-17"]]);

    // Trade: two applications waiting; overdue is unpaid and due before today.
    await tradeAccount("pending");
    await tradeAccount("pending");
    await tradeAccount("declined");
    await tradeAccount("suspended");
    const approved = await tradeAccount("approved");
    await invoice(approved, "unpaid", "2026-07-14", 12_345);
    await invoice(approved, "unpaid", "2026-06-30", 10_000);
    await invoice(approved, "unpaid", TODAY, 99_999);
    await invoice(approved, "payment_pending", "2026-07-01", 5_000);
    await invoice(approved, "paid", "2026-07-01", 7_000);

    // Stock: 0 and exactly the reorder level count; one above does not.
    await db.insert(products).values([
      { sku: "LOW-0", slug: "low-0", name: "Sold out", pricePence: 100, stock: 0 },
      { sku: "LOW-5", slug: "low-5", name: "At the level", pricePence: 100, stock: REORDER_LEVEL },
      { sku: "OK-6", slug: "ok-6", name: "Above it", pricePence: 100, stock: REORDER_LEVEL + 1 },
    ]);
  });

  it("counts today's and the week's orders by London day, and takes no money from cancelled orders", async () => {
    const f = await dashboard.figures(as.owner);
    expect(f.today).toBe(TODAY);
    expect(f.week_from).toBe(WEEK_FROM);
    expect(f.sales?.has_orders).toBe(true);
    expect(f.sales?.today).toEqual({ orders: 3, cancelled: 1, takings_inc_vat: 186, takings_ex_vat: 156 });
    // Today's two, the 14th's, the 9th's (00:30 BST) and the cancelled one on the 10th; not the 8th's.
    expect(f.sales?.last_7_days).toEqual({ orders: 6, cancelled: 2, takings_inc_vat: 186 + 246 + 12, takings_ex_vat: 156 + 206 + 10 });
  });

  it("counts the orders waiting on someone, whenever they were placed", async () => {
    const f = await dashboard.figures(as.owner);
    // Awaiting payment: today's and June's. To pick: paid (1) + processing (the week's two, the five invoiced on account, June's one).
    // To dispatch: those processing for delivery (all but the week's click & collect one).
    expect(f.queues).toEqual({ awaiting_payment: 2, paid: 1, processing: 8, to_pick: 9, to_dispatch: 7, ready_for_collection: 2 });
  });

  it("counts hire going out and coming back today, confirmed only", async () => {
    const f = await dashboard.figures(as.owner);
    expect(f.hire).toEqual({ going_out: { requests: 2, units: 7 }, coming_back: { requests: 2, units: 5 } });
  });

  it("counts trade applications waiting, overdue invoices and products to reorder", async () => {
    const f = await dashboard.figures(as.owner);
    expect(f.trade).toEqual({ applications_waiting: 2 });
    expect(f.invoices).toEqual({ overdue: 2, overdue_total: 223.45 });
    expect(f.stock).toEqual({ at_or_below_reorder_level: 2, reorder_level: REORDER_LEVEL });
  });

  it("counts returns to approve, and those received more than 14 days ago and not refunded", async () => {
    const orderId = await order({ status: "completed", at: "2026-06-01T10:00:00Z" });
    const ret = (status: string, receivedAt?: string) => ({ orderId, status, method: "post", receivedAt: receivedAt ? new Date(receivedAt) : null });
    const made = await db
      .insert(returns)
      .values([
        ret("requested"),
        ret("requested"),
        ret("approved"),
        // Received 15 days ago and 14 days and an hour ago: overdue; 13 days ago: not yet; refunded late: not waiting.
        ret("received", "2026-06-30T10:00:00Z"),
        ret("received", "2026-07-01T09:00:00Z"),
        ret("received", "2026-07-02T10:00:00Z"),
        ret("refunded", "2026-06-01T10:00:00Z"),
      ])
      .returning({ id: returns.id });
    expect((await dashboard.figures(as.owner)).returns).toEqual({ to_approve: 2, overdue_for_refund: 2 });
    expect((await dashboard.figures(as.warehouse)).returns).toEqual({ to_approve: 2, overdue_for_refund: 2 });
    // A member limited to another branch counts none of them.
    expect((await dashboard.figures({ ...as.sales, branchIds: [999_999], branchesOnly: true })).returns).toEqual({ to_approve: 0, overdue_for_refund: 0 });
    await db.delete(returns).where(inArray(returns.id, made.map((m) => m.id)));
    await db.delete(orders).where(eq(orders.id, orderId));
  });

  it("reads one branch's figures: its orders and its own stock; a member limited to their branches reads only theirs", async () => {
    const [york] = await db.insert(branches).values({ slug: "dash-york", name: "York", line1: "1 Foss Islands", town: "York", postcode: "YO31 7UL" }).returning({ id: branches.id });
    const id = await order({ status: "paid", at: "2026-07-15T10:00:00Z", goods: 1_000, vat: 200, delivery: 0, collect: true });
    await db.update(orders).set({ branchId: york!.id }).where(eq(orders.id, id));
    const f = await dashboard.figures(as.owner, { branchId: york!.id });
    expect(f.sales?.today).toEqual({ orders: 1, cancelled: 0, takings_inc_vat: 12, takings_ex_vat: 10 });
    expect(f.queues).toEqual({ awaiting_payment: 0, paid: 1, processing: 0, to_pick: 1, to_dispatch: 0, ready_for_collection: 0 });
    // York holds nothing: every variant on sale is at or below its reorder level there.
    const onSale = ((await db.execute(sql`select count(*)::int as n from product_variants v join products p on p.id = v.product_id where v.status = 'active' and p.status <> 'archived'`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    expect(f.stock?.at_or_below_reorder_level).toBe(onSale);
    // The whole shop still counts it.
    expect((await dashboard.figures(as.owner)).queues?.paid).toBe(2);
    // A warehouse member limited to another branch reads none of York's.
    const limited = { ...as.warehouse, branchIds: [york!.id + 1000], branchesOnly: true };
    expect((await dashboard.figures(limited)).queues).toEqual({ awaiting_payment: 0, paid: 0, processing: 0, to_pick: 0, to_dispatch: 0, ready_for_collection: 0 });
    expect((await dashboard.figures(limited, { branchId: york!.id })).queues?.paid).toBe(0);
    // Gone again, so the figures the other tests count are the shop's as they set it up.
    await db.delete(orders).where(eq(orders.id, id));
  });

  it("gives takings by London day for 30 days, empty days included", async () => {
    const days = await dashboard.takings(as.owner);
    expect(days).toHaveLength(30);
    expect(days.map((d) => d.day)).toEqual(Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 6, 15 - 29 + i)).toISOString().slice(0, 10)));
    const on = (day: string) => days.find((d) => d.day === day);
    expect(on(TODAY)).toEqual({ day: TODAY, orders: 3, inc_vat: 186, ex_vat: 156 });
    expect(on("2026-07-14")).toEqual({ day: "2026-07-14", orders: 1, inc_vat: 246, ex_vat: 206 });
    expect(on("2026-07-10")).toEqual({ day: "2026-07-10", orders: 1, inc_vat: 0, ex_vat: 0 });
    expect(on("2026-07-09")).toEqual({ day: "2026-07-09", orders: 1, inc_vat: 12, ex_vat: 10 });
    expect(on("2026-07-08")).toEqual({ day: "2026-07-08", orders: 1, inc_vat: 90, ex_vat: 76 });
    expect(on("2026-07-11")).toEqual({ day: "2026-07-11", orders: 0, inc_vat: 0, ex_vat: 0 });
    // The cards' figures are the same sums as the series'.
    const f = await dashboard.figures(as.owner);
    const week = days.slice(-7);
    expect(week.reduce((s, d) => s + d.orders, 0)).toBe(f.sales?.last_7_days.orders);
    expect(Math.round(week.reduce((s, d) => s + d.inc_vat, 0) * 100) / 100).toBe(f.sales?.last_7_days.takings_inc_vat);
    expect((await dashboard.takings(as.owner, 7)).map((d) => d.day)).toEqual(week.map((d) => d.day));
    await expect(dashboard.takings(as.owner, 0)).rejects.toMatchObject({ statusCode: 422 });
    await expect(dashboard.takings(as.owner, 367)).rejects.toMatchObject({ statusCode: 422 });
  });

  it("keeps one row a day across the October clock change, the long day's hours included", async () => {
    const autumn = createDashboardService(db, { now: () => new Date("2026-11-10T12:00:00Z") });
    // 00:30 BST and 23:30 GMT on Sunday 25 October 2026, the 25-hour day.
    await order({ status: "paid", at: "2026-10-24T23:30:00Z", goods: 1_000, vat: 200, delivery: 0 });
    await order({ status: "paid", at: "2026-10-25T23:30:00Z", goods: 2_000, vat: 400, delivery: 0 });
    const days = await autumn.takings(as.accounts, 60);
    expect(days).toHaveLength(60);
    expect(new Set(days.map((d) => d.day)).size).toBe(60);
    expect(days.find((d) => d.day === "2026-10-25")).toEqual({ day: "2026-10-25", orders: 2, inc_vat: 36, ex_vat: 30 });
    expect(days.find((d) => d.day === "2026-10-24")?.orders).toBe(0);
    expect(days.find((d) => d.day === "2026-10-26")?.orders).toBe(0);
  });
});

describe("what each role sees", () => {
  const blocks = (f: object) => Object.keys(f).sort();

  it("gives each role the blocks its permissions open", async () => {
    const owner = await dashboard.figures(as.owner);
    expect(blocks(owner)).toEqual(["hire", "invoices", "jobs", "queues", "returns", "sales", "stock", "today", "trade", "week_from"]);
    // Background jobs are for whoever keeps the shop's settings (settings.manage): the owner.
    expect(blocks(await dashboard.figures(as.manager))).toEqual(blocks(owner).filter((b) => b !== "jobs"));
    expect(blocks(await dashboard.figures(as.sales))).toEqual(["queues", "returns", "sales", "today", "week_from"]);
    expect(blocks(await dashboard.figures(as.accounts))).toEqual(["invoices", "queues", "returns", "sales", "today", "trade", "week_from"]);
    expect(blocks(await dashboard.figures(as.warehouse))).toEqual(["queues", "returns", "sales", "stock", "today", "week_from"]);
    expect(blocks(await dashboard.figures(as.hire))).toEqual(["hire", "today", "week_from"]);
  });

  it("gives the warehouse order counts without money, and no takings by day", async () => {
    const f = await dashboard.figures(as.warehouse);
    expect(f.sales).toEqual({ today: { orders: 3, cancelled: 1 }, last_7_days: { orders: 6, cancelled: 2 }, has_orders: true });
    await expect(dashboard.takings(as.warehouse)).rejects.toMatchObject({ statusCode: 403 });
    await expect(dashboard.takings(as.hire)).rejects.toMatchObject({ statusCode: 403 });
    expect(await dashboard.takings(as.sales)).toHaveLength(30);
  });

  it("refuses without a member", async () => {
    await expect(dashboard.figures(null as unknown as StaffActor)).rejects.toMatchObject({ statusCode: 401 });
  });

  it("shows the owner each failing background job once, with its count and latest error, and asks the runner nothing for others", async () => {
    const asked: unknown[] = [];
    const failures: JobFailure[] = [
      { name: "payments.sweep", id: "3", error: "gateway timed out", failedAt: new Date("2026-07-15T09:40:00Z"), attempts: 4 },
      { name: "hire.lapse-holds", id: "2", error: "deadlock detected", failedAt: new Date("2026-07-15T09:30:00Z"), attempts: 4 },
      { name: "payments.sweep", id: "1", error: "gateway said 500", failedAt: new Date("2026-07-15T09:20:00Z"), attempts: 4 },
    ];
    const withJobs = createDashboardService(db, { now: () => NOW, jobs: { failures: async (options) => (asked.push(options), failures) } });
    expect((await withJobs.figures(as.owner)).jobs).toEqual({
      failing: [
        { name: "payments.sweep", failures: 2, last_failed_at: "2026-07-15T09:40:00.000Z", last_error: "gateway timed out" },
        { name: "hire.lapse-holds", failures: 1, last_failed_at: "2026-07-15T09:30:00.000Z", last_error: "deadlock detected" },
      ],
    });
    expect(asked).toHaveLength(1);
    for (const role of ["manager", "sales", "warehouse", "hire", "accounts"] as const) expect((await withJobs.figures(as[role])).jobs).toBeUndefined();
    expect(asked).toHaveLength(1);
  });

  it("tells the owner when the newest backup was taken, and nobody else", async () => {
    const withBackups = createDashboardService(db, { now: () => NOW, lastBackupAt: async () => new Date("2026-07-15T01:30:00Z") });
    expect((await withBackups.figures(as.owner)).jobs).toEqual({ failing: [], last_backup_at: "2026-07-15T01:30:00.000Z" });
    expect((await createDashboardService(db, { now: () => NOW, lastBackupAt: async () => null }).figures(as.owner)).jobs).toEqual({ failing: [], last_backup_at: null });
    for (const role of ["manager", "sales", "warehouse", "hire", "accounts"] as const) expect((await withBackups.figures(as[role])).jobs).toBeUndefined();
  });
});

describe("GET /api/admin/dashboard", () => {
  let shop: TestShop;
  let ip = 1;
  const browser = {} as Record<StaffRole | "guest" | "customer", TestBrowser>;
  beforeAll(async () => {
    shop = await createTestShop();
    Object.assign(browser, await staffBrowsers(shop.app, () => `198.51.102.${ip++}`));
    browser.customer = new TestBrowser(shop.app, `198.51.102.${ip++}`);
    await browser.customer.signIn("customer@example.com", "demo-password-2026");
  }, 120_000);
  afterAll(() => shop?.close());

  it("answers the owner every block and 30 days of takings, no-store", async () => {
    const res = await browser.owner.get("/api/admin/dashboard");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["hire", "invoices", "jobs", "queues", "returns", "sales", "stock", "takings", "today", "trade", "week_from"]);
    // No job has failed on a new shop (its runner not started under test).
    // And no backup has been taken yet.
    expect(body.jobs).toEqual({ failing: [], last_backup_at: null });
    expect(body.takings).toHaveLength(30);
    expect(body.takings.at(-1).day).toBe(body.today);
    expect(body.sales.today).toEqual({ orders: expect.any(Number), cancelled: expect.any(Number), takings_inc_vat: expect.any(Number), takings_ex_vat: expect.any(Number) });
    // The demo company has an overdue invoice.
    expect(body.invoices.overdue).toBeGreaterThan(0);
    expect((await browser.owner.get("/api/admin/dashboard?days=7")).json().takings).toHaveLength(7);
    expect((await browser.owner.get("/api/admin/dashboard?days=0")).statusCode).toBe(422);
    expect((await browser.owner.get("/api/admin/dashboard?days=a")).statusCode).toBe(422);
  });

  it("gives the warehouse no money and the hire desk its hire figures only", async () => {
    const warehouse = await browser.warehouse.get("/api/admin/dashboard");
    expect(warehouse.statusCode).toBe(200);
    expect(Object.keys(warehouse.json()).sort()).toEqual(["queues", "returns", "sales", "stock", "today", "week_from"]);
    expect(warehouse.body).not.toMatch(/takings|inc_vat|ex_vat|overdue_total/);
    const hire = (await browser.hire.get("/api/admin/dashboard")).json();
    expect(Object.keys(hire).sort()).toEqual(["hire", "today", "week_from"]);
    expect(Object.keys((await browser.accounts.get("/api/admin/dashboard")).json()).sort()).toEqual(["invoices", "queues", "returns", "sales", "takings", "today", "trade", "week_from"]);
  });

  it("refuses a guest and a customer with 401", async () => {
    expect((await browser.guest.get("/api/admin/dashboard")).statusCode).toBe(401);
    expect((await browser.customer.get("/api/admin/dashboard")).statusCode).toBe(401);
  });

  it("is documented under the tag admin: dashboard", async () => {
    const ops = (await apiOperations(shop.app)).filter((op) => op.path.startsWith("/api/admin/dashboard"));
    expect(ops.map((op) => `${op.method} ${op.path}`)).toEqual(["GET /api/admin/dashboard"]);
    const doc = (await shop.app.inject({ url: "/api/openapi.json" })).json() as { paths: Record<string, { get: { tags: string[] } }> };
    expect(doc.paths["/api/admin/dashboard"]!.get.tags).toEqual(["admin: dashboard"]);
  });
});
