// Monthly statements (issue 21): the figures (opening + the month's movements
// = closing; the aged debt by invoice date adds up to it), the PDF read back,
// the first working day, the monthly email sent once per account and month
// (twice run; two "processes" on PostgreSQL), the screen's API and who may use it.
import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../../../db/client.ts";
import type { Db } from "../../../db/client.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";
import { readPdf, row } from "../../../test/pdf.ts";
import { auditLog } from "../../audit/schema.ts";
import { mailOutbox, mailOutboxAttachments } from "../../mail/schema.ts";
import { bankHolidays, firstWorkingDay } from "../calendar.ts";
import { shopDetails } from "./invoices.ts";
import { creditNote, outboxOn, payment } from "../credit/ledger-fixtures.ts";
import { tradeAccounts } from "../schema.ts";
import { statementPdf } from "./statement-pdf.ts";
import { type StatementOptions, sendMonthlyStatements, statementFilename, statementFor } from "./statements.ts";
import { tradeFixtures } from "../test-fixtures.ts";

const { shop, as: staffAs } = staffTestShop("198.51.107");
const db = () => shop().database.db;
const { company, invoiceFor } = tradeFixtures(shop);
const options = (mail = outboxOn()): StatementOptions => ({ mail, appName: "Tradecounter", publicUrl: "http://shop.test", shop: shopDetails(shop().config) });

/**
 * One company's ledger around March 2026 (terms 30 days):
 * before March: A £100 (20 Nov), B £200 (15 Jan), D £40 (15 Feb), £50 paid to A (10 Feb) → opening £290;
 * in March: C £300 (5 Mar), a £20 credit note on B (10 Mar), £150 received (20 Mar): £50 to A, £80 to B, £20 on account → closing £420;
 * after: £300 to C (2 Apr) and E £10 (3 Apr), which March's figures must not see.
 * Owed at 31 March by invoice age: C £300 (26 days), D £40 (44), B £100 (75), A nothing; unallocated -£20.
 */
async function marchLedger(name: string) {
  const c = await company(name);
  const inv = (invoiceDate: string, dueDate: string, pence: number, po = "") => invoiceFor(c.accountId, c.buyer.id, { po, invoiceDate, dueDate, lines: [{ name: "Copper pipe", qty: 1, unit: pence, rate: 0 }] });
  const a = await inv("2025-11-20", "2025-12-20", 10000, "PO-A");
  const b = await inv("2026-01-15", "2026-02-14", 20000);
  const d = await inv("2026-02-15", "2026-03-17", 4000);
  await payment(db(), c.accountId, "2026-02-10", 5000, [{ invoiceId: a.id, amount: 5000 }]);
  const cc = await inv("2026-03-05", "2026-04-04", 30000, "PO-C");
  const cn = await creditNote(db(), c.accountId, b.id, "2026-03-10", 2000);
  const p2 = await payment(db(), c.accountId, "2026-03-20", 15000, [
    { invoiceId: a.id, amount: 5000 },
    { invoiceId: b.id, amount: 8000 },
  ], "REMIT 77");
  await payment(db(), c.accountId, "2026-04-02", 30000, [{ invoiceId: cc.id, amount: 30000 }]);
  await inv("2026-04-03", "2026-05-03", 1000);
  return { ...c, a, b, c: cc, d, cn, p2 };
}

