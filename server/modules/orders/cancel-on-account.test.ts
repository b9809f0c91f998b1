// Cancelling an order paid on account on the orders desk (admin.ts): in the
// cancellation's transaction the stock goes back and the order's invoice is
// credited in full (trade/credit/ledger.ts `issueCreditNote` through the trade desk's
// `creditInvoice`), audited and emailed to the accounts address; the
// customer's email names the credit note. The ledger's invariants hold after.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { tableOutbox } from "../../test/outbox.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { auditLog } from "../audit/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import type { StaffActor } from "../staff/actor.ts";
import { STAFF_ROLES, type StaffRole, can } from "../staff/permissions.ts";
import { applyMovements, recordOpeningStock } from "../stock/ledger.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { issueCreditNote, recordPayment } from "../trade/credit/ledger.ts";
import { tradeCreditNoteLines, tradeCreditNotes } from "../trade/credit/ledger-schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { type AdminOrderService, createAdminOrderService } from "./admin.ts";
import { orderAddresses, orderLines, orderStatusHistory, orders } from "./schema.ts";
import { staffMembers } from "../../test/staff-members.ts";
import { hammerAndLevel } from "../../test/products.ts";

let database: TestDatabase;
let db: Db;
let desk: AdminOrderService;
const as = {} as Record<StaffRole, StaffActor>;
let hammer: number;
/** Each product's one variant (made with it), which order lines and the ledger name. */
const variantOf = new Map<number, number>();
let level: number;
let accountId: number;
const ACCOUNTS_EMAIL = "accounts@shah.example.com";

const outbox = tableOutbox;

/**
 * An order on account as checkout leaves it: its stock taken as `sold`
 * movements, the account's balance raised by its total and its invoice
 * written (trade/credit/credit.ts `chargeOnAccount`).
 */
async function orderOnAccount(email: string, status: "processing" | "ready_for_collection" | "dispatched" = "processing") {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const lines = [
      { productId: hammer, sku: "CAN-HAM", name: "Claw hammer", quantity: 3, unitPrice: 1000 },
      { productId: level, sku: "CAN-LVL", name: "Spirit level", quantity: 2, unitPrice: 2000 },
    ].map((l) => ({ ...l, variantId: variantOf.get(l.productId)!, lineTotal: l.quantity * l.unitPrice, lineVat: (l.quantity * l.unitPrice) / 5 }));
    const subtotal = lines.reduce((s, l) => s + l.lineTotal, 0);
    const vat = lines.reduce((s, l) => s + l.lineVat, 0);
    const delivery = 695;
    const total = subtotal + vat + delivery;
    const [order] = await tx
      .insert(orders)
      .values({ number: `pending-${crypto.randomUUID()}`, email, phone: "0113 496 0000", status, deliveryMethod: "standard", deliveryName: "Standard delivery", subtotal, vat, delivery, total, paymentMethod: "pay_on_account", tradeAccountId: accountId, poReference: "PO-7" })
      .returning({ id: orders.id });
    const number = `TC-${String(order!.id).padStart(6, "0")}`;
    await tx.update(orders).set({ number }).where(eq(orders.id, order!.id));
    await tx.insert(orderLines).values(lines.map((l) => ({ ...l, orderId: order!.id, slug: l.sku.toLowerCase(), vatRate: 20 })));
    await tx.insert(orderAddresses).values({ orderId: order!.id, kind: "delivery", name: "Sam Shah", line1: "1 Yard", town: "Leeds", postcode: "LS1 4AP" });
    await tx.insert(orderStatusHistory).values({ orderId: order!.id, status, note: "Order placed." });
    await applyMovements(tx, lines.map((l) => ({ variantId: l.variantId, change: -l.quantity, kind: "sold" as const, orderId: order!.id })));
    await tx.update(tradeAccounts).set({ balance: sql`${tradeAccounts.balance} + ${total}` }).where(eq(tradeAccounts.id, accountId));
    const [invoice] = await tx
      .insert(tradeInvoices)
      .values({ number: `pending-${order!.id}`, tradeAccountId: accountId, orderId: order!.id, invoiceDate: "2026-11-02", dueDate: "2026-12-02", subtotal, vat, delivery, total, poReference: "PO-7" })
      .returning({ id: tradeInvoices.id });
    const invoiceNumber = `INV-${String(invoice!.id).padStart(6, "0")}`;
    await tx.update(tradeInvoices).set({ number: invoiceNumber }).where(eq(tradeInvoices.id, invoice!.id));
    return { id: order!.id, number, total, invoiceId: invoice!.id, invoiceNumber };
  });
}

