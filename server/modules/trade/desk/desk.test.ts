// The trade desk over HTTP (issue 21), signed in as the demo staff: who may
// do what, the accounts list and its keyset pages, payments with allocation
// and each refusal, remittances confirmed, credit notes (whole, lines, past a
// line's quantity, on a paid invoice), holds (automatic and manual) and pay on
// account, applications approved, declined and asked for information.
import { and, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type createServices } from "../../../services.ts";
import { readPdf } from "../../../test/pdf.ts";
import { hireRequests } from "../../hire/schema.ts";
import { mailOutbox, mailOutboxAttachments } from "../../mail/schema.ts";
import { standingOf } from "../credit/credit.ts";
import { holdOverdueAccounts } from "../credit/holds.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { tradePayments } from "../credit/ledger-schema.ts";
import { tradeRemittances } from "../credit/remittance-schema.ts";
import { tradeAccounts, tradeMembers } from "../schema.ts";
import { isoDay, tradeFixtures } from "../test-fixtures.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";
import { servicesOf } from "../../../test/app.ts";

let services: ReturnType<typeof createServices>;
const { as: staffAs, shop } = staffTestShop("198.51.107");
const db = () => shop().database.db;
const fx = tradeFixtures(shop);

beforeAll(async () => {
  await staffAs.guest.csrf();
  services = servicesOf(shop());
}, 120_000);

const line = (unit: number, qty = 1) => ({ name: "Copper pipe 15mm", qty, unit, rate: 20 });

/** A company with invoices: `due` offsets in days from today (negative: overdue), each £120 inc VAT (£100 + 20%). */
async function companyWith(name: string, dues: number[]) {
  const c = await fx.company(name);
  const invoices = [];
  for (const due of dues) invoices.push(await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(due - 30), dueDate: isoDay(due), lines: [line(5000, 2)] }));
  return { ...c, invoices };
}

async function accountRow(id: number) {
  const [a] = await db().select().from(tradeAccounts).where(eq(tradeAccounts.id, id));
  return a!;
}

/** Σ invoices − Σ credit notes − Σ payments, from the ledger's own rows. */
async function ledgerBalance(accountId: number): Promise<number> {
  const [r] = await db()
    .select({
      b: sql<number>`(coalesce((select sum(total_pence) from trade_invoices where trade_account_id = ${accountId}), 0)
        - coalesce((select sum(total_pence) from trade_credit_notes where trade_account_id = ${accountId}), 0)
        - coalesce((select sum(amount_pence) from trade_payments where trade_account_id = ${accountId}), 0))::int`,
    })
    .from(tradeAccounts)
    .where(eq(tradeAccounts.id, accountId));
  return Number(r!.b);
}

describe("who may use the trade desk", () => {
  it("lets accounts, managers and owners in; sales, warehouse and hire get 403, a guest 401", async () => {
    const c = await companyWith("Matrix Joinery Ltd", [10]);
    for (const role of ["accounts", "manager", "owner"] as const) {
      expect((await staffAs[role].get("/api/admin/trade/accounts")).statusCode, role).toBe(200);
      expect((await staffAs[role].get(`/api/admin/trade/accounts/${c.accountId}`)).statusCode, role).toBe(200);
      expect((await staffAs[role].get("/api/admin/trade/applications")).statusCode, role).toBe(200);
    }
    for (const role of ["sales", "warehouse", "hire"] as const) {
      expect((await staffAs[role].get("/api/admin/trade/accounts")).statusCode, role).toBe(403);
      expect((await staffAs[role].get(`/api/admin/trade/accounts/${c.accountId}`)).statusCode, role).toBe(403);
      expect((await staffAs[role].post(`/api/admin/trade/accounts/${c.accountId}/payments`, { amount: 1, method: "bacs", allocations: [] })).statusCode, role).toBe(403);
      expect((await staffAs[role].post(`/api/admin/trade/invoices/${c.invoices[0]!.number}/credit-notes`, { reason: "x", whole: true })).statusCode, role).toBe(403);
      expect((await staffAs[role].post(`/api/admin/trade/accounts/${c.accountId}/hold`, { reason: "x" })).statusCode, role).toBe(403);
    }
    expect((await staffAs.guest.get("/api/admin/trade/accounts")).statusCode).toBe(401);
    // Nothing was written by the refused requests.
    expect(await db().select().from(tradePayments).where(eq(tradePayments.tradeAccountId, c.accountId))).toHaveLength(0);
  });
});

