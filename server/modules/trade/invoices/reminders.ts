import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import type { Outbox } from "../../auth/service.ts";
import { renderEmail } from "../../mail/templates.ts";
import { dayLabel } from "../calendar.ts";
import { money } from "./document-pdf.ts";
import { holdOverdueAccounts } from "../credit/holds.ts";
import { REMINDER_STAGES, type ReminderStage } from "../credit/ledger-schema.ts";

/**
 * Payment reminders (issue 21), a daily job: an unpaid invoice is reminded on
 * its due date (`due`), 7 days after (`overdue_7`) and 14 days after
 * (`overdue_14`), each stage once only. "Unpaid" is checkout's and the hold's
 * test: status `unpaid` (a remittance on its way, `payment_pending`, is not
 * chased) with something left to pay.
 *
 * Once only: the stage's row in trade_reminders (primary key invoice + stage)
 * is inserted ON CONFLICT DO NOTHING in the same transaction as the outbox
 * mail, so a second process, or a rerun after a crash, sends nothing again.
 *
 * A missed day (the job did not run) is made up late, but only with the
 * latest stage that applies: an invoice found 15 days over with no reminder
 * gets the 14-day one, never a "due today" after it; the skipped stages get
 * no row (the table lists what was sent) and are never sent later, because a
 * stage is only sent while no later stage has been.
 *
 * One email per account and run names all its invoices reminded that day.
 * Then accounts with an invoice overdue are put on hold (holds.ts).
 */

export interface ReminderOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
}

export interface RemindersResult {
  /** The reminders this run sent. */
  sent: { invoiceId: number; number: string; stage: ReminderStage }[];
  /** Accounts this run put on hold. */
  held: { id: number; companyName: string }[];
}

/** The latest stage that applies `days` after the due date, or null before it. */
export function stageFor(days: number): ReminderStage | null {
  if (days >= 14) return "overdue_14";
  if (days >= 7) return "overdue_7";
  if (days >= 0) return "due";
  return null;
}

/** The stages after `stage`: once one of them is sent, `stage` never is. */
const laterThan = (stage: ReminderStage) => REMINDER_STAGES.slice(REMINDER_STAGES.indexOf(stage) + 1);

interface Candidate {
  id: number;
  number: string;
  accountId: number;
  companyName: string;
  accountsEmail: string;
  poReference: string;
  dueDate: string;
  outstanding: number;
  days: number;
}

type Reminded = Candidate & { stage: ReminderStage };

const daysAfter = (days: number) => (days === 1 ? "1 day" : `${days} days`);

function reminderLine(r: Reminded): string {
  const what = `Invoice ${r.number}${r.poReference ? ` (your PO ${r.poReference})` : ""}: ${money(r.outstanding)}`;
  if (r.stage === "due") return r.days === 0 ? `${what}, due today, ${dayLabel(r.dueDate)}.` : `${what}, due on ${dayLabel(r.dueDate)}.`;
  return `${what}, due on ${dayLabel(r.dueDate)}, now ${daysAfter(r.days)} overdue.`;
}

function reminderEmail(options: ReminderOptions, reminded: Reminded[]) {
  const first = reminded[0]!;
  const overdue = reminded.some((r) => r.stage !== "due");
  const final = reminded.some((r) => r.stage === "overdue_14");
  const total = reminded.reduce((t, r) => t + r.outstanding, 0);
  const numbers = reminded.map((r) => r.number).join(", ");
  const title = final ? "Invoices overdue: please pay now" : overdue ? "A reminder: invoices overdue" : "Invoices due for payment";
  const mail = renderEmail({
    appName: options.appName,
    publicUrl: options.publicUrl,
    title: reminded.length === 1 ? title.replace("Invoices", "Invoice").replace("invoices", "an invoice") : title,
    paragraphs: [
      `For ${first.companyName}:`,
      ...reminded.map(reminderLine),
      reminded.length > 1 ? `Together: ${money(total)}.` : "",
      overdue ? "While an invoice is overdue, pay on account is paused for your company; it opens again once the invoice is paid." : "Please pay by the due date, quoting the invoice number.",
      "If you have already paid, thank you: please ignore this reminder.",
    ].filter((p) => p !== ""),
    action: { label: "Pay your invoices", url: `${options.publicUrl.replace(/\/+$/, "")}/trade/invoices/pay` },
  });
  const subject = `${overdue ? "Overdue" : "Payment due"}: ${numbers}`;
  return { to: first.accountsEmail, subject, ...mail };
}

