import { Link, data, useLocation, useNavigation } from "react-router";
import { onFormRows, rowsOf, whole } from "../../components/admin/stock-lines.tsx";
import { StockDesk } from "../../components/admin/stock-desk.tsx";
import { BranchFilter } from "../../components/admin/branch-filter.tsx";
import { FilterForm, FilterSelect, FilterText } from "../../components/admin/filter-form.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { KeysetPager } from "../../components/admin/pager.tsx";
import { ResultBanner } from "../../components/admin/result-banner.tsx";
import { serviceError } from "../../lib/admin/access.ts";
import { pageMeta } from "../../lib/meta.ts";
import { can } from "../../../server/modules/staff/permissions.ts";
import { KIND_LABELS, MANUAL_KINDS, MOVEMENT_KINDS, type MovementKind } from "../../../server/modules/stock/kinds.ts";
import type { Route } from "./+types/stock";
import { DataTable } from "../../components/admin/table-or-cards.tsx";
import { DateCell, LinesCell } from "../../components/admin/cells.tsx";
import { EmptyState, ErrorState } from "../../components/admin/empty-state.tsx";
import { staffScreen, staffPost } from "../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Stock");


export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "stock.count");
  const url = new URL(request.url);
  const sku = url.searchParams.get("sku")?.trim().slice(0, 64) || undefined;
  // Every variant of a product (its page's "Every movement" link), by any of their SKUs.
  const product = sku ? undefined : url.searchParams.get("product")?.trim().slice(0, 64) || undefined;
  const kindParam = url.searchParams.get("kind") ?? "";
  const kind = (MOVEMENT_KINDS as readonly string[]).includes(kindParam) ? (kindParam as MovementKind) : undefined;
  const cursor = url.searchParams.get("cursor") || undefined;
  const may = { catalogue: can(actor.role, "catalogue.view") };
  // Where the desk works: the branch chosen in the filter (or the default one) is each form's first choice.
  const branches = await app.services.stock.branches(actor);
  const branchParam = Number(url.searchParams.get("branch") ?? "");
  const branch = branches.find((b) => b.id === branchParam);
  const filters = { sku, product, kind, cursor, branch: branch?.id };
  try {
    const [history, levels] = await Promise.all([
      app.services.stock.history(actor, { sku, product, kind, cursor, branchId: branch?.id }),
      sku && branches.length > 1 ? app.services.stock.levels(actor, sku) : null,
    ]);
    return { movements: history.data, nextCursor: history.next_cursor, levels, branches, filters, error: null, can: may };
  } catch (error) {
    const known = serviceError(error);
    if (!known || (known.status !== 404 && known.status !== 422)) throw error;
    return { movements: [], nextCursor: null, levels: null, branches, filters, error: known.status === 404 ? `No product has the SKU ${sku ?? product}.` : known.message, can: may };
  }
}

type Result = { ok: boolean; form: string; message: string; errors?: Record<string, string[]>; rows?: { sku: string; quantity: string }[]; lines?: { sku: string; name: string; branch: { id: number; name: string }; before: number; after: number }[] };


export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "stock.count");
  const intent = String(form.get("intent") ?? "");
  // One column, `quantity`, on the desk's form; a post in the older shape names it by what it is.
  const number = form.has("quantity") ? "quantity" : intent === "count" ? "counted" : "change";
  const rows = rowsOf(form, ["sku", number]);
  // The rows as sent, blank ones too, so a refusal shows them where they were.
  const skus = form.getAll("sku").map(String);
  const figures = form.getAll(number).map(String);
  const sent = skus.map((sku, i) => ({ sku, quantity: figures[i] ?? "" }));
  // Left out on a shop with one branch: the default branch.
  const branchId = form.get("branch_id") ? Number(form.get("branch_id")) : undefined;
  try {
    if (intent === "receive") {
      const lines = rows.values.map(([sku, quantity]) => ({ sku: sku!, quantity: whole(quantity!) }));
      const done = await app.services.stock.receive(actor, { reference: String(form.get("reference") ?? ""), branch_id: branchId, lines });
      return data<Result>({ ok: true, form: intent, message: `Delivery received: ${done.products.length} product${done.products.length === 1 ? "" : "s"} booked in.`, lines: done.products });
    }
    if (intent === "count") {
      const counts = rows.values.map(([sku, counted]) => ({ sku: sku!, counted: whole(counted!) }));
      const done = await app.services.stock.count(actor, counts, String(form.get("note") ?? ""), branchId);
      const differ = done.products.filter((p) => p.difference !== 0).length;
      return data<Result>({ ok: true, form: intent, message: `Count recorded: ${differ} of ${done.products.length} product${done.products.length === 1 ? "" : "s"} differed from the books, and now match the shelf.`, lines: done.products });
    }
    if (intent === "adjust") {
      const kind = MANUAL_KINDS.find((k) => k === form.get("kind")) ?? "adjusted";
      const movements = rows.values.map(([sku, change]) => ({ sku: sku!, change: whole(change!), kind, reason: String(form.get("reason") ?? ""), branch_id: branchId }));
      const done = await app.services.stock.move(actor, movements);
      return data<Result>({ ok: true, form: intent, message: `${KIND_LABELS[kind]}: ${done.products.length} product${done.products.length === 1 ? "" : "s"} changed.`, lines: done.products });
    }
    return data<Result>({ ok: false, form: intent, message: "Choose what to record.", rows: sent }, { status: 422 });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, form: intent, message: known.errors ? "Nothing was recorded. Correct the rows marked below and send again." : known.message, errors: onFormRows(known.errors, rows.at), rows: sent }, { status: known.status });
  }
}