describe("payments with allocation", () => {
  it("records a payment, allocates it, keeps the rest on account and answers the account with its invoices", async () => {
    const c = await companyWith("Allocate Ltd", [5, 20]);
    const [a, b] = c.invoices;
    const res = await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/payments`, {
      amount: 200,
      method: "bacs",
      reference: "BACS 1234",
      allocations: [
        { invoice_number: a!.number, amount: 120 },
        { invoice_number: b!.number.toLowerCase(), amount: 50 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ id: c.accountId, company_name: "Allocate Ltd", balance: 240 - 200, credit_limit: 10000, overdue: 0, on_hold: false });
    const byNumber = Object.fromEntries(body.invoices.map((i: { number: string }) => [i.number, i]));
    expect(byNumber[a!.number]).toMatchObject({ total: 120, paid: 120, credited: 0, outstanding: 0, status: "paid" });
    expect(byNumber[b!.number]).toMatchObject({ total: 120, paid: 50, outstanding: 70, status: "unpaid" });
    const [payment] = await db().select().from(tradePayments).where(eq(tradePayments.tradeAccountId, c.accountId));
    expect(payment).toMatchObject({ amount: 20000, unallocated: 3000, method: "bacs", reference: "BACS 1234" });
    expect(payment!.number).toMatch(/^PAY-\d{6}$/);
    expect(await ledgerBalance(c.accountId)).toBe((await accountRow(c.accountId)).balance);
    const [receipt] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.to, "accounts@fitters.example.com"), like(mailOutbox.text, `%${a!.number} and ${b!.number}%`)));
    expect(receipt?.text).toContain("£200.00 by bank transfer");
    const detail = (await staffAs.accounts.get(`/api/admin/trade/accounts/${c.accountId}`)).json().data;
    expect(detail.payments[0]).toMatchObject({ number: payment!.number, amount: 200, unallocated: 30, allocations: [{ invoice_number: a!.number, amount: 120 }, { invoice_number: b!.number, amount: 50 }] });
    expect(detail.audit[0]).toMatchObject({ action: "trade_account.payment" });
  });

  it("refuses with 422 naming the problem, and writes nothing", async () => {
    const c = await companyWith("Refusals Ltd", [5]);
    const other = await companyWith("Elsewhere Ltd", [5]);
    const paid = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-5), dueDate: isoDay(25), lines: [line(1000)], status: "paid" });
    const inv = c.invoices[0]!;
    const pay = (body: object) => staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/payments`, { method: "bacs", ...body });
    const over = await pay({ amount: 100, allocations: [{ invoice_number: inv.number, amount: 110 }] });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.allocations[0]).toBe("The allocations (£110.00) are more than the payment (£100.00).");
    const outstanding = await pay({ amount: 500, allocations: [{ invoice_number: inv.number, amount: 130 }] });
    expect(outstanding.statusCode).toBe(422);
    expect(outstanding.json().errors.allocations[0]).toBe(`£130.00 is more than the £120.00 outstanding on ${inv.number}.`);
    const foreign = await pay({ amount: 50, allocations: [{ invoice_number: other.invoices[0]!.number, amount: 50 }] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.allocations[0]).toBe(`Invoice ${other.invoices[0]!.number} is not this account's.`);
    const twice = await pay({ amount: 50, allocations: [{ invoice_number: paid.number, amount: 10 }] });
    expect(twice.json().errors.allocations[0]).toBe(`${paid.number} is already paid.`);
    const unknown = await pay({ amount: 50, allocations: [{ invoice_number: "INV-999999", amount: 10 }] });
    expect(unknown.json().errors.allocations[0]).toBe("No invoice is numbered INV-999999.");
    const zero = await pay({ amount: 0, allocations: [] });
    expect(zero.statusCode).toBe(422);
    const badMethod = await pay({ amount: 10, method: "bitcoin", allocations: [] });
    expect(badMethod.statusCode).toBe(422);
    // Only the payment that paid the fixture's paid invoice.
    expect(await db().select().from(tradePayments).where(eq(tradePayments.tradeAccountId, c.accountId))).toHaveLength(1);
    expect((await accountRow(c.accountId)).balance).toBe(12000);
  });
});

