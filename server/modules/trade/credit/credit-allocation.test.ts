// Credit on account set against later invoices (ADR 0040): the payments'
// unallocated money, oldest first, over HTTP as the demo staff; each refusal;
// who may; the database's invariants after each. On PostgreSQL also: two
// allocations of the same credit at once never allocate more than it.
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx --no-install vitest run server/modules/trade/credit/credit-allocation.test.ts
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../http-errors.ts";
import { servicesForFile } from "../../../test/app.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";
import { databaseInvariantViolations } from "../../../test/invariants.ts";
import type { StaffRole } from "../../staff/permissions.ts";
import { holdOverdueAccounts } from "./holds.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { tradePaymentAllocations, tradePayments } from "./ledger-schema.ts";
import { tradeAccounts } from "../schema.ts";
import { isoDay, tradeFixtures } from "../test-fixtures.ts";

const { shop, as: staffAs } = staffTestShop("198.51.117");
const ctx = servicesForFile(shop);
const db = () => shop().database.db;
const fx = tradeFixtures(shop);
const onPostgres = !!process.env.TEST_DATABASE_URL;

/** A company with £120 invoices (£100 + 20% VAT), `dues` days from today (negative: overdue). */
async function companyWith(name: string, dues: number[]) {
  const c = await fx.company(name);
  const invoices = [];
  for (const due of dues) invoices.push(await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(due - 30), dueDate: isoDay(due), lines: [{ name: "Copper pipe 15mm", qty: 2, unit: 5000, rate: 20 }] }));
  return { ...c, invoices };
}

/** Money received and kept on account (no allocation), through the desk. */
const payOnAccount = (accountId: number, amount: number, receivedOn: string) => ctx.services.tradeDesk.pay(ctx.system, accountId, { amount, method: "bacs", reference: `on account ${amount}`, received_on: receivedOn, allocations: [] });

const allocate = (accountId: number, allocations: { invoice_number: string; amount: number }[], as: StaffRole = "accounts") =>
  staffAs[as].post(`/api/admin/trade/accounts/${accountId}/credit-allocations`, { allocations });

const paymentsOf = (accountId: number) => db().select().from(tradePayments).where(eq(tradePayments.tradeAccountId, accountId)).orderBy(tradePayments.id);
const invoiceRow = async (id: number) => (await db().select().from(tradeInvoices).where(eq(tradeInvoices.id, id)))[0]!;
const accountRow = async (id: number) => (await db().select().from(tradeAccounts).where(eq(tradeAccounts.id, id)))[0]!;

