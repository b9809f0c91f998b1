import { Link } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { useListAddress } from "../../../components/admin/pager.tsx";
import { RefundDue } from "../../../components/admin/refund-due.tsx";
import { SearchFilter } from "../../../components/admin/search-filter.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { countedTabs, StatusTabs } from "../../../components/admin/status-tabs.tsx";
import { refusalOr } from "../../../lib/admin/access.ts";
import { returnHref, returnsHref } from "../../../lib/admin/returns.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { RETURN_STATUSES, RETURN_STATUS_LABELS, type ReturnStatus } from "../../../../server/modules/returns/statuses.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/index";
import type { DataColumn } from "../../../components/admin/table-or-cards.tsx";
import { KeysetList } from "../../../components/admin/keyset-list.tsx";
import { linkColumn } from "../../../components/admin/list-columns.tsx";
import { DateCell, LinesCell } from "../../../components/admin/cells.tsx";
import { ErrorState } from "../../../components/admin/empty-state.tsx";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Returns");

/** The tabs, in the order a return moves through them; "All" first. */
const TAB_ORDER: ReturnStatus[] = ["requested", "approved", "received", "refunded", "exchanged", "rejected", "closed"];

/** The filters from the address, so a link or a reload shows the same list. */
function filtersFrom(url: URL) {
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  const status = get("status");
  return {
    status: RETURN_STATUSES.includes(status as ReturnStatus) ? (status as ReturnStatus) : undefined,
    q: get("q")?.slice(0, 100),
    overdue: get("overdue") === "1" ? "1" : undefined,
    cursor: get("cursor")?.slice(0, 100),
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "returns.view");
  const filters = filtersFrom(new URL(request.url));
  const query = { ...filters, overdue: filters.overdue === "1" };
  const customers = can(actor.role, "customers.view");
  try {
    const [list, counts] = await Promise.all([app.services.returnsDesk.list(actor, query), app.services.returnsDesk.statusCounts(actor, { ...query, status: undefined, cursor: undefined })]);
    return { returns: list.data, nextCursor: list.next_cursor, counts, filters, customers, error: null };
  } catch (error) {
    const refused = refusalOr(error);
    // An old page link: say so above an empty list, and keep the filters.
    const none = Object.fromEntries(RETURN_STATUSES.map((s) => [s, 0])) as Record<ReturnStatus, number>;
    return { returns: [], nextCursor: null, counts: none, filters, customers, error: refused.text };
  }
}

export default function AdminReturns({ loaderData }: Route.ComponentProps) {
  const { returns, counts, filters, nextCursor, error, customers } = loaderData;
  const { search } = useListAddress();
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const tabs = countedTabs(TAB_ORDER, RETURN_STATUS_LABELS, counts, total);
  const filtered = !!(filters.q || filters.overdue);
  const label = filters.status ? `: ${RETURN_STATUS_LABELS[filters.status].toLowerCase()}` : "";
  const columns: (DataColumn<(typeof returns)[number]> | false)[] = [
    linkColumn("Return", (r) => returnHref(r.number), (r) => r.number, { sort: "descending", cellClassName: "whitespace-nowrap" }),
    {
      label: "Order",
      cellClassName: "whitespace-nowrap",
      cell: (r) => (
        <Link to={`/admin/orders/${r.order_number}`} className="link">
          {r.order_number}
        </Link>
      ),
    },
    customers && { label: "Customer", cell: (r) => <LinesCell first={"email" in r ? r.email : "—"} rest={[]} /> },
    { label: "Coming back", cell: (r) => r.method_label },
    { label: "Units", numeric: true, cell: (r) => r.units },
    { label: "Asked on", cell: (r) => <DateCell value={r.created_at} dateOnly /> },
    {
      label: "Status",
      cell: (r) => (
        <span>
          <StatusBadge status={r.status} label={r.status_label} />
          <RefundDue days={r.refund_days_left} className="block text-sm" />
        </span>
      ),
    },
  ];
  const none = total === 0 && !filtered;
  const empty = {
    title: none ? "No returns yet" : `No returns${label} match these filters`,
    action: search.size ? { to: "?", label: "Show every return" } : undefined,
    children: none ? "Returns customers ask for from their order pages, and those staff record, appear here." : "Try another status tab, or a shorter search.",
  };
  return (
    <>
      <PageHeader title="Returns" intro="Returns customers ask for on their orders, newest first. Open one to approve, receive, refund or exchange it." />
      <StatusTabs label="Returns by status" tabs={tabs} current={filters.status ?? ""} search={search} />
      <SearchFilter label="Filter returns" query={filters.q} placeholder={customers ? "Return or order number, or the customer's email" : "Return or order number"} keep={{ status: filters.status, overdue: filters.overdue }} />
      {filters.overdue ? (
        <p className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-2 text-sm">
          <span className="font-semibold text-red-800">Only returns received more than 14 days ago and not yet refunded.</span>
          <Link to={returnsHref({ status: filters.status, q: filters.q })} className="link">
            Show them all
          </Link>
        </p>
      ) : null}

      <ErrorState message={error} />
      <KeysetList caption={`Returns, newest first${label}`} rows={returns} rowKey={(r) => r.number} columns={columns} empty={empty} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