describe("holds", () => {
  it("holds an account with an overdue invoice, refuses pay on account, lifts the hold once paid", async () => {
    const c = await companyWith("Overdue Hold Ltd", [-3, 10]);
    // An overdue invoice already blocks pay on account, before any hold.
    expect((await standingOf(db(), c.buyer.id)).ok).toBe(false);
    const held = await holdOverdueAccounts(db());
    expect(held.map((h) => h.id)).toContain(c.accountId);
    expect(await holdOverdueAccounts(db())).not.toContainEqual(expect.objectContaining({ id: c.accountId }));
    expect(await accountRow(c.accountId)).toMatchObject({ onHold: true, holdReason: "overdue" });
    const standing = await standingOf(db(), c.buyer.id);
    expect(standing).toEqual({ ok: false, message: "An invoice on your account is overdue. Pay it to order on account again." });
    const list = (await staffAs.accounts.get("/api/admin/trade/accounts?on_hold=true&q=Overdue%20Hold")).json();
    expect(list.data).toEqual([expect.objectContaining({ id: c.accountId, on_hold: true, hold_reason: "overdue", overdue: 120, overdue_days: 3 })]);
    // A part payment leaves it overdue and held; the rest lifts the hold.
    await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/payments`, { amount: 20, method: "cheque", allocations: [{ invoice_number: c.invoices[0]!.number, amount: 20 }] });
    expect((await accountRow(c.accountId)).onHold).toBe(true);
    const rest = await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/payments`, { amount: 100, method: "cheque", allocations: [{ invoice_number: c.invoices[0]!.number, amount: 100 }] });
    expect(rest.json()).toMatchObject({ on_hold: false, hold_reason: "", overdue: 0, balance: 120 });
    expect((await standingOf(db(), c.buyer.id)).ok).toBe(true);
  });

  it("a manual hold stops pay on account until staff release it, and is not lifted by payments", async () => {
    const c = await companyWith("Manual Hold Ltd", [10]);
    const empty = await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/hold`, { reason: " " });
    expect(empty.statusCode).toBe(422);
    const held = await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/hold`, { reason: "Cheque bounced" });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json().data).toMatchObject({ on_hold: true, hold_reason: "manual" });
    expect(await standingOf(db(), c.buyer.id)).toEqual({ ok: false, message: "Your trade account is on hold, so pay on account is paused. Please contact the trade desk." });
    await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/payments`, { amount: 120, method: "bacs", allocations: [{ invoice_number: c.invoices[0]!.number, amount: 120 }] });
    expect((await accountRow(c.accountId)).holdReason).toBe("manual");
    expect((await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/hold`, { reason: "again" })).statusCode).toBe(409);
    const released = await staffAs.manager.post(`/api/admin/trade/accounts/${c.accountId}/release`, {});
    expect(released.json().data).toMatchObject({ on_hold: false, hold_reason: "" });
    expect((await staffAs.manager.post(`/api/admin/trade/accounts/${c.accountId}/release`, {})).statusCode).toBe(409);
    const detail = (await staffAs.accounts.get(`/api/admin/trade/accounts/${c.accountId}`)).json().data;
    expect(detail.notes[0].body).toBe("Put on hold: Cheque bounced");
    expect(detail.audit.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(["trade_account.hold", "trade_account.release"]));
  });
});