const stockOf = async (id: number) => (await db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const stocks = async () => [await stockOf(hammer), await stockOf(level)];
const balance = async () => (await db.select({ balance: tradeAccounts.balance }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId)))[0]!.balance;
const invoiceOf = async (id: number) => (await db.select().from(tradeInvoices).where(eq(tradeInvoices.id, id)))[0]!;
const notesOf = (invoiceId: number) => db.select().from(tradeCreditNotes).where(eq(tradeCreditNotes.invoiceId, invoiceId)).orderBy(asc(tradeCreditNotes.id));
const mailTo = (to: string) => db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(asc(mailOutbox.id));

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  desk = createAdminOrderService(db, {
    mail: outbox,
    appName: "Tradecounter",
    publicUrl: "http://shop.test",
    shopEmail: "shop@example.com",
    shop: { name: "Tradecounter", email: "shop@example.com", address: ["1 Yard Lane"], vatNumber: "" },
  });
  [hammer, level] = await hammerAndLevel(db, ["CAN-HAM", "CAN-LVL"], [50, 50]);
  for (const v of await db.select({ id: productVariants.id, productId: productVariants.productId }).from(productVariants).where(inArray(productVariants.productId, [hammer, level]))) variantOf.set(v.productId, v.id);
  await recordOpeningStock(db);
  Object.assign(as, await staffMembers(db, "cancel.example.com"));
  const [account] = await db
    .insert(tradeAccounts)
    .values({ companyName: "Shah Building Services Ltd", companyType: "limited_company", companyNumber: "01234567", trade: "Builder", line1: "1 Yard", town: "Leeds", postcode: "LS1 4AP", phone: "0113 496 0001", accountsEmail: ACCOUNTS_EMAIL, expectedMonthlySpend: 100_000, requestedCreditLimit: 500_000, state: "approved", creditLimit: 1_000_000, termsDays: 30 })
    .returning({ id: tradeAccounts.id });
  accountId = account!.id;
}, 60_000);
afterAll(() => database?.destroy());

