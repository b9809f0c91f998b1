// Settling a card customer's hire (issue 21, ADR 0039): what was paid up
// front (the hire and its deposit) comes off the final charges; what is left
// is paid through a new emailed link (and the account page's button), what
// was paid over is refunded through the payments module. The real `stripe`
// SDK against the fake on loopback (server/test/payments.ts).
import { and, desc, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type createServices } from "../../../services.ts";
import { TestBrowser } from "../../../test/browser.ts";
import { cardPaymentShop, deliver, sessionIdOf } from "../../../test/payments.ts";
import { mailOutbox } from "../../mail/schema.ts";
import { paymentRefunds, paymentSessions, payments } from "../../payments/schema.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { addDays, londonDate } from "../pricing.ts";
import { hireCategories, hireItems, hireRequests, hireUnits } from "../schema.ts";
import { servicesOf } from "../../../test/app.ts";

const card = cardPaymentShop();
let services: ReturnType<typeof createServices>;
let staff: StaffActor;
const db = () => card.shop.database.db;
const LINK = /\/api\/payments\/hire\/[A-Za-z0-9_-]+/;
const follow = (url: string) => card.shop.app.inject({ method: "GET", url });
let seq = 0;

beforeAll(async () => {
  services = servicesOf(card.shop, { gateway: card.stripe.gateway });
  staff = await services.staff.systemActor();
});

/** £10 a day, £40 a week, £50 deposit: a Monday-to-Wednesday hire, paid up front by card (£24 hire with VAT + £50 deposit). */
async function paidHire(browser?: TestBrowser) {
  seq += 1;
  const [category] = await db().select().from(hireCategories).limit(1);
  const [item] = await db().insert(hireItems).values({ slug: `card-drill-${seq}`, name: "Card Drill", hireCategoryId: category!.id, dayRate: 1000, weekendRate: 1500, weekRate: 4000, deposit: 5000 }).returning();
  await db().insert(hireUnits).values({ hireItemId: item!.id, assetNumber: `CARD-${seq}` });
  let start = addDays(londonDate(), 7);
  while (new Date(`${start}T12:00:00Z`).getUTCDay() !== 1) start = addDays(start, 1);
  const b = browser ?? new TestBrowser(card.shop.app, `198.18.9.${seq}`);
  if (!browser) await b.csrf();
  await b.post("/api/hire-basket", { hire_item_id: item!.id, quantity: 1, start_date: start, end_date: addDays(start, 2) });
  const email = `card.hirer.${seq}@example.co.uk`;
  const number = (await b.post("/api/hire-requests", { name: "Cara Card", email, phone: "07700 900666", company: "", fulfilment: "collection" })).json().number as string;
  await services.hireOperations.approve(staff, number, {});
  const [mail] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, `Hire request ${number}: confirmed`)));
  const link = LINK.exec(mail!.text)![0];
  const sessionId = sessionIdOf((await follow(link)).headers.location as string);
  await card.stripe.processor.act(sessionId, "pay");
  await deliver(card.shop.app, card.lastEvent("checkout.session.completed"));
  const [row] = await db().select().from(hireRequests).where(eq(hireRequests.number, number));
  expect(row!.paidAmount).toBe(2400 + 5000);
  const detail = await services.hireOperations.show(staff, number);
  const out = await services.hireOperations.handOver(staff, number, { allocation_id: detail.lines[0]!.units[0]!.allocation_id, asset_number: `CARD-${seq}`, condition: "Good", id_checked: false });
  return { number, email, start, handover: out.handover_id, link };
}

describe("settling a hire paid up front by card", () => {
  it("emails a link for what is left after the up-front payment, and marks the hire completed once it is paid", async () => {
    const b = new TestBrowser(card.shop.app, "198.18.9.200");
    await b.csrf();
    const email = `card.account.${Date.now()}@example.co.uk`;
    expect((await b.register("Cara", "Card", email)).statusCode).toBe(201);
    const { number, start, handover } = await paidHire(b);
    // Back four days late with £100 of damage: £20 hire, £40 late (the week rate caps four days), £100 damage, with VAT £192; less £74 paid.
    await services.hireOperations.returnUnit(staff, number, handover, { returned_on: addDays(start, 6), condition: "Cracked casing", charges: [{ kind: "damage", reason: "Cracked casing", amount: 10000 }] });
    const settled = await services.hireOperations.settle(staff, number, { method: "card" });
    expect(settled).toMatchObject({ status: "returned", settlement: "card", final_total: 19200, due: 19200 - 7400 });
    const [mail] = await db().select().from(mailOutbox).where(and(like(mailOutbox.subject, `Final charges for hire request ${number}`))).orderBy(desc(mailOutbox.id)).limit(1);
    expect(mail!.text).toContain("Left to pay: £118.00");
    const link = LINK.exec(mail!.text)![0];

    // The account page offers the same payment.
    const listed = (await b.get("/api/account/hire-requests")).json().data.find((r: { number: string }) => r.number === number);
    expect(listed).toMatchObject({ status: "returned", final_total: 192, pay_now: 118, settlement: "card" });

    const sessionId = sessionIdOf((await follow(link)).headers.location as string);
    expect(card.stripe.processor.session(sessionId)).toMatchObject({ amount: 11800 });
    await card.stripe.processor.act(sessionId, "pay");
    await deliver(card.shop.app, card.lastEvent("checkout.session.completed"));
    const [row] = await db().select().from(hireRequests).where(eq(hireRequests.number, number));
    expect(row).toMatchObject({ status: "completed", settlement: "card", settlementDue: 11800 });
    expect(row!.settledAt).toBeInstanceOf(Date);
    expect((await b.get("/api/account/hire-requests")).json().data.find((r: { number: string }) => r.number === number)).toMatchObject({ status: "completed", pay_now: null });
  });

  it("refunds what was paid over the final charges to the card", async () => {
    const { number, start, handover } = await paidHire();
    // Off-hired after one day: £10 + VAT = £12 of the £74 paid; £62 goes back.
    await services.hireOperations.offHire(staff, number, { date: addDays(start, 1) });
    await services.hireOperations.returnUnit(staff, number, handover, { returned_on: addDays(start, 3), condition: "Good" });
    const settled = await services.hireOperations.settle(staff, number, { method: "card" });
    expect(settled).toMatchObject({ status: "completed", final_total: 1200, due: 1200 - 7400 });
    const refunds = await db()
      .select({ refund: paymentRefunds })
      .from(paymentRefunds)
      .innerJoin(payments, eq(payments.id, paymentRefunds.paymentId))
      .innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId))
      .innerJoin(hireRequests, eq(hireRequests.id, paymentSessions.hireRequestId))
      .where(eq(hireRequests.number, number));
    expect(refunds.map((r) => r.refund.amount)).toEqual([6200]);
    expect(refunds[0]!.refund.status).not.toBe("failed");
  });
});
