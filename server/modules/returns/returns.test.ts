// Returns and the right to cancel (issue 31), through the API: what a
// delivered order can still send back and until when, asking for a return,
// the returns desk's moves with their stock and refunds (card refunds through
// the real stripe SDK against a fake on loopback, server/test/payments.ts;
// credit notes through the trade ledger), and cancelling before dispatch.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO_CUSTOMER, DEMO_STAFF, DEMO_TRADE } from "../../db/seed/index.ts";
import { TestBrowser } from "../../test/browser.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { readPdf } from "../../test/pdf.ts";
import { cardPaymentShop, deliver, sessionIdOf } from "../../test/payments.ts";
import { auditLog } from "../audit/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import { createOrderLinks } from "../orders/links.ts";
import { orderLines, orderStatusHistory, orders } from "../orders/schema.ts";
import { paymentRefunds } from "../payments/schema.ts";
import { countSoleVariantsTo } from "../stock/ledger.ts";
import { stockMovements } from "../stock/schema.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { tradeSites } from "../trade/accounts/sites-schema.ts";
import { tradeCreditNotes } from "../trade/credit/ledger-schema.ts";
import { returns } from "./schema.ts";

const t = cardPaymentShop();
const db = () => t.shop.database.db;
let ip = 1;
const nextIp = () => `198.51.${110 + Math.floor(ip / 250)}.${ip++ % 250}`;

const staffBrowsers = new Map<string, TestBrowser>();
async function staffAs(role: "owner" | "sales" | "warehouse" | "accounts") {
  const known = staffBrowsers.get(role);
  if (known) return known;
  const member = DEMO_STAFF.find((s) => s.role === role)!;
  const b = new TestBrowser(t.shop.app, nextIp());
  await b.staffSignIn(member.email, "demo-password-2026");
  staffBrowsers.set(role, b);
  return b;
}

let offset = 60;
/** A product of its own (one variant): £10.00 ex VAT at 20%, £12.00 a unit, stock 20. */
async function product(changes: Partial<typeof products.$inferInsert> = {}) {
  offset += 1;
  const [p] = await db()
    .update(products)
    .set({ pricePence: 1000, vatRate: 20, heavy: false, returnable: true, nonReturnableReason: "", ...changes })
    .where(eq(products.id, sql`(select p.id from products p where p.status = 'published' and (select count(*) from product_variants v where v.product_id = p.id) = 1 order by p.id offset ${offset} limit 1)`))
    .returning({ id: products.id });
  // Its price on its one variant too, and its stock through the ledger at the default branch.
  await db().update(productVariants).set({ pricePence: changes.pricePence ?? 1000 }).where(eq(productVariants.productId, p!.id));
  await db().transaction(async (tx) => void (await countSoleVariantsTo(tx as never, [{ productId: p!.id, counted: 20 }], "Returns test stock")));
  const [v] = await db().select({ id: productVariants.id, sku: productVariants.sku }).from(productVariants).where(eq(productVariants.productId, p!.id));
  return { id: p!.id, variantId: v!.id, sku: v!.sku };
}

const address = { name: "Sam Carter", line_1: "1 Canal Street", town: "Leeds", postcode: "LS1 4AP" };

interface Placed {
  buyer: TestBrowser;
  number: string;
  orderId: number;
  lines: { id: number; product_id: number; quantity: number }[];
}

