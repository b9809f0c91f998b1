// The trade ledger's invariant (ADR 0040) over random sequences of orders on
// account (checkout's chargeOnAccount), payments with allocations (some
// refused) and credit notes (whole or a unit of a line, some refused): after
// every step, for the account and each invoice,
//   balance = Σ invoices − Σ credit notes − Σ payments,
//   paid = Σ its allocations, credited = Σ applied credit notes,
//   status paid exactly when nothing is outstanding.
// On PostgreSQL (TEST_DATABASE_URL) also: payments racing to allocate to the
// same invoice never over-allocate it, and a payment racing an order on account
// keeps the balance exact.
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx --no-install vitest run server/modules/trade/credit/ledger.test.ts
import { asc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Db } from "../../../db/client.ts";
import { ValidationError } from "../../../http-errors.ts";
import { testShopForFile, servicesForFile } from "../../../test/app.ts";
import { orderLines, orders } from "../../orders/schema.ts";
import { chargeOnAccount } from "./credit.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { creditableLines, issueCreditNote, outstandingOf, recordPayment } from "./ledger.ts";
import { tradeCreditNotes, tradePaymentAllocations, tradePayments } from "./ledger-schema.ts";
import { tradeAccounts } from "../schema.ts";
import { isoDay, tradeFixtures } from "../test-fixtures.ts";

const shop = testShopForFile();
const ctx = servicesForFile(shop);
const db = () => shop().database.db;
const fx = tradeFixtures(shop);
const onPostgres = !!process.env.TEST_DATABASE_URL;

const inTx = <T>(work: (tx: Db) => Promise<T>) => db().transaction(async (t) => work(t as unknown as Db));
let orderSeq = 0;

/** An order paid on account as checkout takes it: the order and its lines, then chargeOnAccount (balance and invoice). */
async function orderOnAccount(userId: number, lines: { qty: number; unit: number }[], delivery: number) {
  const seq = (orderSeq += 1);
  const rows = lines.map((l, i) => ({ sku: `LEDGER-${i}`, name: `Ledger item ${i}`, qty: l.qty, unit: l.unit, lineTotal: l.qty * l.unit, lineVat: Math.round((l.qty * l.unit * 20) / 100) }));
  const subtotal = rows.reduce((s, l) => s + l.lineTotal, 0);
  const vat = rows.reduce((s, l) => s + l.lineVat, 0);
  const total = subtotal + vat + delivery;
  return inTx(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({ number: `TC-LEDGER-${Date.now()}-${seq}`, userId, email: "buyer@example.com", status: "processing", deliveryMethod: "standard", deliveryName: "Standard", subtotal, vat, delivery, total, paymentMethod: "pay_on_account" })
      .returning();
    await tx.insert(orderLines).values(rows.map((l, i) => ({ orderId: order!.id, sku: l.sku, name: l.name, slug: `ledger-${i}`, quantity: l.qty, unitPrice: l.unit, vatRate: 20, lineTotal: l.lineTotal, lineVat: l.lineVat })));
    return chargeOnAccount(tx, { userId, orderId: order!.id, orderNumber: order!.number, subtotal, vat, delivery, total, poReference: "" });
  });
}

/** The invariant, read from the ledger's own rows. */
async function expectInvariant(accountId: number) {
  const [account] = await db().select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId));
  const invoices = await db().select().from(tradeInvoices).where(eq(tradeInvoices.tradeAccountId, accountId)).orderBy(asc(tradeInvoices.id));
  const notes = await db().select().from(tradeCreditNotes).where(eq(tradeCreditNotes.tradeAccountId, accountId));
  const payments = await db().select().from(tradePayments).where(eq(tradePayments.tradeAccountId, accountId));
  const allocations = await db()
    .select({ paymentId: tradePaymentAllocations.paymentId, invoiceId: tradePaymentAllocations.invoiceId, amount: tradePaymentAllocations.amount })
    .from(tradePaymentAllocations)
    .innerJoin(tradePayments, eq(tradePayments.id, tradePaymentAllocations.paymentId))
    .where(eq(tradePayments.tradeAccountId, accountId));
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  expect(account!.balance).toBe(sum(invoices.map((i) => i.total)) - sum(notes.map((n) => n.total)) - sum(payments.map((p) => p.amount)));
  for (const i of invoices) {
    expect(i.paidAmount, i.number).toBe(sum(allocations.filter((a) => a.invoiceId === i.id).map((a) => a.amount)));
    expect(i.creditedAmount, i.number).toBe(sum(notes.filter((n) => n.invoiceId === i.id).map((n) => n.applied)));
    expect(outstandingOf(i), i.number).toBeGreaterThanOrEqual(0);
    expect(i.status === "paid", i.number).toBe(outstandingOf(i) === 0);
  }
  for (const p of payments) expect(p.unallocated, p.number).toBe(p.amount - sum(allocations.filter((a) => a.paymentId === p.id).map((a) => a.amount)));
}

const step = fc.oneof(
  fc.record({ kind: fc.constant("order" as const), lines: fc.array(fc.record({ qty: fc.integer({ min: 1, max: 4 }), unit: fc.integer({ min: 1, max: 5000 }) }), { minLength: 1, maxLength: 3 }), delivery: fc.constantFrom(0, 595) }),
  fc.record({ kind: fc.constant("pay" as const), picks: fc.array(fc.record({ at: fc.nat(), part: fc.double({ min: 0.01, max: 1.2, noNaN: true }) }), { maxLength: 3 }), extra: fc.integer({ min: 0, max: 2000 }), short: fc.boolean() }),
  fc.record({ kind: fc.constant("credit" as const), at: fc.nat(), whole: fc.boolean(), qty: fc.integer({ min: 1, max: 5 }) }),
);

