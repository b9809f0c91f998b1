import { Link, data } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { useListAddress } from "../../../components/admin/pager.tsx";
import { SearchFilter } from "../../../components/admin/search-filter.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { refusalOr } from "../../../lib/admin/access.ts";
import { shortDay } from "../../../lib/admin/dashboard.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { HIRE_REQUEST_STATUSES, HIRE_STATUS_LABELS, hireRequestHref, hireStatusLabel } from "../../../../server/modules/hire/desk-labels.ts";
import type { Route } from "./+types/requests";
import type { DataColumn } from "../../../components/admin/table-or-cards.tsx";
import { KeysetList } from "../../../components/admin/keyset-list.tsx";
import { LinesCell, MoneyCell } from "../../../components/admin/cells.tsx";
import { ErrorState } from "../../../components/admin/empty-state.tsx";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Hire requests");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "hire.desk");
  const url = new URL(request.url);
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  const filters = { status: get("status")?.slice(0, 20), q: get("q")?.slice(0, 100), cursor: get("cursor") };
  try {
    const list = await app.services.hireDesk.requests(actor, filters);
    return { rows: list.data, nextCursor: list.next_cursor, filters, error: null };
  } catch (error) {
    return data({ rows: [], nextCursor: null, filters, error: refusalOr(error).message }, { status: 422 });
  }
}

export default function HireRequests({ loaderData }: Route.ComponentProps) {
  const { rows, nextCursor, filters, error } = loaderData;
  const { search } = useListAddress();
  const filtered = !!(filters.status || filters.q);
  const columns: DataColumn<(typeof rows)[number]>[] = [
    {
      label: "Request",
      head: true,
      sort: "descending",
      cellClassName: "font-normal",
      cell: (r) => (
        <LinesCell
          first={
            <Link to={hireRequestHref(r.number)} className="link font-semibold">
              {r.number}
            </Link>
          }
          rest={[<span className="text-xs">{formatDateTime(r.created_at)}</span>]}
        />
      ),
    },
    {
      label: "State",
      cell: (r) => (
        <span>
          <StatusBadge status={r.status} label={hireStatusLabel(r.status)} />
          {r.status === "pending" ? <span className="block text-xs text-stone-600">Hold lapses {formatDateTime(r.hold_expires_at)}</span> : null}
        </span>
      ),
    },
    { label: "Customer", cell: (r) => <LinesCell first={r.name} rest={[r.company, r.email]} /> },
    { label: "Hire", cell: (r) => <LinesCell first={r.items} rest={[`${r.units} ${r.units === 1 ? "unit" : "units"}, ${r.fulfilment === "delivery" ? "delivery" : "collection"}`]} /> },
    { label: "Dates", cell: (r) => (r.start_date && r.end_date ? `${shortDay(r.start_date)} to ${shortDay(r.end_date)}` : "—") },
    { label: "Hire ex VAT", numeric: true, cell: (r) => <MoneyCell pounds={r.hire_cost} /> },
  ];
  const empty = {
    title: filtered ? "No hire requests match these filters" : "No hire requests yet",
    action: search.size ? { to: "?", label: "Show every hire request" } : undefined,
    children: filtered ? "Try another state, or a shorter search." : "Requests customers make from the hire pages show here.",
  };

  return (
    <>
      <PageHeader
        title="Hire requests"
        intro="Every hire request, newest first. Open one to approve, decline, hand over, off-hire or take it back."
        links={[{ to: "/admin/hire", label: "Hire desk" }, { to: "/admin/hire/planner", label: "Planner" }]}
      />
      <SearchFilter
        label="Filter hire requests"
        query={filters.q}
        placeholder="Number, name, email or company"
        choice={{ name: "status", label: "State", value: filters.status, options: HIRE_REQUEST_STATUSES.map((s) => ({ value: s, label: HIRE_STATUS_LABELS[s] })) }}
      />

      <ErrorState message={error} />
      <KeysetList caption="Hire requests, newest first" rows={rows} rowKey={(r) => r.number} columns={columns} empty={empty} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