/** An order placed as `who`, paid as asked (a card through the fake Stripe), then dispatched and delivered by the desk unless `stop` says where to stop. */
async function placed(options: { who?: "customer" | "trade" | "guest"; items: { productId: number; quantity: number }[]; payment?: "card" | "bank_transfer" | "pay_on_account"; delivery?: "standard" | "next_day"; stop?: "paid" | "dispatched" }): Promise<Placed> {
  const buyer = new TestBrowser(t.shop.app, nextIp());
  if (options.who === "trade") await buyer.signIn(DEMO_TRADE.email, DEMO_TRADE.password);
  else if (options.who !== "guest") await buyer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  else await buyer.csrf();
  for (const item of options.items) expect((await buyer.post("/api/basket", { product_id: item.productId, quantity: item.quantity })).statusCode).toBeLessThan(300);
  const payment = options.payment ?? "card";
  const res = await buyer.post("/api/checkout", { email: options.who === "guest" ? "guest.returner@example.com" : options.who === "trade" ? DEMO_TRADE.email : DEMO_CUSTOMER.email, phone: "0113 496 0000", delivery_method: options.delivery ?? "standard", payment_method: payment, delivery_address: address, billing_address: address });
  expect(res.statusCode, res.body).toBe(201);
  const number = (res.json().order?.order_number ?? res.json().order_number) as string;
  if (payment === "card") {
    await t.stripe.processor.act(sessionIdOf(res.json().payment.redirect_url), "pay");
    await deliver(t.shop.app, t.lastEvent("checkout.session.completed"));
  }
  const owner = await staffAs("owner");
  if (payment === "bank_transfer") expect((await owner.post(`/api/admin/orders/${number}/transitions`, { to: "paid" })).statusCode).toBe(200);
  if (options.stop !== "paid") {
    // An order on account starts at processing already.
    const [now] = await db().select({ status: orders.status }).from(orders).where(eq(orders.number, number));
    for (const step of [...(now!.status === "processing" ? [] : [{ to: "processing" }]), { to: "dispatched", carrier: "DPD", tracking_number: "15501234" }, ...(options.stop === "dispatched" ? [] : [{ to: "completed" }])]) {
      const moved = await owner.post(`/api/admin/orders/${number}/transitions`, step);
      expect(moved.statusCode, moved.body).toBe(200);
    }
  }
  const [order] = await db().select({ id: orders.id }).from(orders).where(eq(orders.number, number));
  const lines = await db().select({ id: orderLines.id, product_id: orderLines.productId, quantity: orderLines.quantity }).from(orderLines).where(eq(orderLines.orderId, order!.id)).orderBy(asc(orderLines.id));
  return { buyer, number, orderId: order!.id, lines: lines.map((l) => ({ ...l, product_id: l.product_id! })) };
}