describe("credit notes", () => {
  it("credits chosen lines, never past a line's quantity, then the rest whole; sets them against the invoice", async () => {
    const c = await fx.company("Credit Lines Ltd");
    const inv = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-1), dueDate: isoDay(29), lines: [line(1000, 3), { name: "Solder", qty: 1, unit: 500, rate: 20 }], delivery: 600 });
    // 3 × £10 + £5 ex VAT, VAT £7, delivery £6: £48.
    const shown = (await staffAs.accounts.get(`/api/admin/trade/invoices/${inv.number}`)).json().data;
    expect(shown.creditable).toHaveLength(3);
    const pipe = shown.creditable[0].source as string;
    expect(pipe).toMatch(/^order_line:\d+$/);
    const one = await staffAs.accounts.post(`/api/admin/trade/invoices/${inv.number}/credit-notes`, { reason: "One length damaged", lines: [{ source: pipe, quantity: 1 }] });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json().data).toMatchObject({ invoice_number: inv.number, subtotal: 10, vat: 2, total: 12, applied: 12, on_account: 0 });
    expect(one.json().data.number).toMatch(/^CN-\d{6}$/);
    const tooMany = await staffAs.accounts.post(`/api/admin/trade/invoices/${inv.number}/credit-notes`, { reason: "More", lines: [{ source: pipe, quantity: 3 }] });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors.lines[0]).toBe("Only 2 of Copper pipe 15mm (SKU-0) can still be credited.");
    const notALine = await staffAs.accounts.post(`/api/admin/trade/invoices/${inv.number}/credit-notes`, { reason: "x", lines: [{ source: "order_line:999999", quantity: 1 }] });
    expect(notALine.statusCode).toBe(422);
    const noReason = await staffAs.accounts.post(`/api/admin/trade/invoices/${inv.number}/credit-notes`, { reason: "", whole: true });
    expect(noReason.statusCode).toBe(422);
    const rest = await staffAs.accounts.post(`/api/admin/trade/invoices/${inv.number}/credit-notes`, { reason: "Order returned", whole: true });
    expect(rest.json().data).toMatchObject({ subtotal: 25, vat: 5, delivery: 6, total: 36, applied: 36 });
    const [after] = await db().select().from(tradeInvoices).where(eq(tradeInvoices.id, inv.id));
    expect(after).toMatchObject({ creditedAmount: 4800, paidAmount: 0, status: "paid" });
    const again = await staffAs.accounts.post(`/api/admin/trade/invoices/${inv.number}/credit-notes`, { reason: "Again", whole: true });
    expect(again.json().errors.lines[0]).toBe(`${inv.number} is already credited in full.`);
    expect((await accountRow(c.accountId)).balance).toBe(0);
    expect(await ledgerBalance(c.accountId)).toBe(0);
  });

  it("on a paid invoice the credit is credit on account; its PDF opens for staff and the company's accounts people only", async () => {
    const c = await fx.company("Credit Paid Ltd");
    const inv = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-1), dueDate: isoDay(29), lines: [line(5000)] });
    await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/payments`, { amount: 60, method: "bacs", allocations: [{ invoice_number: inv.number, amount: 60 }] });
    const note = (await staffAs.accounts.post(`/api/admin/trade/invoices/${inv.number}/credit-notes`, { reason: "Price match", whole: true })).json().data;
    expect(note).toMatchObject({ total: 60, applied: 0, on_account: 60 });
    expect((await accountRow(c.accountId)).balance).toBe(-6000);
    expect(await ledgerBalance(c.accountId)).toBe(-6000);
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.subject, `Credit note ${note.number} for ${inv.number}`));
    expect(mail?.to).toBe("accounts@fitters.example.com");
    expect(mail?.text).toContain(`/api/trade/credit-notes/${note.number}/pdf`);
    expect(mail?.text).toContain("The credit note is attached as a PDF.");
    // The PDF itself goes with the email, as the download route makes it.
    const files = await db().select().from(mailOutboxAttachments).where(eq(mailOutboxAttachments.outboxId, mail!.id));
    expect(files.map((f) => [f.filename, f.contentType])).toEqual([[`${note.number}.pdf`, "application/pdf"]]);
    const attached = Buffer.from(files[0]!.content);
    expect(attached.subarray(0, 4).toString("latin1")).toBe("%PDF");
    expect((await readPdf(attached)).text).toContain(note.number);
    const pdf = await staffAs.accounts.get(`/api/admin/trade/credit-notes/${note.number}.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect((await staffAs.sales.get(`/api/admin/trade/credit-notes/${note.number}.pdf`)).statusCode).toBe(403);
    expect((await c.accounts.browser.get(`/api/trade/credit-notes/${note.number}/pdf`)).statusCode).toBe(200);
    expect((await c.buyer.browser.get(`/api/trade/credit-notes/${note.number}/pdf`)).statusCode).toBe(404);
    const listed = await c.accounts.browser.get("/api/trade/credit-notes");
    expect(listed.json().data).toEqual([expect.objectContaining({ number: note.number, invoice_number: inv.number, total: 60, on_account: 60, reason: "Price match" })]);
    const other = await fx.company("Credit Other Ltd");
    expect((await other.owner.browser.get(`/api/trade/credit-notes/${note.number}/pdf`)).statusCode).toBe(404);
  });
});

