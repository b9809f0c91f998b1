import { FilterDisclosure, activeFilters } from "../../../components/admin/filter-disclosure.tsx";
import { Form, Link, data } from "react-router";
import { KeysetPager, useListAddress } from "../../../components/admin/pager.tsx";
import { BranchFilter } from "../../../components/admin/branch-filter.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { StatusTabs, countedTabs } from "../../../components/admin/status-tabs.tsx";
import { EmptyState, ErrorState } from "../../../components/admin/empty-state.tsx";
import { DateCell, MoneyCell } from "../../../components/admin/cells.tsx";
import { FilterDate, FilterForm, FilterSearch, FilterSelect } from "../../../components/admin/filter-form.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { useChooseColumn } from "../../../components/admin/list-columns.tsx";
import { refusalOr, serviceError } from "../../../lib/admin/access.ts";
import { ResultBanner } from "../../../components/admin/result-banner.tsx";
import { withParam } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import { branchLimit } from "../../../../server/modules/staff/actor.ts";
import { ORDER_STATUSES, type OrderStatus, STATUS_LABELS } from "../../../../server/modules/orders/statuses.ts";
import type { Route } from "./+types/index";
import { Options } from "../../../components/admin/options.tsx";
import { staffScreen, staffPost } from "../../../lib/admin/staff-route.ts";

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
    sort: oneOf(get("sort"), ["newest", "oldest"] as const),
    cursor: get("cursor"),
    /** A branch's id, or "all"; none given: the member's own branch first. */
    branch: get("branch"),
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "orders.view");
  const filters = filtersFrom(new URL(request.url));
  const may = {
    prices: can(actor.role, "orders.prices"),
    customers: can(actor.role, "customers.view"),
    export: can(actor.role, "orders.export"),
    fulfil: can(actor.role, "orders.fulfil"),
    markPaid: can(actor.role, "orders.mark_paid"),
    create: can(actor.role, "orders.create"),
  };
  const presets = await app.services.filterPresets.list(actor, "orders");
  // Each branch's queue (issue 30): a member who works at a branch sees its orders first, and may choose all.
  const branchChoices = (await app.services.branches.list()).data.map((b) => ({ id: b.id, name: b.name }));
  const branchId = filters.branch === "all" ? undefined : Number(filters.branch ?? actor.branchIds?.[0] ?? Number.NaN);
  const query = { ...filters, branch_id: Number.isInteger(branchId) ? branchId : undefined };
  const branch = { choices: branchChoices.length > 1 ? branchChoices : [], chosen: query.branch_id ?? null, onlyMine: branchLimit(actor) !== null };
  try {
    const [list, counts] = await Promise.all([app.services.adminOrders.list(actor, query), app.services.adminOrders.statusCounts(actor, { ...query, status: undefined, cursor: undefined })]);
    return { orders: list.data, nextCursor: list.next_cursor, counts, filters, branch, error: null, can: may, presets };
  } catch (error) {
    const refused = refusalOr(error);
    // A bad date or an old page link: say so above an empty list, and keep the filters to correct.
    const none = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
    return { orders: [], nextCursor: null, counts: none, filters, branch, error: refused.text, can: may, presets };
  }
}

type ListResult = { ok: boolean; message: string; details?: string[] };

/** The chosen orders moved together, or saved filters kept or deleted; the services check each permission. */
export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "orders.view");
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "save-preset") {
      const saved = await app.services.filterPresets.save(actor, { screen: "orders", name: String(form.get("name") ?? "").slice(0, 100), query: String(form.get("query") ?? "").slice(0, 1000) });
      return data<ListResult>({ ok: true, message: `Saved these filters as “${saved.name}”.` });
    }
    if (intent === "delete-preset") {
      await app.services.filterPresets.remove(actor, Number(form.get("id")));
      return data<ListResult>({ ok: true, message: "Saved filters deleted." });
    }
    const to = String(form.get("to") ?? "") as OrderStatus;
    if (!BULK_MOVES.some(([move]) => move === to)) return data<ListResult>({ ok: false, message: "Choose what to do with the chosen orders." }, { status: 422 });
    const done = await app.services.adminOrders.bulkTransition(actor, form.getAll("number").map(String).slice(0, 200), to);
    const label = STATUS_LABELS[to].toLowerCase();
    const moved = done.moved.length ? `${done.moved.length} order${done.moved.length === 1 ? " is" : "s are"} now ${label}: ${done.moved.join(", ")}.` : `No order was moved to ${label}.`;
    return data<ListResult>({ ok: done.refused.length === 0, message: moved, details: done.refused.map((r) => `${r.number}: ${r.message}`) });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<ListResult>({ ok: false, message: Object.values(known.errors ?? {}).flat().join(" ") || known.message }, { status: known.status });
  }
}