const movementsOf = (orderId: number, variantId: number) => db().select({ kind: stockMovements.kind, change: stockMovements.change }).from(stockMovements).where(and(eq(stockMovements.orderId, orderId), eq(stockMovements.variantId, variantId))).orderBy(asc(stockMovements.id));
const mailsTo = (to: string) => db().select({ subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(asc(mailOutbox.id));
const refundsOf = (orderNumber: string) =>
  db()
    .select({ amount: paymentRefunds.amount, status: paymentRefunds.status })
    .from(paymentRefunds)
    .where(sql`${paymentRefunds.paymentId} in (select p.id from payments p join payment_sessions s on s.id = p.session_id join orders o on o.id = s.order_id where o.number = ${orderNumber})`)
    .orderBy(asc(paymentRefunds.id));

async function move(role: "owner" | "sales" | "warehouse" | "accounts", rma: string, body: Record<string, unknown>) {
  return (await staffAs(role)).post(`/api/admin/returns/${rma}/transitions`, body);
}

describe("what a delivered order can still return", () => {
  it("shows each line's quantity left and the deadline; excluded products say why; nothing before delivery", async () => {
    const plain = await product();
    const cut = await product();
    // Marked on the catalogue desk: cut to length.
    const owner = await staffAs("owner");
    const cutSku = (await db().select({ sku: products.sku }).from(products).where(eq(products.id, cut.id)))[0]!.sku;
    const marked = await owner.patch(`/api/admin/products/${encodeURIComponent(cutSku)}`, { returnable: false, non_returnable_reason: "Cut to your length, so it cannot be returned unless faulty." });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ returnable: false, non_returnable_reason: "Cut to your length, so it cannot be returned unless faulty." });
    const early = await placed({ items: [{ productId: plain.id, quantity: 1 }], stop: "dispatched" });
    const before = (await early.buyer.get(`/api/account/orders/${early.orderId}`)).json().data;
    expect(before.returnable.open).toBe(false);
    expect(before.returnable.closed_reason).toMatch(/once the order has been delivered/);

    const o = await placed({ items: [{ productId: plain.id, quantity: 3 }, { productId: cut.id, quantity: 2 }] });
    const view = (await o.buyer.get(`/api/account/orders/${o.orderId}`)).json().data;
    expect(view.returnable.open).toBe(true);
    // 30 days (the demo's RETURNS_DAYS default) from today, which is later than the 14 of the right to cancel.
    expect(view.returnable.deadline).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const [a, b] = view.returnable.lines;
    expect(a).toMatchObject({ line_id: o.lines[0]!.id, quantity: 3, returnable: 3, not_returnable_reason: null });
    expect(b).toMatchObject({ line_id: o.lines[1]!.id, returnable: 0, not_returnable_reason: "Cut to your length, so it cannot be returned unless faulty." });

    const refused = await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[1]!.id, quantity: 1, reason: "changed_mind" }], method: "post" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors["lines.0"][0]).toMatch(/Cut to your length/);
  });

  it("counts quantities across several returns of one order and names the line that asks too many", async () => {
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity: 3 }] });
    const first = await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 2, reason: "changed_mind" }], method: "post" });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({ status: "approved", lines: [{ line_id: o.lines[0]!.id, quantity: 2, reason: "changed_mind" }] });
    expect(first.json().data.number).toMatch(/^RMA-\d{6}$/);
    // Changing one's mind is approved at once, with how to send it back.
    expect(first.json().data.instructions.join(" ")).toMatch(/write RMA-\d{6} on the parcel and send it to: Unit 4, Canal Wharf, Leeds, LS11 5PS/);
    const tooMany = await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 2, reason: "faulty" }], method: "post" });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors["lines.0.quantity"][0]).toMatch(/only 1 can still be returned/);
    // A faulty item waits for the desk.
    const second = await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "faulty", note: "Motor does not start" }], method: "post" });
    expect(second.json().data.status).toBe("requested");
    const list = (await o.buyer.get(`/api/orders/${o.number}/returns`)).json().data;
    expect(list.map((r: { status: string }) => r.status)).toEqual(["approved", "requested"]);
    const subjects = (await mailsTo(DEMO_CUSTOMER.email)).map((m) => m.subject);
    expect(subjects).toContain(`Return ${first.json().data.number}: how to send it back`);
    expect(subjects).toContain(`Return ${second.json().data.number} requested`);
    // "Other" needs the customer's words.
    const bare = await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "other" }], method: "post" });
    expect(bare.statusCode).toBe(422);
  });

  it("closes after the window, and is someone else's order to another customer", async () => {
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity: 1 }] });
    const stranger = new TestBrowser(t.shop.app, nextIp());
    await stranger.signIn(DEMO_TRADE.email, DEMO_TRADE.password);
    expect((await stranger.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "changed_mind" }], method: "post" })).statusCode).toBe(403);
    const nobody = new TestBrowser(t.shop.app, nextIp());
    await nobody.csrf();
    expect((await nobody.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "changed_mind" }], method: "post" })).statusCode).toBe(401);
    // Delivered 40 days ago: past the shop's 30.
    await db().update(orderStatusHistory).set({ createdAt: sql`now() - interval '40 days'` }).where(and(eq(orderStatusHistory.orderId, o.orderId), eq(orderStatusHistory.status, "completed")));
    const late = await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "changed_mind" }], method: "post" });
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toMatch(/The returns period ended on \w+day,? \d+ \w+ \d{4}\./);
  });

  it("lets a guest return through the signed link in the order's emails, and only with it", async () => {
    const p = await product();
    const o = await placed({ who: "guest", items: [{ productId: p.id, quantity: 1 }] });
    const link = createOrderLinks(t.shop.config.cookieSecret).orderLink(o.number);
    const query = link.split("?")[1]!;
    const stranger = new TestBrowser(t.shop.app, nextIp());
    await stranger.csrf();
    const body = { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "damaged" }], method: "branch" };
    expect((await stranger.post(`/api/orders/${o.number}/returns?expires=9999999999&signature=forged`, body)).statusCode).toBe(403);
    const made = await stranger.post(`/api/orders/${o.number}/returns?${query}`, body);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.status).toBe("requested");
    // The order confirmation carried the link.
    const confirmation = (await mailsTo("guest.returner@example.com")).find((m) => m.subject === `Your order ${o.number}`);
    expect(confirmation?.text).toContain(`/orders/${o.number}?expires=`);
  });
});

