// Paying trade invoices (issue 7): who may pay, each refusal, the remittance and
// its instructions, the lifted on-account block, and one remittance per invoice
// under concurrency. The concurrency case proves something only on PostgreSQL:
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/trade/credit/pay.test.ts
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../../test/app.ts";
import { type TestBrowser } from "../../../test/browser.ts";
import { ACTORS, type Actor, isoDay, tradeFixtures } from "../test-fixtures.ts";
import { standingOf } from "./credit.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { createTradePaymentsService, PAY_MESSAGES } from "./remittances.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "./remittance-schema.ts";

const shop = testShopForFile({ env: { SHOP_BANK_SORT_CODE: "401234", SHOP_BANK_ACCOUNT: "87654321", SHOP_BANK_ACCOUNT_NAME: "Tradecounter Ltd" } });

const { signedUp, company, invoiceFor, guest } = tradeFixtures(shop);
type Company = Awaited<ReturnType<typeof company>>;

const overdueInvoice = (c: Company, unit = 1000) => invoiceFor(c.accountId, c.buyer.id, { po: "PO-OLD", invoiceDate: isoDay(-45), dueDate: isoDay(-15), lines: [{ name: "Copper pipe", qty: 1, unit, rate: 20 }] });
const currentInvoice = (c: Company, unit = 5000) => invoiceFor(c.accountId, c.buyer.id, { po: "PO-NEW", invoiceDate: isoDay(0), dueDate: isoDay(30), lines: [{ name: "Boiler", qty: 1, unit, rate: 20 }] });
const statusOf = async (id: number) => (await shop().database.db.select({ status: tradeInvoices.status }).from(tradeInvoices).where(eq(tradeInvoices.id, id)))[0]!.status;
const pay = (b: TestBrowser, invoice_ids: unknown, extra: Record<string, unknown> = {}) => b.post("/api/trade/invoices/pay", { invoice_ids, ...extra });

const PAYS: Record<Actor, number> = { guest: 401, customer: 404, owner: 201, admin: 201, buyer: 404, accounts: 201, "other owner": 404 };

describe("POST /api/trade/invoices/pay", () => {
  let a: Company;
  let other: Company;
  let as: Record<Actor, TestBrowser>;

  beforeAll(async () => {
    a = await company("Payers Ltd");
    other = await company("Others Ltd");
    as = { guest: await guest(), customer: (await signedUp("customer")).browser, owner: a.owner.browser, admin: a.admin.browser, buyer: a.buyer.browser, accounts: a.accounts.browser, "other owner": other.owner.browser };
  });

  it.each(ACTORS)("as %s", async (actor) => {
    const invoice = await currentInvoice(a);
    const res = await pay(as[actor], [invoice.id]);
    expect(res.statusCode).toBe(PAYS[actor]);
    expect(await statusOf(invoice.id)).toBe(res.statusCode === 201 ? "payment_pending" : "unpaid");
    if (res.statusCode !== 201) return;
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });

  it("records one remittance for the chosen invoices and says where to pay and what to quote", async () => {
    const first = await overdueInvoice(a, 1000);
    const second = await currentInvoice(a, 5000);
    const res = await pay(a.accounts.browser, [second.id, first.id]);
    expect(res.statusCode).toBe(201);
    const { remittance, instructions } = res.json().data;
    expect(remittance.reference).toMatch(/^REM-\d{6}$/);
    expect(remittance).toMatchObject({ amount: 72, provider: "bank_transfer", status: "pending" });
    expect(remittance.invoices).toEqual([
      { id: first.id, number: first.number, total: 1200, status: "payment_pending" },
      { id: second.id, number: second.number, total: 6000, status: "payment_pending" },
    ]);
    expect(Date.parse(remittance.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(instructions).toEqual({
      provider: "bank_transfer",
      reference: remittance.reference,
      amount: 72,
      pay_to: { account_name: "Tradecounter Ltd", sort_code: "40-12-34", account_number: "87654321" },
      summary: `Pay £72.00 by bank transfer to Tradecounter Ltd, sort code 40-12-34, account 87654321, quoting ${remittance.reference} as the reference.`,
    });
    const [row] = await shop().database.db.select().from(tradeRemittances).where(eq(tradeRemittances.reference, remittance.reference));
    expect(row).toMatchObject({ tradeAccountId: a.accountId, amount: 7200, provider: "bank_transfer", createdBy: a.accounts.id, status: "pending", confirmedAt: null });
    const links = await shop().database.db.select().from(tradeRemittanceInvoices).where(eq(tradeRemittanceInvoices.remittanceId, row!.id));
    expect(links.map((l) => l.invoiceId).sort((x, y) => x - y)).toEqual([first.id, second.id]);

    const listed = await a.owner.browser.get("/api/trade/remittances");
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data[0]).toMatchObject({ reference: remittance.reference, amount: 72 });
    expect((await a.buyer.browser.get("/api/trade/remittances")).statusCode).toBe(404);
    expect((await other.owner.browser.get("/api/trade/remittances")).json().data.map((r: { reference: string }) => r.reference)).not.toContain(remittance.reference);
  });

  it("refuses invoices that are already paid or pending, or not the company's, naming each, and changes nothing", async () => {
    const paid = await invoiceFor(a.accountId, a.buyer.id, { status: "paid", invoiceDate: isoDay(-60), dueDate: isoDay(-30), lines: [{ name: "Valve", qty: 1, unit: 500, rate: 20 }] });
    const pending = await invoiceFor(a.accountId, a.buyer.id, { status: "payment_pending", invoiceDate: isoDay(-60), dueDate: isoDay(-30), lines: [{ name: "Valve", qty: 1, unit: 500, rate: 20 }] });
    const theirs = await currentInvoice(other);
    const fine = await currentInvoice(a);
    const before = await shop().database.db.select({ id: tradeRemittances.id }).from(tradeRemittances);
    const res = await pay(a.owner.browser, [fine.id, paid.id, pending.id, theirs.id, 2_147_483_000]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      invoice_ids: [PAY_MESSAGES.paid(paid.number), PAY_MESSAGES.pending(pending.number), PAY_MESSAGES.notFound(theirs.id), PAY_MESSAGES.notFound(2_147_483_000)],
    });
    expect(PAY_MESSAGES.paid("INV-000012")).toBe("INV-000012 is already paid.");
    expect(await statusOf(fine.id)).toBe("unpaid");
    expect(await statusOf(theirs.id)).toBe("unpaid");
    expect(await shop().database.db.select({ id: tradeRemittances.id }).from(tradeRemittances)).toHaveLength(before.length);
  });

  it("refuses a bad body with a clear message for the field", async () => {
    const invoice = await currentInvoice(a);
    const cases: [unknown, string][] = [
      [[], PAY_MESSAGES.none],
      [undefined, PAY_MESSAGES.none],
      [[invoice.id, invoice.id], PAY_MESSAGES.twice],
      [Array.from({ length: 101 }, (_, i) => i + 1), PAY_MESSAGES.tooMany],
    ];
    for (const [ids, message] of cases) {
      const res = await pay(a.owner.browser, ids);
      expect(res.statusCode, message).toBe(422);
      expect(Object.values(res.json().errors).flat(), message).toContain(message);
    }
    const cheque = await pay(a.owner.browser, [invoice.id], { provider: "cheque" });
    expect(cheque.statusCode).toBe(422);
    expect(cheque.json().errors.provider).toEqual([PAY_MESSAGES.provider]);
    // Card only where the shop takes cards (payments/invoices.test.ts pays by card).
    const noCards = createTradePaymentsService(shop().database.db, { providers: [] });
    await expect(noCards.pay(a.owner.id, { invoiceIds: [invoice.id], provider: "card" })).rejects.toMatchObject({ statusCode: 422, errors: { provider: [PAY_MESSAGES.provider] } });
    expect(await statusOf(invoice.id)).toBe("unpaid");
  });

  it("paying everything overdue lifts the on-account block", async () => {
    const c = await company("Late Payers Ltd");
    const late = [await overdueInvoice(c), await overdueInvoice(c)];
    await currentInvoice(c);
    expect(await standingOf(shop().database.db, c.buyer.id)).toMatchObject({ ok: false });
    expect((await pay(c.accounts.browser, [late[0]!.id])).statusCode).toBe(201);
    // One overdue invoice still unpaid: still blocked.
    expect(await standingOf(shop().database.db, c.buyer.id)).toMatchObject({ ok: false });
    expect((await pay(c.accounts.browser, [late[1]!.id])).statusCode).toBe(201);
    expect(await standingOf(shop().database.db, c.buyer.id)).toMatchObject({ ok: true });
    const option = (await c.buyer.browser.get("/api/checkout/delivery-options")).json().data.payment as { id: string }[];
    expect(option.map((p) => p.id)).toContain("pay_on_account");
  });
});

