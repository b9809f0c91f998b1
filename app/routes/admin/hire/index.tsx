import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { KeysetPager, useListAddress } from "../../../components/admin/pager.tsx";
import { SearchFilter } from "../../../components/admin/search-filter.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { requireHireCatalogueReader } from "../../../lib/admin/hire-access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/index";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { MoneyCell } from "../../../components/admin/cells.tsx";
import { EmptyState, ErrorState } from "../../../components/admin/empty-state.tsx";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Hire catalogue");

/** The filters from the address, so a link or a reload shows the same list. */
function filtersFrom(url: URL) {
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  return {
    q: get("q")?.slice(0, 100),
    category: /^\d{1,9}$/.test(get("category") ?? "") ? Number(get("category")) : undefined,
    cursor: get("cursor"),
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requireHireCatalogueReader(app.staff, request);
  const filters = filtersFrom(new URL(request.url));
  const categories = await app.services.adminHire.categories(actor);
  const manage = can(actor.role, "catalogue.manage");
  try {
    const list = await app.services.adminHire.list(actor, filters);
    return { items: list.data, nextCursor: list.next_cursor, filters, categories, manage, error: null };
  } catch (error) {
    const known = serviceError(error);
    if (!known || known.status !== 422) throw error;
    return { items: [], nextCursor: null, filters, categories, manage, error: Object.values(known.errors ?? {}).flat().join(" ") || known.message };
  }
}

export default function AdminHireItems({ loaderData }: Route.ComponentProps) {
  const { items, nextCursor, filters, categories, manage, error } = loaderData;
  const { search, loading } = useListAddress();
  const filtered = !!(filters.q || filters.category);

  return (
    <>
      <PageHeader
        title="Hire catalogue"
        intro="Hire items with their rate cards and units. Every change shows on the shop's hire pages at once."
        actions={
          manage ? (
            <Link to="/admin/hire/items/new" className="btn-primary">
              Add a hire item
            </Link>
          ) : null
        }
      />
      <SearchFilter
        label="Filter hire items"
        query={filters.q}
        placeholder="Any words of the name"
        choice={{ name: "category", label: "Hire category", value: filters.category, options: categories.map((c) => ({ value: c.id, label: c.name })) }}
      />

      <ErrorState message={error} />

      {items.length === 0 ? (
        <EmptyState title={filtered ? "No hire items match these filters" : "No hire items yet"} action={search.size ? { to: "?", label: "Show every hire item" } : manage ? { to: "/admin/hire/items/new", label: "Add a hire item" } : undefined}>
          {filtered ? "Try another hire category, or a shorter search." : "Add the machines you hire out, their rates and their units."}
        </EmptyState>
      ) : (
        <DataTable
          caption="Hire items by name"
          loading={loading}
          rows={items}
          rowKey={(item) => item.slug}
          columns={[
            {
              label: "Photo",
              className: "w-14",
              header: <span className="sr-only">Photo</span>,
              cellClassName: "max-lg:hidden",
              cell: (item) => (item.photo ? <img src={item.photo} alt="" width={40} height={40} loading="lazy" className="size-10 rounded border border-stone-200 object-cover" /> : <span className="block size-10 rounded border border-dashed border-stone-300" />),
            },
            {
              label: "Hire item",
              head: true,
              sort: "ascending",
              cellClassName: "font-normal",
              cell: (item) => (
                <span>
                  <Link to={`/admin/hire/items/${item.slug}`} className="link font-semibold">
                    {item.name}
                  </Link>
                  <span className="block font-mono text-xs text-stone-600">/hire/{item.slug}</span>
                </span>
              ),
            },
            { label: "Hire category", cell: (item) => item.category.name },
            { label: "Day (ex VAT)", header: "Day", numeric: true, cell: (item) => <MoneyCell pounds={item.day_rate} /> },
            { label: "Weekend", numeric: true, cell: (item) => <MoneyCell pounds={item.weekend_rate} /> },
            { label: "Week", numeric: true, cell: (item) => <MoneyCell pounds={item.week_rate} /> },
            { label: "Units", numeric: true, cell: (item) => <span className={item.units === 0 ? "font-semibold text-red-800" : ""}>{item.units}</span> },
          ]}
        />
      )}
      <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
