// The aged-debt report (issue 21): each account's outstanding by days past
// due, the totals row, the most overdue first, paid and settled accounts left
// out; the JSON and the CSV (formula-escaped) and who may read them.
import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { staffTestShop } from "../../../test/staff-browsers.ts";
import { agedDebt } from "./aged-debt.ts";
import { creditNote, payment } from "../credit/ledger-fixtures.ts";
import { isoDay, tradeFixtures } from "../test-fixtures.ts";

const { shop, as: staffAs } = staffTestShop("198.51.108");
const db = () => shop().database.db;
const { company, invoiceFor } = tradeFixtures(shop);

async function owing(name: string, invoices: { due: string; pence: number; invoiceDate?: string }[]) {
  const c = await company(name);
  const made = [];
  for (const i of invoices) made.push(await invoiceFor(c.accountId, c.buyer.id, { invoiceDate: i.invoiceDate ?? "2026-01-01", dueDate: i.due, lines: [{ name: "Blocks", qty: 1, unit: i.pence, rate: 0 }] }));
  return { ...c, invoices: made };
}

describe("the aged-debt report", () => {
  it("splits each account's outstanding by days past due, most overdue first, with a totals row", async () => {
    const one = await owing("Aged One Ltd", [
      { due: "2026-07-10", pence: 10000 },
      { due: "2026-06-30", pence: 1000 },
      { due: "2026-06-20", pence: 2000 },
      { due: "2026-05-15", pence: 3000 },
      { due: "2026-04-10", pence: 4000 },
      { due: "2026-03-01", pence: 5000 },
      { due: "2026-01-01", pence: 6000, invoiceDate: "2025-12-01" },
    ]);
    const [, , part, , , credited, paid] = one.invoices;
    await payment(db(), one.accountId, "2026-06-01", 500, [{ invoiceId: part!.id, amount: 500 }]);
    await payment(db(), one.accountId, "2026-01-05", 6000, [{ invoiceId: paid!.id, amount: 6000 }]);
    await payment(db(), one.accountId, "2026-06-10", 700);
    await creditNote(db(), one.accountId, credited!.id, "2026-03-05", 1000);
    const two = await owing("Aged Two Ltd", [{ due: "2026-06-29", pence: 100000 }]);
    const settled = await owing("Aged Settled Ltd", [{ due: "2026-05-01", pence: 2500 }]);
    await payment(db(), settled.accountId, "2026-05-01", 2500, [{ invoiceId: settled.invoices[0]!.id, amount: 2500 }]);

    const report = await agedDebt(db(), "2026-06-30");
    expect(report.as_of).toBe("2026-06-30");
    const mine = report.data.filter((r) => [one.accountId, two.accountId, settled.accountId].includes(r.account_id));
    expect(mine).toEqual([
      { account_id: one.accountId, company_name: "Aged One Ltd", on_hold: false, balance: 228, current: 110, days_1_30: 15, days_31_60: 30, days_61_90: 40, over_90: 40, total: 235, oldest_overdue_days: 121 },
      { account_id: two.accountId, company_name: "Aged Two Ltd", on_hold: false, balance: 1000, current: 0, days_1_30: 1000, days_31_60: 0, days_61_90: 0, over_90: 0, total: 1000, oldest_overdue_days: 1 },
    ]);
    // Most overdue first across the whole report.
    const oldest = report.data.map((r) => r.oldest_overdue_days);
    expect(oldest).toEqual([...oldest].sort((a, b) => b - a));
    // The totals row adds the rows, and each row's columns add up to its total.
    for (const key of ["balance", "current", "days_1_30", "days_31_60", "days_61_90", "over_90", "total"] as const) {
      expect(report.totals[key]).toBeCloseTo(report.data.reduce((t, r) => t + r[key], 0), 2);
    }
    for (const r of report.data) expect(r.current + r.days_1_30 + r.days_31_60 + r.days_61_90 + r.over_90).toBeCloseTo(r.total, 2);
  });

  it("answers JSON and a formula-escaped CSV to accounts, managers and owners, and 403 to the others", async () => {
    const risky = await owing("=HYPERLINK(\"http://evil.test\") Ltd", [{ due: isoDay(-45), pence: 12345, invoiceDate: isoDay(-75) }]);
    for (const role of ["accounts", "manager", "owner"] as const) {
      const res = await staffAs[role].get("/api/admin/trade/aged-debt");
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.json().data.find((r: { account_id: number }) => r.account_id === risky.accountId)).toMatchObject({ days_31_60: 123.45, total: 123.45, oldest_overdue_days: 45 });
    }
    const csv = await staffAs.accounts.get("/api/admin/trade/aged-debt.csv");
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toMatch(/^attachment; filename="aged-debt-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(csv.body.startsWith("\ufeffCompany,Balance,Not yet due,1-30 days overdue,31-60 days overdue,61-90 days overdue,Over 90 days overdue,Total outstanding,Oldest overdue (days),On hold\n")).toBe(true);
    const rows = parse(csv.body, { bom: true, columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r.Company!.includes("HYPERLINK"));
    expect(row).toMatchObject({ Company: "'=HYPERLINK(\"http://evil.test\") Ltd", "31-60 days overdue": "123.45", "Total outstanding": "123.45", "Oldest overdue (days)": "45", "On hold": "No" });
    const json = (await staffAs.accounts.get("/api/admin/trade/aged-debt")).json();
    expect(rows.at(-1)).toMatchObject({ Company: "Total", "Total outstanding": String(json.totals.total) });
    expect(rows).toHaveLength(json.data.length + 1);

    for (const role of ["sales", "warehouse", "hire"] as const) {
      expect((await staffAs[role].get("/api/admin/trade/aged-debt")).statusCode).toBe(403);
      expect((await staffAs[role].get("/api/admin/trade/aged-debt.csv")).statusCode).toBe(403);
    }
    expect((await staffAs.guest.get("/api/admin/trade/aged-debt")).statusCode).toBe(401);
  });
});
