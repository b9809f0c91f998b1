import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestShop, type TestShop } from "../../test/app.ts";
import { TestBrowser, freshBrowser } from "../../test/browser.ts";
import { type FakeStripe, deliver, fakeStripe, sessionIdOf } from "../../test/payments.ts";
import { products } from "../catalog/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import { orderStatusHistory, orders } from "../orders/schema.ts";
import { staff } from "../staff/schema.ts";
import { auditLog } from "../audit/schema.ts";
import { paymentEvents, paymentRefunds, paymentSessions, payments } from "./schema.ts";

// The real `stripe` SDK against a fake Stripe on loopback (server/test/payments.ts); never live Stripe.
let shop: TestShop;
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await fakeStripe({ timeout: 1_000 });
  shop = await createTestShop({}, { paymentGateway: stripe.gateway });
});
afterAll(async () => {
  await shop.close();
  await stripe.close();
});

const db = () => shop.database.db;
let ip = 1;
const guest = () => freshBrowser(shop.app, `198.51.${Math.floor(ip / 250)}.${ip++ % 250}`);

let offset = 40;
/** A product with a known stock: £10.00 ex VAT at 20%, so £12.00 a unit. */
async function product(stock: number) {
  offset += 1;
  const [p] = await db()
    .update(products)
    .set({ stock, pricePence: 1000, vatRate: 20, heavy: false })
    .where(eq(products.id, sql`(select id from products order by id offset ${offset} limit 1)`))
    .returning({ id: products.id });
  return p!.id;
}
const stockOf = async (id: number) => (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;

const cardOrder = {
  email: "card.buyer@example.co.uk",
  phone: "0113 496 0000",
  delivery_method: "collect", collector_name: "Test Collector",
  payment_method: "card",
};

/** A guest with `quantity` of a fresh product (stock 10) in the basket, checked out by card. */
async function placeByCard(quantity = 2) {
  const b = await guest();
  const productId = await product(10);
  await b.post("/api/basket", { product_id: productId, quantity });
  const res = await b.post("/api/checkout", cardOrder);
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  const sessionId = sessionIdOf(body.payment.redirect_url);
  return { b, productId, number: body.order.order_number as string, orderId: body.order.order_id as number, sessionId, body };
}

const orderOf = async (id: number) => (await db().select().from(orders).where(eq(orders.id, id)))[0];
const mailsTo = async (to: string, subject: string) =>
  (await db().select({ n: count() }).from(mailOutbox).where(and(eq(mailOutbox.to, to), sql`${mailOutbox.subject} like ${`%${subject}%`}`)))[0]!.n;
const paymentsFor = async (orderId: number) =>
  db().select({ payment: payments }).from(payments).innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId)).where(eq(paymentSessions.orderId, orderId));
const lastEvent = (type: string) => [...stripe.processor.events].reverse().find((e) => e.type === type)!;
const pathOf = (url: string) => new URL(url).pathname;