describe("a month's statement", () => {
  let l: Awaited<ReturnType<typeof marchLedger>>;
  beforeAll(async () => {
    l = await marchLedger("Statement Figures Ltd");
  });

  it("brings the balance forward, runs it through the month's invoices, credit notes and payments, and carries it forward", async () => {
    const s = (await statementFor(db(), l.accountId, "2026-03", shopDetails(shop().config)))!;
    expect(s.periodStart).toBe("2026-03-01");
    expect(s.periodEnd).toBe("2026-03-31");
    expect(s.openingBalance).toBe(29000);
    expect(s.lines.map((x) => [x.date, x.kind, x.reference, x.debit, x.credit, x.balance])).toEqual([
      ["2026-03-05", "invoice", l.c.number, 30000, 0, 59000],
      ["2026-03-10", "credit_note", l.cn.number, 0, 2000, 57000],
      ["2026-03-20", "payment", l.p2.number, 0, 15000, 42000],
    ]);
    expect(s.lines[0]!.details).toBe("PO PO-C");
    expect(s.lines[1]!.details).toBe(`Against ${l.b.number}`);
    expect(s.lines[2]!.details).toBe("Bacs REMIT 77");
    expect(s.closingBalance).toBe(42000);
    expect(s.openingBalance + s.lines.reduce((t, x) => t + x.debit - x.credit, 0)).toBe(s.closingBalance);
  });

  it("ages what was owed at the month's end by invoice date, payments after it not counted, the buckets and unallocated credit making the closing balance", async () => {
    const s = (await statementFor(db(), l.accountId, "2026-03", shopDetails(shop().config)))!;
    expect(s.aged).toEqual({ days0to30: 30000, days31to60: 4000, days61to90: 10000, over90: 0, unallocated: -2000 });
    const { unallocated, ...buckets } = s.aged;
    expect(Object.values(buckets).reduce((t, x) => t + x, 0) + unallocated).toBe(s.closingBalance);
  });

  it("chains month to month: April opens where March closed, and a quiet month keeps the balance", async () => {
    const april = (await statementFor(db(), l.accountId, "2026-04", shopDetails(shop().config)))!;
    expect(april.openingBalance).toBe(42000);
    expect(april.closingBalance).toBe(42000 - 30000 + 1000);
    const may = (await statementFor(db(), l.accountId, "2026-05", shopDetails(shop().config)))!;
    expect(may.lines).toEqual([]);
    expect(may.openingBalance).toBe(may.closingBalance);
    // The account's balance column (moved with each entry) agrees with the statement of the last month touched.
    const [account] = await db().select({ balance: tradeAccounts.balance }).from(tradeAccounts).where(eq(tradeAccounts.id, l.accountId));
    expect(account!.balance).toBe(may.closingBalance);
  });

  it("is a real PDF that reads back with its figures", async () => {
    const s = (await statementFor(db(), l.accountId, "2026-03", shopDetails(shop().config)))!;
    const pdf = await readPdf(await statementPdf(s));
    expect(pdf.info.Title).toBe("Statement March 2026: Statement Figures Ltd");
    expect(pdf.text).toContain("STATEMENT");
    expect(pdf.text).toMatch(row("FROM", "STATEMENT TO"));
    expect(pdf.text).toMatch(row("2026-03-01", "Brought forward", "£290.00"));
    expect(pdf.text).toMatch(row("2026-03-05", "Invoice", l.c.number, "PO PO-C", "£300.00", "£590.00"));
    expect(pdf.text).toMatch(row("2026-03-10", "Credit note", l.cn.number));
    expect(pdf.text).toMatch(row("£20.00", "£570.00"));
    expect(pdf.text).toMatch(row("2026-03-20", "Payment", l.p2.number, "Bacs REMIT 77", "£150.00", "£420.00"));
    expect(pdf.text).toMatch(row("2026-03-31", "Carried forward", "£420.00"));
    expect(pdf.text).toMatch(row("£300.00", "£40.00", "£100.00", "£0.00", "-£20.00", "£420.00"));
    expect(pdf.text).not.toContain("£10.00");
  });
});

describe("a statement's file name", () => {
  it("keeps letters, digits and dashes of the company's name only", () => {
    const named = (companyName: string) => statementFilename({ month: "2026-03", account: { companyName } });
    expect(named("Smith & Sons (Leeds) Ltd.")).toBe("Statement-2026-03-Smith-Sons-Leeds-Ltd.pdf");
    expect(named("Café/../\\\"x\"")).toBe("Statement-2026-03-Cafe-x.pdf");
    expect(named("***")).toBe("Statement-2026-03.pdf");
  });
});

describe("the first working day of the month", () => {
  it("skips weekends and England and Wales bank holidays", () => {
    expect(firstWorkingDay("2026-01-20")).toBe("2026-01-02"); // New Year's Day, a Thursday
    expect(firstWorkingDay("2027-01-09")).toBe("2027-01-04"); // New Year's Day a Friday, then a weekend
    expect(firstWorkingDay("2022-01-15")).toBe("2022-01-04"); // 1 Jan a Saturday: the holiday is Monday 3rd
    expect(firstWorkingDay("2024-04-10")).toBe("2024-04-02"); // Easter Monday on the 1st
    expect(firstWorkingDay("2027-05-20")).toBe("2027-05-04"); // Saturday 1st, the early May bank holiday on Monday 3rd
    expect(firstWorkingDay("2026-08-31")).toBe("2026-08-03"); // a Saturday 1st
    expect(firstWorkingDay("2026-04-30")).toBe("2026-04-01");
    expect([...bankHolidays(2026)].sort()).toEqual(["2026-01-01", "2026-04-03", "2026-04-06", "2026-05-04", "2026-05-25", "2026-08-31", "2026-12-25", "2026-12-28"]);
    expect([...bankHolidays(2022)].sort()).toEqual(["2022-01-03", "2022-04-15", "2022-04-18", "2022-05-02", "2022-05-30", "2022-08-29", "2022-12-26", "2022-12-27"]);
  });
});

