import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { createAgedDebtReport } from "./aged-debt.ts";
import type { Outbox } from "../../auth/service.ts";
import { renderEmail } from "../../mail/templates.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { dayLabel, firstWorkingDay, monthLabel, monthRange, parseMonth, previousMonth } from "../calendar.ts";
import { money } from "./document-pdf.ts";
import { INVOICE_READERS, type ShopDetails } from "./invoices.ts";
import { tradeStatements } from "../credit/ledger-schema.ts";
import { type TradeAccount, tradeAccounts } from "../schema.ts";
import { tradeSites } from "../accounts/sites-schema.ts";
import type { Statement, StatementLine, StatementLineKind } from "./documents.ts";
import { statementPdf } from "./statement-pdf.ts";
import { memberWithRole } from "../accounts/users.ts";

/**
 * A trade account's monthly statement (issue 21): the balance brought
 * forward, the month's invoices, credit notes and payments in date order with
 * a running balance, the balance carried forward, and what is still owed at
 * the month's end aged by invoice date (0-30, 31-60, 61-90, over 90 days), as
 * UK statements age it; the aged-debt report ages by due date instead
 * (aged-debt.ts). Money in pence; the API turns it into pounds.
 *
 * Figures come from the ledger alone (ADR 0040): balance = invoices − credit
 * notes − payments, each on its own date (invoice date, issue date, received
 * date). What an invoice still owed at the month's end is its total less the
 * payments allocated to it that had arrived by then and the credit notes
 * applied to it issued by then; a payment not (yet) set against an invoice is
 * shown apart as unallocated credit, so the aged columns plus it always make
 * the closing balance.
 */

export interface StatementOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shop: ShopDetails;
}

type Rows<T> = { rows: T[] };

const KIND_ORDER: Record<StatementLineKind, number> = { invoice: 0, credit_note: 1, payment: 2 };

/** A month `YYYY-MM` that has begun (a statement of the month so far is fine), else 422. */
export function checkMonth(month: string, today: string): string {
  if (!parseMonth(month)) throw new ValidationError({ month: ["Choose a month as YYYY-MM."] });
  if (month > today.slice(0, 7)) throw new ValidationError({ month: ["Choose a month that has begun."] });
  if (month < "2000-01") throw new ValidationError({ month: ["Choose a month from 2000 on."] });
  return month;
}

function accountJson(a: TradeAccount): Statement["account"] {
  return {
    id: a.id,
    companyName: a.companyName,
    address: [a.line1, a.line2, a.town, a.county, a.postcode].filter((x) => x !== ""),
    companyNumber: a.companyNumber,
    vatNumber: a.vatNumber,
    accountsEmail: a.accountsEmail,
    termsDays: a.termsDays,
  };
}

/**
 * The statement of `accountId` for `month` (`YYYY-MM`); null when there is no
 * such account (or no such site of it). Pass a transaction inside one. With a
 * site, the statement is that site's: its invoices, their credit notes, and
 * the part of each payment set against them (payments are made to the
 * account, so only their allocations belong to a site).
 */