describe("cancelling an order on account", () => {
  it("offers the cancel action and credits the invoice in full with the stock back, audited and emailed, in one transaction", async () => {
    const o = await orderOnAccount("cancel-1@example.com");
    const [before, stock0] = [await balance(), await stocks()];
    expect((await desk.detail(as.sales, o.number)).actions.map((a) => a.to)).toContain("cancelled");

    const done = await desk.transition(as.sales, o.number, { to: "cancelled", note: "Customer ordered twice.", expected_status: "processing" });
    expect(done.status).toBe("cancelled");

    const [note] = await notesOf(o.invoiceId);
    expect(done.credit_note).toBe(note!.number);
    expect(note).toMatchObject({ tradeAccountId: accountId, reason: `Order ${o.number} cancelled: Customer ordered twice.`, total: o.total, applied: o.total, createdBy: as.sales.staffId });
    const lines = await db.select().from(tradeCreditNoteLines).where(eq(tradeCreditNoteLines.creditNoteId, note!.id)).orderBy(asc(tradeCreditNoteLines.id));
    expect(lines.map((l) => [l.description, l.quantity])).toEqual([
      ["Claw hammer (CAN-HAM)", 3],
      ["Spirit level (CAN-LVL)", 2],
      ["Delivery (inc VAT)", 1],
    ]);
    expect(await invoiceOf(o.invoiceId)).toMatchObject({ creditedAmount: o.total, paidAmount: 0, status: "paid" });
    expect(await balance()).toBe(before - o.total);
    expect(await stocks()).toEqual([stock0[0]! + 3, stock0[1]! + 2]);

    // The order's audit names the credit note; the account's history has the credit note itself.
    const audits = await db.select().from(auditLog).where(and(eq(auditLog.entityId, o.number), eq(auditLog.entity, "order")));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.after).toMatchObject({ status: "cancelled", note: "Customer ordered twice.", invoice: o.invoiceNumber, credit_note: note!.number });
    const onAccount = await db.select().from(auditLog).where(and(eq(auditLog.entity, "trade_account"), eq(auditLog.entityId, String(accountId)), eq(auditLog.action, "trade_account.credit_note")));
    expect(onAccount.map((a) => (a.after as { credit_note: string }).credit_note)).toEqual([note!.number]);
    expect(onAccount[0]!.staffId).toBe(as.sales.staffId);

    const [customer] = await mailTo("cancel-1@example.com");
    expect(customer!.subject).toBe(`Order ${o.number} has been cancelled`);
    expect(customer!.text).toContain("Reason: Customer ordered twice.");
    expect(customer!.text).toContain(`Its invoice ${o.invoiceNumber} has been credited in full with credit note ${note!.number}`);
    const accounts = (await mailTo(ACCOUNTS_EMAIL)).filter((m) => m.subject.includes(note!.number));
    expect(accounts.map((m) => m.subject)).toEqual([`Credit note ${note!.number} for ${o.invoiceNumber}`]);
    expect(accounts[0]!.text).toContain(`/api/trade/credit-notes/${note!.number}/pdf`);

    expect(await databaseInvariantViolations(db)).toEqual([]);
    // Once only: a second cancel is refused and credits nothing more.
    await expect(desk.transition(as.owner, o.number, { to: "cancelled", note: "Again" })).rejects.toMatchObject({ statusCode: 409 });
    expect(await notesOf(o.invoiceId)).toHaveLength(1);
  });

  it("credits the whole invoice when part of it was paid: the rest is credit on account", async () => {
    const o = await orderOnAccount("cancel-2@example.com", "ready_for_collection");
    await db.transaction(async (t) => {
      await recordPayment(t as unknown as Db, { accountId, amount: 5000, method: "bacs", reference: "Part", allocations: [{ invoiceId: o.invoiceId, amount: 5000 }] });
    });
    const before = await balance();
    const done = await desk.transition(as.manager, o.number, { to: "cancelled", note: "Not collected." });
    const [note] = await notesOf(o.invoiceId);
    expect(done.credit_note).toBe(note!.number);
    expect(note).toMatchObject({ total: o.total, applied: o.total - 5000 });
    expect(await invoiceOf(o.invoiceId)).toMatchObject({ creditedAmount: o.total - 5000, paidAmount: 5000, status: "paid" });
    expect(await balance()).toBe(before - o.total);
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });

  it("just cancels when the trade desk has already credited the invoice in full", async () => {
    const o = await orderOnAccount("cancel-3@example.com");
    await db.transaction(async (t) => {
      await issueCreditNote(t as unknown as Db, { invoiceId: o.invoiceId, reason: "Wrong goods", whole: true });
    });
    const [before, stock0, mails] = [await balance(), await stocks(), (await mailTo(ACCOUNTS_EMAIL)).length];
    const done = await desk.transition(as.sales, o.number, { to: "cancelled", note: "Credited already." });
    expect(done.status).toBe("cancelled");
    expect(done.credit_note).toBeUndefined();
    expect(await notesOf(o.invoiceId)).toHaveLength(1);
    expect(await balance()).toBe(before);
    expect(await stocks()).toEqual([stock0[0]! + 3, stock0[1]! + 2]);
    expect(await mailTo(ACCOUNTS_EMAIL)).toHaveLength(mails);
    const [customer] = await mailTo("cancel-3@example.com");
    expect(customer!.text).toContain(`Its invoice ${o.invoiceNumber} had already been credited in full.`);
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });

  it("still refuses a dispatched order on account, and roles without orders.cancel, changing nothing", async () => {
    const gone = await orderOnAccount("cancel-4@example.com", "dispatched");
    const [before, stock0] = [await balance(), await stocks()];
    await expect(desk.transition(as.owner, gone.number, { to: "cancelled", note: "Too late" })).rejects.toMatchObject({ statusCode: 409, message: `Order ${gone.number} is dispatched; it cannot move to cancelled.` });
    expect((await desk.detail(as.owner, gone.number)).actions.map((a) => a.to)).not.toContain("cancelled");

    const o = await orderOnAccount("cancel-5@example.com");
    const after = await balance();
    for (const role of STAFF_ROLES.filter((r) => !can(r, "orders.cancel"))) {
      const refused = await desk.transition(as[role], o.number, { to: "cancelled", note: "No" }).catch((e: unknown) => e);
      expect(refused, role).toBeInstanceOf(HttpError);
      expect((refused as HttpError).statusCode, role).toBe(403);
    }
    await expect(desk.transition(as.sales, o.number, { to: "cancelled", note: " " })).rejects.toBeInstanceOf(ValidationError);
    expect(await notesOf(gone.invoiceId)).toEqual([]);
    expect(await notesOf(o.invoiceId)).toEqual([]);
    expect(await balance()).toBe(after);
    expect(after - before).toBe(o.total);
    expect((await stocks()).map((s, i) => s - stock0[i]!)).toEqual([-3, -2]);
    for (const role of STAFF_ROLES.filter((r) => can(r, "orders.cancel"))) expect(["owner", "manager", "sales"]).toContain(role);
    expect(await databaseInvariantViolations(db)).toEqual([]);
  });
});

