import { FilterDisclosure, activeFilters } from "../../../components/admin/filter-disclosure.tsx";
import { Form, Link, data, useLocation } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { KeysetPager, useListAddress } from "../../../components/admin/pager.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { StatusTabs } from "../../../components/admin/status-tabs.tsx";
import { EmptyState, ErrorState } from "../../../components/admin/empty-state.tsx";
import { MoneyCell } from "../../../components/admin/cells.tsx";
import { FilterCheck, FilterForm, FilterSearch, FilterSelect } from "../../../components/admin/filter-form.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { photoColumn, useChooseColumn } from "../../../components/admin/list-columns.tsx";
import { refusalOr, serviceError } from "../../../lib/admin/access.ts";
import { withParam } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { PRODUCT_STATUS_LABELS, type ProductStatus } from "../../../../server/modules/catalog/products/product-status.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/index";
import { Options } from "../../../components/admin/options.tsx";
import { staffScreen, staffPost } from "../../../lib/admin/staff-route.ts";
import { HeadRow } from "../../../components/head-row.tsx";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Products");

const STOCK_OPTIONS = [
  ["in_stock", "In stock"],
  ["low", "Low (at or below reorder level)"],
  ["out", "Out of stock"],
] as const;
const STATUS_TABS = [
  ["", "Drafts and published"],
  ["published", "Published"],
  ["draft", "Drafts"],
  ["archived", "Archived"],
] as const;
const BULK = [
  ["price_percent", "Change the price by a percentage"],
  ["set_vat", "Set the VAT rate"],
  ["move_category", "Move to one category"],
  ["archive", "Archive"],
] as const;
type BulkAction = (typeof BULK)[number][0];

/** The filters from the address: the list's state lives in the URL, so a link or a reload shows the same list. */
function filtersFrom(url: URL) {
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  const id = (name: string) => (/^\d{1,9}$/.test(get(name) ?? "") ? Number(get(name)) : undefined);
  const oneOf = <T extends string>(value: string | undefined, allowed: readonly T[]) => (allowed.includes(value as T) ? (value as T) : undefined);
  return {
    q: get("q")?.slice(0, 100),
    category: id("category"),
    brand: id("brand"),
    stock: oneOf(get("stock"), ["in_stock", "low", "out"] as const),
    status: oneOf(get("status"), ["draft", "published", "archived"] as const),
    no_photo: get("no_photo") === "1" ? true : undefined,
    cursor: get("cursor"),
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  const filters = filtersFrom(new URL(request.url));
  const may = { manage: can(actor.role, "catalogue.manage") };
  const choices = await app.services.adminProducts.choices(actor);
  try {
    const [list, counts] = await Promise.all([app.services.adminProducts.list(actor, filters), app.services.adminProducts.counts(actor, { ...filters, cursor: undefined })]);
    return { products: list.data, nextCursor: list.next_cursor, counts, filters, choices, error: null, can: may };
  } catch (error) {
    return { products: [], nextCursor: null, counts: { draft: 0, published: 0, archived: 0 }, filters, choices, error: refusalOr(error).text, can: may };
  }
}

type Change = { sku: string; name: string; field: string; from: string; to: string };
type BulkResult = { ok: boolean; message: string; preview?: { action: BulkAction; skus: string[]; category_id?: number; vat_rate?: number; percent?: number; changes: Change[] } };

/** A bulk change: first its preview (nothing written), then, confirmed, applied in one go. */
export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "catalogue.manage");
  const intent = String(form.get("intent") ?? "");
  const chosen = BULK.find(([a]) => a === form.get("bulk_action"))?.[0];
  if (!chosen) return data<BulkResult>({ ok: false, message: "Choose what to do with the chosen products." }, { status: 422 });
  const skus = form.getAll("sku").map(String).slice(0, 500);
  const number = (name: string) => {
    const raw = String(form.get(name) ?? "").trim();
    return raw === "" ? undefined : Number(raw);
  };
  const request_ = { skus, action: chosen, category_id: number("category_id"), vat_rate: number("vat_rate"), percent: number("percent") };
  try {
    const preview = intent !== "apply";
    const done = await app.services.adminProducts.bulk(actor, request_, { preview });
    if (preview) {
      const message = done.changes.length ? `Check the ${done.changes.length} change${done.changes.length === 1 ? "" : "s"} below, then apply them.` : "That would change nothing for the chosen products.";
      return data<BulkResult>({ ok: true, message, preview: { ...request_, changes: done.changes } });
    }
    return data<BulkResult>({ ok: true, message: `Done: ${done.changes.length} product${done.changes.length === 1 ? "" : "s"} changed. The shop shows the change now.` });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<BulkResult>({ ok: false, message: Object.values(known.errors ?? {}).flat().join(" ") || known.message }, { status: known.status });
  }
}

