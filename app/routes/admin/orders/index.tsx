import { Form, Link, useLocation, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { AdminHeading } from "../../../components/admin/frame.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { EmptyState } from "../../../components/page.tsx";
import { requirePermission, serviceError } from "../../../lib/admin/access.ts";
import { formatDateTime, withParam } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import { ORDER_STATUSES, type OrderStatus, STATUS_LABELS } from "../../../../server/modules/orders/statuses.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Orders");

const PAYMENT_OPTIONS = [
  ["bank_transfer", "Bank transfer"],
  ["pay_on_collection", "Pay on collection"],
  ["pay_on_account", "Pay on account"],
] as const;

/** The filters from the address: the table's state lives in the URL, so a link or a reload shows the same list. */
function filtersFrom(url: URL) {
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  const oneOf = <T extends string>(value: string | undefined, allowed: readonly T[]) => (allowed.includes(value as T) ? (value as T) : undefined);
  return {
    status: oneOf(get("status"), ORDER_STATUSES),
    payment_method: oneOf(get("payment_method"), PAYMENT_OPTIONS.map(([v]) => v)),
    fulfilment: oneOf(get("fulfilment"), ["delivery", "collection"] as const),
    trade: oneOf(get("trade"), ["yes", "no"] as const),
    from: get("from"),
    to: get("to"),
    q: get("q")?.slice(0, 100),
    cursor: get("cursor"),
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "orders.view");
  const filters = filtersFrom(new URL(request.url));
  try {
    const [list, counts] = await Promise.all([app.services.adminOrders.list(actor, filters), app.services.adminOrders.statusCounts(actor, { ...filters, status: undefined, cursor: undefined })]);
    return {
      orders: list.data,
      nextCursor: list.next_cursor,
      counts,
      filters,
      error: null,
      can: { prices: can(actor.role, "orders.prices"), customers: can(actor.role, "customers.view"), export: can(actor.role, "orders.export"), fulfil: can(actor.role, "orders.fulfil") },
    };
  } catch (error) {
    const known = serviceError(error);
    if (!known || known.status !== 422) throw error;
    // A bad date or an old page link: say so above an empty list, and keep the filters to correct.
    return {
      orders: [],
      nextCursor: null,
      counts: Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>,
      filters,
      error: Object.values(known.errors ?? {}).flat().join(" ") || known.message,
      can: { prices: can(actor.role, "orders.prices"), customers: can(actor.role, "customers.view"), export: can(actor.role, "orders.export"), fulfil: can(actor.role, "orders.fulfil") },
    };
  }
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { orders, counts, filters, nextCursor, error } = loaderData;
  const location = useLocation();
  const navigation = useNavigation();
  const search = new URLSearchParams(location.search);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const exportQuery = withParam(search, { cursor: null });
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const tabs: [OrderStatus | "", string, number][] = [["", "All", total], ...ORDER_STATUSES.map((s): [OrderStatus, string, number] => [s, STATUS_LABELS[s], counts[s] ?? 0])];
  return (
    <>
      <AdminHeading
        title="Orders"
        actions={
          loaderData.can.export ? (
            <a href={`/api/admin/orders/export.csv${exportQuery}`} className="btn-secondary" download>
              Export CSV
            </a>
          ) : null
        }
      />
      <nav aria-label="Orders by status" className="mb-4 overflow-x-auto">
        <ul className="flex min-w-max gap-1 border-b border-stone-300">
          {tabs.map(([status, label, count]) => {
            const current = (filters.status ?? "") === status;
            return (
              <li key={status || "all"}>
                <Link
                  to={withParam(search, { status, cursor: null }) || "?"}
                  aria-current={current ? "page" : undefined}
                  className={`-mb-px block border-b-2 px-3 py-2 text-sm font-semibold ${current ? "border-brand-700 text-brand-900" : "border-transparent text-stone-700 hover:border-stone-400"}`}
                >
                  {label} <span className="ml-1 rounded-full bg-stone-200 px-2 py-0.5 text-xs text-stone-800">{count}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <Form method="get" className="mb-4 grid gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-7" role="search" aria-label="Filter orders">
        {filters.status ? <input type="hidden" name="status" value={filters.status} /> : null}
        <label className="grid gap-1 text-sm font-semibold sm:col-span-2 lg:col-span-2 xl:col-span-2">
          Search
          <input name="q" type="search" defaultValue={filters.q ?? ""} placeholder="Order number, email, name or postcode" className="min-h-10 rounded-md border border-stone-400 px-3 font-normal" />
        </label>
        {loaderData.can.prices ? (
          <label className="grid gap-1 text-sm font-semibold">
            Payment
            <select name="payment_method" defaultValue={filters.payment_method ?? ""} className="min-h-10 rounded-md border border-stone-400 bg-white px-2 font-normal">
              <option value="">Any</option>
              {PAYMENT_OPTIONS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="grid gap-1 text-sm font-semibold">
          Delivery or collection
          <select name="fulfilment" defaultValue={filters.fulfilment ?? ""} className="min-h-10 rounded-md border border-stone-400 bg-white px-2 font-normal">
            <option value="">Either</option>
            <option value="delivery">Delivery</option>
            <option value="collection">Collection</option>
          </select>
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          Trade
          <select name="trade" defaultValue={filters.trade ?? ""} className="min-h-10 rounded-md border border-stone-400 bg-white px-2 font-normal">
            <option value="">Trade or not</option>
            <option value="yes">Trade accounts</option>
            <option value="no">Not trade</option>
          </select>
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          From
          <input name="from" type="date" defaultValue={filters.from ?? ""} className="min-h-10 rounded-md border border-stone-400 px-2 font-normal" />
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          To
          <input name="to" type="date" defaultValue={filters.to ?? ""} className="min-h-10 rounded-md border border-stone-400 px-2 font-normal" />
        </label>
        <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4 xl:col-span-7">
          <button type="submit" className="btn-primary min-h-10">
            Apply filters
          </button>
          <Link to={filters.status ? `?status=${filters.status}` : "?"} className="btn-secondary min-h-10">
            Clear
          </Link>
        </div>
      </Form>

      {error ? (
        <div role="alert" className="mb-4 rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-800">
          {error}
        </div>
      ) : null}

      {orders.length === 0 ? (
        <EmptyState title={total === 0 && !filters.q ? "No orders yet" : "No orders match these filters"} action={search.size ? { to: "?", label: "Show every order" } : undefined}>
          {total === 0 && !filters.q ? "Orders placed on the shop appear here, newest first." : "Try another status, a wider date range or a shorter search."}
        </EmptyState>
      ) : (
        <div className={`overflow-x-auto rounded-lg border border-stone-200 bg-white ${loading ? "opacity-75" : ""}`} aria-busy={loading || undefined}>
          <table className="w-full min-w-[48rem] text-left text-sm">
            <caption className="sr-only">Orders, newest first{filters.status ? `: ${STATUS_LABELS[filters.status].toLowerCase()}` : ""}</caption>
            <thead className="border-b border-stone-200 bg-stone-50 text-stone-700">
              <tr>
                <th scope="col" className="px-3 py-2">Order</th>
                <th scope="col" className="px-3 py-2">Placed</th>
                <th scope="col" className="px-3 py-2">Customer</th>
                <th scope="col" className="px-3 py-2">Postcode</th>
                <th scope="col" className="px-3 py-2">Fulfilment</th>
                <th scope="col" className="px-3 py-2 text-right">Items</th>
                {loaderData.can.prices ? (
                  <th scope="col" className="px-3 py-2 text-right">Total</th>
                ) : null}
                <th scope="col" className="px-3 py-2">Status</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {orders.map((order) => (
                <tr key={order.number} className="hover:bg-stone-50">
                  <th scope="row" className="px-3 py-2 font-semibold">
                    <Link to={`/admin/orders/${order.number}`} className="link">
                      {order.number}
                    </Link>
                    {order.trade ? <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-900">Trade</span> : null}
                  </th>
                  <td className="whitespace-nowrap px-3 py-2">{formatDateTime(order.created_at)}</td>
                  <td className="px-3 py-2">
                    <span className="block">{order.name || "—"}</span>
                    {"email" in order && order.email ? <span className="block text-stone-600">{order.email}</span> : null}
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">{order.postcode ?? "—"}</td>
                  <td className="px-3 py-2">{order.fulfilment === "collection" ? "Collection" : "Delivery"}</td>
                  <td className="px-3 py-2 text-right">{order.items}</td>
                  {loaderData.can.prices ? <td className="px-3 py-2 text-right">{"total" in order && order.total !== undefined ? formatPounds(order.total) : ""}</td> : null}
                  <td className="px-3 py-2">
                    <StatusBadge status={order.status} label={order.status_label} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {filters.cursor || nextCursor ? (
        <nav aria-label="Pages" className="mt-4 flex gap-2">
          {filters.cursor ? (
            <Link to={withParam(search, { cursor: null }) || "?"} className="btn-secondary">
              First page
            </Link>
          ) : null}
          {nextCursor ? (
            <Link to={withParam(search, { cursor: nextCursor })} className="btn-secondary">
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