describe("paying an order by card", () => {
  it("answers 201 with the payment page for exactly the order's total, and holds the stock without emailing yet", async () => {
    const { productId, orderId, number, sessionId, body } = await placeByCard(2);
    expect(body.payment.redirect_url).toMatch(/^http:\/\/shop\.test\/payments\/test\/cs_test_/);
    expect(body.order).toMatchObject({ order_number: number, total: 24 });
    expect(stripe.processor.session(sessionId)).toMatchObject({ amount: 2400, currency: "gbp", status: "open", email: cardOrder.email });
    expect(await orderOf(orderId)).toMatchObject({ status: "awaiting_payment", paymentMethod: "card" });
    expect(await stockOf(productId)).toBe(8);
    expect(await mailsTo(cardOrder.email, number)).toBe(0);
  });

  it("marks the order paid once, with one payment record and one pair of emails, however often the event comes", async () => {
    const { orderId, number, sessionId } = await placeByCard();
    await stripe.processor.act(sessionId, "pay");
    const completed = lastEvent("checkout.session.completed");
    const first = await deliver(shop.app, completed);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    const again = await deliver(shop.app, completed);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect(await orderOf(orderId)).toMatchObject({ status: "paid" });
    const paid = await paymentsFor(orderId);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.payment).toMatchObject({ amount: 2400, currency: "gbp", refunded: 0 });
    expect(paid[0]!.payment.externalId).toMatch(/^pi_test_/);
    expect(await mailsTo(cardOrder.email, `Your order ${number}`)).toBe(1);
    expect(await mailsTo("shop@example.com", `Order ${number}`)).toBe(1);
  });

  it("refuses a bad or missing signature with 400 before doing anything", async () => {
    const { orderId, sessionId } = await placeByCard();
    await stripe.processor.act(sessionId, "pay");
    const completed = lastEvent("checkout.session.completed");
    const forged = await deliver(shop.app, completed, completed.signature.replace(/v1=\w+/, `v1=${"0".repeat(64)}`));
    expect(forged.statusCode).toBe(400);
    const tampered = await deliver(shop.app, { payload: completed.payload.replace('"amount_total":2400', '"amount_total":1'), signature: completed.signature });
    expect(tampered.statusCode).toBe(400);
    const missing = await shop.app.inject({ method: "POST", url: "/api/payments/stripe/webhook", payload: completed.payload, headers: { "content-type": "application/json" } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).not.toMatch(/stack|Error:/);
    expect(await orderOf(orderId)).toMatchObject({ status: "awaiting_payment" });
    expect((await db().select().from(paymentEvents).where(eq(paymentEvents.eventId, JSON.parse(completed.payload).id))).length).toBe(0);
  });

  it("lets the customer's return mark it paid before the webhook, and the webhook then does nothing", async () => {
    const { orderId, number, sessionId } = await placeByCard();
    const { redirect } = await stripe.processor.act(sessionId, "pay");
    const back = await shop.app.inject({ method: "GET", url: pathOf(redirect!) });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toMatch(new RegExp(`^/checkout/thank-you\\?order=${number}&`));
    expect(await orderOf(orderId)).toMatchObject({ status: "paid" });
    expect((await deliver(shop.app, lastEvent("checkout.session.completed"))).json().duplicate).toBe(false);
    expect(await paymentsFor(orderId)).toHaveLength(1);
    expect(await mailsTo(cardOrder.email, `Your order ${number}`)).toBe(1);
  });

  it("applies the webhook first and the return after it once", async () => {
    const { orderId, sessionId } = await placeByCard();
    const { redirect } = await stripe.processor.act(sessionId, "pay");
    await deliver(shop.app, lastEvent("checkout.session.completed"));
    const back = await shop.app.inject({ method: "GET", url: pathOf(redirect!) });
    expect(back.statusCode).toBe(303);
    expect(await paymentsFor(orderId)).toHaveLength(1);
  });

  it("gives one payment and one email when the webhook and the return arrive at the same instant", async () => {
    const { orderId, number, sessionId } = await placeByCard();
    const { redirect } = await stripe.processor.act(sessionId, "pay");
    const event = lastEvent("checkout.session.completed");
    const answers = await Promise.all([deliver(shop.app, event), shop.app.inject({ method: "GET", url: pathOf(redirect!) }), deliver(shop.app, event)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 303]);
    expect(await paymentsFor(orderId)).toHaveLength(1);
    expect(await mailsTo(cardOrder.email, `Your order ${number}`)).toBe(1);
    const paidMoves = await db().select().from(orderStatusHistory).where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.status, "paid")));
    expect(paidMoves).toHaveLength(1);
  });

  it("keeps a slow method's completed session unpaid until its own success event, whichever order they arrive in", async () => {
    const { orderId, sessionId } = await placeByCard();
    await stripe.processor.act(sessionId, "pay_later");
    const completed = lastEvent("checkout.session.completed");
    const succeeded = await stripe.processor.settle(sessionId, true);
    // Out of order: the success first, then the (unpaid) completion, then the success again.
    await deliver(shop.app, succeeded);
    expect(await orderOf(orderId)).toMatchObject({ status: "paid" });
    await deliver(shop.app, completed);
    await deliver(shop.app, succeeded);
    expect(await paymentsFor(orderId)).toHaveLength(1);
    expect(await orderOf(orderId)).toMatchObject({ status: "paid" });
  });

  it("cancels the order and puts its stock back when a slow payment fails", async () => {
    const { orderId, productId, sessionId } = await placeByCard(3);
    await stripe.processor.act(sessionId, "pay_later");
    await deliver(shop.app, lastEvent("checkout.session.completed"));
    expect(await orderOf(orderId)).toMatchObject({ status: "awaiting_payment" });
    await deliver(shop.app, await stripe.processor.settle(sessionId, false));
    expect(await orderOf(orderId)).toMatchObject({ status: "cancelled" });
    expect(await stockOf(productId)).toBe(10);
  });

  it("never marks paid an amount that does not match the order: staff are told", async () => {
    const { orderId, number, sessionId } = await placeByCard();
    // The shop asked for less than the gateway reports (as if the order had changed under it).
    await db().update(paymentSessions).set({ amount: 1200 }).where(eq(paymentSessions.externalId, sessionId));
    await stripe.processor.act(sessionId, "pay");
    expect((await deliver(shop.app, lastEvent("checkout.session.completed"))).statusCode).toBe(200);
    expect(await orderOf(orderId)).toMatchObject({ status: "awaiting_payment" });
    const [session] = await db().select().from(paymentSessions).where(eq(paymentSessions.externalId, sessionId));
    expect(session).toMatchObject({ status: "flagged" });
    expect(session!.problem).toMatch(/GBP 24\.00.*£12\.00 was asked/);
    expect(await paymentsFor(orderId)).toHaveLength(0);
    expect(await mailsTo("shop@example.com", `Card payment to check for ${number}`)).toBe(1);
  });
});

