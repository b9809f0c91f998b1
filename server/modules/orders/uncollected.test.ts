// Collections not collected (issue 30): reminded once halfway through the
// branch's hold, then cancelled back into the branch's stock and, when paid by
// card, refunded in full at the gateway (the real stripe SDK against a fake on
// loopback, server/test/payments.ts).
import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { TestBrowser } from "../../test/browser.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { cardPaymentShop, deliver, sessionIdOf } from "../../test/payments.ts";
import { branches } from "../branches/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import { paymentRefunds, paymentSessions, payments } from "../payments/schema.ts";
import { branchStock } from "../stock/schema.ts";
import { orders } from "./schema.ts";
import { servicesOf } from "../../test/app.ts";

const t = cardPaymentShop();
const db = () => t.shop.database.db;
const DAY = 24 * 60 * 60 * 1000;
let ip = 1;

async function signedIn(role: "warehouse") {
  const member = DEMO_STAFF.find((s) => s.role === role)!;
  const b = new TestBrowser(t.shop.app, `198.51.107.${ip++}`);
  await b.staffSignIn(member.email, "demo-password-2026");
  return b;
}

/** A collection at York of a one-variant product York holds, paid as asked, then picked and made ready. */
async function readyAtYork(payment: "pay_on_collection" | "card", email: string) {
  const [york] = await db().select().from(branches).where(eq(branches.slug, "york"));
  const [p] = await db()
    .select({ id: products.id, variant: productVariants.id })
    .from(products)
    .innerJoin(productVariants, eq(productVariants.productId, products.id))
    .where(sql`${products.status} = 'published' and (select count(*) from ${productVariants} v where v.product_id = ${products.id}) = 1`)
    .orderBy(asc(products.id))
    .offset(payment === "card" ? 11 : 12)
    .limit(1);
  const warehouse = await signedIn("warehouse");
  const sku = (await db().select({ sku: productVariants.sku }).from(productVariants).where(eq(productVariants.id, p!.variant)))[0]!.sku;
  expect((await warehouse.post("/api/admin/stock/deliveries", { reference: "T-1", branch_id: york!.id, lines: [{ sku, quantity: 5 }] })).statusCode).toBe(200);
  const buyer = new TestBrowser(t.shop.app, `198.51.108.${ip++}`);
  await buyer.csrf();
  await buyer.post("/api/basket", { product_id: p!.id, quantity: 2 });
  const placed = await buyer.post("/api/checkout", { email, phone: "0113 496 0000", delivery_method: "collect", collector_name: "Test Collector", payment_method: payment, branch_id: york!.id });
  expect(placed.statusCode, placed.body).toBe(201);
  const number = placed.json().order?.order_number ?? placed.json().order_number;
  if (payment === "card") {
    await t.stripe.processor.act(sessionIdOf(placed.json().payment.redirect_url), "pay");
    await deliver(t.shop.app, t.lastEvent("checkout.session.completed"));
  }
  for (const to of ["processing", "ready_for_collection"]) {
    const moved = await warehouse.post(`/api/admin/orders/${number}/transitions`, { to });
    expect(moved.statusCode, moved.body).toBe(200);
  }
  const stockAtYork = async () => (await db().select({ stock: branchStock.stock }).from(branchStock).where(and(eq(branchStock.variantId, p!.variant), eq(branchStock.branchId, york!.id))))[0]!.stock;
  return { number: number as string, stockAtYork };
}

/** The scheduled job's own entry point, on services with the same fake gateway as the shop. */
const sweep = (at: Date) => servicesOf(t.shop, { gateway: t.stripe.gateway }).uncollected.sweep(at);

const mails = (to: string) => db().select({ subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(asc(mailOutbox.id));

describe("uncollected collections", () => {
  it("reminds once halfway through the branch's hold, then cancels back into the branch's stock", async () => {
    const { number, stockAtYork } = await readyAtYork("pay_on_collection", "slow.collector@example.com");
    expect(await stockAtYork()).toBe(3);
    // York keeps a collection seven days: nothing on day 2, a reminder from day 4, once.
    expect(await sweep(new Date(Date.now() + 2 * DAY))).toEqual({ reminded: [], returned: [] });
    expect((await sweep(new Date(Date.now() + 4 * DAY))).reminded).toEqual([number]);
    expect((await sweep(new Date(Date.now() + 5 * DAY))).reminded).toEqual([]);
    const reminder = (await mails("slow.collector@example.com")).filter((m) => m.subject.startsWith("Reminder"));
    expect(reminder).toHaveLength(1);
    expect(reminder[0]!.text).toMatch(/Your collection code: \d{6}/);
    // Day 8: cancelled, the two back on York's shelf, the customer told why.
    expect((await sweep(new Date(Date.now() + 8 * DAY))).returned).toEqual([number]);
    expect((await db().select({ status: orders.status }).from(orders).where(eq(orders.number, number)))[0]!.status).toBe("cancelled");
    expect(await stockAtYork()).toBe(5);
    expect((await mails("slow.collector@example.com")).at(-1)!.text).toContain("Not collected within 7 days: back in stock.");
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("refunds a card-paid collection in full when it goes back to stock", async () => {
    const { number, stockAtYork } = await readyAtYork("card", "card.collector@example.com");
    const [branch] = await db().update(branches).set({ holdDays: 3 }).where(eq(branches.slug, "york")).returning({ id: branches.id });
    expect(branch).toBeDefined();
    try {
      expect((await sweep(new Date(Date.now() + 3 * DAY + 60_000))).returned).toEqual([number]);
    } finally {
      await db().update(branches).set({ holdDays: 7 }).where(eq(branches.slug, "york"));
    }
    const [order] = await db().select({ id: orders.id, status: orders.status, total: orders.total }).from(orders).where(eq(orders.number, number));
    expect(order!.status).toBe("cancelled");
    const [paid] = await db().select({ payment: payments }).from(payments).innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId)).where(eq(paymentSessions.orderId, order!.id));
    expect(paid!.payment.refunded).toBe(order!.total);
    expect(await db().select({ reason: paymentRefunds.reason }).from(paymentRefunds).where(eq(paymentRefunds.paymentId, paid!.payment.id))).toEqual([{ reason: "Not collected within 3 days" }]);
    expect(await stockAtYork()).toBe(5);
  });
});