/** Moves the list offers for several orders at once: those that ask for no carrier, tracking number or reason. */
const BULK_MOVES: [OrderStatus, string][] = [
  ["paid", "Mark as paid"],
  ["processing", "Start picking"],
  ["ready_for_collection", "Ready for collection"],
  ["completed", "Mark as delivered or collected"],
];

export default function AdminOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { orders, counts, filters, nextCursor, error, presets, branch } = loaderData;
  const result = actionData as ListResult | undefined;
  const choose = useChooseColumn<(typeof orders)[number]>({ name: "number", value: (order) => order.number, rowLabel: (order) => `Choose ${order.number}`, everyLabel: "Choose every order on this page" });
  const canBulk = loaderData.can.fulfil || loaderData.can.markPaid;
  const { search, loading } = useListAddress();
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const exportQuery = withParam(search, { cursor: null });
  const filtersQuery = exportQuery.replace(/^\?/, "");
  return (
    <>
      <PageHeader
        title="Orders"
        actions={
          <>
            {loaderData.can.create ? (
              <>
                <Link to="/admin/orders/new" className="btn-primary">
                  New order
                </Link>
                <Link to="/admin/orders/drafts" className="btn-secondary">
                  Drafts
                </Link>
              </>
            ) : null}
            {loaderData.can.fulfil ? (
              <a href="/api/admin/orders/picking-list.pdf" className="btn-secondary">
                Picking list: all awaiting dispatch (PDF)
              </a>
            ) : null}
            {loaderData.can.export ? (
              <a href={`/api/admin/orders/export.csv${exportQuery}`} className="btn-secondary" download>
                Export CSV
              </a>
            ) : null}
          </>
        }
      />
      {result ? (
        <ResultBanner ok={result.ok} result={result}>
          {result.message}
          {result.details?.length ? (
            <ul className="mt-1 list-disc pl-5 font-normal">
              {result.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          ) : null}
        </ResultBanner>
      ) : null}
      <section aria-label="Saved filters" className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold">Saved filters:</span>
        {presets.length === 0 ? <span className="text-stone-600">none yet; filter the list, then save it here.</span> : null}
        {presets.map((p) => (
          <span key={p.id} className="inline-flex items-center rounded-full border border-stone-300 bg-white">
            <Link to={p.query ? `?${p.query}` : "?"} className="rounded-l-full px-3 py-1 font-semibold text-brand-800 hover:bg-brand-50">
              {p.name}
            </Link>
            <Form method="post" className="contents">
              <input type="hidden" name="intent" value="delete-preset" />
              <input type="hidden" name="id" value={p.id} />
              <button type="submit" className="rounded-r-full border-l border-stone-300 px-2 py-1 text-stone-700 hover:bg-red-50 hover:text-red-800" aria-label={`Delete saved filters ${p.name}`}>
                ×
              </button>
            </Form>
          </span>
        ))}
        {filtersQuery ? (
          <Form method="post" className="inline-flex items-center gap-1">
            <input type="hidden" name="intent" value="save-preset" />
            <input type="hidden" name="query" value={filtersQuery} />
            <label htmlFor="preset-name" className="sr-only">
              Name for these filters
            </label>
            <input id="preset-name" name="name" required maxLength={60} placeholder="Name these filters" className="min-h-9 w-44 rounded-md border border-stone-400 px-2" />
            <button type="submit" className="min-h-9 rounded-md border border-stone-300 bg-white px-3 font-semibold hover:bg-stone-100">
              Save
            </button>
          </Form>
        ) : null}
      </section>
      <StatusTabs label="Orders by status" tabs={countedTabs(ORDER_STATUSES, STATUS_LABELS, counts)} current={filters.status ?? ""} search={search} />

      <FilterDisclosure active={activeFilters(search, ["q", "payment_method", "branch_id", "fulfilment", "trade", "from", "to"])}>
        <FilterForm label="Filter orders" keep={{ status: filters.status }} className="sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-7" buttonsClassName="sm:col-span-2 lg:col-span-4 xl:col-span-7">
          <FilterSearch value={filters.q} placeholder="Order number, email, name or postcode" className="sm:col-span-2" />
          {loaderData.can.prices ? <FilterSelect name="payment_method" label="Payment" value={filters.payment_method} options={PAYMENT_OPTIONS} /> : null}
          <BranchFilter branches={branch.choices} chosen={branch.chosen} allLabel={branch.onlyMine ? "All my branches" : "All branches"} />
          <FilterSelect name="fulfilment" label="Delivery or collection" value={filters.fulfilment} any="Either" options={[["delivery", "Delivery"], ["collection", "Collection"]]} />
          <FilterSelect name="trade" label="Trade" value={filters.trade} any="Trade or not" options={[["yes", "Trade accounts"], ["no", "Not trade"]]} />
          <FilterDate name="from" label="From" value={filters.from} />
          <FilterDate name="to" label="To" value={filters.to} />
        </FilterForm>
      </FilterDisclosure>

      <ErrorState message={error} />

      {orders.length === 0 ? (
        <EmptyState title={total === 0 && !filters.q ? "No orders yet" : "No orders match these filters"} action={search.size ? { to: "?", label: "Show every order" } : undefined}>
          {total === 0 && !filters.q ? "Orders placed on the shop appear here, newest first." : "Try another status, a wider date range or a shorter search."}
        </EmptyState>
      ) : (
        // A plain form: the bulk move posts to this screen's action, and "Print picking lists" opens the PDF of the chosen orders.
        <form method="post" aria-label="Choose orders">
          {canBulk ? (
            <div className="mb-2 flex flex-wrap items-end gap-2 rounded-lg border border-stone-200 bg-white p-3 text-sm">
              <input type="hidden" name="intent" value="bulk" />
              <label className="grid gap-1 font-semibold">
                With the chosen orders
                <select name="to" className="min-h-10 rounded-md border border-stone-400 bg-white px-2 font-normal">
                  <Options of={BULK_MOVES.filter(([to]) => (to === "paid" ? loaderData.can.markPaid : loaderData.can.fulfil))} value={([to]) => to} label={([, label]) => label} />
                </select>
              </label>
              <button type="submit" className="btn-primary min-h-10">
                Apply to chosen
              </button>
              {loaderData.can.fulfil ? (
                <button type="submit" formAction="/api/admin/orders/picking-list.pdf" formMethod="get" formNoValidate className="btn-secondary min-h-10">
                  Print picking lists for chosen
                </button>
              ) : null}
            </div>
          ) : null}
          <DataTable
            tableRef={choose.tableRef}
            caption={`Orders, newest first${filters.status ? `: ${STATUS_LABELS[filters.status].toLowerCase()}` : ""}`}
            loading={loading}
            rows={orders}
            rowKey={(order) => order.number}
            columns={[
              canBulk && choose.column,
              {
                label: "Order",
                head: true,
                cellClassName: "font-semibold lg:whitespace-nowrap",
                cell: (order) => (
                  <span>
                    <Link to={`/admin/orders/${order.number}`} className="link">
                      {order.number}
                    </Link>
                    {order.trade ? <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-900">Trade</span> : null}
                  </span>
                ),
              },
              {
                label: "Placed",
                sort: filters.sort === "oldest" ? "ascending" : "descending",
                // The list sorts by when orders were placed; a new sort starts again from the first page.
                header: (
                  <Link to={withParam(search, { sort: filters.sort === "oldest" ? null : "oldest", cursor: null }) || "?"} className="inline-flex items-center gap-1 hover:underline">
                    Placed
                    <span aria-hidden="true">{filters.sort === "oldest" ? "▲" : "▼"}</span>
                    <span className="sr-only">{filters.sort === "oldest" ? ", oldest first: sort newest first" : ", newest first: sort oldest first"}</span>
                  </Link>
                ),
                cell: (order) => <DateCell value={order.created_at} />,
              },
              {
                label: "Customer",
                // A long email is cut with its whole in a tooltip on a desktop, and wraps on a phone's card.
                cell: (order) => (
                  <span className="min-w-0 max-lg:[overflow-wrap:anywhere]">
                    <span className="block lg:max-w-[16rem] lg:truncate">{order.name || "No name given"}</span>
                    {"email" in order && order.email ? (
                      <span className="block text-stone-600 lg:max-w-[16rem] lg:truncate" title={order.email}>
                        {order.email}
                      </span>
                    ) : null}
                  </span>
                ),
              },
              { label: "Postcode", cellClassName: "lg:whitespace-nowrap", cell: (order) => order.postcode ?? "—" },
              { label: "Fulfilment", cell: (order) => (order.fulfilment === "collection" ? "Collection" : "Delivery") },
              { label: "Items", numeric: true, cell: (order) => order.items },
              loaderData.can.prices && { label: "Total", numeric: true, cell: (order) => ("total" in order && order.total !== undefined ? <MoneyCell pounds={order.total} /> : "") },
              { label: "Status", cell: (order) => <StatusBadge status={order.status} label={order.status_label} /> },
            ]}
          />
        </form>
      )}
      <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