describe("a payment that does not go through", () => {
  it("a declined card leaves the page open; leaving it cancels the order and puts the basket and stock back", async () => {
    const { b, orderId, productId, sessionId } = await placeByCard(2);
    const declined = await stripe.processor.act(sessionId, "decline");
    expect(declined).toEqual({ redirect: null, message: "Your card was declined." });
    expect(stripe.processor.session(sessionId)!.status).toBe("open");
    const left = await b.get(pathOf(stripe.processor.session(sessionId)!.cancelUrl));
    expect(left.statusCode).toBe(303);
    expect(left.headers.location).toBe("/checkout?payment=cancelled");
    expect(stripe.processor.session(sessionId)!.status).toBe("expired");
    expect(await orderOf(orderId)).toMatchObject({ status: "cancelled" });
    expect(await stockOf(productId)).toBe(10);
    const basket = (await b.get("/api/basket")).json().cart;
    expect(basket.items.map((i: { product_id: number; quantity: number }) => [i.product_id, i.quantity])).toEqual([[productId, 2]]);
    // The expiry event that follows changes nothing more.
    await deliver(shop.app, lastEvent("checkout.session.expired"));
    expect(await stockOf(productId)).toBe(10);
  });

  it("a failed authentication is a decline: nothing is taken", async () => {
    const { orderId, sessionId } = await placeByCard();
    await stripe.processor.act(sessionId, "authenticate");
    const failed = await stripe.processor.act(sessionId, "authentication_failed");
    expect(failed.message).toMatch(/unable to authenticate/);
    expect(await paymentsFor(orderId)).toHaveLength(0);
    expect(await orderOf(orderId)).toMatchObject({ status: "awaiting_payment" });
  });

  it("an abandoned page expires: the order is cancelled and its stock goes back", async () => {
    const { orderId, productId, sessionId } = await placeByCard(4);
    expect(await stockOf(productId)).toBe(6);
    stripe.clock.now += 31 * 60_000;
    await stripe.processor.expireOverdue();
    stripe.clock.now -= 31 * 60_000;
    const expired = lastEvent("checkout.session.expired");
    expect(JSON.parse(expired.payload).data.object.id).toBe(sessionId);
    await deliver(shop.app, expired);
    expect(await orderOf(orderId)).toMatchObject({ status: "cancelled" });
    expect(await stockOf(productId)).toBe(10);
  });

  it("refunds in full, automatically, a payment that arrives after its order was cancelled, and tells the customer", async () => {
    const { orderId, number, sessionId } = await placeByCard();
    const { redirect } = await stripe.processor.act(sessionId, "pay");
    // The order was cancelled (as if its expiry had been applied) before the payment's event arrived.
    await db().update(orders).set({ status: "cancelled" }).where(eq(orders.id, orderId));
    await deliver(shop.app, lastEvent("checkout.session.completed"));
    const [paid] = await paymentsFor(orderId);
    expect(paid!.payment.refunded).toBe(2400);
    const [refund] = await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paid!.payment.id));
    expect(refund).toMatchObject({ amount: 2400, source: "automatic", status: "succeeded" });
    expect(refund!.externalId).toMatch(/^re_test_/);
    expect(await mailsTo(cardOrder.email, `Refund for order ${number}`)).toBe(1);
    expect(await orderOf(orderId)).toMatchObject({ status: "cancelled" });
    // The customer's return afterwards shows the order; nothing more is taken or given.
    expect((await shop.app.inject({ method: "GET", url: pathOf(redirect!) })).statusCode).toBe(303);
    expect(await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paid!.payment.id))).toHaveLength(1);
  });

  it("when Stripe is down, says so plainly and leaves no order, the basket and stock as they were", async () => {
    const b = await guest();
    const productId = await product(10);
    await b.post("/api/basket", { product_id: productId, quantity: 3 });
    const [before] = await db().select({ n: count() }).from(orders);
    stripe.processor.failNext(10);
    const res = await b.post("/api/checkout", cardOrder);
    stripe.processor.failNext(0);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/Nothing was charged and your basket is as it was/);
    const [after] = await db().select({ n: count() }).from(orders);
    expect(after!.n).toBe(before!.n);
    expect(await stockOf(productId)).toBe(10);
    const basket = (await b.get("/api/basket")).json().cart;
    expect(basket.items.map((i: { quantity: number }) => i.quantity)).toEqual([3]);
    // And it works on the next try.
    const retry = await b.post("/api/checkout", cardOrder);
    expect(retry.statusCode).toBe(201);
  });

  it("when Stripe is too slow, the same: a clear message and nothing lost", async () => {
    const b = await guest();
    const productId = await product(10);
    await b.post("/api/basket", { product_id: productId, quantity: 1 });
    stripe.processor.delay(2_500);
    const res = await b.post("/api/checkout", cardOrder).finally(() => stripe.processor.delay(0));
    expect(res.statusCode).toBe(503);
    expect(await stockOf(productId)).toBe(10);
    expect((await b.get("/api/basket")).json().cart.items).toHaveLength(1);
  });

  it("shows a customer back from the payment page by the Back button their waiting order, to pay or to cancel with the basket back", async () => {
    const { b, orderId, productId, number, sessionId, body } = await placeByCard(2);
    const waiting = (await b.get("/api/checkout/card-payment")).json().data;
    expect(waiting).toEqual({ order_number: number, total: 24, redirect_url: body.payment.redirect_url });
    expect((await (await guest()).get("/api/checkout/card-payment")).json().data).toBeNull();
    expect((await (await guest()).post("/api/checkout/card-payment/cancel", {})).statusCode).toBe(404);
    const cancelled = await b.post("/api/checkout/card-payment/cancel", {});
    expect(cancelled.statusCode).toBe(200);
    expect(stripe.processor.session(sessionId)!.status).toBe("expired");
    expect(await orderOf(orderId)).toMatchObject({ status: "cancelled" });
    expect(await stockOf(productId)).toBe(10);
    expect((await b.get("/api/basket")).json().cart.items.map((i: { quantity: number }) => i.quantity)).toEqual([2]);
    expect((await b.get("/api/checkout/card-payment")).json().data).toBeNull();
    expect((await b.post("/api/checkout/card-payment/cancel", {})).statusCode).toBe(404);
  });

  it("offers card payment in the payment methods", async () => {
    const b = await guest();
    await b.post("/api/basket", { product_id: await product(10), quantity: 1 });
    const data = (await b.get("/api/checkout/delivery-options")).json().data;
    expect(data.payment.find((p: { id: string }) => p.id === "card")).toMatchObject({ name: "Card" });
  });
});