describe("the ledger's invariant", () => {
  it("holds after every order on account, payment and credit note, refused or not", async () => {
    const c = await fx.company("Ledger Invariant Ltd");
    await db().update(tradeAccounts).set({ creditLimit: 1_000_000_000 }).where(eq(tradeAccounts.id, c.accountId));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const s of steps) {
          const invoices = await db().select().from(tradeInvoices).where(eq(tradeInvoices.tradeAccountId, c.accountId)).orderBy(asc(tradeInvoices.id));
          try {
            if (s.kind === "order") await orderOnAccount(c.buyer.id, s.lines, s.delivery);
            if (s.kind === "pay") {
              const open = invoices.filter((i) => outstandingOf(i) > 0);
              const chosen = open.length ? [...new Map(s.picks.map((p) => [open[p.at % open.length]!.id, p])).entries()] : [];
              // A part over 1 asks for more than is outstanding: the ledger must refuse it.
              const allocations = chosen.map(([invoiceId, p]) => ({ invoiceId, amount: Math.max(1, Math.round(outstandingOf(open.find((i) => i.id === invoiceId)!) * p.part)) }));
              const allocated = allocations.reduce((sum, a) => sum + a.amount, 0);
              const amount = s.short && allocated > 1 ? allocated - 1 : allocated + s.extra;
              if (amount > 0) await inTx((tx) => recordPayment(tx, { accountId: c.accountId, amount, method: "bacs", reference: "fc", allocations }));
            }
            if (s.kind === "credit" && invoices.length) {
              const invoice = invoices[s.at % invoices.length]!;
              const lines = await creditableLines(db(), invoice);
              await inTx((tx) => issueCreditNote(tx, { invoiceId: invoice.id, reason: "fc", whole: s.whole, lines: [{ source: lines[0]!.source, quantity: s.qty }] }));
            }
          } catch (error) {
            if (!(error instanceof ValidationError)) throw error;
          }
          await expectInvariant(c.accountId);
        }
      }),
      { numRuns: onPostgres ? 40 : 12 },
    );
    // The runs did move money, not only refuse.
    expect(await db().select().from(tradePayments).where(eq(tradePayments.tradeAccountId, c.accountId))).not.toHaveLength(0);
    expect(await db().select().from(tradeCreditNotes).where(eq(tradeCreditNotes.tradeAccountId, c.accountId))).not.toHaveLength(0);
  }, 300_000);
});

describe.skipIf(!onPostgres)("the ledger under concurrency (PostgreSQL)", () => {
  it("payments racing to allocate to one invoice never over-allocate it", async () => {
    const c = await fx.company("Ledger Race Ltd");
    const invoice = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-1), dueDate: isoDay(29), lines: [{ name: "Race", qty: 1, unit: 10000, rate: 20 }] });
    // £120 outstanding; eight payments of £50 against it at once: exactly two fit.
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => ctx.services.tradeDesk.pay(ctx.system, c.accountId, { amount: 50, method: "bacs", reference: "race", allocations: [{ invoice_number: invoice.number, amount: 50 }] })),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(2);
    for (const r of refused) expect(r.reason).toBeInstanceOf(ValidationError);
    const [after] = await db().select().from(tradeInvoices).where(eq(tradeInvoices.id, invoice.id));
    expect(after!.paidAmount).toBe(10000);
    await expectInvariant(c.accountId);
  });

  it("two confirmations of one remittance at once record one payment", async () => {
    const c = await fx.company("Ledger Remit Race Ltd");
    const invoice = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-1), dueDate: isoDay(29), lines: [{ name: "Remit", qty: 1, unit: 5000, rate: 20 }] });
    const paid = await c.owner.browser.post("/api/trade/invoices/pay", { invoice_ids: [invoice.id] });
    const reference = paid.json().data.remittance.reference as string;
    const results = await Promise.allSettled([1, 2, 3].map(() => ctx.services.tradeDesk.confirmRemittance(ctx.system, reference, {})));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as { statusCode: number }).statusCode).toBe(409);
    expect(await db().select().from(tradePayments).where(eq(tradePayments.tradeAccountId, c.accountId))).toHaveLength(1);
    await expectInvariant(c.accountId);
  });

  it("a payment, a credit note and orders on account at once keep the balance exact", async () => {
    const c = await fx.company("Ledger Mix Ltd");
    const first = await orderOnAccount(c.buyer.id, [{ qty: 2, unit: 1000 }], 0);
    const [inv] = await db().select().from(tradeInvoices).where(eq(tradeInvoices.id, first.invoiceId));
    const results = await Promise.allSettled([
      ...Array.from({ length: 4 }, () => orderOnAccount(c.buyer.id, [{ qty: 1, unit: 700 }], 0)),
      inTx((tx) => recordPayment(tx, { accountId: c.accountId, amount: 1000, method: "cash", reference: "mix", allocations: [{ invoiceId: inv!.id, amount: 1000 }] })),
      inTx((tx) => issueCreditNote(tx, { invoiceId: inv!.id, reason: "mix", whole: true })),
    ]);
    // Whichever of the payment and the credit note comes second sees the other's effect; neither may fail otherwise.
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ValidationError);
    expect(results.slice(0, 4).every((r) => r.status === "fulfilled")).toBe(true);
    await expectInvariant(c.accountId);
    const [total] = await db().select({ n: sql<number>`count(*)::int` }).from(tradeInvoices).where(eq(tradeInvoices.tradeAccountId, c.accountId));
    expect(total!.n).toBe(5);
  });
});