describe("the returns desk", () => {
  it("approves, receives one resaleable and one damaged into the branch's stock, and refunds the card what the rules propose", async () => {
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity: 3 }] });
    const asked = await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 2, reason: "faulty", note: "Both crack under load" }], method: "post" });
    const rma = asked.json().data.number as string;
    // The warehouse receives but does not approve; sales approve.
    expect((await move("warehouse", rma, { to: "approved" })).statusCode).toBe(403);
    expect((await move("sales", rma, { to: "refunded" })).statusCode).toBe(409);
    const approved = await move("sales", rma, { to: "approved" });
    expect(approved.statusCode, approved.body).toBe(200);
    const received = await move("warehouse", rma, { to: "received", lines: [{ line_id: o.lines[0]!.id, received: 1, damaged: 1 }] });
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json()).toMatchObject({ status: "received", refund_days_left: 14, lines: [{ received: 1, damaged: 1 }] });
    // One back on the shelf, one returned and written off: each its own movement.
    expect(await movementsOf(o.orderId, p.variantId)).toEqual([
      { kind: "sold", change: -3 },
      { kind: "returned", change: 2 },
      { kind: "written_off", change: -1 },
    ]);
    // Two of three units back, so no delivery: 2 × £12.00.
    const page = (await (await staffAs("owner")).get(`/api/admin/returns/${rma}`)).json();
    expect(page.proposal).toEqual({ goods: 24, delivery: 0, collection_charge: 0, total: 24, whole_order: false });
    const refunded = await move("sales", rma, { to: "refunded" });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().refund).toMatchObject({ amount: 24, method: "card" });
    expect(await refundsOf(o.number)).toEqual([{ amount: 2400, status: "succeeded" }]);
    // Refunded once: a second refund is a move the table does not allow.
    expect((await move("owner", rma, { to: "refunded" })).statusCode).toBe(409);
    const customerView = (await o.buyer.get(`/api/orders/${o.number}/returns`)).json().data[0];
    expect(customerView).toMatchObject({ status: "refunded", refund: { amount: 24, method: "card" } });
    const subjects = (await mailsTo(DEMO_CUSTOMER.email)).map((m) => m.subject);
    expect(subjects).toEqual(expect.arrayContaining([`Return ${rma}: how to send it back`, `Return ${rma} received`, `Refund for order ${o.number}`]));
    const audit = await db().select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.entity, "return"), eq(auditLog.entityId, rma)));
    expect(audit.map((a) => a.action)).toEqual(["return.transition", "return.transition", "return.transition"]);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("refunds the standard delivery when the whole order comes back, never a premium delivery's extra, less a deduction with its reason", async () => {
    const p = await product();
    // Next-day delivery (£12.95) of one unit: the standard would have been £6.95.
    const o = await placed({ items: [{ productId: p.id, quantity: 1 }], delivery: "next_day" });
    const rma = (await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "changed_mind" }], method: "post" })).json().data.number;
    await move("warehouse", rma, { to: "received" });
    const page = (await (await staffAs("owner")).get(`/api/admin/returns/${rma}`)).json();
    expect(page.proposal).toEqual({ goods: 12, delivery: 6.95, collection_charge: 0, total: 18.95, whole_order: true });
    const noReason = await move("owner", rma, { to: "refunded", deduction_pence: 300 });
    expect(noReason.statusCode).toBe(422);
    expect(Object.keys(noReason.json().errors)).toEqual(["deduction_reason"]);
    const tooMuch = await move("owner", rma, { to: "refunded", refund_pence: 3100 });
    expect(tooMuch.statusCode).toBe(422);
    const done = await move("owner", rma, { to: "refunded", deduction_pence: 300, deduction_reason: "Returned without its box and used" });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().refund).toMatchObject({ amount: 15.95, deduction: 3, deduction_reason: "Returned without its box and used" });
    expect(await refundsOf(o.number)).toEqual([{ amount: 1595, status: "succeeded" }]);
  });

  it("keeps a sales member within their refund limit", async () => {
    const p = await product({ pricePence: 25_000 });
    const o = await placed({ items: [{ productId: p.id, quantity: 1 }] });
    const rma = (await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "faulty" }], method: "branch" })).json().data.number;
    await move("warehouse", rma, { to: "received" });
    // £300 plus delivery back, above the demo sales member's £250.
    const over = await move("sales", rma, { to: "refunded" });
    expect(over.statusCode).toBe(403);
    expect(over.json().message).toMatch(/Your refund limit is £250.00/);
    expect((await db().select({ status: returns.status }).from(returns).where(eq(returns.number, rma)))[0]!.status).toBe("received");
    expect((await move("accounts", rma, { to: "refunded" })).statusCode).toBe(200);
  });

  it("credits a trade account's invoice for an order on account, and records a bank transfer's refund made by hand", async () => {
    const p = await product();
    // The demo account's overdue invoice would stop it ordering on account: due next month instead.
    await db().update(tradeInvoices).set({ dueDate: sql`current_date + 30` });
    await db().update(tradeAccounts).set({ onHold: false, holdReason: "" });
    // Not a test of sites: the demo company's are archived, so the order on account names none.
    await db().update(tradeSites).set({ archivedAt: new Date() });
    const trade = await placed({ who: "trade", items: [{ productId: p.id, quantity: 2 }], payment: "pay_on_account" });
    const rma = (await trade.buyer.post(`/api/orders/${trade.number}/returns`, { lines: [{ line_id: trade.lines[0]!.id, quantity: 1, reason: "wrong_item" }], method: "branch" })).json().data.number;
    await move("warehouse", rma, { to: "received" });
    const credited = await move("accounts", rma, { to: "refunded" });
    expect(credited.statusCode, credited.body).toBe(200);
    // One of two units at the account's own (trade) price, as invoiced.
    const [sold] = await db().select().from(orderLines).where(eq(orderLines.id, trade.lines[0]!.id));
    const half = (sold!.lineTotal + sold!.lineVat) / 2;
    expect(credited.json().refund).toMatchObject({ amount: half / 100, method: "credit_note" });
    const [note] = await db().select().from(tradeCreditNotes).where(eq(tradeCreditNotes.number, credited.json().refund.credit_note));
    expect(note).toMatchObject({ total: half, reason: `Return ${rma}` });

    const bank = await placed({ items: [{ productId: p.id, quantity: 1 }], payment: "bank_transfer" });
    const rma2 = (await bank.buyer.post(`/api/orders/${bank.number}/returns`, { lines: [{ line_id: bank.lines[0]!.id, quantity: 1, reason: "changed_mind" }], method: "post" })).json().data.number;
    await move("warehouse", rma2, { to: "received" });
    const manual = await move("owner", rma2, { to: "refunded" });
    expect(manual.json().refund).toMatchObject({ amount: 18.95, method: "manual" });
    expect((await mailsTo(DEMO_CUSTOMER.email)).some((m) => m.subject === `Return ${rma2} refunded` && m.text.includes("£18.95, paid back the way you paid"))).toBe(true);
  });

  it("rejects with a reason the customer is told, and sends a replacement instead of a refund", async () => {
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity: 2 }] });
    const rejectMe = (await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "faulty" }], method: "post" })).json().data.number;
    expect((await move("sales", rejectMe, { to: "rejected" })).statusCode).toBe(422);
    expect((await move("sales", rejectMe, { to: "rejected", reason: "The photos show it was fitted against the instructions." })).statusCode).toBe(200);
    expect((await mailsTo(DEMO_CUSTOMER.email)).some((m) => m.subject === `Return ${rejectMe} could not be accepted` && m.text.includes("fitted against the instructions"))).toBe(true);
    // A rejected return frees its units to be asked again.
    const again = (await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 2, reason: "faulty" }], method: "post" })).json().data.number;
    await move("warehouse", again, { to: "received" });
    const swapped = await move("sales", again, { to: "exchanged" });
    expect(swapped.statusCode, swapped.body).toBe(200);
    const replacement = swapped.json().exchange_order as string;
    const [made] = await db().select().from(orders).where(eq(orders.number, replacement));
    expect(made).toMatchObject({ status: "paid", total: 0, email: DEMO_CUSTOMER.email });
    const [line] = await db().select().from(orderLines).where(eq(orderLines.orderId, made!.id));
    expect(line).toMatchObject({ variantId: p.variantId, quantity: 2, lineTotal: 0 });
    expect((await move("sales", again, { to: "closed" })).json().status).toBe("closed");
  });

  it("lists by status with counts, a keyset page at a time, and finds a return by its order's number", async () => {
    const owner = await staffAs("owner");
    const all = (await owner.get("/api/admin/returns?limit=2")).json();
    expect(all.data).toHaveLength(2);
    expect(all.next_cursor).toBeTruthy();
    const next = (await owner.get(`/api/admin/returns?limit=2&cursor=${all.next_cursor}`)).json();
    expect(next.data[0].number < all.data[1].number).toBe(true);
    expect(all.counts.refunded).toBeGreaterThanOrEqual(3);
    // None received 14 days ago and still waiting; then one, as the clock would make it.
    expect((await owner.get("/api/admin/returns?overdue=yes")).json().data).toEqual([]);
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity: 1 }] });
    const waiting = (await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "faulty" }], method: "post" })).json().data.number as string;
    await move("warehouse", waiting, { to: "received" });
    await db().update(returns).set({ receivedAt: sql`now() - interval '15 days'` }).where(eq(returns.number, waiting));
    expect((await owner.get("/api/admin/returns?overdue=yes")).json().data.map((r: { number: string }) => r.number)).toEqual([waiting]);
    const refunded = (await owner.get("/api/admin/returns?status=refunded")).json().data;
    expect(refunded.every((r: { status: string }) => r.status === "refunded")).toBe(true);
    const [latest] = await db().select({ number: orders.number }).from(returns).innerJoin(orders, eq(orders.id, returns.orderId)).orderBy(desc(returns.id)).limit(1);
    expect((await owner.get(`/api/admin/returns?q=${latest!.number}`)).json().data[0].order_number).toBe(latest!.number);
  });
});