describe("refunds from the orders desk", () => {
  async function paidOrder(quantity = 2) {
    const placed = await placeByCard(quantity);
    await stripe.processor.act(placed.sessionId, "pay");
    await deliver(shop.app, lastEvent("checkout.session.completed"));
    return placed;
  }
  async function staffAs(email: string) {
    const s = new TestBrowser(shop.app, `192.0.2.${ip++ % 250}`);
    await s.staffSignIn(email, "demo-password-2026");
    return s;
  }

  it("refunds one line, then refuses a further amount that would pass what was paid", async () => {
    const { number, orderId, b, body } = await paidOrder(2);
    const accounts = await staffAs("accounts@staff.example.com");
    const detail = (await accounts.get(`/api/admin/orders/${number}`)).json();
    const lineId = detail.lines[0].id;
    const one = await accounts.post(`/api/admin/orders/${number}/refunds`, { lines: [{ line_id: lineId, quantity: 1 }], reason: "One arrived damaged" });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toMatchObject({ paid: 24, refunded: 12, refundable: 12, refunded_lines: { [lineId]: 1 } });
    const tooMuch = await accounts.post(`/api/admin/orders/${number}/refunds`, { amount: 12.01, reason: "Goodwill" });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount[0]).toBe(`At most £12.00 can still be refunded on ${number}.`);
    const tooMany = await accounts.post(`/api/admin/orders/${number}/refunds`, { lines: [{ line_id: lineId, quantity: 2 }], reason: "Both" });
    expect(tooMany.statusCode).toBe(422);
    expect(await mailsTo(cardOrder.email, `Refund for order ${number}`)).toBe(1);
    const [paid] = await paymentsFor(orderId);
    expect(paid!.payment.refunded).toBe(1200);
    // The customer's own view of the order says what came back to the card.
    const signed = new URL(body.order.redirect, "http://shop.test").searchParams;
    const theirs = (await b.get(`/api/checkout/orders/${number}?expires=${signed.get("expires")}&signature=${signed.get("signature")}`)).json().data;
    expect(theirs).toMatchObject({ status: "paid", total: 24, refunded: 12 });
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.entityId, number), eq(auditLog.action, "order.refund")));
    expect(audit).toMatchObject({ via: "api", after: expect.objectContaining({ refund: 12, reason: "One arrived damaged" }) });
  });

  it("keeps a sales member within their refund limit", async () => {
    const { number } = await paidOrder(1);
    await db().update(staff).set({ refundLimit: 200 }).where(eq(staff.email, "sales@staff.example.com"));
    const sales = await staffAs("sales@staff.example.com");
    const refused = await sales.post(`/api/admin/orders/${number}/refunds`, { amount: 5, reason: "Goodwill" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Your refund limit is £2.00; ask a manager or the accounts team to refund £5.00.");
    expect((await sales.post(`/api/admin/orders/${number}/refunds`, { amount: 2, reason: "Goodwill" })).statusCode).toBe(200);
    const warehouse = await staffAs("warehouse@staff.example.com");
    expect((await warehouse.post(`/api/admin/orders/${number}/refunds`, { amount: 1, reason: "x" })).statusCode).toBe(403);
  });

  it("holds a sales member's limit over everything they refund on an order, not each refund alone", async () => {
    const { number, orderId } = await paidOrder(2);
    const sales = await staffAs("sales@staff.example.com");
    await db().update(staff).set({ refundLimit: 1000 }).where(eq(staff.email, "sales@staff.example.com"));
    expect((await sales.post(`/api/admin/orders/${number}/refunds`, { amount: 6, reason: "Goodwill" })).statusCode).toBe(200);
    // £6 then £6: each under the £10 limit, together over it.
    const second = await sales.post(`/api/admin/orders/${number}/refunds`, { amount: 6, reason: "More goodwill" });
    expect(second.statusCode).toBe(403);
    expect(second.json().message).toBe("Your refund limit is £10.00 an order, and you have refunded £6.00 on this one; ask a manager or the accounts team to refund £6.00.");
    expect((await sales.post(`/api/admin/orders/${number}/refunds`, { amount: 4, reason: "The rest of the limit" })).statusCode).toBe(200);
    // Another order is a limit of its own; a manager has none.
    const other = await paidOrder(1);
    expect((await sales.post(`/api/admin/orders/${other.number}/refunds`, { amount: 6, reason: "Goodwill" })).statusCode).toBe(200);
    const manager = await staffAs("manager@staff.example.com");
    expect((await manager.post(`/api/admin/orders/${number}/refunds`, { amount: 5, reason: "Manager's" })).statusCode).toBe(200);
    const [paid] = await paymentsFor(orderId);
    expect(paid!.payment.refunded).toBe(1500);
  });

  it("whole refunds sent together make one refund; the others are told it is refunded in full", async () => {
    const { number, orderId } = await paidOrder(2);
    const accounts = await staffAs("accounts@staff.example.com");
    const answers = await Promise.all(Array.from({ length: 8 }, () => accounts.post(`/api/admin/orders/${number}/refunds`, { reason: "Whole" })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().message).toBe(`${number} is already refunded in full.`);
    const [paid] = await paymentsFor(orderId);
    expect(paid!.payment.refunded).toBe(2400);
    expect(await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paid!.payment.id))).toHaveLength(1);
  });

  it("shows a refund made in Stripe's own dashboard, once", async () => {
    const { number, orderId } = await paidOrder(1);
    const [paid] = await paymentsFor(orderId);
    await stripe.processor.dashboardRefund(paid!.payment.externalId, 500);
    await deliver(shop.app, lastEvent("refund.created"));
    await deliver(shop.app, lastEvent("charge.refunded"));
    await deliver(shop.app, lastEvent("charge.refunded"));
    const accounts = await staffAs("accounts@staff.example.com");
    const view = (await accounts.get(`/api/admin/orders/${number}/payment`)).json().data;
    expect(view).toMatchObject({ paid: 12, refunded: 5, refundable: 7 });
    expect(view.refunds).toEqual([expect.objectContaining({ amount: 5, source: "gateway", status: "succeeded" })]);
  });

  it("refuses partial refunds that together would pass the payment, even at the same moment", async () => {
    const { number, orderId } = await paidOrder(2);
    const accounts = await staffAs("accounts@staff.example.com");
    const manager = await staffAs("manager@staff.example.com");
    const answers = await Promise.all([
      accounts.post(`/api/admin/orders/${number}/refunds`, { amount: 15, reason: "Part" }),
      manager.post(`/api/admin/orders/${number}/refunds`, { amount: 15, reason: "Part" }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    const [paid] = await paymentsFor(orderId);
    expect(paid!.payment.refunded).toBe(1500);
  });

  it("emails the customer once when Stripe's webhook settles the refund before its API call has answered", async () => {
    const { number, orderId } = await paidOrder(1);
    const accounts = await staffAs("accounts@staff.example.com");
    stripe.processor.deliverTo(async (event) => void (await deliver(shop.app, event)));
    const res = await accounts.post(`/api/admin/orders/${number}/refunds`, { amount: 4, reason: "Goodwill" }).finally(() => stripe.processor.deliverTo(null));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.refunds).toEqual([expect.objectContaining({ amount: 4, status: "succeeded", source: "staff" })]);
    expect(await mailsTo(cardOrder.email, `Refund for order ${number}`)).toBe(1);
    const [paid] = await paymentsFor(orderId);
    expect(paid!.payment.refunded).toBe(400);
  });

  it("when the gateway refuses, nothing is refunded and the amount stays refundable", async () => {
    const { number, orderId } = await paidOrder(1);
    const accounts = await staffAs("accounts@staff.example.com");
    stripe.processor.failNext(10);
    const res = await accounts.post(`/api/admin/orders/${number}/refunds`, { amount: 3, reason: "Goodwill" });
    stripe.processor.failNext(0);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe("The card refund could not be made, so nothing was refunded. Please try again in a moment.");
    const [paid] = await paymentsFor(orderId);
    expect(paid!.payment.refunded).toBe(0);
  });
});

describe("on PostgreSQL", () => {
  it.runIf(!!process.env.TEST_DATABASE_URL)("20 concurrent deliveries of one event change the order once", async () => {
    const { orderId, number, sessionId } = await placeByCard();
    await stripe.processor.act(sessionId, "pay");
    const event = lastEvent("checkout.session.completed");
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(shop.app, event)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
    expect(await paymentsFor(orderId)).toHaveLength(1);
    expect(await mailsTo(cardOrder.email, `Your order ${number}`)).toBe(1);
    const moves = await db().select().from(orderStatusHistory).where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.status, "paid")));
    expect(moves).toHaveLength(1);
  });
});