/**
 * Sends the reminders due on `today` (a London date, YYYY-MM-DD), then holds
 * accounts with an overdue invoice. Safe to run any number of times, in any
 * number of processes.
 */
export async function sendDueReminders(db: Db, options: ReminderOptions, today: string): Promise<RemindersResult> {
  // Unpaid invoices due by today with no reminder of their latest stage or a later one: one query, on trade_invoices_due_idx.
  const found = (await db.execute(sql`
    select i.id, i.number, i.trade_account_id as "accountId", a.company_name as "companyName", a.accounts_email as "accountsEmail",
           i.po_reference as "poReference", i.due_date::text as "dueDate",
           i.total_pence - i.paid_pence - i.credited_pence as outstanding, (${today}::date - i.due_date) as days
    from trade_invoices i join trade_accounts a on a.id = i.trade_account_id
    where i.status <> 'paid' and i.status = 'unpaid' and i.due_date <= ${today}::date
      and i.total_pence - i.paid_pence - i.credited_pence > 0
      and not exists (
        select 1 from trade_reminders r where r.invoice_id = i.id
          and array_position(array['due', 'overdue_7', 'overdue_14'], r.stage)
              >= case when ${today}::date - i.due_date >= 14 then 3 when ${today}::date - i.due_date >= 7 then 2 else 1 end
      )
    order by i.trade_account_id, i.due_date, i.id
  `)) as unknown as { rows: Candidate[] };

  const byAccount = new Map<number, Reminded[]>();
  for (const row of found.rows) {
    const c = { ...row, id: Number(row.id), accountId: Number(row.accountId), outstanding: Number(row.outstanding), days: Number(row.days) };
    const stage = stageFor(c.days)!;
    byAccount.set(c.accountId, [...(byAccount.get(c.accountId) ?? []), { ...c, stage }]);
  }

  const sent: RemindersResult["sent"] = [];
  for (const candidates of byAccount.values()) {
    const reminded = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const claimed: Reminded[] = [];
      for (const c of candidates) {
        // Claimed only while still unpaid and no later stage is recorded; the primary key stops a second claim of this stage.
        const later = laterThan(c.stage);
        const rows = (await tx.execute(sql`
          insert into trade_reminders (invoice_id, stage)
          select ${c.id}, ${c.stage}
          where exists (select 1 from trade_invoices i where i.id = ${c.id} and i.status = 'unpaid' and i.total_pence - i.paid_pence - i.credited_pence > 0)
            ${later.length > 0 ? sql`and not exists (select 1 from trade_reminders r where r.invoice_id = ${c.id} and r.stage in (${sql.join(later.map((s) => sql`${s}`), sql`, `)}))` : sql``}
          on conflict do nothing
          returning invoice_id
        `)) as unknown as { rows: unknown[] };
        if (rows.rows.length > 0) claimed.push(c);
      }
      if (claimed.length > 0) await options.mail.enqueue(tx, reminderEmail(options, claimed));
      return claimed;
    });
    sent.push(...reminded.map((r) => ({ invoiceId: r.id, number: r.number, stage: r.stage })));
  }
  if (sent.length > 0) options.mail.kick?.();

  const held = await db.transaction(async (t) => holdOverdueAccounts(t as unknown as Db, today));
  return { sent, held: held.map((h) => ({ id: h.id, companyName: h.companyName })) };
}


/** The reminders bound to the shop's outbox, for the daily job. */
export function createTradeReminders(db: Db, options: ReminderOptions) {
  return { send: (today: string) => sendDueReminders(db, options, today) };
}

export type TradeReminders = ReturnType<typeof createTradeReminders>;