describe("a hire invoice (no order)", () => {
  it("shows its hire request as its source and is credited whole only", async () => {
    const c = await fx.company("Hire Credit Ltd");
    const [request] = await db()
      .insert(hireRequests)
      .values({ number: `HR-T${Date.now() % 1_000_000}`, name: "Hire Fitter", email: "hire@example.com", phone: "0113 496 0000", fulfilment: "collect", hireCost: 10000, vat: 2000, deposit: 0, holdExpiresAt: new Date(), status: "completed" })
      .returning();
    const [row] = await db()
      .insert(tradeInvoices)
      .values({ number: `pending-hire-${request!.id}`, tradeAccountId: c.accountId, hireRequestId: request!.id, invoiceDate: isoDay(-1), dueDate: isoDay(29), subtotal: 10000, vat: 2000, delivery: 0, total: 12000 })
      .returning();
    const number = `INV-${String(row!.id).padStart(6, "0")}`;
    await db().update(tradeInvoices).set({ number }).where(eq(tradeInvoices.id, row!.id));
    await db().update(tradeAccounts).set({ balance: sql`${tradeAccounts.balance} + 12000` }).where(eq(tradeAccounts.id, c.accountId));
    const shown = (await staffAs.accounts.get(`/api/admin/trade/invoices/${number}`)).json().data;
    expect(shown).toMatchObject({ source: request!.number, whole_only: true, creditable: [{ source: "invoice", quantity: 1, remaining: 1 }] });
    const byLine = await staffAs.accounts.post(`/api/admin/trade/invoices/${number}/credit-notes`, { reason: "x", lines: [{ source: "order_line:1", quantity: 1 }] });
    expect(byLine.statusCode).toBe(422);
    expect(byLine.json().errors.lines[0]).toBe(`order_line:1 is not a line of ${number} (a hire invoice is credited whole).`);
    const whole = await staffAs.accounts.post(`/api/admin/trade/invoices/${number}/credit-notes`, { reason: "Hire cancelled", whole: true });
    expect(whole.json().data).toMatchObject({ subtotal: 100, vat: 20, total: 120, applied: 120 });
    expect(await ledgerBalance(c.accountId)).toBe((await accountRow(c.accountId)).balance);
    expect((await accountRow(c.accountId)).balance).toBe(0);
  });
});