export async function statementFor(db: Db, accountId: number, month: string, shop: ShopDetails, siteId?: number): Promise<Statement | null> {
  const { start, end } = monthRange(month);
  const [account] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId));
  if (!account) return null;
  const [site] = siteId === undefined ? [] : await db.select({ id: tradeSites.id, name: tradeSites.name }).from(tradeSites).where(and(eq(tradeSites.id, siteId), eq(tradeSites.tradeAccountId, accountId)));
  if (siteId !== undefined && !site) return null;
  // Every invoice of the account, or only the site's (`i` is the invoice in each query below).
  const ofSite = site ? sql`and i.site_id = ${site.id}` : sql``;
  const paymentsBefore = site
    ? sql`select coalesce(sum(a.amount_pence), 0) from trade_payment_allocations a join trade_payments p on p.id = a.payment_id join trade_invoices i on i.id = a.invoice_id
            where i.trade_account_id = ${accountId} ${ofSite} and p.received_on < ${start}::date`
    : sql`select coalesce(sum(amount_pence), 0) from trade_payments where trade_account_id = ${accountId} and received_on < ${start}::date`;
  const paymentsIn = site
    ? sql`select 'payment', p.id, p.received_on::text, p.number, sum(a.amount_pence)::int,
             initcap(p.method) || case when p.reference <> '' then ' ' || p.reference else '' end
            from trade_payment_allocations a join trade_payments p on p.id = a.payment_id join trade_invoices i on i.id = a.invoice_id
            where i.trade_account_id = ${accountId} ${ofSite} and p.received_on between ${start}::date and ${end}::date
            group by p.id`
    : sql`select 'payment', id, received_on::text, number, amount_pence,
             initcap(method) || case when reference <> '' then ' ' || reference else '' end
            from trade_payments where trade_account_id = ${accountId} and received_on between ${start}::date and ${end}::date`;

  const opening = (await db.execute(sql`
    select
      (select coalesce(sum(total_pence), 0) from trade_invoices i where trade_account_id = ${accountId} ${ofSite} and invoice_date < ${start}::date)
      - (select coalesce(sum(c.total_pence), 0) from trade_credit_notes c join trade_invoices i on i.id = c.invoice_id where c.trade_account_id = ${accountId} ${ofSite} and c.issued_on < ${start}::date)
      - (${paymentsBefore}) as opening
  `)) as unknown as Rows<{ opening: string | number }>;

  const moves = (await db.execute(sql`
    select 'invoice' as kind, id, invoice_date::text as date, number, total_pence as amount,
           case when po_reference <> '' then 'PO ' || po_reference else '' end as details
      from trade_invoices i where trade_account_id = ${accountId} ${ofSite} and invoice_date between ${start}::date and ${end}::date
    union all
    select 'credit_note', c.id, c.issued_on::text, c.number, c.total_pence, 'Against ' || i.number
      from trade_credit_notes c join trade_invoices i on i.id = c.invoice_id
      where c.trade_account_id = ${accountId} ${ofSite} and c.issued_on between ${start}::date and ${end}::date
    union all
    ${paymentsIn}
  `)) as unknown as Rows<{ kind: StatementLineKind; id: number; date: string; number: string; amount: number; details: string }>;

  // What each invoice dated up to the month's end still owed then, by age from its invoice date.
  const agedRows = (await db.execute(sql`
    with owed as (
      select i.id, (${end}::date - i.invoice_date) as age,
        i.total_pence
        - coalesce((select sum(a.amount_pence) from trade_payment_allocations a join trade_payments p on p.id = a.payment_id
                    where a.invoice_id = i.id and p.received_on <= ${end}::date), 0)
        - coalesce((select sum(c.applied_pence) from trade_credit_notes c where c.invoice_id = i.id and c.issued_on <= ${end}::date), 0) as owed
      from trade_invoices i
      where i.trade_account_id = ${accountId} ${ofSite} and i.invoice_date <= ${end}::date
    )
    select
      coalesce(sum(owed) filter (where age <= 30), 0) as d30,
      coalesce(sum(owed) filter (where age between 31 and 60), 0) as d60,
      coalesce(sum(owed) filter (where age between 61 and 90), 0) as d90,
      coalesce(sum(owed) filter (where age > 90), 0) as over90
    from owed where owed > 0
  `)) as unknown as Rows<{ d30: string | number; d60: string | number; d90: string | number; over90: string | number }>;

  const openingBalance = Number(opening.rows[0]?.opening ?? 0);
  let running = openingBalance;
  const lines = moves.rows
    .map((m) => ({ ...m, id: Number(m.id), amount: Number(m.amount) }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.id - b.id))
    .map((m): StatementLine => {
      const debit = m.kind === "invoice" ? m.amount : 0;
      const credit = m.kind === "invoice" ? 0 : m.amount;
      running += debit - credit;
      return { date: m.date, kind: m.kind, reference: m.number, details: m.details, debit, credit, balance: running };
    });
  const a = agedRows.rows[0];
  const aged = { days0to30: Number(a?.d30 ?? 0), days31to60: Number(a?.d60 ?? 0), days61to90: Number(a?.d90 ?? 0), over90: Number(a?.over90 ?? 0) };
  const owed = aged.days0to30 + aged.days31to60 + aged.days61to90 + aged.over90;
  return {
    month,
    periodStart: start,
    periodEnd: end,
    account: accountJson(account),
    site: site ?? null,
    shop,
    openingBalance,
    lines,
    closingBalance: running,
    aged: { ...aged, unallocated: running - owed },
  };
}