describe("the invoices a company can pay", () => {
  it("lists the unpaid ones, overdue first, then by due date, and counts them", async () => {
    const payments = createTradePaymentsService(shop().database.db, { providers: [] });
    const c = await company("Listers Ltd");
    const later = await invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(0), dueDate: isoDay(40), lines: [{ name: "Sand", qty: 1, unit: 100, rate: 20 }] });
    const sooner = await invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(0), dueDate: isoDay(10), lines: [{ name: "Sand", qty: 1, unit: 100, rate: 20 }] });
    const late = await overdueInvoice(c);
    await invoiceFor(c.accountId, c.buyer.id, { status: "payment_pending", invoiceDate: isoDay(-45), dueDate: isoDay(-15), lines: [{ name: "Sand", qty: 1, unit: 100, rate: 20 }] });
    await invoiceFor(c.accountId, c.buyer.id, { status: "paid", invoiceDate: isoDay(-45), dueDate: isoDay(-15), lines: [{ name: "Sand", qty: 1, unit: 100, rate: 20 }] });
    const listed = await payments.payable(c.accounts.id);
    expect(listed.map((i) => [i.number, i.overdue])).toEqual([
      [late.number, true],
      [sooner.number, false],
      [later.number, false],
    ]);
    expect(listed[0]).toMatchObject({ po_reference: "PO-OLD", due_date: isoDay(-15), total: 1200 });
    expect(await payments.payableCount(c.owner.id)).toBe(3);
    await expect(payments.payable(c.buyer.id)).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe("paying the same invoice at once", () => {
  it("makes exactly one remittance when five payments race", async () => {
    const c = await company("Racers Ltd");
    const invoice = await currentInvoice(c);
    const browsers = [c.owner, c.admin, c.accounts, c.owner, c.accounts].map((p) => p.browser);
    const results = await Promise.all(browsers.map((b) => pay(b, [invoice.id])));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.statusCode === 422)) expect(r.json().errors.invoice_ids).toEqual([PAY_MESSAGES.pending(invoice.number)]);
    const links = await shop().database.db.select().from(tradeRemittanceInvoices).where(inArray(tradeRemittanceInvoices.invoiceId, [invoice.id]));
    expect(links).toHaveLength(1);
  });
});