async function statementMails(companyName: string) {
  return db().select().from(mailOutbox).where(like(mailOutbox.subject, `Statement for % ${companyName}`));
}

/** The one file queued with an outbox mail, checked to be a PDF, and its text. */
async function attachedPdf(outboxId: number) {
  const files = await db().select().from(mailOutboxAttachments).where(eq(mailOutboxAttachments.outboxId, outboxId));
  expect(files).toHaveLength(1);
  const content = Buffer.from(files[0]!.content);
  expect(content.subarray(0, 4).toString("latin1")).toBe("%PDF");
  return { filename: files[0]!.filename, contentType: files[0]!.contentType, text: (await readPdf(content)).text };
}

describe("the monthly statements", () => {
  it("go out from the first working day, last month's, to each account with activity or a balance, once", async () => {
    const busy = await marchLedger("Monthly Busy Ltd");
    const quiet = await company("Monthly Quiet Ltd");
    // Saturday 1 August 2026: not yet the month's first working day, so nothing goes out.
    expect(await sendMonthlyStatements(db(), options(), "2026-08-01")).toEqual({ month: null, sent: [] });
    const first = await sendMonthlyStatements(db(), options(), "2026-04-01");
    expect(first.month).toBe("2026-03");
    expect(first.sent).toContain(busy.accountId);
    expect(first.sent).not.toContain(quiet.accountId);
    const again = await sendMonthlyStatements(db(), options(), "2026-04-02");
    expect(again.sent).not.toContain(busy.accountId);

    const mails = (await statementMails("Monthly Busy Ltd")).filter((m) => m.subject.includes("March 2026"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Statement for March 2026: Monthly Busy Ltd");
    expect(mails[0]!.to).toBe("accounts@fitters.example.com");
    expect(mails[0]!.text).toContain("Balance brought forward: £290.00");
    expect(mails[0]!.text).toContain("Monthly Busy Ltd owes £420.00 at 31 March 2026.");
    expect(mails[0]!.text).toContain("0-30 days £300.00, 31-60 days £40.00, 61-90 days £100.00, over 90 days £0.00");
    expect(mails[0]!.text).toContain("http://shop.test/trade/invoices");
    expect(mails[0]!.text).toContain("The statement is attached as a PDF");
    const pdf = await attachedPdf(mails[0]!.id);
    expect(pdf).toMatchObject({ filename: "Statement-2026-03-Monthly-Busy-Ltd.pdf", contentType: "application/pdf" });
    expect(pdf.text).toContain("Monthly Busy Ltd");
    expect(pdf.text).toMatch(row("2026-03-31", "Carried forward", "£420.00"));
    expect(await statementMails("Monthly Quiet Ltd")).toHaveLength(0);
  });

  it("a month with no movement but a balance still gets a statement", async () => {
    const owing = await company("Monthly Owing Ltd");
    await invoiceFor(owing.accountId, owing.buyer.id, { invoiceDate: "2025-06-02", dueDate: "2025-07-02", lines: [{ name: "Sand", qty: 1, unit: 5000, rate: 20 }] });
    const run = await sendMonthlyStatements(db(), options(), "2025-09-01");
    expect(run.month).toBe("2025-08");
    expect(run.sent).toContain(owing.accountId);
    const [mail] = await statementMails("Monthly Owing Ltd");
    expect(mail!.text).toContain("over 90 days £0.00");
    expect(mail!.text).toContain("61-90 days £60.00");
  });
});

describe("the statement screen's API", () => {
  let l: Awaited<ReturnType<typeof marchLedger>>;
  beforeAll(async () => {
    l = await marchLedger("Statement Desk Ltd");
  });

  it("answers the statement in pounds, its PDF and its email (audited), for accounts, managers and owners only", async () => {
    const res = await staffAs.accounts.get(`/api/admin/trade/accounts/${l.accountId}/statement?month=2026-03`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const s = res.json();
    expect(s).toMatchObject({ month: "2026-03", opening_balance: 290, closing_balance: 420, aged: { days_0_30: 300, days_31_60: 40, days_61_90: 100, over_90: 0, unallocated: -20 } });
    expect(s.lines.map((x: { balance: number }) => x.balance)).toEqual([590, 570, 420]);

    const pdf = await staffAs.manager.get(`/api/admin/trade/accounts/${l.accountId}/statements/2026-03.pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toBe(`attachment; filename="statement-${l.accountId}-2026-03.pdf"`);
    expect((await readPdf(pdf.rawPayload)).text).toMatch(row("2026-03-31", "Carried forward", "£420.00"));

    const sent = await staffAs.owner.post(`/api/admin/trade/accounts/${l.accountId}/statements/2026-03/email`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ to: "accounts@fitters.example.com", month: "2026-03" });
    const mails = await statementMails("Statement Desk Ltd");
    expect(mails).toHaveLength(1);
    const attached = await attachedPdf(mails[0]!.id);
    expect(attached.filename).toBe("Statement-2026-03-Statement-Desk-Ltd.pdf");
    expect(attached.text).toMatch(row("2026-03-31", "Carried forward", "£420.00"));
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.action, "trade_account.statement_emailed"), eq(auditLog.entityId, String(l.accountId))));
    expect(entry!.after).toMatchObject({ month: "2026-03", to: "accounts@fitters.example.com", closing_balance: 420 });
  });

  it.each(["sales", "warehouse", "hire"] as const)("refuses the %s role (403) on each", async (role) => {
    expect((await staffAs[role].get(`/api/admin/trade/accounts/${l.accountId}/statement?month=2026-03`)).statusCode).toBe(403);
    expect((await staffAs[role].get(`/api/admin/trade/accounts/${l.accountId}/statements/2026-03.pdf`)).statusCode).toBe(403);
    expect((await staffAs[role].post(`/api/admin/trade/accounts/${l.accountId}/statements/2026-03/email`, {})).statusCode).toBe(403);
  });

  it("asks a guest to sign in, and names a bad month or an unknown account", async () => {
    expect((await staffAs.guest.get(`/api/admin/trade/accounts/${l.accountId}/statement?month=2026-03`)).statusCode).toBe(401);
    const bad = await staffAs.accounts.get(`/api/admin/trade/accounts/${l.accountId}/statement?month=2026-13`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.month).toEqual(["Choose a month as YYYY-MM."]);
    const future = await staffAs.accounts.get(`/api/admin/trade/accounts/${l.accountId}/statement?month=2999-01`);
    expect(future.statusCode).toBe(422);
    expect(future.json().errors.month).toEqual(["Choose a month that has begun."]);
    expect((await staffAs.accounts.get("/api/admin/trade/accounts/2147483000/statement?month=2026-03")).statusCode).toBe(404);
    expect((await staffAs.accounts.post("/api/admin/trade/accounts/2147483000/statements/2026-03/email", {})).statusCode).toBe(404);
  });
});

describe("a trade member's own statement", () => {
  it("downloads as a PDF for owners, admins and accounts users; a buyer gets 404, a bad month 422", async () => {
    const l = await marchLedger("Statement Member Ltd");
    for (const who of [l.owner, l.admin, l.accounts]) {
      const res = await who.browser.get("/api/trade/statement.pdf?month=2026-03");
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.headers["cache-control"]).toBe("private, no-store");
      expect(res.headers["content-disposition"]).toBe('attachment; filename="statement-2026-03.pdf"');
      const pdf = await readPdf(res.rawPayload);
      expect(pdf.text).toContain("Statement Member Ltd");
      expect(pdf.text).toMatch(row("2026-03-31", "Carried forward", "£420.00"));
    }
    expect((await l.buyer.browser.get("/api/trade/statement.pdf?month=2026-03")).statusCode).toBe(404);
    const bad = await l.owner.browser.get("/api/trade/statement.pdf?month=March");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.month).toEqual(["Choose a month as YYYY-MM."]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two shop processes sending the monthly statements at once (PostgreSQL)", () => {
  it("email each account's statement once", async () => {
    const l = await marchLedger("Two Process Statements Ltd");
    const second = await openPostgres(shop().database.url!, { max: 4 });
    try {
      const [one, two] = await Promise.all([sendMonthlyStatements(db(), options(), "2026-04-01"), sendMonthlyStatements(second.db as Db, options(), "2026-04-01")]);
      expect([...one.sent, ...two.sent].filter((id) => id === l.accountId)).toHaveLength(1);
      expect(await statementMails("Two Process Statements Ltd")).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
