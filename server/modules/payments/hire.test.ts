// Approved hires paid by card (issue 19): a customer without a trade account
// gets a payment link in the confirmation email; the link is the shop's, so
// it outlives any one payment page, opens a page for the hire and its
// deposit (or the one still open), and once paid sends the browser to the
// customer's hire requests. The real `stripe` SDK against the fake on
// loopback (server/test/payments.ts).
import { and, count, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type createServices } from "../../services.ts";
import { TestBrowser } from "../../test/browser.ts";
import { cardPaymentShop, deliver, pathOf, sessionIdOf } from "../../test/payments.ts";
import { mailOutbox } from "../mail/schema.ts";
import { tradeFixtures } from "../trade/test-fixtures.ts";
import { hireItems, hireRequests } from "../hire/schema.ts";
import { addDays, londonDate } from "../hire/pricing.ts";
import { paymentRefunds, paymentSessions, payments } from "./schema.ts";
import { servicesOf } from "../../test/app.ts";

const card = cardPaymentShop();
let services: ReturnType<typeof createServices>;
beforeAll(() => {
  // Staff decide through the services, as the shop's command line does, with the same gateway as the app.
  services = servicesOf(card.shop, { gateway: card.stripe.gateway });
});

const db = () => card.shop.database.db;
const { company } = tradeFixtures(() => card.shop);
const { lastEvent } = card;
const LINK = /\/api\/payments\/hire\/[A-Za-z0-9_-]+/;

let seq = 0;
let window = 10;
/** A hire request sent from `browser` (a new guest by default) for a cement mixer, on dates of its own. */
async function hireRequest(browser?: TestBrowser) {
  seq += 1;
  const b = browser ?? new TestBrowser(card.shop.app, `198.18.7.${seq % 250}`);
  if (!browser) await b.csrf();
  const [item] = await db().select({ id: hireItems.id }).from(hireItems).where(eq(hireItems.slug, "cement-mixer-110v"));
  const start = (window += 3);
  const added = await b.post("/api/hire-basket", { hire_item_id: item!.id, quantity: 1, start_date: addDays(londonDate(), start), end_date: addDays(londonDate(), start + 2) });
  expect(added.statusCode, added.body).toBe(200);
  const email = `hirer.${seq}.${Date.now()}@example.co.uk`;
  const made = await b.post("/api/hire-requests", { name: "Hana Hirer", email, phone: "07700 900222", company: "", fulfilment: "collection" });
  expect(made.statusCode, made.body).toBe(201);
  const number = made.json().number as string;
  const [row] = await db().select().from(hireRequests).where(eq(hireRequests.number, number));
  return { b, number, email, row: row!, total: row!.hireCost + row!.vat + row!.deposit };
}

async function confirmationTo(email: string, number: string) {
  const [mail] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, `Hire request ${number}: confirmed`)));
  return mail!;
}

/** A guest's request, confirmed: its emailed payment link. */
async function confirmed() {
  const request = await hireRequest();
  await services.hireRequests.decide(request.number, "confirm", await services.staff.systemActor());
  const mail = await confirmationTo(request.email, request.number);
  const link = LINK.exec(mail.text)?.[0];
  return { ...request, mail, link: link! };
}

const follow = (url: string) => card.shop.app.inject({ method: "GET", url });
const requestOf = async (number: string) => (await db().select().from(hireRequests).where(eq(hireRequests.number, number)))[0]!;
const sessionsOf = async (id: number) => db().select().from(paymentSessions).where(eq(paymentSessions.hireRequestId, id)).orderBy(paymentSessions.id);
const mailsTo = async (to: string, subject: string) => (await db().select({ n: count() }).from(mailOutbox).where(and(eq(mailOutbox.to, to), like(mailOutbox.subject, `%${subject}%`))))[0]!.n;

