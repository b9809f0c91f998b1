import { Link } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { pageMeta } from "../../../lib/meta.ts";
import { dayLabel } from "../../../../server/modules/trade/calendar.ts";
import type { Route } from "./+types/aged-debt";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { MoneyCell } from "../../../components/admin/cells.tsx";
import { EmptyState } from "../../../components/admin/empty-state.tsx";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Aged debt");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "invoices.manage");
  return app.services.tradeStatements.agedDebt.report(actor);
}

const COLUMNS = [
  ["balance", "Balance"],
  ["current", "Not yet due"],
  ["days_1_30", "1-30 days"],
  ["days_31_60", "31-60 days"],
  ["days_61_90", "61-90 days"],
  ["over_90", "Over 90 days"],
  ["total", "Total owed"],
] as const;

export default function AgedDebt({ loaderData }: Route.ComponentProps) {
  const { as_of, data: rows, totals } = loaderData;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Trade desk", to: "/admin/trade" }, { label: "Aged debt" }]}
        title="Aged debt"
        intro={`What each trade account's invoices still owe on ${dayLabel(as_of)}, by days past their due date; the most overdue first.`}
        actions={
          <a href="/api/admin/trade/aged-debt.csv" className="btn-secondary" download>
            Export CSV
          </a>
        }
      />
      <DataTable
        empty={<EmptyState title="Nothing is owed">No trade account has an invoice left to pay.</EmptyState>}
        caption="Aged debt by account, most overdue first, with totals"
        rows={rows}
        rowKey={(r) => r.account_id}
        columns={[
          {
            label: "Company",
            head: true,
            cellClassName: "font-normal",
            cell: (r) => (
              <span className="min-w-0 [overflow-wrap:anywhere]">
                <Link to={`/admin/trade/accounts/${r.account_id}`} className="link font-semibold">
                  {r.company_name}
                </Link>
                {r.on_hold ? <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-800">On hold</span> : null}
                {r.oldest_overdue_days > 0 ? <span className="block text-xs text-stone-600">Oldest {r.oldest_overdue_days} days overdue</span> : null}
              </span>
            ),
          },
          ...COLUMNS.map(([key, label]) => ({ label, numeric: true, cellClassName: key === "total" ? "font-semibold" : "", cell: (r: (typeof rows)[number]) => <MoneyCell pounds={r[key]} /> })),
        ]}
        totals={{ Company: "Total", ...Object.fromEntries(COLUMNS.map(([key, label]) => [label, <MoneyCell key={key} pounds={totals[key]} />])) }}
      />
    </>
  );
}
