import { Form, data, useNavigation } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { idParam, notFoundOr, serviceError } from "../../../lib/admin/access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { dayLabel, monthLabel as monthName, previousMonth } from "../../../../server/modules/trade/calendar.ts";
import type { Route } from "./+types/statement";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { DateCell, MoneyCell } from "../../../components/admin/cells.tsx";
import { EmptyState } from "../../../components/admin/empty-state.tsx";
import { Figures } from "../../../components/admin/panel.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Statement · trade account #${params.id}`);

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const KIND_LABEL = { invoice: "Invoice", credit_note: "Credit note", payment: "Payment" } as const;

/** The account's number from the path; anything else is no account. */
const idFrom = (param: string) => idParam(param, "No such trade account.");

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "invoices.manage");
  const id = idFrom(params.id);
  const statements = app.services.tradeStatements;
  const today = statements.today();
  const asked = new URL(request.url).searchParams.get("month")?.trim().slice(0, 20) ?? "";
  const month = asked || previousMonth(today);
  const thisMonth = today.slice(0, 7);
  try {
    const statement = await statements.json(actor, id, month);
    return { id, month, thisMonth, statement, monthLabel: monthName(month), endLabel: dayLabel(statement.period_end), error: null };
  } catch (error) {
    const known = serviceError(error);
    if (known?.status === 404) notFoundOr(error);
    if (!known || known.status !== 422) throw error;
    // A bad month keeps what was typed beside its message; the account still shows.
    return data({ id, month, thisMonth, statement: null, monthLabel: "", endLabel: "", error: known.errors?.month?.join(" ") ?? known.message }, { status: 422 });
  }
}

type ActionResult = { ok: boolean; message: string };

/** "Email to …": the service checks invoices.manage again and audits the send. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "invoices.manage");
  const id = idFrom(params.id);
  const month = String(form.get("month") ?? "").slice(0, 20);
  if (!MONTH.test(month)) return data<ActionResult>({ ok: false, message: "Choose a month as YYYY-MM." }, { status: 422 });
  try {
    const sent = await app.services.tradeStatements.email(actor, id, month);
    return data<ActionResult>({ ok: true, message: `The statement for ${monthName(sent.month)} is on its way to ${sent.to}.` });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404) notFoundOr(error);
    return data<ActionResult>({ ok: false, message: known.errors ? Object.values(known.errors).flat().join(" ") : known.message }, { status: known.status });
  }
}

export default function TradeStatement({ loaderData, actionData }: Route.ComponentProps) {
  const { id, month, thisMonth, statement: s, monthLabel, endLabel, error } = loaderData;
  const result = actionData as ActionResult | undefined;
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formMethod === "POST";
  const title = s ? `Statement: ${s.account.company_name}` : "Statement";
  const aged = s
    ? [
        ["0-30 days", s.aged.days_0_30],
        ["31-60 days", s.aged.days_31_60],
        ["61-90 days", s.aged.days_61_90],
        ["Over 90 days", s.aged.over_90],
        ["Unallocated", s.aged.unallocated],
      ]
    : [];

  return (
    <>
      <PageHeader
        crumbs={[{ label: "Trade desk", to: "/admin/trade" }, { label: s?.account.company_name ?? `Account #${id}`, to: `/admin/trade/accounts/${id}` }, { label: "Statement" }]}
        title={title}
        intro={s ? `${monthLabel}: balance brought forward, the month's invoices, credit notes and payments, and what was owed at ${endLabel} by the age of its invoice.` : undefined}
        actions={
          s ? (
            <>
              <a href={`/api/admin/trade/accounts/${id}/statements/${month}.pdf`} className="btn-secondary" download>
                Download PDF
              </a>
              <Form method="post">
                <input type="hidden" name="month" value={month} />
                <button type="submit" className="btn-primary" disabled={sending}>
                  {sending ? "Sending…" : `Email to ${s.account.accounts_email}`}
                </button>
              </Form>
            </>
          ) : null
        }
      />
      <ActionResultBanner result={result} />

      <Form method="get" className="mb-5 flex flex-wrap items-end gap-3" aria-label="Choose the statement's month">
        <div>
          <label htmlFor="statement-month" className="mb-1 block text-sm font-semibold">
            Month
          </label>
          <input
            id="statement-month"
            name="month"
            type="month"
            defaultValue={month}
            max={thisMonth}
            required
            className="min-h-10 w-44 rounded-md border border-stone-400 px-2"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "statement-month-error" : undefined}
          />
          {error ? (
            <p id="statement-month-error" className="mt-1 text-sm font-semibold text-red-700">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-secondary">
          Show statement
        </button>
      </Form>

      {s ? (
        <>
          <Figures
            big
            items={[
              ["Brought forward", formatPounds(s.opening_balance)],
              ["Movements", s.lines.length],
              [`Carried forward at ${endLabel}`, formatPounds(s.closing_balance), "closing-balance"],
            ]}
          />

          {s.lines.length === 0 ? (
            <EmptyState title={`Nothing moved in ${monthLabel}`}>No invoice, credit note or payment is dated in this month; the balance stays {formatPounds(s.closing_balance)}.</EmptyState>
          ) : (
            <div className="mb-6">
              <DataTable
                caption="The month's invoices, credit notes and payments in date order, with the running balance"
                rows={s.lines}
                rowKey={(l) => `${l.kind}-${l.reference}`}
                rowProps={() => ({ className: "max-lg:bg-white" })}
                columns={[
                  { label: "Date", cell: (l) => <DateCell value={l.date} /> },
                  {
                    label: "Entry",
                    head: true,
                    cellClassName: "font-normal",
                    cell: (l) => (
                      <span>
                        {KIND_LABEL[l.kind]} <span className="font-semibold">{l.reference}</span>
                      </span>
                    ),
                  },
                  { label: "Details", cell: (l) => <span className="[overflow-wrap:anywhere]">{l.details || "—"}</span> },
                  { label: "Debit", numeric: true, cell: (l) => (l.debit ? <MoneyCell pounds={l.debit} /> : "") },
                  { label: "Credit", numeric: true, cell: (l) => (l.credit ? <MoneyCell pounds={l.credit} /> : "") },
                  { label: "Balance", numeric: true, cellClassName: "font-semibold", cell: (l) => <MoneyCell pounds={l.balance} /> },
                ]}
              />
            </div>
          )}

          <h2 className="mb-2 text-lg font-bold">Aged debt at {endLabel}</h2>
          <p className="mb-3 max-w-3xl text-sm text-stone-700">What each invoice still owed at the month's end, by days since its invoice date; payments not set against an invoice show as unallocated. Together they make the balance carried forward.</p>
          <dl className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="aged-debt">
            {aged.map(([label, pounds]) => (
              <div key={label} className="rounded-lg border border-stone-200 bg-white p-3">
                <dt className="text-sm text-stone-600">{label}</dt>
                <dd className="font-semibold tabular-nums">{formatPounds(pounds as number)}</dd>
              </div>
            ))}
            <div className="rounded-lg border border-stone-300 bg-stone-50 p-3">
              <dt className="text-sm text-stone-700">Balance</dt>
              <dd className="font-bold tabular-nums">{formatPounds(s.closing_balance)}</dd>
            </div>
          </dl>
        </>
      ) : null}
    </>
  );
}
