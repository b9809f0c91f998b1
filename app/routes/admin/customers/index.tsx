import { Link } from "react-router";
import { BlockedBadge } from "../../../components/admin/blocked-badge.tsx";
import { useListAddress } from "../../../components/admin/pager.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { refusalOr } from "../../../lib/admin/access.ts";
import { withParam } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { CUSTOMER_KIND_LABELS, CUSTOMER_SORTS, CUSTOMER_SORT_LABELS, type CustomerSort } from "../../../../server/modules/account/customer-kinds.ts";
import type { Route } from "./+types/index";
import type { DataColumn } from "../../../components/admin/table-or-cards.tsx";
import { KeysetList } from "../../../components/admin/keyset-list.tsx";
import { DateCell, LinesCell, MoneyCell } from "../../../components/admin/cells.tsx";
import { ErrorState } from "../../../components/admin/empty-state.tsx";
import { FilterForm, FilterSearch, FilterSelect } from "../../../components/admin/filter-form.tsx";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Customers");

/** The search from the address: a link or a reload shows the same list. */
function filtersFrom(url: URL) {
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  const sort = get("sort");
  return { q: get("q")?.slice(0, 100), cursor: get("cursor"), sort: (CUSTOMER_SORTS as readonly string[]).includes(sort ?? "") ? (sort as CustomerSort) : undefined };
}

const SORT_LABELS = CUSTOMER_SORT_LABELS;
const KIND_LABELS = CUSTOMER_KIND_LABELS;
const KIND_LOOK = { guest: "bg-amber-100 text-amber-900", registered: "bg-stone-100 text-stone-800", trade: "bg-sky-100 text-sky-900" } as const;

/** Where a row leads: an account's page, or a guest's by their email. */
const customerHref = (c: { id: number | null; email: string }) => (c.id === null ? `/admin/customers/guest?email=${encodeURIComponent(c.email)}` : `/admin/customers/${c.id}`);

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "customers.view");
  const filters = filtersFrom(new URL(request.url));
  try {
    const list = await app.services.adminCustomers.list(actor, filters);
    return { customers: list.data, nextCursor: list.next_cursor, filters, error: null };
  } catch (error) {
    // An old page link: say so above an empty list, and keep the search to correct.
    return { customers: [], nextCursor: null, filters, error: refusalOr(error).text };
  }
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { customers, filters, nextCursor, error } = loaderData;
  const { search } = useListAddress();
  /** A column the list can be sorted by (most first): its header links to that sort, from the first page. */
  const sortedBy = (sort: CustomerSort, label: string) => ({
    sort: filters.sort === sort ? ("descending" as const) : undefined,
    header: (
      <Link to={withParam(search, { sort, cursor: null }) || "?"} className="link">
        {label}
      </Link>
    ),
  });
  const columns: DataColumn<(typeof customers)[number]>[] = [
    {
      label: "Name",
      head: true,
      cellClassName: "font-semibold",
      cell: (c) => (
        <span className="min-w-0">
          <Link to={customerHref(c)} className="link break-words">
            {c.name || `Customer #${c.id}`}
          </Link>{" "}
          <span className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${KIND_LOOK[c.kind]}`}>{KIND_LABELS[c.kind]}</span>
          {/* Beside the name, so a phone shows it at once. */}
          {c.blocked ? (
            <>
              {" "}
              <BlockedBadge />
            </>
          ) : null}
        </span>
      ),
    },
    { label: "Contact", header: "Email and phone", cell: (c) => <LinesCell first={c.email} rest={[c.phone ? <span className="whitespace-nowrap text-stone-700">{c.phone}</span> : null]} /> },
    { label: "Postcode", cellClassName: "whitespace-nowrap", cell: (c) => c.postcode ?? "—" },
    { label: "Company", cell: (c) => c.company ?? "—" },
    { label: "Orders", numeric: true, cellClassName: "tabular-nums", cell: (c) => c.orders },
    { label: "Spent", numeric: true, ...sortedBy("spent", "Spent"), cell: (c) => (c.total_spent === undefined ? "—" : <MoneyCell pounds={c.total_spent} />) },
    { label: "Last order", ...sortedBy("last_order", "Last order"), cell: (c) => (c.last_order_at ? <DateCell value={c.last_order_at} dateOnly /> : "None yet") },
  ];
  // A refused search says why above, and nothing more.
  const empty = error
    ? null
    : {
        title: filters.q ? `No customers match “${filters.q}”` : "No customers yet",
        action: search.size ? { to: "?", label: "Show every customer" } : undefined,
        children: filters.q ? "Try part of the name or email, a full postcode or its first half (LS1), or the trade company's name." : "Customers appear here when they create an account on the shop.",
      };
  return (
    <>
      <PageHeader title="Customers" intro="Customers' accounts on the shop, and guests who ordered without one (search for them). Open one to see their orders, edit their details, or start an order or quote." />

      <FilterForm label="Search customers" submitLabel="Search" className="mb-4 sm:grid-cols-[minmax(0,1fr)_auto_auto] sm:items-end" buttonsClassName="flex-nowrap">
        <FilterSearch value={filters.q} placeholder="Name, email, phone, postcode or company" />
        <FilterSelect name="sort" label="Sort by" value={filters.sort ?? "newest"} any={null} options={CUSTOMER_SORTS.map((s) => [s, SORT_LABELS[s]] as const)} />
      </FilterForm>

      <ErrorState message={error} />
      <KeysetList
        caption={`Customers, ${SORT_LABELS[filters.sort ?? "newest"].toLowerCase()} first${filters.q ? `, matching “${filters.q}”` : ""}`}
        rows={customers}
        rowKey={(c) => c.id ?? `guest-${c.email}`}
        columns={columns}
        empty={empty}
        cursor={filters.cursor}
        nextCursor={nextCursor}
      />
    </>
  );
}
