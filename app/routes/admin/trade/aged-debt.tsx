import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { STACKED } from "../../../components/admin/stacked-table.ts";
import { EmptyState } from "../../../components/page.tsx";
import { requirePermission } from "../../../lib/admin/access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { dayLabel } from "../../../../server/modules/trade/calendar.ts";
import type { Route } from "./+types/aged-debt";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Aged debt");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "invoices.manage");
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
crumbs={[{ label: "Trade desk", to: "/admin/trade" }, { label: "Aged debt" }]}        title="Aged debt"
        intro={`What each trade account's invoices still owe on ${dayLabel(as_of)}, by days past their due date; the most overdue first.`}
        actions={
          <a href="/api/admin/trade/aged-debt.csv" className="btn-secondary" download>
            Export CSV
          </a>
        }
      />
      {rows.length === 0 ? (
        <EmptyState title="Nothing is owed">No trade account has an invoice left to pay.</EmptyState>
      ) : (
        <div className={STACKED.frame}>
          <table className={STACKED.table}>
            <caption className="sr-only">Aged debt by account, most overdue first, with totals</caption>
            <thead className={STACKED.head}>
              <tr>
                <th scope="col" className="px-3 py-2">
                  Company
                </th>
                {COLUMNS.map(([key, label]) => (
                  <th key={key} scope="col" className="px-3 py-2 text-right">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {rows.map((r) => (
                <tr key={r.account_id} className={`${STACKED.row} max-lg:bg-white lg:hover:bg-stone-50`}>
                  <th scope="row" className={`${STACKED.cell} font-normal`} data-label="Company">
                    <span className="min-w-0 [overflow-wrap:anywhere]">
                      <Link to={`/admin/trade/accounts/${r.account_id}`} className="link font-semibold">
                        {r.company_name}
                      </Link>
                      {r.on_hold ? <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-800">On hold</span> : null}
                      {r.oldest_overdue_days > 0 ? <span className="block text-xs text-stone-600">Oldest {r.oldest_overdue_days} days overdue</span> : null}
                    </span>
                  </th>
                  {COLUMNS.map(([key, label]) => (
                    <td key={key} className={`${STACKED.cell} lg:text-right lg:tabular-nums ${key === "total" ? "font-semibold" : ""}`} data-label={label}>
                      <span>{formatPounds(r[key])}</span>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t-2 border-stone-300 font-bold max-lg:block max-lg:mt-3">
              <tr className={`${STACKED.row} max-lg:bg-stone-50`}>
                <th scope="row" className={STACKED.cell} data-label="">
                  <span>Total</span>
                </th>
                {COLUMNS.map(([key, label]) => (
                  <td key={key} className={`${STACKED.cell} lg:text-right lg:tabular-nums`} data-label={label}>
                    <span>{formatPounds(totals[key])}</span>
                  </td>
                ))}
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </>
  );
}
