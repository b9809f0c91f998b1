import { Readable } from "node:stream";
import { pipeline } from "node:stream";
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { LONDON_TODAY } from "../../../lib/london.ts";
import { csvWriter } from "../../../lib/csv.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";

/**
 * The aged-debt report (issue 21): every account with anything outstanding,
 * what it owes split by how far past the due date it is (not yet due, 1-30,
 * 31-60, 61-90, over 90 days overdue), with a totals row; the most overdue
 * (oldest unpaid due date, then most owed overdue) first. It ages by due
 * date, as credit control chases; the statement ages by invoice date, as UK
 * statements print it (statements.ts).
 *
 * Outstanding = total − paid − credited of each invoice not paid (a
 * remittance on its way still counts: the money has not arrived). One query,
 * on trade_invoices_due_idx; pence inside, pounds in the JSON and the CSV.
 */

export interface AgedDebtRow {
  account_id: number;
  company_name: string;
  on_hold: boolean;
  /** The account's balance: invoices − credit notes − payments (credit on account lowers it). */
  balance: number;
  current: number;
  days_1_30: number;
  days_31_60: number;
  days_61_90: number;
  over_90: number;
  /** Outstanding on its invoices: the five columns added. */
  total: number;
  /** Days past due of its oldest unpaid invoice; 0 when nothing is overdue. */
  oldest_overdue_days: number;
}

export type AgedDebtTotals = Omit<AgedDebtRow, "account_id" | "company_name" | "on_hold" | "oldest_overdue_days">;

export interface AgedDebtReport {
  /** The London date the report ages to. */
  as_of: string;
  data: AgedDebtRow[];
  totals: AgedDebtTotals;
}

const AMOUNTS = ["balance", "current", "days_1_30", "days_31_60", "days_61_90", "over_90", "total"] as const;

type Raw = Record<(typeof AMOUNTS)[number], string | number> & { account_id: number; company_name: string; on_hold: boolean; oldest_overdue_days: string | number; as_of: string };

/** The report as of `today` (a London date; the database's today when omitted). */
export async function agedDebt(db: Db, today?: string): Promise<AgedDebtReport> {
  const day = today ? sql`${today}::date` : LONDON_TODAY;
  const result = (await db.execute(sql`
    with owed as (
      select i.trade_account_id, i.total_pence - i.paid_pence - i.credited_pence as owed, (${day} - i.due_date) as late
      from trade_invoices i
      where i.status <> 'paid' and i.total_pence - i.paid_pence - i.credited_pence > 0
    )
    select a.id as account_id, a.company_name, a.on_hold, a.balance_pence as balance,
      coalesce(sum(o.owed) filter (where o.late <= 0), 0) as current,
      coalesce(sum(o.owed) filter (where o.late between 1 and 30), 0) as days_1_30,
      coalesce(sum(o.owed) filter (where o.late between 31 and 60), 0) as days_31_60,
      coalesce(sum(o.owed) filter (where o.late between 61 and 90), 0) as days_61_90,
      coalesce(sum(o.owed) filter (where o.late > 90), 0) as over_90,
      sum(o.owed) as total,
      greatest(max(o.late), 0) as oldest_overdue_days,
      ${day}::text as as_of
    from owed o join trade_accounts a on a.id = o.trade_account_id
    group by a.id
    order by greatest(max(o.late), 0) desc, sum(o.owed) filter (where o.late > 0) desc nulls last, a.company_name, a.id
  `)) as unknown as { rows: Raw[] };
  const data = result.rows.map((r): AgedDebtRow => {
    const pounds = Object.fromEntries(AMOUNTS.map((k) => [k, Number(r[k]) / 100])) as Record<(typeof AMOUNTS)[number], number>;
    return { account_id: Number(r.account_id), company_name: r.company_name, on_hold: Boolean(r.on_hold), ...pounds, oldest_overdue_days: Number(r.oldest_overdue_days) };
  });
  // Summed in pence so that the totals row has no binary fractions.
  const totals = Object.fromEntries(AMOUNTS.map((k) => [k, result.rows.reduce((t, r) => t + Number(r[k]), 0) / 100])) as AgedDebtTotals;
  let asOf = today ?? result.rows[0]?.as_of;
  if (!asOf) {
    const now = (await db.execute(sql`select ${LONDON_TODAY}::text as d`)) as unknown as { rows: { d: string }[] };
    asOf = now.rows[0]!.d;
  }
  return { as_of: asOf, data, totals };
}

const CSV_COLUMNS = [
  { key: "company_name", header: "Company" },
  { key: "balance", header: "Balance" },
  { key: "current", header: "Not yet due" },
  { key: "days_1_30", header: "1-30 days overdue" },
  { key: "days_31_60", header: "31-60 days overdue" },
  { key: "days_61_90", header: "61-90 days overdue" },
  { key: "over_90", header: "Over 90 days overdue" },
  { key: "total", header: "Total outstanding" },
  { key: "oldest_overdue_days", header: "Oldest overdue (days)" },
  { key: "on_hold", header: "On hold" },
];

/** The back office's report: JSON and CSV, with invoices.manage. */
export function createAgedDebtReport(db: Db) {
  return {
    async report(actor: StaffActor, today?: string): Promise<AgedDebtReport> {
      authorize(actor, "invoices.manage");
      return agedDebt(db, today);
    },
    /**
     * The report as CSV (server/lib/csv.ts: formulas in company names escaped),
     * a row per account then the totals; amounts in pounds as plain numbers.
     */
    async csv(actor: StaffActor, today?: string): Promise<{ asOf: string; stream: NodeJS.ReadableStream }> {
      authorize(actor, "invoices.manage");
      const report = await agedDebt(db, today);
      const rows = [...report.data.map((r) => ({ ...r, on_hold: r.on_hold ? "Yes" : "No" })), { ...report.totals, company_name: "Total", oldest_overdue_days: "", on_hold: "" }];
      const csv = csvWriter(CSV_COLUMNS);
      pipeline(Readable.from(rows), csv, () => {});
      return { asOf: report.as_of, stream: csv };
    },
  };
}

export type AgedDebtService = ReturnType<typeof createAgedDebtReport>;