const FIELD_LABELS: Record<string, string> = { price_ex_vat: "Price ex VAT (£)", vat_rate: "VAT rate", status: "Status", categories: "Categories" };

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  const { products, counts, filters, nextCursor, error, choices } = loaderData;
  const result = actionData as BulkResult | undefined;
  const choose = useChooseColumn<(typeof products)[number]>({ name: "sku", value: (p) => p.sku, rowLabel: (p) => `Choose ${p.name}`, everyLabel: "Choose every product on this page" });
  const location = useLocation();
  const { search, loading } = useListAddress();
  // The export holds what the list shows: drafts and published unless a tab says otherwise.
  const exportQuery = withParam(search, { cursor: null, status: filters.status ?? "active" });
  const tabCount = (status: string) => (status === "" ? counts.draft + counts.published : counts[status as ProductStatus]);
  const filtered = !!(filters.q || filters.category || filters.brand || filters.stock || filters.no_photo);
  const manage = loaderData.can.manage;
  const preview = result?.preview;

  return (
    <>
      <PageHeader
        title="Products"
        actions={
          <>
            <a href={`/api/admin/products/export.csv${exportQuery}`} className="btn-secondary" download>
              Export CSV
            </a>
            {manage ? (
              <>
                <Link to="/admin/products/import" className="btn-secondary">
                  Import CSV
                </Link>
                <Link to="/admin/products/new" className="btn-primary">
                  Add a product
                </Link>
              </>
            ) : null}
          </>
        }
      />
      <ActionResultBanner result={result} />

      {preview && preview.changes.length ? (
        <section aria-labelledby="bulk-preview" className="mb-4 rounded-lg border-2 border-brand-700 bg-white p-4">
          <h2 id="bulk-preview" className="mb-2 text-lg font-bold">
            What would change
          </h2>
          <div className="max-h-80 overflow-auto">
            <table className="w-full min-w-[32rem] text-left text-sm">
              <caption className="sr-only">Each chosen product's value before and after</caption>
              <thead className="bg-stone-50">
                <HeadRow
                  cells={[
                    ["Product", "px-2 py-1"],
                    [`${FIELD_LABELS[preview.changes[0]!.field] ?? preview.changes[0]!.field}: now`, "px-2 py-1"],
                    ["After", "px-2 py-1"],
                  ]}
                />
              </thead>
              <tbody className="divide-y divide-stone-100">
                {preview.changes.map((c) => (
                  <tr key={c.sku}>
                    <th scope="row" className="px-2 py-1 font-normal">
                      <span className="font-mono">{c.sku}</span> {c.name}
                    </th>
                    <td className="px-2 py-1">{c.from}</td>
                    <td className="px-2 py-1 font-semibold">{c.to}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Form method="post" className="mt-3 flex flex-wrap gap-2">
            <input type="hidden" name="intent" value="apply" />
            <input type="hidden" name="bulk_action" value={preview.action} />
            {preview.skus.map((s) => (
              <input key={s} type="hidden" name="sku" value={s} />
            ))}
            {preview.category_id !== undefined ? <input type="hidden" name="category_id" value={preview.category_id} /> : null}
            {preview.vat_rate !== undefined ? <input type="hidden" name="vat_rate" value={preview.vat_rate} /> : null}
            {preview.percent !== undefined ? <input type="hidden" name="percent" value={preview.percent} /> : null}
            <button type="submit" className="btn-primary min-h-10">
              Apply to {preview.changes.length} product{preview.changes.length === 1 ? "" : "s"}
            </button>
            <Link to={location.pathname + location.search} className="btn-secondary min-h-10">
              Cancel
            </Link>
          </Form>
        </section>
      ) : null}

      <StatusTabs label="Products by status" tabs={STATUS_TABS.map(([status, label]) => [status, label, tabCount(status)] as const)} current={filters.status ?? ""} search={search} />

      <FilterDisclosure active={activeFilters(search, ["q", "category", "brand", "stock", "no_photo"])}>
        <FilterForm label="Filter products" keep={{ status: filters.status }} className="sm:grid-cols-2 lg:grid-cols-5" buttonsClassName="sm:col-span-2 lg:col-span-5" extra={<FilterCheck name="no_photo" label="Without a photo" checked={!!filters.no_photo} />}>
          <FilterSearch value={filters.q} placeholder="Name or SKU" className="sm:col-span-2" />
          <FilterSelect name="category" label="Category" value={filters.category} options={choices.categories.map((c) => [c.id, `${"\u00a0\u00a0".repeat(c.path.split("/").length - 1)}${c.name}`] as const)} />
          <FilterSelect name="brand" label="Brand" value={filters.brand} options={choices.brands.map((b) => [b.id, b.name] as const)} />
          <FilterSelect name="stock" label="Stock" value={filters.stock} options={STOCK_OPTIONS} />
        </FilterForm>
      </FilterDisclosure>

      <ErrorState message={error} />

      {products.length === 0 ? (
        <EmptyState title={filtered ? "No products match these filters" : "No products here yet"} action={search.size ? { to: "?", label: "Show every product" } : manage ? { to: "/admin/products/new", label: "Add a product" } : undefined}>
          {filtered ? "Try another category or brand, or a shorter search." : "Add products one by one, or import a spreadsheet (CSV)."}
        </EmptyState>
      ) : (
        <Form method="post" aria-label="Choose products">
          {manage ? (
            <fieldset className="mb-2 flex flex-wrap items-end gap-2 rounded-lg border border-stone-200 bg-white p-3 text-sm">
              <legend className="sr-only">Change the chosen products</legend>
              <input type="hidden" name="intent" value="preview" />
              <label className="grid gap-1 font-semibold">
                With the chosen products
                <select name="bulk_action" className="min-h-10 w-full min-w-0 rounded-md border border-stone-400 bg-white px-2 font-normal">
                  <Options of={BULK} value={([value]) => value} label={([, label]) => label} />
                </select>
              </label>
              <label className="grid gap-1 font-semibold">
                Percentage (for a price change)
                <input name="percent" inputMode="decimal" placeholder="e.g. 5 or -10" className="min-h-10 w-36 rounded-md border border-stone-400 px-2 font-normal" />
              </label>
              <label className="grid gap-1 font-semibold">
                VAT rate
                <select name="vat_rate" defaultValue="" className="min-h-10 w-full min-w-0 rounded-md border border-stone-400 bg-white px-2 font-normal">
                  <option value="">—</option>
                  <option value="20">20%</option>
                  <option value="5">5%</option>
                  <option value="0">0%</option>
                </select>
              </label>
              <label className="grid gap-1 font-semibold">
                Category
                <select name="category_id" defaultValue="" className="min-h-10 max-w-56 rounded-md border border-stone-400 bg-white px-2 font-normal">
                  <option value="">—</option>
                  <Options of={choices.categories} value={(c) => c.id} label={(c) => c.path} />
                </select>
              </label>
              <button type="submit" className="btn-primary min-h-10">
                Preview the change
              </button>
            </fieldset>
          ) : null}
          <DataTable
            tableRef={choose.tableRef}
            caption="Products by name"
            loading={loading}
            rows={products}
            rowKey={(p) => p.sku}
            columns={[
              manage && choose.column,
              photoColumn<(typeof products)[number]>((p) => p.photo, { noPhotoTitle: "No photo" }),
              {
                label: "Product",
                head: true,
                sort: "ascending",
                cellClassName: "font-normal",
                cell: (p) => (
                  <span>
                    <Link to={`/admin/products/${encodeURIComponent(p.sku)}`} className="link font-semibold">
                      {p.name}
                    </Link>
                    <span className="block font-mono text-xs text-stone-600">{p.sku}</span>
                  </span>
                ),
              },
              { label: "Brand", cell: (p) => p.brand?.name ?? "—" },
              {
                label: "Price inc VAT",
                numeric: true,
                cell: (p) => (
                  <span>
                    <MoneyCell pounds={p.price_inc_vat} />
                    <span className="block text-xs text-stone-600">
                      {formatPounds(p.price_ex_vat)} ex · {p.vat_rate}%
                    </span>
                  </span>
                ),
              },
              {
                label: "Stock",
                numeric: true,
                cell: (p) => (
                  <span>
                    <span className={`tabular-nums ${p.stock === 0 ? "font-semibold text-red-800" : p.low_stock ? "font-semibold text-amber-800" : ""}`}>{p.stock}</span>
                    {p.low_stock ? <span className="block text-xs text-stone-600">{p.stock === 0 ? "out" : `low (≤ ${p.reorder_level})`}</span> : null}
                  </span>
                ),
              },
              {
                label: "Status",
                cell: (p) => <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${p.status === "published" ? "bg-green-100 text-green-900" : "bg-stone-200 text-stone-800"}`}>{PRODUCT_STATUS_LABELS[p.status]}</span>,
              },
            ]}
          />
        </Form>
      )}
      <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