export default function AdminStock({ loaderData, actionData }: Route.ComponentProps) {
  const { movements, nextCursor, filters, error, branches, levels } = loaderData;
  const manyBranches = branches.length > 1;
  const result = actionData as Result | undefined;
  const location = useLocation();
  const navigation = useNavigation();
  const search = new URLSearchParams(location.search);
  const busy = navigation.state === "submitting";
  return (
    <>
      <PageHeader
        title="Stock"
        actions={
          manyBranches ? (
            <Link to="/admin/stock/transfers" className="btn-secondary min-h-10">
              Transfers between branches
            </Link>
          ) : undefined
        }
        intro={`Every change of stock is recorded with who and when${manyBranches ? ", at its branch" : ""}: deliveries in, counts, adjustments and returns here; sales and cancelled orders from the orders. Each form is all or nothing.`} />
      {result ? (
        <ResultBanner ok={result.ok} result={result}>
          {result.message}
          {result.ok && result.lines?.length ? (
            <ul className="mt-1 list-disc pl-5 font-normal">
              {result.lines.map((l) => (
                <li key={`${l.sku}:${l.branch.id}`}>
                  <span className="font-mono">{l.sku}</span> {l.name}
                  {manyBranches ? ` at ${l.branch.name}` : ""}: {l.before} → {l.after}
                </li>
              ))}
            </ul>
          ) : null}
        </ResultBanner>
      ) : null}

      <div className="mb-8">
        {/* A new desk after each booking: its rows start empty again. */}
        <StockDesk key={result?.ok ? `done-${JSON.stringify(result.lines)}` : "desk"} branches={branches} chosenBranch={filters.branch} result={result} busy={busy} />
      </div>

      <section aria-labelledby="history-title">
        <h2 id="history-title" className="mb-3 text-xl font-bold">
          Movements{filters.sku ? ` of ${filters.sku}` : filters.product ? ` of every variant of ${filters.product}'s product` : ""}
        </h2>
        <FilterForm label="Filter movements" submitLabel="Show" className="mb-3 sm:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,12rem))_auto]" buttonsClassName="sm:col-span-2 lg:col-span-1">
          <FilterText name="sku" label="SKU" value={filters.sku} />
          <FilterSelect name="kind" label="Kind" value={filters.kind} options={MOVEMENT_KINDS.map((k) => [k, KIND_LABELS[k]] as const)} />
          <BranchFilter branches={branches} chosen={filters.branch} all="" />
        </FilterForm>
        <ErrorState message={error} />
        {levels ? (
          <div className="mb-3 max-w-xl">
            <DataTable
              caption={
                <>
                  Stock of <span className="font-mono">{levels.sku}</span> by branch: {levels.total} in all
                </>
              }
              captionClassName="px-3 py-2 text-left font-semibold"
              testId="stock-levels"
              rows={levels.data}
              rowKey={(l) => l.branch.id}
              columns={[
                { label: "Branch", head: true, cellClassName: "font-normal", cell: (l) => l.branch.name },
                { label: "In stock", numeric: true, cell: (l) => l.stock },
                { label: "In transit", cell: (l) => [l.in_transit.incoming ? `${l.in_transit.incoming} coming` : "", l.in_transit.outgoing ? `${l.in_transit.outgoing} on the way out` : ""].filter(Boolean).join(", ") || "—" },
              ]}
            />
          </div>
        ) : null}
        <DataTable
          empty={<EmptyState title="No movements to show">{filters.sku || filters.kind || filters.branch ? "Nothing matches: try another SKU, kind or branch." : "Deliveries, counts, sales and returns appear here, newest first."}</EmptyState>}
          caption="Stock movements, newest first"
          rows={movements}
          rowKey={(m) => m.id}
          columns={[
            { label: "When", cell: (m) => <DateCell value={m.at} /> },
            {
              label: "Product",
              head: true,
              cellClassName: "font-normal",
              cell: (m) => (
                <LinesCell
                  first={
                    loaderData.can.catalogue ? (
                      <Link to={`/admin/products/${encodeURIComponent(m.sku)}`} className="link">
                        {m.name}
                      </Link>
                    ) : (
                      m.name
                    )
                  }
                  rest={[<span className="font-mono text-xs">{m.sku}</span>]}
                />
              ),
            },
            {
              label: "What",
              cell: (m) => (
                <span>
                  <span className="font-semibold">{m.kind_label}</span>
                  {m.reason ? <span className="block text-stone-700">{m.reason}</span> : null}
                  {m.order_number ? (
                    <Link to={`/admin/orders/${m.order_number}`} className="link block">
                      {m.order_number}
                    </Link>
                  ) : null}
                </span>
              ),
            },
            { label: "Change", numeric: true, cell: (m) => <span className={`font-semibold tabular-nums ${m.change < 0 ? "text-red-800" : "text-green-800"}`}>{m.change > 0 ? `+${m.change}` : m.change}</span> },
            manyBranches && { label: "Branch", cell: (m) => m.branch.name },
            { label: "Stock after", numeric: true, cell: (m) => m.stock_after },
            { label: "By", cell: (m) => m.staff ?? (m.order_number ? "Checkout" : "—") },
          ]}
        />
        <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} />
      </section>
    </>
  );
}
