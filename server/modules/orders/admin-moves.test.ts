// Moving orders on in the orders desk's service (admin-moves.ts, through
// admin.ts): the moves with their timeline, audit entry, stock and email in
// one transaction, marking paid, collection codes, notes, and two members at
// once on PostgreSQL. The shop is admin-fixture.ts's.
import { londonDate } from "../hire/calendar.ts";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { branches } from "../branches/schema.ts";
import { mailOutboxAttachments } from "../mail/schema.ts";
import { createAdminOrderService } from "./admin.ts";
import { type OrderStatus, orderStatusHistory, orders } from "./schema.ts";
import { createOrderService } from "./service.ts";
import { as, auditOf, db, desk, mailTo, makeOrder, refusal, shop, stockA, stockB, stockOf, ursulaId, setUpOrdersDesk } from "./admin-fixture.ts";

setUpOrdersDesk();

describe("moving an order on", () => {
  it("writes the status, a timeline entry by the member, an audit entry and the customer's email", async () => {
    const o = await makeOrder({ status: "awaiting_payment", email: "move@example.com" });
    const before = (await db.select({ at: orders.updatedAt }).from(orders).where(eq(orders.number, o.number)))[0]!.at;
    const after = await desk.transition(as.accounts, o.number, { to: "paid", expected_status: "awaiting_payment" });
    expect(after.status).toBe("paid");
    expect(new Date(after.updated_at).getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(after.history.at(-1)).toMatchObject({ kind: "status", status: "paid", staff: { id: as.accounts.staffId, name: "Accounts Member" } });
    expect(await auditOf(o.number)).toEqual([
      expect.objectContaining({ staffId: as.accounts.staffId, staffName: "Accounts Member <accounts@desk.example.com>", via: "screen", action: "order.transition", before: { status: "awaiting_payment", paid_amount: null, paid_on: null, payment_reference: null }, after: { status: "paid", paid_amount: 18.95, paid_on: londonDate(), payment_reference: "" } }),
    ]);
    const mail = await mailTo("move@example.com");
    expect(mail.map((m) => m.subject)).toEqual([`Order ${o.number}: payment received`]);
    expect(mail[0]!.text).toContain("we have received your payment");
  });

  it("marking a bank transfer paid records the amount, the day and the reference, and refuses another amount unless confirmed (issue 34)", async () => {
    const o = await makeOrder({ status: "awaiting_payment", email: "receipt@example.com" });
    const today = londonDate();
    // The total is £18.95: £18.50 is refused, saying by how much, and nothing moves.
    const short = await refusal(desk.transition(as.accounts, o.number, { to: "paid", paid_amount: 18.5, paid_on: today, payment_reference: "BACS 4471" }));
    expect(short).toMatchObject({ statusCode: 422, errors: { paid_amount: ["£18.50 is less than the order's total of £18.95. Check the amount, or confirm it to record it anyway."] } });
    const future = await refusal(desk.transition(as.accounts, o.number, { to: "paid", paid_on: "2999-01-01" }));
    expect(future).toMatchObject({ statusCode: 422, errors: { paid_on: ["The payment cannot have arrived after today."] } });
    expect(await refusal(desk.transition(as.accounts, o.number, { to: "paid", paid_on: "2026-02-30" }))).toMatchObject({ errors: { paid_on: ["Enter the day the payment arrived as YYYY-MM-DD."] } });
    expect((await desk.detail(as.accounts, o.number)).status).toBe("awaiting_payment");

    const paid = await desk.transition(as.accounts, o.number, { to: "paid", paid_amount: 18.5, paid_on: "2026-11-02", payment_reference: "BACS 4471", amount_confirmed: true });
    expect(paid.status).toBe("paid");
    expect(paid.payment).toMatchObject({ paid_amount: 18.5, paid_on: "2026-11-02", reference: "BACS 4471" });
    expect(paid.history.at(-1)!.note).toBe("Payment of £18.50 received on 2 Nov 2026, reference BACS 4471. That is £0.45 less than the total.");
    expect((await auditOf(o.number)).at(-1)!.after).toMatchObject({ paid_amount: 18.5, paid_on: "2026-11-02", payment_reference: "BACS 4471" });
  });

  it("does all of it in one transaction: if the email cannot be queued, nothing changed", async () => {
    const o = await makeOrder({ status: "awaiting_payment", email: "atomic@example.com" });
    const broken = createAdminOrderService(db, {
      ...shop,
      mail: {
        enqueue: async () => {
          throw new Error("outbox unavailable");
        },
        enqueueAll: async () => {
          throw new Error("outbox unavailable");
        },
      },
    });
    await expect(broken.transition(as.owner, o.number, { to: "paid" })).rejects.toThrow("outbox unavailable");
    const [row] = await db.select().from(orders).where(eq(orders.number, o.number));
    expect(row!.status).toBe("awaiting_payment");
    expect(await db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id))).toHaveLength(1);
    expect(await auditOf(o.number)).toEqual([]);
  });

  it("dispatches with a carrier and tracking number, and emails the tracking link", async () => {
    const o = await makeOrder({ status: "processing", email: "parcel@example.com" });
    const missing = await refusal(desk.transition(as.warehouse, o.number, { to: "dispatched", carrier: "Royal Mail" }));
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as ValidationError).errors).toEqual({ tracking_number: ["Enter the tracking number."] });
    const done = await desk.transition(as.warehouse, o.number, { to: "dispatched", carrier: "Royal Mail", tracking_number: "AB123456789GB" });
    expect(done).toMatchObject({ status: "dispatched", carrier: "Royal Mail", tracking_number: "AB123456789GB", tracking_url: "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB" });
    expect(done.history.at(-1)!.note).toBe("Sent with Royal Mail, tracking number AB123456789GB.");
    const [mail] = await mailTo("parcel@example.com");
    expect(mail!.subject).toBe(`Order ${o.number} is on its way`);
    expect(mail!.text).toContain("Tracking number: AB123456789GB");
    expect(mail!.html).toContain('href="https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB"');
    expect((await auditOf(o.number))[0]).toMatchObject({ before: { status: "processing", carrier: null, tracking_number: null }, after: { status: "dispatched", carrier: "Royal Mail", tracking_number: "AB123456789GB" } });
    // The shop's own van has no tracking page.
    const van = await makeOrder({ status: "processing", email: "van@example.com" });
    expect((await desk.transition(as.owner, van.number, { to: "dispatched", carrier: "Own van", tracking_number: "RUN-7" })).tracking_url).toBeNull();
    expect((await mailTo("van@example.com"))[0]!.html).not.toContain("Track your delivery");
  });

  it("makes a collection ready with a collection code and its QR code, and hands it over only for that code, typed or scanned", async () => {
    const [wharf] = await db
      .insert(branches)
      .values({ slug: "canal-wharf", name: "Leeds, Canal Wharf", line1: "Unit 4, Canal Wharf", town: "Leeds", postcode: "LS11 5PS", services: ["collect"], holdDays: 5 })
      .returning({ id: branches.id });
    const o = await makeOrder({ status: "awaiting_payment", method: "collect", payment: "pay_on_collection", email: "collect@example.com" });
    await db.update(orders).set({ branchId: wharf!.id }).where(eq(orders.id, o.id));
    await desk.transition(as.warehouse, o.number, { to: "processing" });
    const ready = await desk.transition(as.warehouse, o.number, { to: "ready_for_collection" });
    expect(ready.actions.find((a) => a.to === "completed")!.requires).toEqual(["collection_code"]);
    const [row] = await db.select({ code: orders.collectionCode }).from(orders).where(eq(orders.id, o.id));
    const code = row!.code!;
    expect(code).toMatch(/^\d{6}$/);
    const [mail] = await mailTo("collect@example.com");
    expect(mail!.subject).toBe(`Order ${o.number} is ready to collect`);
    expect(mail!.text).toContain(`Your collection code: ${code}`);
    expect(mail!.text).toContain("Where: Leeds, Canal Wharf, Unit 4, Canal Wharf, Leeds, LS11 5PS");
    expect(mail!.text).toContain("pay £12.00 when you collect");
    expect(mail!.text).toMatch(/We keep it for you until \w+day \d+ \w+\./);
    expect(mail!.html).toContain("/branches/canal-wharf");
    // The QR code, a PNG, holds the order and its code.
    const [qr] = await db.select().from(mailOutboxAttachments).where(eq(mailOutboxAttachments.outboxId, mail!.id));
    expect(qr).toMatchObject({ filename: `collection-code-${o.number}.png`, contentType: "image/png" });
    expect(Buffer.from(qr!.content).subarray(1, 4).toString()).toBe("PNG");
    // No code, a wrong one, another order's scan: refused, still ready.
    expect(((await refusal(desk.transition(as.warehouse, o.number, { to: "completed" }))) as ValidationError).errors.collection_code).toEqual(["Enter the collection code the customer shows you (or scan its QR code)."]);
    const wrong = code === "000000" ? "111111" : "000000";
    expect(((await refusal(desk.transition(as.warehouse, o.number, { to: "completed", collection_code: wrong }))) as ValidationError).errors.collection_code![0]).toMatch(/^That is not the collection code for /);
    expect(await refusal(desk.transition(as.warehouse, o.number, { to: "completed", collection_code: `TC-999999/${code}` }))).toBeInstanceOf(ValidationError);
    expect((await desk.detail(as.warehouse, o.number)).status).toBe("ready_for_collection");
    // The scanner types what the QR code holds.
    const done = await desk.transition(as.warehouse, o.number, { to: "completed", collection_code: ` ${o.number.toLowerCase()}/${code} ` });
    expect(done.status).toBe("completed");
    expect(done.history.map((h) => h.status)).toEqual(["awaiting_payment", "processing", "ready_for_collection", "completed"]);
    // Picking and collection say nothing to the customer; the one email was "ready".
    expect(await mailTo("collect@example.com")).toHaveLength(1);
  });

  it("hands over a collection made ready before codes without one", async () => {
    const o = await makeOrder({ status: "ready_for_collection", method: "collect", email: "old-ready@example.com" });
    expect((await desk.detail(as.warehouse, o.number)).actions.find((a) => a.to === "completed")!.requires).toEqual([]);
    expect((await desk.transition(as.warehouse, o.number, { to: "completed" })).status).toBe("completed");
  });

  it("puts the stock back when it cancels, in the same transaction, and emails the reason", async () => {
    const [a0, b0] = [await stockOf(stockA), await stockOf(stockB)];
    const o = await makeOrder({ status: "paid", email: "cancel@example.com", lines: [{ productId: stockA, quantity: 3 }, { productId: stockB, quantity: 2 }, { productId: null, quantity: 4 }] });
    const noReason = await refusal(desk.transition(as.sales, o.number, { to: "cancelled", note: "  " }));
    expect((noReason as ValidationError).errors).toEqual({ note: ["Give the reason for cancelling."] });
    expect(await stockOf(stockA)).toBe(a0);
    const done = await desk.transition(as.sales, o.number, { to: "cancelled", note: "Out of stock at the supplier." });
    expect(done.status).toBe("cancelled");
    expect([await stockOf(stockA), await stockOf(stockB)]).toEqual([a0 + 3, b0 + 2]);
    const [mail] = await mailTo("cancel@example.com");
    expect(mail!.subject).toBe(`Order ${o.number} has been cancelled`);
    expect(mail!.text).toContain("Reason: Out of stock at the supplier.");
    expect(mail!.text).toContain("We will refund your payment");
    // Cancelled once: never again, and the stock is not put back twice.
    const again = await refusal(desk.transition(as.sales, o.number, { to: "cancelled", note: "Twice?" }));
    expect(again).toMatchObject({ statusCode: 409, message: `Order ${o.number} is already cancelled.` });
    expect([await stockOf(stockA), await stockOf(stockB)]).toEqual([a0 + 3, b0 + 2]);
  });

  it("refuses a move the table does not allow (409), a role without the permission (403), and a stale screen (409)", async () => {
    const o = await makeOrder({ status: "dispatched" });
    expect(await refusal(desk.transition(as.owner, o.number, { to: "paid" }))).toMatchObject({ statusCode: 409, message: `Order ${o.number} is dispatched; it cannot move to paid.` });
    expect(await refusal(desk.transition(as.owner, o.number, { to: "cancelled", note: "Too late" }))).toMatchObject({ statusCode: 409 });
    const unpaid = await makeOrder({ status: "awaiting_payment" });
    expect(await refusal(desk.transition(as.warehouse, unpaid.number, { to: "paid" }))).toMatchObject({ statusCode: 403 });
    expect(await refusal(desk.transition(as.accounts, unpaid.number, { to: "cancelled", note: "No" }))).toMatchObject({ statusCode: 403 });
    expect(await refusal(desk.transition(as.hire, unpaid.number, { to: "paid" }))).toMatchObject({ statusCode: 403 });
    // Someone else marked it paid while this member looked at "awaiting payment".
    await desk.transition(as.accounts, unpaid.number, { to: "paid" });
    expect(await refusal(desk.transition(as.sales, unpaid.number, { to: "cancelled", note: "Customer rang", expected_status: "awaiting_payment" }))).toMatchObject({
      statusCode: 409,
      message: `Order ${unpaid.number} changed while you were looking: it is now paid.`,
    });
    expect(await refusal(desk.transition(as.owner, "TC-999998", { to: "paid" }))).toMatchObject({ statusCode: 404 });
    expect(await refusal(desk.transition(as.owner, unpaid.number, { to: "teleported" as OrderStatus }))).toBeInstanceOf(ValidationError);
    // The refusals wrote nothing.
    expect((await auditOf(unpaid.number)).map((e) => e.action)).toEqual(["order.transition"]);
  });

  it("adds staff notes to the timeline, audited, never shown to the customer", async () => {
    const o = await makeOrder({ status: "processing", userId: ursulaId });
    const done = await desk.addNote(as.warehouse, o.number, "  Two boxes; the level is on the van.  ");
    expect(done.status).toBe("processing");
    expect(done.history.at(-1)).toMatchObject({ kind: "note", status: "processing", note: "Two boxes; the level is on the van.", staff: { id: as.warehouse.staffId, name: "Warehouse Member" } });
    expect((await auditOf(o.number)).map((e) => [e.action, e.after])).toEqual([["order.note", { note: "Two boxes; the level is on the van." }]]);
    await expect(desk.addNote(as.warehouse, o.number, " ")).rejects.toThrow(ValidationError);
    await expect(desk.addNote(as.hire, o.number, "Hello")).rejects.toMatchObject({ statusCode: 403 });
    const customer = await createOrderService(db).forUser(ursulaId, o.id);
    expect(customer!.history.map((h) => h.note)).toEqual(["Order placed."]);
    expect(JSON.stringify(customer)).not.toContain("Warehouse");
  });
});

