import { Link, data } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { KeysetPager, useListAddress } from "../../../components/admin/pager.tsx";
import { SearchFilter } from "../../../components/admin/search-filter.tsx";
import { STACKED } from "../../../components/admin/stacked-table.ts";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { FormAlert } from "../../../components/form.tsx";
import { EmptyState } from "../../../components/page.tsx";
import { requirePermission, serviceError } from "../../../lib/admin/access.ts";
import { shortDay } from "../../../lib/admin/dashboard.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { HIRE_REQUEST_STATUSES, HIRE_STATUS_LABELS, hireRequestHref, hireStatusLabel } from "../../../../server/modules/hire/desk-labels.ts";
import type { Route } from "./+types/requests";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Hire requests");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "hire.desk");
  const url = new URL(request.url);
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  const filters = { status: get("status")?.slice(0, 20), q: get("q")?.slice(0, 100), cursor: get("cursor") };
  try {
    const list = await app.services.hireDesk.requests(actor, filters);
    return { rows: list.data, nextCursor: list.next_cursor, filters, error: null };
  } catch (error) {
    const known = serviceError(error);
    if (!known || known.status !== 422) throw error;
    return data({ rows: [], nextCursor: null, filters, error: known.message }, { status: 422 });
  }
}

export default function HireRequests({ loaderData }: Route.ComponentProps) {
  const { rows, nextCursor, filters, error } = loaderData;
  const { search, loading } = useListAddress();
  const filtered = !!(filters.status || filters.q);

  return (
    <>
      <PageHeader
        title="Hire requests"
        intro="Every hire request, newest first. Open one to approve, decline, hand over, off-hire or take it back."
        actions={
          <>
            <Link to="/admin/hire" className="btn-secondary">
              Hire desk
            </Link>
            <Link to="/admin/hire/planner" className="btn-secondary">
              Planner
            </Link>
          </>
        }
      />
      <SearchFilter
        label="Filter hire requests"
        query={filters.q}
        placeholder="Number, name, email or company"
        choice={{ name: "status", label: "State", value: filters.status, options: HIRE_REQUEST_STATUSES.map((s) => ({ value: s, label: HIRE_STATUS_LABELS[s] })) }}
      />

      <FormAlert message={error ?? undefined} className="mb-4" />

      {rows.length === 0 ? (
        <EmptyState title={filtered ? "No hire requests match these filters" : "No hire requests yet"} action={search.size ? { to: "?", label: "Show every hire request" } : undefined}>
          {filtered ? "Try another state, or a shorter search." : "Requests customers make from the hire pages show here."}
        </EmptyState>
      ) : (
        <div className={`${STACKED.frame} ${loading ? "opacity-75" : ""}`} aria-busy={loading || undefined}>
          <table className={STACKED.table}>
            <caption className="sr-only">Hire requests, newest first</caption>
            <thead className={STACKED.head}>
              <tr>
                <th scope="col" className="px-3 py-2" aria-sort="descending">
                  Request
                </th>
                <th scope="col" className="px-3 py-2">
                  State
                </th>
                <th scope="col" className="px-3 py-2">
                  Customer
                </th>
                <th scope="col" className="px-3 py-2">
                  Hire
                </th>
                <th scope="col" className="px-3 py-2">
                  Dates
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Hire ex VAT
                </th>
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {rows.map((r) => (
                <tr key={r.number} className={`${STACKED.row} max-lg:bg-white lg:hover:bg-stone-50`}>
                  <th scope="row" className={`${STACKED.cell} font-normal`} data-label="Request">
                    <span>
                      <Link to={hireRequestHref(r.number)} className="link font-semibold">
                        {r.number}
                      </Link>
                      <span className="block text-xs text-stone-600">{formatDateTime(r.created_at)}</span>
                    </span>
                  </th>
                  <td className={STACKED.cell} data-label="State">
                    <span>
                      <StatusBadge status={r.status} label={hireStatusLabel(r.status)} />
                      {r.status === "pending" ? <span className="block text-xs text-stone-600">Hold lapses {formatDateTime(r.hold_expires_at)}</span> : null}
                    </span>
                  </td>
                  <td className={STACKED.cell} data-label="Customer">
                    <span className="min-w-0 [overflow-wrap:anywhere]">
                      {r.name}
                      {r.company ? <span className="block text-stone-600">{r.company}</span> : null}
                      <span className="block text-stone-600">{r.email}</span>
                    </span>
                  </td>
                  <td className={STACKED.cell} data-label="Hire">
                    <span>
                      {r.items}
                      <span className="block text-stone-600">
                        {r.units} {r.units === 1 ? "unit" : "units"}, {r.fulfilment === "delivery" ? "delivery" : "collection"}
                      </span>
                    </span>
                  </td>
                  <td className={STACKED.cell} data-label="Dates">
                    {r.start_date && r.end_date ? `${shortDay(r.start_date)} to ${shortDay(r.end_date)}` : "—"}
                  </td>
                  <td className={`${STACKED.cell} lg:text-right`} data-label="Hire ex VAT">
                    {formatPounds(r.hire_cost)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
