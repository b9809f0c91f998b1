import { Form, Link } from "react-router";
import { appContext } from "#app-context";
import { BlockedBadge } from "../../../components/admin/blocked-badge.tsx";
import { KeysetPager, useListAddress } from "../../../components/admin/pager.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { FormAlert } from "../../../components/form.tsx";
import { EmptyState } from "../../../components/page.tsx";
import { STACKED } from "../../../components/admin/stacked-table.ts";
import { requirePermission, serviceError } from "../../../lib/admin/access.ts";
import { formatDate, withParam } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { CUSTOMER_KIND_LABELS, CUSTOMER_SORTS, CUSTOMER_SORT_LABELS, type CustomerSort } from "../../../../server/modules/account/customer-kinds.ts";
import type { Route } from "./+types/index";

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
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "customers.view");
  const filters = filtersFrom(new URL(request.url));
  try {
    const list = await app.services.adminCustomers.list(actor, filters);
    return { customers: list.data, nextCursor: list.next_cursor, filters, error: null };
  } catch (error) {
    const known = serviceError(error);
    if (!known || known.status !== 422) throw error;
    // An old page link: say so above an empty list, and keep the search to correct.
    return { customers: [], nextCursor: null, filters, error: Object.values(known.errors ?? {}).flat().join(" ") || known.message };
  }
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { customers, filters, nextCursor, error } = loaderData;
  const { search, loading } = useListAddress();
  return (
    <>
      <PageHeader title="Customers" intro="Customers' accounts on the shop, and guests who ordered without one (search for them). Open one to see their orders, edit their details, or start an order or quote." />

      <Form method="get" role="search" aria-label="Search customers" className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4">
        <label className="grid min-w-0 flex-1 basis-72 gap-1 text-sm font-semibold">
          Search
          <input
            name="q"
            type="search"
            defaultValue={filters.q ?? ""}
            maxLength={100}
            placeholder="Name, email, phone, postcode or company"
            className="min-h-10 rounded-md border border-stone-400 px-3 font-normal"
          />
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          Sort by
          <select name="sort" defaultValue={filters.sort ?? "newest"} className="min-h-10 rounded-md border border-stone-400 bg-white px-2 font-normal">
            {CUSTOMER_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <div className="flex gap-2">
          <button type="submit" className="btn-primary min-h-10">
            Search
          </button>
          {filters.q ? (
            <Link to="?" className="btn-secondary min-h-10">
              Clear
            </Link>
          ) : null}
        </div>
      </Form>

      <FormAlert message={error ?? undefined} className="mb-4" />

      {error ? null : customers.length === 0 ? (
        <EmptyState title={filters.q ? `No customers match “${filters.q}”` : "No customers yet"} action={search.size ? { to: "?", label: "Show every customer" } : undefined}>
          {filters.q ? "Try part of the name or email, a full postcode or its first half (LS1), or the trade company's name." : "Customers appear here when they create an account on the shop."}
        </EmptyState>
      ) : (
        <div className={`${STACKED.frame} ${loading ? "opacity-75" : ""}`} aria-busy={loading || undefined}>
          <table className={STACKED.table}>
            <caption className="sr-only">
              Customers, {SORT_LABELS[filters.sort ?? "newest"].toLowerCase()} first{filters.q ? `, matching “${filters.q}”` : ""}
            </caption>
            <thead className={STACKED.head}>
              <tr>
                <th scope="col" className="px-3 py-2">Name</th>
                <th scope="col" className="px-3 py-2">Email and phone</th>
                <th scope="col" className="px-3 py-2">Postcode</th>
                <th scope="col" className="px-3 py-2">Company</th>
                <th scope="col" className="px-3 py-2 text-right">Orders</th>
                <th scope="col" className="px-3 py-2 text-right" aria-sort={filters.sort === "spent" ? "descending" : undefined}>
                  <Link to={withParam(search, { sort: "spent", cursor: null }) || "?"} className="link">Spent</Link>
                </th>
                <th scope="col" className="px-3 py-2" aria-sort={filters.sort === "last_order" ? "descending" : undefined}>
                  <Link to={withParam(search, { sort: "last_order", cursor: null }) || "?"} className="link">Last order</Link>
                </th>
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {customers.map((c) => (
                <tr key={c.id ?? `guest-${c.email}`} className={`${STACKED.row} max-lg:bg-white lg:hover:bg-stone-50`}>
                  <th scope="row" className={`${STACKED.cell} font-semibold`} data-label="Name">
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
                  </th>
                  <td className={STACKED.cell} data-label="Contact">
                    <span className="min-w-0">
                      <span className="block [overflow-wrap:anywhere]">{c.email}</span>
                      {c.phone ? <span className="block whitespace-nowrap text-stone-700">{c.phone}</span> : null}
                    </span>
                  </td>
                  <td className={`${STACKED.cell} whitespace-nowrap`} data-label="Postcode">{c.postcode ?? "—"}</td>
                  <td className={STACKED.cell} data-label="Company">{c.company ?? "—"}</td>
                  <td className={`${STACKED.cell} lg:text-right tabular-nums`} data-label="Orders">{c.orders}</td>
                  <td className={`${STACKED.cell} lg:text-right tabular-nums whitespace-nowrap`} data-label="Spent">{c.total_spent === undefined ? "—" : formatPounds(c.total_spent)}</td>
                  <td className={`${STACKED.cell} whitespace-nowrap`} data-label="Last order">{c.last_order_at ? formatDate(c.last_order_at) : "None yet"}</td>
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