// Two members acting on one order at once. PGlite runs one query at a time,
// so the race is real only on PostgreSQL:
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/orders
describe.skipIf(!process.env.TEST_DATABASE_URL)("two members at once (PostgreSQL)", () => {
  it("lets exactly one of dispatch and cancel win; the other is told the order changed", async () => {
    for (let round = 0; round < 6; round++) {
      const a0 = await stockOf(stockA);
      const o = await makeOrder({ status: "processing", email: `race-${round}@example.com`, lines: [{ productId: stockA, quantity: 2 }] });
      // Both start from the same screen: "processing".
      const results = await Promise.allSettled([
        desk.transition(as.warehouse, o.number, { to: "dispatched", carrier: "DPD", tracking_number: `RACE${round}`, expected_status: "processing" }),
        desk.transition(as.sales, o.number, { to: "cancelled", note: "Customer changed their mind", expected_status: "processing" }),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(HttpError);
      expect(lost[0]!.reason.statusCode).toBe(409);
      expect(lost[0]!.reason.message).toMatch(new RegExp(`^Order ${o.number} changed while you were looking: it is now (dispatched|cancelled)\\.$`));
      const [row] = await db.select().from(orders).where(eq(orders.id, o.id));
      const history = await db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id)).orderBy(asc(orderStatusHistory.id));
      expect(history.map((h) => h.status)).toEqual(["processing", row!.status]);
      expect((await auditOf(o.number)).map((e) => (e.after as { status: string }).status)).toEqual([row!.status]);
      expect(await stockOf(stockA)).toBe(row!.status === "cancelled" ? a0 + 2 : a0);
      expect(await mailTo(`race-${round}@example.com`)).toHaveLength(1);
    }
  });

  it("puts the stock back once when two members cancel at once", async () => {
    const a0 = await stockOf(stockA);
    const o = await makeOrder({ status: "paid", lines: [{ productId: stockA, quantity: 4 }] });
    const results = await Promise.allSettled([
      desk.transition(as.owner, o.number, { to: "cancelled", note: "One" }),
      desk.transition(as.sales, o.number, { to: "cancelled", note: "Two" }),
      desk.transition(as.manager, o.number, { to: "cancelled", note: "Three" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await stockOf(stockA)).toBe(a0 + 4);
    const cancels = await db.select().from(orderStatusHistory).where(and(eq(orderStatusHistory.orderId, o.id), eq(orderStatusHistory.status, "cancelled")));
    expect(cancels).toHaveLength(1);
  });
});