describe("cancelling before dispatch", () => {
  it("cancels some lines of a card order: their stock back, refunded at once; the rest stays", async () => {
    const a = await product();
    const b = await product();
    const o = await placed({ items: [{ productId: a.id, quantity: 2 }, { productId: b.id, quantity: 1 }], stop: "paid" });
    const some = await o.buyer.post(`/api/orders/${o.number}/cancel`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1 }] });
    expect(some.statusCode, some.body).toBe(200);
    expect(some.json().data).toMatchObject({ status: "paid", cancelled: "lines", refund_failed: false });
    expect(some.json().data.lines[0].cancelled_quantity).toBe(1);
    expect(await movementsOf(o.orderId, a.variantId)).toEqual([
      { kind: "sold", change: -2 },
      { kind: "cancelled", change: 1 },
    ]);
    expect(await refundsOf(o.number)).toEqual([{ amount: 1200, status: "succeeded" }]);
    // The warehouse picks what is left: one of the first line, the second whole.
    const list = await (await staffAs("warehouse")).get(`/api/admin/orders/${o.number}/picking-list.pdf`);
    expect(list.statusCode).toBe(200);
    const { text } = await readPdf(list.rawPayload);
    expect(text).toMatch(new RegExp(`${a.sku} .* 1(?!\\S)`));
    expect(text).toMatch(new RegExp(`${b.sku} .* 1(?!\\S)`));
    expect(text).toContain("Total items: 2 (2 lines)");
    // Then the whole of what is left: cancelled, the rest of its stock back, the rest of the card refunded.
    const rest = await o.buyer.post(`/api/orders/${o.number}/cancel`, {});
    expect(rest.json().data).toMatchObject({ status: "cancelled", cancelled: "whole" });
    expect(await movementsOf(o.orderId, a.variantId)).toEqual([
      { kind: "sold", change: -2 },
      { kind: "cancelled", change: 1 },
      { kind: "cancelled", change: 1 },
    ]);
    const refunds = await refundsOf(o.number);
    expect(refunds.reduce((n, r) => n + r.amount, 0)).toBe(2 * 1200 + 1200 + 695);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("refuses once dispatched, and refuses another customer", async () => {
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity: 1 }], stop: "dispatched" });
    const late = await o.buyer.post(`/api/orders/${o.number}/cancel`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/already been sent/);
    const stranger = new TestBrowser(t.shop.app, nextIp());
    await stranger.signIn(DEMO_TRADE.email, DEMO_TRADE.password);
    expect((await stranger.post(`/api/orders/${o.number}/cancel`, {})).statusCode).toBe(403);
  });
});

// On PostgreSQL (`npm run test:db`) these race for real; on PGlite they run one after the other and must agree.
describe("returns under concurrency", () => {
  it("two requests for the last unit of a line at once make one return", async () => {
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity: 1 }] });
    const again = new TestBrowser(t.shop.app, nextIp());
    await again.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const body = { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason: "changed_mind" }], method: "post" };
    const answers = await Promise.all([o.buyer.post(`/api/orders/${o.number}/returns`, body), again.post(`/api/orders/${o.number}/returns`, body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    expect(await db().select({ id: returns.id }).from(returns).where(eq(returns.orderId, o.orderId))).toHaveLength(1);
  });

  it("a refund raced by two members of staff pays once", async () => {
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity: 2 }] });
    const rma = (await o.buyer.post(`/api/orders/${o.number}/returns`, { lines: [{ line_id: o.lines[0]!.id, quantity: 2, reason: "changed_mind" }], method: "post" })).json().data.number;
    await move("warehouse", rma, { to: "received" });
    const answers = await Promise.all([move("owner", rma, { to: "refunded" }), move("accounts", rma, { to: "refunded" })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await refundsOf(o.number)).toEqual([{ amount: 2 * 1200 + 695, status: "succeeded" }]);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});
