import { PageHeader } from "../../../components/admin/page-header.tsx";
import { useListAddress } from "../../../components/admin/pager.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { type StatusTab, StatusTabs } from "../../../components/admin/status-tabs.tsx";
import { tabAndCursorFrom } from "../../../lib/admin/format.ts";
import { quoteHref } from "../../../lib/admin/quotes.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { QUOTE_DESK_TABS, QUOTE_STATUS_LABELS, type QuoteStatus } from "../../../../server/modules/quotes/statuses.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/index";
import type { DataColumn } from "../../../components/admin/table-or-cards.tsx";
import { KeysetList } from "../../../components/admin/keyset-list.tsx";
import { linkColumn } from "../../../components/admin/list-columns.tsx";
import { DateCell, LinesCell, MoneyCell } from "../../../components/admin/cells.tsx";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Quotes");

/** What each tab holds, when it is empty. */
const EMPTY_WORDS: Record<QuoteStatus | "all", string> = {
  requested: "Customers ask for a quote from their basket; their requests wait here to be priced.",
  drafting: "Quotes being priced, and those started here with New quote, wait here until they are sent.",
  sent: "Quotes sent to customers wait here until they accept, decline or ask for changes, or the last day passes.",
  accepted: "Quotes customers have accepted, each with the order it became.",
  declined: "Quotes declined by the shop or by the customer.",
  expired: "Sent quotes whose last day has passed. Change one to send a new revision.",
  all: "Quotes customers ask for, and those started here, appear here.",
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "quotes.view");
  // No tab is Requested: the work waiting first.
  const filters = tabAndCursorFrom(new URL(request.url), QUOTE_DESK_TABS, QUOTE_DESK_TABS[0]!);
  const list = await app.services.quoteDesk.list(actor, { status: filters.status === "all" ? undefined : filters.status, cursor: filters.cursor });
  return { quotes: list.data, nextCursor: list.next_cursor, filters, canManage: can(actor.role, "quotes.manage") };
}

export default function AdminQuotes({ loaderData }: Route.ComponentProps) {
  const { quotes, nextCursor, filters, canManage } = loaderData;
  const { search } = useListAddress();
  // The API counts no tabs: the tabs carry no figures.
  const tabs: StatusTab[] = [...QUOTE_DESK_TABS.map((s): StatusTab => [s, QUOTE_STATUS_LABELS[s]]), ["all", "All"]];
  const all = filters.status === "all";
  const tabName = filters.status === "all" ? "" : ` ${QUOTE_STATUS_LABELS[filters.status].toLowerCase()}`;
  const columns: (DataColumn<(typeof quotes)[number]> | false)[] = [
    linkColumn("Quote", (q) => quoteHref(q.number), (q) => q.number, { sort: "descending", cellClassName: "whitespace-nowrap" }),
    { label: "Customer", cell: (q) => <LinesCell first={q.customer} rest={[]} /> },
    { label: "Company", cell: (q) => <LinesCell first={q.company ?? "—"} rest={[]} /> },
    { label: "Lines", numeric: true, cell: (q) => q.lines },
    { label: "Total inc VAT", numeric: true, cell: (q) => (q.total === null ? "—" : <MoneyCell pounds={q.total} />) },
    { label: "Valid until", cell: (q) => <DateCell value={q.valid_until} dateOnly /> },
    { label: "Needed by", cell: (q) => <DateCell value={q.needed_by} dateOnly /> },
    { label: "Updated", cell: (q) => <DateCell value={q.updated_at} /> },
    all && { label: "Status", cell: (q) => <StatusBadge status={`quote_${q.status}`} label={q.status_label} /> },
  ];
  const empty = { title: `No${tabName} quotes`, action: all ? undefined : { to: "?status=all", label: "Show every quote" }, children: EMPTY_WORDS[filters.status] };
  return (
    <>
      <PageHeader title="Quotes" intro="Prices asked for by customers, newest first. Open one to price its lines, send it with its PDF, or decline it." links={canManage ? [{ to: "/admin/quotes/new", label: "New quote", primary: true }] : []} />
      <StatusTabs label="Quotes by status" tabs={tabs} current={filters.status} search={search} />
      <KeysetList caption={`Quotes, newest first${tabName ? `:${tabName}` : ""}`} rows={quotes} rowKey={(q) => q.number} columns={columns} empty={empty} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
