// The statement and aged-debt screens on the production build, requested as a
// browser without scripts requests them: the figures, the month picker, the
// PDF link, the email button (audited, through the screen's own action), a bad
// month named beside its field, and the aged-debt table with its CSV link.
// The rules are proven in statements.test.ts and aged-debt.test.ts.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { staffTestShop } from "../../../test/staff-browsers.ts";
import { textOf } from "../../../test/page-text.ts";
import { auditLog } from "../../audit/schema.ts";
import { payment } from "../credit/ledger-fixtures.ts";
import { isoDay, tradeFixtures } from "../test-fixtures.ts";

const { shop, as: staffAs } = staffTestShop("198.51.109", { shop: { storefront: { mode: "build" } }, timeout: 240_000 });
const { company, invoiceFor } = tradeFixtures(shop);

describe("the statement screen", () => {
  it("shows the month's figures, links the PDF, emails the statement and names a bad month", async () => {
    const c = await company("Screen Statement Ltd");
    const first = await invoiceFor(c.accountId, c.buyer.id, { invoiceDate: "2026-02-10", dueDate: "2026-03-12", lines: [{ name: "Lintel", qty: 1, unit: 10000, rate: 0 }] });
    const second = await invoiceFor(c.accountId, c.buyer.id, { po: "PO-SCREEN", invoiceDate: "2026-03-05", dueDate: "2026-04-04", lines: [{ name: "Blocks", qty: 1, unit: 30000, rate: 0 }] });
    const paid = await payment(shop().database.db, c.accountId, "2026-03-20", 15000, [{ invoiceId: first.id, amount: 10000 }], "BACS 12");
    const url = `/admin/trade/accounts/${c.accountId}/statement?month=2026-03`;

    const page = await staffAs.accounts.get(url);
    expect(page.statusCode).toBe(200);
    const text = textOf(page);
    expect(text).toContain("Statement: Screen Statement Ltd");
    expect(text).toContain("Brought forward £100.00");
    expect(text).toMatch(new RegExp(`5 Mar 2026 Invoice ${second.number} PO PO-SCREEN £300.00 £400.00`));
    expect(text).toMatch(new RegExp(`20 Mar 2026 Payment ${paid.number} Bacs BACS 12 £150.00 £250.00`));
    expect(text).toContain("Carried forward at 31 March 2026 £250.00");
    expect(text).toContain("0-30 days £300.00 31-60 days £0.00 61-90 days £0.00 Over 90 days £0.00 Unallocated -£50.00 Balance £250.00");
    expect(page.body).toContain(`href="/api/admin/trade/accounts/${c.accountId}/statements/2026-03.pdf"`);
    expect(page.body).toMatch(/<input[^>]*id="statement-month"[^>]*>/);
    expect(/<input[^>]*id="statement-month"[^>]*>/.exec(page.body)![0]).toMatch(/type="month".*value="2026-03"|value="2026-03".*type="month"/);
    expect(text).toContain("Email to accounts@fitters.example.com");

    const sent = await staffAs.accounts.postForm(url, [["month", "2026-03"]]);
    expect(sent.statusCode).toBe(200);
    expect(textOf(sent)).toContain("The statement for March 2026 is on its way to accounts@fitters.example.com.");
    const [entry] = await shop().database.db.select().from(auditLog).where(and(eq(auditLog.action, "trade_account.statement_emailed"), eq(auditLog.entityId, String(c.accountId))));
    expect(entry!.after).toMatchObject({ month: "2026-03" });

    const bad = await staffAs.accounts.get(`/admin/trade/accounts/${c.accountId}/statement?month=2999-01`);
    expect(bad.statusCode).toBe(422);
    expect(textOf(bad)).toContain("Choose a month that has begun.");
    expect(bad.body).toMatch(/value="2999-01"/);

    expect((await staffAs.sales.get(url)).statusCode).toBe(403);
    expect((await staffAs.warehouse.postForm(url, [["month", "2026-03"]])).statusCode).toBe(403);
  });
});

describe("the aged-debt screen", () => {
  it("lists accounts with what they owe by days overdue, a totals row and the CSV link", async () => {
    const c = await company("Screen Aged Ltd");
    await invoiceFor(c.accountId, c.buyer.id, { invoiceDate: isoDay(-70), dueDate: isoDay(-40), lines: [{ name: "Cement", qty: 1, unit: 4321, rate: 0 }] });
    const page = await staffAs.manager.get("/admin/trade/aged-debt");
    expect(page.statusCode).toBe(200);
    const text = textOf(page);
    expect(text).toMatch(/Screen Aged Ltd Oldest 40 days overdue £[\d,.]+ £0.00 £0.00 £43.21 £0.00 £0.00 £43.21/);
    expect(text).toMatch(/Total £[\d,.]+ £[\d,.]+/);
    expect(page.body).toContain('href="/api/admin/trade/aged-debt.csv"');
    expect(page.body).toContain(`href="/admin/trade/accounts/${c.accountId}"`);
    expect(page.body).toContain('href="/admin/trade/aged-debt"');
    expect((await staffAs.hire.get("/admin/trade/aged-debt")).statusCode).toBe(403);
  });
});
