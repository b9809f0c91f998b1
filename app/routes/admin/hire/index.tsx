import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { useListAddress } from "../../../components/admin/pager.tsx";
import { SearchFilter } from "../../../components/admin/search-filter.tsx";
import { refusalOr } from "../../../lib/admin/access.ts";
import { requireHireCatalogueReader } from "../../../lib/admin/hire-access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/index";
import type { DataColumn } from "../../../components/admin/table-or-cards.tsx";
import { KeysetList } from "../../../components/admin/keyset-list.tsx";
import { photoColumn } from "../../../components/admin/list-columns.tsx";
import { MoneyCell } from "../../../components/admin/cells.tsx";
import { ErrorState } from "../../../components/admin/empty-state.tsx";

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
    return { items: [], nextCursor: null, filters, categories, manage, error: refusalOr(error).text };
  }
}

export default function AdminHireItems({ loaderData }: Route.ComponentProps) {
  const { items, nextCursor, filters, categories, manage, error } = loaderData;
  const { search } = useListAddress();
  const filtered = !!(filters.q || filters.category);
  const columns: DataColumn<(typeof items)[number]>[] = [
    photoColumn((item) => item.photo, { hideOnCards: true }),
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
  ];
  const empty = {
    title: filtered ? "No hire items match these filters" : "No hire items yet",
    action: search.size ? { to: "?", label: "Show every hire item" } : manage ? { to: "/admin/hire/items/new", label: "Add a hire item" } : undefined,
    children: filtered ? "Try another hire category, or a shorter search." : "Add the machines you hire out, their rates and their units.",
  };

  return (
    <>
      <PageHeader title="Hire catalogue" intro="Hire items with their rate cards and units. Every change shows on the shop's hire pages at once." links={manage ? [{ to: "/admin/hire/items/new", label: "Add a hire item", primary: true }] : []} />
      <SearchFilter
        label="Filter hire items"
        query={filters.q}
        placeholder="Any words of the name"
        choice={{ name: "category", label: "Hire category", value: filters.category, options: categories.map((c) => ({ value: c.id, label: c.name })) }}
      />

      <ErrorState message={error} />
      <KeysetList caption="Hire items by name" rows={items} rowKey={(item) => item.slug} columns={columns} empty={empty} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}
