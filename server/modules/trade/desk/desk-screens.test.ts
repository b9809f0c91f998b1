// The trade desk's screens as a browser without scripts drives them: the
// list with its hold badge and credit bar, an account's page, a payment posted
// from its allocation rows ("pay in full"), a refused one keeping what was
// typed, a credit note from an invoice, credit on account set against an
// invoice, an application approved; and who may open them.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databaseInvariantViolations } from "../../../test/invariants.ts";
import { holdOverdueAccounts } from "../credit/holds.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { tradeCreditNotes } from "../credit/ledger-schema.ts";
import { tradeAccounts } from "../schema.ts";
import { isoDay, tradeFixtures } from "../test-fixtures.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";

const { as: staffAs, shop } = staffTestShop("198.51.108", { shop: { storefront: { mode: "build" } }, timeout: 240_000 });
const db = () => shop().database.db;
const fx = tradeFixtures(shop);

/** The page's text as a reader sees it: React's separators between text parts dropped. */
const text = (html: string) => html.replaceAll("<!-- -->", "");

describe("the trade desk's screens", () => {
  it("lists accounts most overdue first with the hold badge and credit used in words; sales may not open it", async () => {
    const c = await fx.company("Screens Overdue Ltd");
    await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-40), dueDate: isoDay(-10), lines: [{ name: "Pipe", qty: 1, unit: 10000, rate: 20 }] });
    await holdOverdueAccounts(db());
    const page = await staffAs.accounts.get("/admin/trade?q=Screens%20Overdue");
    expect(page.statusCode).toBe(200);
    expect(text(page.body)).toContain("Screens Overdue Ltd");
    expect(text(page.body)).toContain("On hold: overdue");
    expect(text(page.body)).toContain("£120.00 of £10,000.00 (1%)");
    expect(text(page.body)).toContain("£120.00, 10 days");
    expect(text(page.body)).toContain(`/admin/trade/accounts/${c.accountId}`);
    expect((await staffAs.sales.get("/admin/trade")).statusCode).toBe(403);
    expect((await staffAs.warehouse.get(`/admin/trade/accounts/${c.accountId}`)).statusCode).toBe(403);
  });

  it("records a payment from the allocation rows, keeps what was typed when refused, and issues a credit note", async () => {
    const c = await fx.company("Screens Pay Ltd");
    const a = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-5), dueDate: isoDay(25), lines: [{ name: "Pipe", qty: 1, unit: 10000, rate: 20 }] });
    const b = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-5), dueDate: isoDay(25), lines: [{ name: "Elbow", qty: 4, unit: 250, rate: 20 }] });
    const url = `/admin/trade/accounts/${c.accountId}`;
    const page = await staffAs.accounts.get(url);
    expect(page.statusCode).toBe(200);
    expect(text(page.body)).toContain("Record a payment");
    expect(text(page.body)).toContain(`name="alloc_${a.number}"`);
    expect(text(page.body)).toContain(`href="/admin/trade/accounts/${c.accountId}/statement"`);

    const refused = await staffAs.accounts.postForm(url, [["intent", "payment"], ["amount", "50"], ["method", "bacs"], ["reference", "KEEP-ME"], [`alloc_${a.number}`, "80"]]);
    expect(refused.statusCode).toBe(422);
    expect(text(refused.body)).toContain("The allocations (£80.00) are more than the payment (£50.00).");
    expect(text(refused.body)).toContain('value="KEEP-ME"');

    const paid = await staffAs.accounts.postForm(url, [["intent", "payment"], ["amount", ""], ["method", "cheque"], ["reference", "CHQ 1"], [`full_${a.number}`, "yes"], [`alloc_${b.number}`, "2"]]);
    expect(paid.statusCode).toBe(200);
    expect(text(paid.body)).toContain("Payment of £122.00 recorded. The account now owes £10.00");
    const [afterA] = await db().select().from(tradeInvoices).where(eq(tradeInvoices.id, a.id));
    expect(afterA).toMatchObject({ status: "paid", paidAmount: 12000 });

    const form = await staffAs.accounts.get(`${url}?credit=${b.number}`);
    expect(text(form.body)).toContain(`Issue a credit note against ${b.number}`);
    const noReason = await staffAs.accounts.postForm(`${url}?credit=${b.number}`, [["intent", "credit_note"], ["invoice", b.number], ["reason", ""], ["whole", "yes"]]);
    expect(noReason.statusCode).toBe(422);
    const credited = await staffAs.accounts.postForm(`${url}?credit=${b.number}`, [["intent", "credit_note"], ["invoice", b.number], ["reason", "Wrong size"], ["whole", "yes"]]);
    expect(credited.statusCode).toBe(200);
    expect(text(credited.body)).toMatch(/Credit note CN-\d{6} for £12\.00 issued against/);
    const [note] = await db().select().from(tradeCreditNotes).where(eq(tradeCreditNotes.invoiceId, b.id));
    // £2 was paid, £10 was outstanding: £10 comes off the invoice, £2 is credit on account.
    expect(note).toMatchObject({ total: 1200, applied: 1000 });
    const [account] = await db().select().from(tradeAccounts).where(eq(tradeAccounts.id, c.accountId));
    expect(account!.balance).toBe(-200);
    // The company sees it beside its invoices, with its PDF.
    const theirs = text((await c.owner.browser.get("/trade/invoices")).body);
    expect(theirs).toContain(`/api/trade/credit-notes/${note!.number}/pdf`);
    expect(theirs).toContain("£2.00 credit on your account");
  });

  it("offers credit on account only when there is some and an open invoice, keeps what was typed when refused, and sets it against the invoice", async () => {
    const c = await fx.company("Screens Credit Ltd");
    const inv = await fx.invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-5), dueDate: isoDay(25), lines: [{ name: "Pipe", qty: 1, unit: 10000, rate: 20 }] });
    const url = `/admin/trade/accounts/${c.accountId}`;
    expect(text((await staffAs.accounts.get(url)).body)).not.toContain("Use credit on account");

    const ahead = await staffAs.accounts.post(`/api/admin/trade/accounts/${c.accountId}/payments`, { amount: 50, method: "bacs", reference: "ahead", allocations: [] });
    expect(ahead.statusCode).toBe(201);
    const page = text((await staffAs.accounts.get(url)).body);
    expect(page).toContain("Use £50.00 credit on account");
    expect(page).toContain(`name="credit_${inv.number}"`);
    expect(page).toContain("not allocated here");

    const refused = await staffAs.accounts.postForm(url, [["intent", "allocate_credit"], [`credit_${inv.number}`, "60"]]);
    expect(refused.statusCode).toBe(422);
    expect(text(refused.body)).toContain("The allocations (£60.00) are more than the £50.00 credit on account.");
    expect(text(refused.body)).toContain('value="60"');

    const done = await staffAs.accounts.postForm(url, [["intent", "allocate_credit"], [`credit_${inv.number}`, "50"]]);
    expect(done.statusCode).toBe(200);
    expect(text(done.body)).toContain(`£50.00 of credit on account set against ${inv.number}. The balance is unchanged: £70.00 owed.`);
    expect(text(done.body)).not.toContain("Use credit on account");
    const [after] = await db().select().from(tradeInvoices).where(eq(tradeInvoices.id, inv.id));
    expect(after!.paidAmount).toBe(5000);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("approves an application from the list, and keeps the terms typed when they are refused", async () => {
    const person = await fx.signedUp("screens");
    const applied = await person.browser.post("/api/trade/setup", {
      company_name: "Screens Apply Ltd",
      company_type: "sole_trader",
      trade: "Plasterer",
      line1: "3 Park Row",
      town: "Leeds",
      postcode: "LS1 5AB",
      phone: "0113 496 0789",
      accounts_email: person.email,
      expected_monthly_spend: 500,
      requested_credit_limit: 1500,
    });
    expect(applied.statusCode).toBe(201);
    const id = String(applied.json().data.id);
    expect(text((await staffAs.accounts.get("/admin/trade")).body)).toContain("Screens Apply Ltd");
    const bad = await staffAs.accounts.postForm("/admin/trade", [["intent", "approve"], ["id", id], ["credit_limit", "1500"], ["terms_days", "400"], ["discount_percent", "5"]]);
    expect(bad.statusCode).toBe(422);
    expect(text(bad.body)).toContain("The payment terms must be a whole number of days from 0 to 365.");
    expect(text(bad.body)).toContain('value="400"');
    const ok = await staffAs.manager.postForm("/admin/trade", [["intent", "approve"], ["id", id], ["credit_limit", "1500"], ["terms_days", "30"], ["discount_percent", "5"]]);
    expect(ok.statusCode).toBe(200);
    expect(text(ok.body)).toContain("Screens Apply Ltd is approved: credit limit £1,500.00, 30 days.");
  });
});