describe("paying a confirmed hire by card", () => {
  it("emails a payment link for the hire with VAT and the deposit, whose hash alone is kept", async () => {
    const { mail, link, row, total } = await confirmed();
    expect(link).toBeDefined();
    expect(mail.text).toContain(`${card.shop.config.publicUrl}${link}`);
    const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;
    expect(mail.text).toContain(`the hire is ${money(row.hireCost + row.vat)} including VAT, and the refundable deposit ${money(row.deposit)}; ${money(total)} in all.`);
    expect(mail.html).toContain(`Pay ${money(total)} by card`);
    const stored = await requestOf(row.number);
    expect(stored.payTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.payTokenHash).not.toContain(link.split("/").pop()!);
    expect(stored).toMatchObject({ status: "confirmed", paidAt: null, paidAmount: null });
  });

  it("opens a payment page for exactly that amount when followed, and the same page when followed again", async () => {
    const { link, row, total, email } = await confirmed();
    const first = await follow(link);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toMatch(/^http:\/\/shop\.test\/payments\/test\/cs_test_/);
    expect(first.headers["cache-control"]).toBe("private, no-store");
    const sessionId = sessionIdOf(first.headers.location as string);
    expect(card.stripe.processor.session(sessionId)).toMatchObject({ amount: total, currency: "gbp", status: "open", email });
    const again = await follow(link);
    expect(again.headers.location).toBe(first.headers.location);
    expect(await sessionsOf(row.id)).toEqual([expect.objectContaining({ purpose: "hire", amount: total, status: "open" })]);
  });

  it("marks the request paid once, with one receipt, when the webhook comes twice and the return at the same time; the link then goes to the hire requests", async () => {
    const { link, row, total, email, number } = await confirmed();
    const sessionId = sessionIdOf((await follow(link)).headers.location as string);
    const { redirect } = await card.stripe.processor.act(sessionId, "pay");
    const event = lastEvent("checkout.session.completed");
    const answers = await Promise.all([deliver(card.shop.app, event), follow(pathOf(redirect!)), deliver(card.shop.app, event)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 303]);
    expect(answers.find((a) => a.statusCode === 303)!.headers.location).toBe(`/account/hire-requests?paid=${number}`);
    const paid = await requestOf(number);
    expect(paid.paidAt).toBeInstanceOf(Date);
    expect(paid.paidAmount).toBe(total);
    const taken = await db().select({ payment: payments }).from(payments).innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId)).where(eq(paymentSessions.hireRequestId, row.id));
    expect(taken.map((t) => t.payment.amount)).toEqual([total]);
    expect(await mailsTo(email, `Receipt: hire request ${number} paid`)).toBe(1);
    // Following the link after: no second payment page.
    const after = await follow(link);
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe(`/account/hire-requests?paid=${number}`);
    expect(await sessionsOf(row.id)).toHaveLength(1);
  });

  it("shows the payment in the customer's hire requests", async () => {
    const b = new TestBrowser(card.shop.app, "198.18.8.1");
    await b.csrf();
    const email = `hire.account.${Date.now()}@example.co.uk`;
    expect((await b.register("Hana", "Hirer", email)).statusCode).toBe(201);
    const { number, total } = await hireRequest(b);
    await services.hireRequests.decide(number, "confirm", await services.staff.systemActor());
    const listed = async () => ((await b.get("/api/account/hire-requests")).json().data as { number: string; paid: number | null; paid_at: string | null }[]).find((r) => r.number === number)!;
    expect(await listed()).toMatchObject({ paid: null, paid_at: null });
    const link = LINK.exec((await confirmationTo(await requestOf(number).then((r) => r.email), number)).text)![0];
    const sessionId = sessionIdOf((await follow(link)).headers.location as string);
    await card.stripe.processor.act(sessionId, "pay");
    await deliver(card.shop.app, lastEvent("checkout.session.completed"));
    expect(await listed()).toMatchObject({ paid: total / 100, paid_at: expect.any(String) });
  });

  it("opens a new page after one was left unpaid, and never two at once", async () => {
    const { link, row, number } = await confirmed();
    const first = sessionIdOf((await follow(link)).headers.location as string);
    const left = await follow(pathOf(card.stripe.processor.session(first)!.cancelUrl));
    expect(left.statusCode).toBe(303);
    expect(left.headers.location).toBe("/account/hire-requests?payment=cancelled");
    expect(card.stripe.processor.session(first)!.status).toBe("expired");
    expect(await requestOf(number)).toMatchObject({ status: "confirmed", paidAt: null });
    const second = sessionIdOf((await follow(link)).headers.location as string);
    expect(second).not.toBe(first);
    expect((await sessionsOf(row.id)).map((s) => s.status)).toEqual(["expired", "open"]);
    await card.stripe.processor.act(second, "pay");
    await deliver(card.shop.app, lastEvent("checkout.session.completed"));
    expect((await requestOf(number)).paidAt).toBeInstanceOf(Date);
  });

  it("asks the payment service about a page past its expiry before opening another: one paid meanwhile counts", async () => {
    const { link, row, number } = await confirmed();
    const sessionId = sessionIdOf((await follow(link)).headers.location as string);
    await card.stripe.processor.act(sessionId, "pay");
    // The event never came, and the page's time has passed.
    await db().update(paymentSessions).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(paymentSessions.externalId, sessionId));
    const res = await follow(link);
    expect(res.headers.location).toBe(`/account/hire-requests?paid=${number}`);
    expect(await sessionsOf(row.id)).toEqual([expect.objectContaining({ status: "paid" })]);
  });

  it("refunds in full a payment that arrives after the request was declined, and the link no longer pays", async () => {
    const { link, number, email } = await confirmed();
    const sessionId = sessionIdOf((await follow(link)).headers.location as string);
    await card.stripe.processor.act(sessionId, "pay");
    await services.hireRequests.decide(number, "decline", await services.staff.systemActor());
    await deliver(card.shop.app, lastEvent("checkout.session.completed"));
    expect(await requestOf(number)).toMatchObject({ status: "declined", paidAt: null });
    const [taken] = await db().select({ payment: payments }).from(payments).innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId)).where(eq(paymentSessions.externalId, sessionId));
    expect(taken!.payment.refunded).toBe(taken!.payment.amount);
    expect(await db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, taken!.payment.id))).toEqual([expect.objectContaining({ source: "automatic", status: "succeeded" })]);
    expect(await mailsTo(email, `Refund for hire request ${number}`)).toBe(1);
    const refused = await follow(link);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`Hire request ${number} is declined, so it cannot be paid by card. Please contact us.`);
  });

  it("answers 404 for a made-up link", async () => {
    expect((await follow(`/api/payments/hire/${"x".repeat(32)}`)).statusCode).toBe(404);
    expect((await follow("/api/payments/hire/short")).statusCode).toBe(422);
  });
});

describe("confirmations without a payment link", () => {
  it("a trade member's hire goes on account: the email says so and carries no link", async () => {
    const c = await company("Hire On Account Ltd");
    const { number, email } = await hireRequest(c.buyer.browser);
    await services.hireRequests.decide(number, "confirm", await services.staff.systemActor());
    const mail = await confirmationTo(email, number);
    expect(mail.text).not.toMatch(LINK);
    expect(mail.text).toContain("The hire goes on Hire On Account Ltd's trade account, so there is nothing to pay now.");
    expect((await requestOf(number)).payTokenHash).toBeNull();
  });

  it("without card payment, the confirmation is as it was", async () => {
    const noCards = servicesOf(card.shop, { gateway: null });
    const { number, email } = await hireRequest();
    await noCards.hireRequests.decide(number, "confirm", await noCards.staff.systemActor());
    const mail = await confirmationTo(email, number);
    expect(mail.text).not.toMatch(LINK);
    expect(mail.text).not.toContain("trade account");
    expect((await requestOf(number)).payTokenHash).toBeNull();
  });
});