describe("remittances", () => {
  it("confirming a customer's bank transfer records the payment for its invoices and confirms it", async () => {
    const c = await companyWith("Remit Ltd", [-2, 10]);
    const paid = await c.owner.browser.post("/api/trade/invoices/pay", { invoice_ids: c.invoices.map((i) => i.id) });
    expect(paid.statusCode, paid.body).toBe(201);
    const reference = paid.json().data.remittance.reference as string;
    const detail = (await staffAs.accounts.get(`/api/admin/trade/accounts/${c.accountId}`)).json().data;
    expect(detail.remittances_waiting).toEqual([expect.objectContaining({ reference, amount: 240, invoices: c.invoices.map((i) => i.number) })]);
    const res = await staffAs.accounts.post(`/api/admin/trade/remittances/${reference}/confirm`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ balance: 0, overdue: 0 });
    expect(res.json().invoices.every((i: { status: string }) => i.status === "paid")).toBe(true);
    const [r] = await db().select().from(tradeRemittances).where(eq(tradeRemittances.reference, reference));
    expect(r!.status).toBe("confirmed");
    const [p] = await db().select().from(tradePayments).where(eq(tradePayments.remittanceId, r!.id));
    expect(p).toMatchObject({ amount: 24000, unallocated: 0, reference });
    expect((await staffAs.accounts.post(`/api/admin/trade/remittances/${reference}/confirm`, {})).statusCode).toBe(409);
    expect(await ledgerBalance(c.accountId)).toBe(0);
  });

  it("the CLI's invoice:paid goes through the ledger: a payment allocated in full", async () => {
    const c = await companyWith("Cli Paid Ltd", [10]);
    const done = await services.tradeStaff.markInvoicePaid(c.invoices[0]!.number, await services.staff.systemActor());
    expect(done.balance).toBe(0);
    const [p] = await db().select().from(tradePayments).where(eq(tradePayments.tradeAccountId, c.accountId));
    expect(p).toMatchObject({ amount: 12000, unallocated: 0, method: "bacs", recordedBy: null });
    expect(await ledgerBalance(c.accountId)).toBe(0);
  });
});

describe("the accounts list", () => {
  it("sorts by overdue amount (ties: oldest due date), by name and by balance, a keyset page at a time", async () => {
    const tag = `Sortco${Date.now()}`;
    const big = await companyWith(`${tag} Big`, [-5, -5]);
    const older = await companyWith(`${tag} Older`, [-10]);
    const newer = await companyWith(`${tag} Newer`, [-2]);
    const clear = await companyWith(`${tag} Clear`, [10, 10, 10]);
    const ids = async (sort: string) => {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const res = await staffAs.accounts.get(`/api/admin/trade/accounts?sort=${sort}&q=${tag}&limit=1${cursor ? `&cursor=${cursor}` : ""}`);
        expect(res.statusCode, res.body).toBe(200);
        seen.push(...res.json().data.map((a: { id: number }) => a.id));
        cursor = res.json().next_cursor;
      } while (cursor);
      return seen;
    };
    expect(await ids("overdue")).toEqual([big.accountId, older.accountId, newer.accountId, clear.accountId]);
    expect(await ids("name")).toEqual([big.accountId, clear.accountId, newer.accountId, older.accountId]);
    expect(await ids("balance")).toEqual([clear.accountId, big.accountId, older.accountId, newer.accountId]);
    const first = (await staffAs.accounts.get(`/api/admin/trade/accounts?q=${tag}`)).json().data[0];
    expect(first).toMatchObject({ company_name: `${tag} Big`, balance: 240, credit_limit: 10000, overdue: 240, overdue_days: 5, on_hold: false, state: "approved" });
    expect((await staffAs.accounts.get("/api/admin/trade/accounts?cursor=nonsense")).statusCode).toBe(422);
    expect((await staffAs.accounts.get("/api/admin/trade/accounts?sort=colour")).statusCode).toBe(422);
  });
});

