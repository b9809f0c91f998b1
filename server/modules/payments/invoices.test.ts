// Trade invoices paid by card (issue 19): one payment page for several
// invoices, allocated to exactly those invoices once, however often and in
// whatever order the webhook and the customer's return arrive; a page left
// unpaid gives the invoices back; Stripe down leaves nothing behind. The real
// `stripe` SDK against the fake on loopback (server/test/payments.ts).
// The races prove most on PostgreSQL:
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/payments/invoices.test.ts
import { and, count, eq, inArray, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { cardPaymentShop, deliver, pathOf, sessionIdOf } from "../../test/payments.ts";
import type { TestBrowser } from "../../test/browser.ts";
import { mailOutbox } from "../mail/schema.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "../trade/credit/remittance-schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { isoDay, tradeFixtures } from "../trade/test-fixtures.ts";
import { paymentRefunds, paymentSessions, payments } from "./schema.ts";
import { PAYMENT_MESSAGES } from "./service.ts";
import { servicesOf } from "../../test/app.ts";

const card = cardPaymentShop();
const db = () => card.shop.database.db;
const { company, invoiceFor } = tradeFixtures(() => card.shop);
type Company = Awaited<ReturnType<typeof company>>;

const invoice = (c: Company, unit: number) => invoiceFor(c.accountId, c.buyer.id, { po: `PO-${unit}`, invoiceDate: isoDay(-10), dueDate: isoDay(20), lines: [{ name: "Copper pipe", qty: 1, unit, rate: 20 }] });
const payByCard = (b: TestBrowser, ids: number[]) => b.post("/api/trade/invoices/pay", { invoice_ids: ids, provider: "card" });
const statuses = async (ids: number[]) =>
  (await db().select({ id: tradeInvoices.id, status: tradeInvoices.status }).from(tradeInvoices).where(inArray(tradeInvoices.id, ids)).orderBy(tradeInvoices.id)).map((i) => i.status);
const balanceOf = async (c: Company) => (await db().select({ balance: tradeAccounts.balance }).from(tradeAccounts).where(eq(tradeAccounts.id, c.accountId)))[0]!.balance;
const remittanceOf = async (reference: string) => (await db().select().from(tradeRemittances).where(eq(tradeRemittances.reference, reference)))[0];
const remittancesOf = async (c: Company) => db().select().from(tradeRemittances).where(eq(tradeRemittances.tradeAccountId, c.accountId));
const { lastEvent } = card;

/** A company with three unpaid invoices (£12, £24 and £60 with VAT), paid at once by card by its accounts user. */
async function threePaidByCard(name: string) {
  const c = await company(name);
  const invoices = [await invoice(c, 1000), await invoice(c, 2000), await invoice(c, 5000)];
  const ids = invoices.map((i) => i.id);
  const res = await payByCard(c.accounts.browser, ids);
  expect(res.statusCode, res.body).toBe(201);
  const data = res.json().data;
  return { c, invoices, ids, data, sessionId: sessionIdOf(data.payment.redirect_url), total: invoices.reduce((s, i) => s + i.total, 0) };
}

describe("paying trade invoices by card", () => {
  it("opens one payment page for exactly the invoices' total, and holds them as payment pending", async () => {
    const { c, ids, data, sessionId, total } = await threePaidByCard("Card Openers Ltd");
    expect(total).toBe(9600);
    expect(data.payment.redirect_url).toMatch(/^http:\/\/shop\.test\/payments\/test\/cs_test_/);
    expect(data.remittance).toMatchObject({ reference: expect.stringMatching(/^REM-\d{6}$/), amount: 96, provider: "card", status: "pending" });
    expect(data.instructions).toMatchObject({ provider: "card", reference: data.remittance.reference, amount: 96, pay_to: null });
    expect(card.stripe.processor.session(sessionId)).toMatchObject({ amount: 9600, currency: "gbp", status: "open", email: c.accounts.email });
    expect(await statuses(ids)).toEqual(["payment_pending", "payment_pending", "payment_pending"]);
    const [session] = await db().select().from(paymentSessions).where(eq(paymentSessions.externalId, sessionId));
    expect(session).toMatchObject({ purpose: "invoices", amount: 9600, status: "open", remittanceId: (await remittanceOf(data.remittance.reference))!.id });
  });

  it("marks all three paid and lowers the balance by exactly their total, once, when the webhook comes twice and the return at the same time", async () => {
    const { c, ids, data, sessionId, total } = await threePaidByCard("Card Payers Ltd");
    const before = await balanceOf(c);
    const { redirect } = await card.stripe.processor.act(sessionId, "pay");
    const event = lastEvent("checkout.session.completed");
    const answers = await Promise.all([deliver(card.shop.app, event), card.shop.app.inject({ method: "GET", url: pathOf(redirect!) }), deliver(card.shop.app, event)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 303]);
    const back = answers.find((a) => a.statusCode === 303)!;
    expect(back.headers.location).toBe(`/trade/invoices/pay?paid=${data.remittance.reference}`);
    expect(await statuses(ids)).toEqual(["paid", "paid", "paid"]);
    expect(await balanceOf(c)).toBe(before - total);
    expect(await remittanceOf(data.remittance.reference)).toMatchObject({ status: "confirmed" });
    const paid = await db().select({ payment: payments }).from(payments).innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId)).where(eq(paymentSessions.externalId, sessionId));
    expect(paid.map((p) => p.payment.amount)).toEqual([9600]);
    // One receipt for the three, naming the payment it completes.
    const receipts = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, "accounts@fitters.example.com"), like(mailOutbox.text, `%${data.remittance.reference}%`)));
    expect(receipts.map((m) => m.subject)).toEqual(["Receipt: 3 invoices paid"]);
    expect(receipts[0]!.text).toContain("we have received £96.00 by card for invoices");
    // A later return, or the event again, changes nothing.
    expect((await card.shop.app.inject({ method: "GET", url: pathOf(redirect!) })).statusCode).toBe(303);
    expect((await deliver(card.shop.app, event)).json().duplicate).toBe(true);
    expect(await balanceOf(c)).toBe(before - total);
    const listed = (await c.owner.browser.get("/api/trade/remittances")).json().data;
    expect(listed[0]).toMatchObject({ reference: data.remittance.reference, provider: "card", status: "confirmed" });
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("gives the invoices back, unpaid, when a declined card's page is left", async () => {
    const { c, ids, data, sessionId } = await threePaidByCard("Card Decliners Ltd");
    const before = await balanceOf(c);
    expect((await card.stripe.processor.act(sessionId, "decline")).message).toBe("Your card was declined.");
    const left = await c.accounts.browser.get(pathOf(card.stripe.processor.session(sessionId)!.cancelUrl));
    expect(left.statusCode).toBe(303);
    expect(left.headers.location).toBe("/trade/invoices/pay?payment=cancelled");
    expect(card.stripe.processor.session(sessionId)!.status).toBe("expired");
    expect(await statuses(ids)).toEqual(["unpaid", "unpaid", "unpaid"]);
    expect(await remittanceOf(data.remittance.reference)).toBeUndefined();
    expect(await balanceOf(c)).toBe(before);
    // The expiry event that follows changes nothing, and the invoices can be paid again.
    expect((await deliver(card.shop.app, lastEvent("checkout.session.expired"))).statusCode).toBe(200);
    const again = await c.accounts.browser.post("/api/trade/invoices/pay", { invoice_ids: ids });
    expect(again.statusCode).toBe(201);
    expect(await statuses(ids)).toEqual(["payment_pending", "payment_pending", "payment_pending"]);
  });

  it("gives the invoices back when the page is abandoned and expires", async () => {
    const { ids, data, sessionId } = await threePaidByCard("Card Abandoners Ltd");
    card.stripe.clock.now += 31 * 60_000;
    await card.stripe.processor.expireOverdue();
    card.stripe.clock.now -= 31 * 60_000;
    const expired = lastEvent("checkout.session.expired");
    expect(JSON.parse(expired.payload).data.object.id).toBe(sessionId);
    await deliver(card.shop.app, expired);
    expect(await statuses(ids)).toEqual(["unpaid", "unpaid", "unpaid"]);
    expect(await remittanceOf(data.remittance.reference)).toBeUndefined();
  });

  it("answers 503 with a clear message when Stripe is down, and leaves the invoices unpaid with no remittance", async () => {
    const c = await company("Card Outage Ltd");
    const ids = [(await invoice(c, 1000)).id, (await invoice(c, 3000)).id];
    card.stripe.processor.failNext(10);
    const res = await payByCard(c.accounts.browser, ids).finally(() => card.stripe.processor.failNext(0));
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(PAYMENT_MESSAGES.invoicesUnavailable);
    expect(await statuses(ids)).toEqual(["unpaid", "unpaid"]);
    expect(await remittancesOf(c)).toEqual([]);
    // And it works on the next try.
    expect((await payByCard(c.accounts.browser, ids)).statusCode).toBe(201);
  });

  it("answers 404 for another company's invoice, opening no page", async () => {
    const a = await company("Card Owners Ltd");
    const b = await company("Card Strangers Ltd");
    const theirs = await invoice(a, 1000);
    const [sessionsBefore] = await db().select({ n: count() }).from(paymentSessions);
    const res = await payByCard(b.owner.browser, [theirs.id]);
    expect(res.statusCode).toBe(404);
    expect(await statuses([theirs.id])).toEqual(["unpaid"]);
    expect(await remittancesOf(b)).toEqual([]);
    const [sessionsAfter] = await db().select({ n: count() }).from(paymentSessions);
    expect(sessionsAfter!.n).toBe(sessionsBefore!.n);
    // A buyer (who may not see invoices) gets the same.
    expect((await payByCard(a.buyer.browser, [theirs.id])).statusCode).toBe(404);
  });

  it("never pays an invoice twice: one paid another way meanwhile is refunded to the card", async () => {
    const { c, invoices, ids, data, sessionId, total } = await threePaidByCard("Card Overlappers Ltd");
    const before = await balanceOf(c);
    // Staff saw the first invoice's money arrive by bank before the card payment came in.
    const services = servicesOf(card.shop);
    await services.tradeStaff.markInvoicePaid(invoices[0]!.number);
    await card.stripe.processor.act(sessionId, "pay");
    await deliver(card.shop.app, lastEvent("checkout.session.completed"));
    expect(await statuses(ids)).toEqual(["paid", "paid", "paid"]);
    expect(await balanceOf(c)).toBe(before - total);
    expect(await remittanceOf(data.remittance.reference)).toMatchObject({ status: "confirmed" });
    const [paid] = await db().select({ payment: payments }).from(payments).innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId)).where(eq(paymentSessions.externalId, sessionId));
    expect(paid!.payment.refunded).toBe(invoices[0]!.total);
    const refunds = await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paid!.payment.id));
    expect(refunds).toEqual([expect.objectContaining({ amount: invoices[0]!.total, source: "automatic", status: "succeeded" })]);
    const [refundMail] = await db().select().from(mailOutbox).where(eq(mailOutbox.subject, `Refund for ${data.remittance.reference}`));
    expect(refundMail!.text).toContain("£12.00 of your card payment");
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("links the remittance to exactly the invoices paid", async () => {
    const { ids, data } = await threePaidByCard("Card Linkers Ltd");
    const remittance = await remittanceOf(data.remittance.reference);
    const links = await db().select().from(tradeRemittanceInvoices).where(eq(tradeRemittanceInvoices.remittanceId, remittance!.id));
    expect(links.map((l) => l.invoiceId).sort((x, y) => x - y)).toEqual(ids);
  });
});