/** The statement as the API answers it: pounds, snake_case. */
export function statementJson(s: Statement) {
  const pounds = (p: number) => p / 100;
  return {
    month: s.month,
    period_start: s.periodStart,
    period_end: s.periodEnd,
    account: { id: s.account.id, company_name: s.account.companyName, address: s.account.address, accounts_email: s.account.accountsEmail, terms_days: s.account.termsDays },
    opening_balance: pounds(s.openingBalance),
    lines: s.lines.map((l) => ({ date: l.date, kind: l.kind, reference: l.reference, details: l.details, debit: pounds(l.debit), credit: pounds(l.credit), balance: pounds(l.balance) })),
    closing_balance: pounds(s.closingBalance),
    aged: {
      days_0_30: pounds(s.aged.days0to30),
      days_31_60: pounds(s.aged.days31to60),
      days_61_90: pounds(s.aged.days61to90),
      over_90: pounds(s.aged.over90),
      unallocated: pounds(s.aged.unallocated),
    },
  };
}
export type StatementJson = ReturnType<typeof statementJson>;

/** The statement's email: the figures in the body (the outbox carries no attachments), the PDF a sign-in away. */
/** `Statement-2026-03-Fitters-Ltd.pdf`: the company's name in letters, digits and dashes only, safe in any mail client. */
export function statementFilename(s: { month: string; account: { companyName: string } }): string {
  const company = s.account.companyName.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60).replace(/-+$/, "");
  return `Statement-${s.month}${company ? `-${company}` : ""}.pdf`;
}

/** The statement's email, its PDF attached (made as the download route makes it). */
async function statementEmail(options: StatementOptions, s: Statement) {
  const sum = (kind: StatementLineKind) => s.lines.filter((l) => l.kind === kind).reduce((t, l) => t + l.debit + l.credit, 0);
  const label = monthLabel(s.month);
  const owes = s.closingBalance > 0 ? `${s.account.companyName} owes ${money(s.closingBalance)} at ${dayLabel(s.periodEnd)}.` : s.closingBalance < 0 ? `${s.account.companyName} is ${money(-s.closingBalance)} in credit at ${dayLabel(s.periodEnd)}.` : `${s.account.companyName} owes nothing at ${dayLabel(s.periodEnd)}.`;
  const mail = renderEmail({
    appName: options.appName,
    publicUrl: options.publicUrl,
    title: `Your statement for ${label}`,
    paragraphs: [
      `Balance brought forward: ${money(s.openingBalance)}. Invoices: ${money(sum("invoice"))}. Credit notes: ${money(sum("credit_note"))}. Payments received: ${money(sum("payment"))}.`,
      owes,
      `What is owed, by the age of its invoice: 0-30 days ${money(s.aged.days0to30)}, 31-60 days ${money(s.aged.days31to60)}, 61-90 days ${money(s.aged.days61to90)}, over 90 days ${money(s.aged.over90)}.`,
      `The statement is attached as a PDF; it and each invoice are also on your trade account's invoices page.`,
    ],
    action: { label: "See your invoices and statement", url: `${options.publicUrl.replace(/\/+$/, "")}/trade/invoices` },
  });
  const attachments = [{ filename: statementFilename(s), contentType: "application/pdf", content: await statementPdf(s) }];
  return { to: s.account.accountsEmail, subject: `Statement for ${label}: ${s.account.companyName}`, ...mail, attachments };
}

export interface MonthlyStatementsResult {
  /** The month the statements cover, or null when today is before the month's first working day. */
  month: string | null;
  /** Accounts emailed by this run. */
  sent: number[];
}

/**
 * The monthly statements (a daily job): from the first working day of a month
 * on, every approved account with activity last month or a balance at its end
 * is emailed last month's statement, once. The row in trade_statements is
 * inserted (ON CONFLICT DO NOTHING) in the same transaction as the outbox
 * mail: a second process, or a rerun after a crash, finds it and sends
 * nothing. A day the job missed is made up on its next run that month.
 */