describe("allocating credit on account", () => {
  it("sets the oldest payments' money against invoices, adds to an existing allocation, and leaves the balance alone", async () => {
    const c = await companyWith("Credit Use Ltd", [10, 20]);
    const [first, second] = c.invoices;
    // £50 received first (by date, though recorded second), £100 later; £30 of the later one already went to the first invoice.
    await payOnAccount(c.accountId, 100, isoDay(-2));
    await payOnAccount(c.accountId, 50, isoDay(-5));
    await ctx.services.tradeDesk.pay(ctx.system, c.accountId, { amount: 30, method: "cash", reference: "part", allocations: [{ invoice_number: first!.number, amount: 30 }] });
    const [later, older, part] = await paymentsOf(c.accountId);
    const before = await accountRow(c.accountId);
    expect(before.balance).toBe(24000 - 18000);

    const res = await allocate(c.accountId, [
      { invoice_number: first!.number, amount: 90 },
      { invoice_number: second!.number, amount: 40 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.balance).toBe(60);
    expect(body.invoices.find((i: { number: string }) => i.number === first!.number)).toMatchObject({ paid: 120, outstanding: 0, status: "paid" });
    expect(body.invoices.find((i: { number: string }) => i.number === second!.number)).toMatchObject({ paid: 40, outstanding: 80, status: "unpaid" });
    expect((await accountRow(c.accountId)).balance).toBe(before.balance);

    // The older £50 went first (all to the first invoice), then £40 + £40 of the later £100.
    const after = new Map((await paymentsOf(c.accountId)).map((p) => [p.id, p]));
    expect(after.get(older!.id)!.unallocated).toBe(0);
    expect(after.get(later!.id)!.unallocated).toBe(10000 - 8000);
    expect(after.get(part!.id)!.unallocated).toBe(0);
    const rows = await db().select().from(tradePaymentAllocations).where(eq(tradePaymentAllocations.paymentId, later!.id));
    expect(rows.map((r) => [r.invoiceId, r.amount]).sort()).toEqual([[first!.id, 4000], [second!.id, 4000]].sort());

    // Again against the second invoice: the same payment's row grows rather than a second row.
    const again = await allocate(c.accountId, [{ invoice_number: second!.number.toLowerCase(), amount: 20 }]);
    expect(again.statusCode, again.body).toBe(200);
    const [grown] = await db().select().from(tradePaymentAllocations).where(and(eq(tradePaymentAllocations.paymentId, later!.id), eq(tradePaymentAllocations.invoiceId, second!.id)));
    expect(grown!.amount).toBe(6000);
    expect((await invoiceRow(second!.id)).paidAmount).toBe(6000);

    const detail = (await staffAs.accounts.get(`/api/admin/trade/accounts/${c.accountId}`)).json().data;
    expect(detail.unallocated_credit).toBe(0);
    expect(detail.audit[0]).toMatchObject({ action: "trade_account.credit_allocation" });
    expect(JSON.stringify(detail.audit[0])).toContain(later!.number);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("lifts an overdue hold once the credit clears what is overdue, and confirms a remittance it completes", async () => {
    const c = await companyWith("Credit Hold Ltd", [-10]);
    await holdOverdueAccounts(db());
    expect((await accountRow(c.accountId)).holdReason).toBe("overdue");
    const sent = await c.owner.browser.post("/api/trade/invoices/pay", { invoice_ids: [c.invoices[0]!.id] });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    await payOnAccount(c.accountId, 200, isoDay(-1));
    const res = await allocate(c.accountId, [{ invoice_number: c.invoices[0]!.number, amount: 120 }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ on_hold: false, hold_reason: "", overdue: 0 });
    const remittance = sent.json().data.remittance.reference as string;
    const detail = (await staffAs.accounts.get(`/api/admin/trade/accounts/${c.accountId}`)).json().data;
    expect(detail.remittances_waiting.map((r: { reference: string }) => r.reference)).not.toContain(remittance);
    expect(detail.unallocated_credit).toBe(80);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("refuses with 422 naming the problem, and moves nothing", async () => {
    const c = await companyWith("Credit Refusals Ltd", [10]);
    const other = await companyWith("Credit Elsewhere Ltd", [10]);
    const paid = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-5), dueDate: isoDay(25), lines: [{ name: "Valve", qty: 1, unit: 1000, rate: 20 }], status: "paid" });
    const inv = c.invoices[0]!;
    const none = await allocate(other.accountId, [{ invoice_number: other.invoices[0]!.number, amount: 10 }]);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.allocations).toEqual(["The account has no unallocated payment money to allocate."]);

    await payOnAccount(c.accountId, 100, isoDay(-1));
    // A credit note on the paid invoice leaves £12 in the balance, but no payment's money: not allocatable.
    await ctx.services.tradeDesk.credit(ctx.system, paid.number, { reason: "Returned", whole: true });
    const balance = (await accountRow(c.accountId)).balance;
    const cases: [object[], string][] = [
      [[{ invoice_number: inv.number, amount: 100.01 }], "The allocations (£100.01) are more than the £100.00 credit on account."],
      [[{ invoice_number: other.invoices[0]!.number, amount: 10 }], `Invoice ${other.invoices[0]!.number} is not this account's.`],
      [[{ invoice_number: paid.number, amount: 10 }], `${paid.number} is already paid.`],
      [[{ invoice_number: "INV-999999", amount: 10 }], "No invoice is numbered INV-999999."],
    ];
    for (const [allocations, message] of cases) {
      const res = await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/credit-allocations`, { allocations });
      expect(res.statusCode, message).toBe(422);
      expect(res.json().errors.allocations[0]).toBe(message);
    }
    // More than the invoice's outstanding, with enough credit.
    await payOnAccount(c.accountId, 100, isoDay(-1));
    const over = await allocate(c.accountId, [{ invoice_number: inv.number, amount: 130 }]);
    expect(over.json().errors.allocations[0]).toBe(`£130.00 is more than the £120.00 outstanding on ${inv.number}.`);
    const twice = await allocate(c.accountId, [
      { invoice_number: inv.number, amount: 10 },
      { invoice_number: inv.number, amount: 10 },
    ]);
    expect(twice.json().errors.allocations).toContain("Allocate to each invoice only once.");
    expect((await allocate(c.accountId, [])).statusCode).toBe(422);
    expect((await allocate(c.accountId, [{ invoice_number: inv.number, amount: 0 }])).statusCode).toBe(422);
    expect((await allocate(c.accountId, [{ invoice_number: inv.number, amount: 1.005 }])).statusCode).toBe(422);
    // The service refuses the same without the route's schema (the screen calls it directly).
    await expect(ctx.services.tradeDesk.allocateCredit(ctx.system, c.accountId, { allocations: [{ invoice_number: inv.number, amount: 1.005 }] })).rejects.toBeInstanceOf(ValidationError);
    await expect(ctx.services.tradeDesk.allocateCredit(ctx.system, c.accountId, { allocations: [{ invoice_number: inv.number, amount: -5 }] })).rejects.toBeInstanceOf(ValidationError);

    expect((await invoiceRow(inv.id)).paidAmount).toBe(0);
    expect((await paymentsOf(c.accountId)).map((p) => p.unallocated)).toEqual([0, 10000, 10000]);
    expect((await accountRow(c.accountId)).balance).toBe(balance - 10000);
    expect((await allocate(99_999_999, [{ invoice_number: inv.number, amount: 1 }])).statusCode).toBe(404);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("lets accounts, managers and owners allocate; sales, warehouse and hire get 403, a guest 401", async () => {
    const c = await companyWith("Credit Roles Ltd", [10]);
    await payOnAccount(c.accountId, 120, isoDay(-1));
    const inv = c.invoices[0]!;
    for (const role of ["sales", "warehouse", "hire"] as const) expect((await allocate(c.accountId, [{ invoice_number: inv.number, amount: 1 }], role)).statusCode, role).toBe(403);
    expect((await staffAs.guest.post(`/api/admin/trade/accounts/${c.accountId}/credit-allocations`, { allocations: [{ invoice_number: inv.number, amount: 1 }] })).statusCode).toBe(401);
    expect((await invoiceRow(inv.id)).paidAmount).toBe(0);
    for (const role of ["accounts", "manager", "owner"] as const) expect((await allocate(c.accountId, [{ invoice_number: inv.number, amount: 1 }], role)).statusCode, role).toBe(200);
    expect((await invoiceRow(inv.id)).paidAmount).toBe(300);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});

describe.skipIf(!onPostgres)("allocating credit under concurrency (PostgreSQL)", () => {
  it("two allocations of the same credit at once never allocate more than it", async () => {
    const c = await companyWith("Credit Race Ltd", [10, 12, 14, 16]);
    await payOnAccount(c.accountId, 100, isoDay(-3));
    await payOnAccount(c.accountId, 50, isoDay(-2));
    // £150 of credit; four allocations of £100 each, to different invoices, at once: exactly one fits.
    const results = await Promise.allSettled(c.invoices.map((i) => ctx.services.tradeDesk.allocateCredit(ctx.system, c.accountId, { allocations: [{ invoice_number: i.number, amount: 100 }] })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ValidationError);
    const payments = await paymentsOf(c.accountId);
    expect(payments.reduce((s, p) => s + p.unallocated, 0)).toBe(5000);
    const paid = await Promise.all(c.invoices.map((i) => invoiceRow(i.id)));
    expect(paid.reduce((s, i) => s + i.paidAmount, 0)).toBe(10000);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});