// Lock order under load: the cancellation (order, products, account, invoice)
// beside a checkout on account (products, account, invoice), a payment and a
// trade desk credit note on the same invoice (account, invoice). A cycle
// would fail one with a deadlock error. PGlite runs one query at a time, so
// this is real only on PostgreSQL:
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/orders/cancel-on-account.test.ts
describe.skipIf(!process.env.TEST_DATABASE_URL)("cancelling on account beside checkout, payments and credit notes (PostgreSQL)", () => {
  it("never deadlocks; the invoice is credited once, the ledger adds up", async () => {
    for (let round = 0; round < 6; round++) {
      const o = await orderOnAccount(`race-${round}@example.com`);
      const results = await Promise.allSettled([
        desk.transition(as.sales, o.number, { to: "cancelled", note: `Race ${round}` }),
        orderOnAccount(`race-next-${round}@example.com`),
        db.transaction(async (t) => recordPayment(t as unknown as Db, { accountId, amount: 1000, method: "bacs", reference: `R${round}`, allocations: [{ invoiceId: o.invoiceId, amount: 1000 }] })),
        db.transaction(async (t) => issueCreditNote(t as unknown as Db, { invoiceId: o.invoiceId, reason: "Desk", whole: true })),
      ]);
      const [cancel, checkout, pay, credit] = results;
      expect(cancel.status, JSON.stringify(cancel)).toBe("fulfilled");
      expect(checkout.status, JSON.stringify(checkout)).toBe("fulfilled");
      // The payment and the desk's credit note may come too late (422), never fail otherwise.
      for (const r of [pay, credit]) if (r!.status === "rejected") expect(r!.reason, String(r!.reason)).toBeInstanceOf(ValidationError);
      const invoice = await invoiceOf(o.invoiceId);
      expect(invoice.status).toBe("paid");
      expect(invoice.paidAmount + invoice.creditedAmount).toBe(o.total);
      // One credit note takes the whole invoice, the cancellation's or the desk's.
      const notes = await notesOf(o.invoiceId);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.total).toBe(o.total);
      expect(await databaseInvariantViolations(db)).toEqual([]);
    }
  });
});