export async function sendMonthlyStatements(db: Db, options: StatementOptions, today: string): Promise<MonthlyStatementsResult> {
  if (today < firstWorkingDay(today)) return { month: null, sent: [] };
  const month = previousMonth(today);
  const { start, end } = monthRange(month);
  const due = (await db.execute(sql`
    select a.id from trade_accounts a
    where a.state = 'approved'
      and not exists (select 1 from trade_statements s where s.trade_account_id = a.id and s.period_start = ${start}::date)
      and (
        exists (select 1 from trade_invoices i where i.trade_account_id = a.id and i.invoice_date between ${start}::date and ${end}::date)
        or exists (select 1 from trade_credit_notes c where c.trade_account_id = a.id and c.issued_on between ${start}::date and ${end}::date)
        or exists (select 1 from trade_payments p where p.trade_account_id = a.id and p.received_on between ${start}::date and ${end}::date)
        or (select coalesce(sum(total_pence), 0) from trade_invoices i where i.trade_account_id = a.id and i.invoice_date <= ${end}::date)
           - (select coalesce(sum(total_pence), 0) from trade_credit_notes c where c.trade_account_id = a.id and c.issued_on <= ${end}::date)
           - (select coalesce(sum(amount_pence), 0) from trade_payments p where p.trade_account_id = a.id and p.received_on <= ${end}::date) <> 0
      )
    order by a.id
  `)) as unknown as Rows<{ id: number }>;
  const sent: number[] = [];
  for (const { id } of due.rows) {
    const done = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const claimed = await tx.insert(tradeStatements).values({ tradeAccountId: Number(id), periodStart: start }).onConflictDoNothing().returning({ id: tradeStatements.tradeAccountId });
      if (claimed.length === 0) return false;
      const statement = await statementFor(tx, Number(id), month, options.shop);
      if (!statement) return false;
      await options.mail.enqueue(tx, await statementEmail(options, statement));
      return true;
    });
    if (done) sent.push(Number(id));
  }
  if (sent.length > 0) options.mail.kick?.();
  return { month, sent };
}

/** The back office's statements: read, print and email any month's, with invoices.manage. */
export function createTradeStatementsService(db: Db, options: StatementOptions & { today?: () => string }) {
  const today = options.today ?? (() => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date()));

  async function get(actor: StaffActor, accountId: number, month: string): Promise<Statement> {
    authorize(actor, "invoices.manage");
    const statement = await statementFor(db, accountId, checkMonth(month, today()), options.shop);
    if (!statement) throw new HttpError(404, "No such trade account.");
    return statement;
  }

  return {
    get,
    async json(actor: StaffActor, accountId: number, month: string) {
      return statementJson(await get(actor, accountId, month));
    },
    async pdf(actor: StaffActor, accountId: number, month: string): Promise<{ filename: string; pdf: Buffer }> {
      const statement = await get(actor, accountId, month);
      return { filename: `statement-${accountId}-${month}.pdf`, pdf: await statementPdf(statement) };
    },
    /** A member's own company's statement as a PDF: owners, admins and accounts users (as for invoices), else 404. */
    async memberPdf(userId: number, month: string, siteId?: number): Promise<{ filename: string; pdf: Buffer }> {
      const { account } = await memberWithRole(db, userId, INVOICE_READERS);
      const statement = await statementFor(db, account.id, checkMonth(month, today()), options.shop, siteId);
      if (!statement) throw new HttpError(404, "Not Found");
      return { filename: `statement-${month}${statement.site ? `-site-${statement.site.id}` : ""}.pdf`, pdf: await statementPdf(statement) };
    },
    /** Emails the month's statement to the account's accounts address now (audited); the monthly send is unaffected. */
    async email(actor: StaffActor, accountId: number, month: string): Promise<{ to: string; month: string }> {
      authorize(actor, "invoices.manage");
      checkMonth(month, today());
      const to = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const statement = await statementFor(tx, accountId, month, options.shop);
        if (!statement) throw new HttpError(404, "No such trade account.");
        await options.mail.enqueue(tx, await statementEmail(options, statement));
        await recordAudit(tx, actor, { action: "trade_account.statement_emailed", entity: "trade_account", entityId: accountId, after: { month, to: statement.account.accountsEmail, closing_balance: statement.closingBalance / 100 } });
        return statement.account.accountsEmail;
      });
      options.mail.kick?.();
      return { to, month };
    },
    sendMonthly: (on = today()) => sendMonthlyStatements(db, options, on),
    /** The aged-debt report across accounts (aged-debt.ts), beside the statements it summarises. */
    agedDebt: createAgedDebtReport(db),
    today,
  };
}

export type TradeStatementsService = ReturnType<typeof createTradeStatementsService>;
