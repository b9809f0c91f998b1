import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { KeysetPager, useListAddress } from "../../../components/admin/pager.tsx";
import { RefundDue } from "../../../components/admin/refund-due.tsx";
import { SearchFilter } from "../../../components/admin/search-filter.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { type StatusTab, StatusTabs } from "../../../components/admin/status-tabs.tsx";
import { Cell, Row, type TableColumn, TableOrCards } from "../../../components/admin/table-or-cards.tsx";
import { FormAlert } from "../../../components/form.tsx";
import { EmptyState } from "../../../components/page.tsx";
import { requirePermission, serviceError } from "../../../lib/admin/access.ts";
import { formatDate } from "../../../lib/admin/format.ts";
import { returnHref, returnsHref } from "../../../lib/admin/returns.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { RETURN_STATUSES, RETURN_STATUS_LABELS, type ReturnStatus } from "../../../../server/modules/returns/statuses.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/index";

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
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "returns.view");
  const filters = filtersFrom(new URL(request.url));
  const query = { ...filters, overdue: filters.overdue === "1" };
  const customers = can(actor.role, "customers.view");
  try {
    const [list, counts] = await Promise.all([app.services.returnsDesk.list(actor, query), app.services.returnsDesk.statusCounts(actor, { ...query, status: undefined, cursor: undefined })]);
    return { returns: list.data, nextCursor: list.next_cursor, counts, filters, customers, error: null };
  } catch (error) {
    const known = serviceError(error);
    if (!known || known.status !== 422) throw error;
    // An old page link: say so above an empty list, and keep the filters.
    const none = Object.fromEntries(RETURN_STATUSES.map((s) => [s, 0])) as Record<ReturnStatus, number>;
    return { returns: [], nextCursor: null, counts: none, filters, customers, error: Object.values(known.errors ?? {}).flat().join(" ") || known.message };
  }
}

export default function AdminReturns({ loaderData }: Route.ComponentProps) {
  const { returns, counts, filters, nextCursor, error, customers } = loaderData;
  const { search, loading } = useListAddress();
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const tabs: StatusTab[] = [["", "All", total], ...TAB_ORDER.map((s): StatusTab => [s, RETURN_STATUS_LABELS[s], counts[s]])];
  const filtered = !!(filters.q || filters.overdue);
  const columns: TableColumn[] = [
    { label: "Return", sort: "descending" },
    { label: "Order" },
    ...(customers ? [{ label: "Customer" }] : []),
    { label: "Coming back" },
    { label: "Units", className: "lg:text-right" },
    { label: "Asked on" },
    { label: "Status" },
  ];
  const label = filters.status ? `: ${RETURN_STATUS_LABELS[filters.status].toLowerCase()}` : "";
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

      <FormAlert message={error ?? undefined} className="mb-4" />

      {returns.length === 0 ? (
        <EmptyState title={total === 0 && !filtered ? "No returns yet" : `No returns${label} match these filters`} action={search.size ? { to: "?", label: "Show every return" } : undefined}>
          {total === 0 && !filtered ? "Returns customers ask for from their order pages, and those staff record, appear here." : "Try another status tab, or a shorter search."}
        </EmptyState>
      ) : (
        <TableOrCards caption={`Returns, newest first${label}`} columns={columns} loading={loading}>
          {returns.map((r) => (
            <Row key={r.number}>
              <Cell label="Return" head className="whitespace-nowrap">
                <Link to={returnHref(r.number)} className="link font-semibold">
                  {r.number}
                </Link>
              </Cell>
              <Cell label="Order" className="whitespace-nowrap">
                <Link to={`/admin/orders/${r.order_number}`} className="link">
                  {r.order_number}
                </Link>
              </Cell>
              {customers ? (
                <Cell label="Customer">
                  <span className="min-w-0 [overflow-wrap:anywhere]">{"email" in r ? r.email : "—"}</span>
                </Cell>
              ) : null}
              <Cell label="Coming back">{r.method_label}</Cell>
              <Cell label="Units" className="lg:text-right">
                {r.units}
              </Cell>
              <Cell label="Asked on" className="lg:whitespace-nowrap">
                {formatDate(r.created_at)}
              </Cell>
              <Cell label="Status">
                <span>
                  <StatusBadge status={r.status} label={r.status_label} />
                  <RefundDue days={r.refund_days_left} className="block text-sm" />
                </span>
              </Cell>
            </Row>
          ))}
        </TableOrCards>
      )}
      <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