describe("applications and terms", () => {
  async function applicant(company: string) {
    const person = await fx.signedUp("applicant");
    const res = await person.browser.post("/api/trade/setup", {
      company_name: company,
      company_type: "sole_trader",
      trade: "Electrician",
      line1: "2 Park Row",
      town: "Leeds",
      postcode: "LS1 5AB",
      phone: "0113 496 0456",
      accounts_email: person.email,
      expected_monthly_spend: 1000,
      requested_credit_limit: 2000,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [m] = await db().select().from(tradeMembers).where(eq(tradeMembers.userId, person.id));
    return { ...person, accountId: m!.tradeAccountId };
  }

  it("lists applications; asks for information, declines with a reason or approves with terms, emailing the applicant", async () => {
    const a = await applicant("Ask Electrics");
    const b = await applicant("Decline Electrics");
    const c = await applicant("Approve Electrics");
    const list = (await staffAs.accounts.get("/api/admin/trade/applications")).json().data;
    expect(list.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([a.accountId, b.accountId, c.accountId]));
    expect((await staffAs.accounts.get("/api/admin/trade/applications")).statusCode).toBe(200);

    const ask = await staffAs.accounts.post(`/api/admin/trade/applications/${a.accountId}/request-info`, { message: "Please send a recent bank statement." });
    expect(ask.statusCode, ask.body).toBe(200);
    expect(ask.json().data.state).toBe("pending");
    const [asked] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.to, a.email), eq(mailOutbox.subject, "Trade account: more information needed")));
    expect(asked?.text).toContain("Please send a recent bank statement.");
    expect((await accountRow(a.accountId)).infoRequestedAt).not.toBeNull();

    expect((await staffAs.accounts.post(`/api/admin/trade/applications/${b.accountId}/decline`, { reason: "" })).statusCode).toBe(422);
    const declined = await staffAs.accounts.post(`/api/admin/trade/applications/${b.accountId}/decline`, { reason: "We could not verify the business address." });
    expect(declined.json().data.state).toBe("declined");
    const [no] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.to, b.email), eq(mailOutbox.subject, "Trade account: declined")));
    expect(no?.text).toContain("We could not verify the business address.");
    expect((await staffAs.accounts.post(`/api/admin/trade/applications/${b.accountId}/decline`, { reason: "again" })).statusCode).toBe(409);

    const badTerms = await staffAs.accounts.post(`/api/admin/trade/applications/${c.accountId}/approve`, { credit_limit: -1, terms_days: 400, discount_percent: 5 });
    expect(badTerms.statusCode).toBe(422);
    const approved = await staffAs.accounts.post(`/api/admin/trade/applications/${c.accountId}/approve`, { credit_limit: 2500, terms_days: 30, discount_percent: 7.5, po_required: true });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ state: "approved", credit_limit: 2500, terms_days: 30 });
    expect(await accountRow(c.accountId)).toMatchObject({ discountBasisPoints: 750, poRequired: true });

    const patched = await staffAs.accounts.patch(`/api/admin/trade/accounts/${c.accountId}`, { credit_limit: 4000, po_required: false });
    expect(patched.json().data).toMatchObject({ credit_limit: 4000, terms_days: 30 });
    expect((await staffAs.sales.patch(`/api/admin/trade/accounts/${c.accountId}`, { credit_limit: 1 })).statusCode).toBe(403);
    const detail = (await staffAs.accounts.get(`/api/admin/trade/accounts/${c.accountId}`)).json().data;
    expect(detail).toMatchObject({ discount_percent: 7.5, po_required: false, members: [{ email: c.email, role: "owner" }] });
    expect(detail.audit.map((e: { action: string }) => e.action)).toEqual(["trade_account.terms", "trade_account.approve"]);
    const note = await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/notes`, { body: "Called the owner: happy with terms." });
    expect(note.statusCode).toBe(201);
  });
});
