import { FilterDisclosure, activeFilters } from "../../components/admin/filter-disclosure.tsx";
import { Form, Link, useLocation } from "react-router";
import { appContext } from "#app-context";
import { AUDIT_VIA_LABELS, Changes } from "../../components/admin/audit-entries.tsx";
import { STACKED } from "../../components/admin/stacked-table.ts";
import { actionWords } from "../../lib/admin/audit-words.ts";
import { KeysetPager } from "../../components/admin/pager.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { EmptyState } from "../../components/page.tsx";
import { requirePermission } from "../../lib/admin/access.ts";
import { formatDateTime } from "../../lib/admin/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/audit";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Audit log");

const ENTITIES = [
  ["order", "Orders"],
  ["staff", "Staff"],
  ["api_token", "API tokens"],
  ["customer", "Customers"],
  ["trade_account", "Trade accounts"],
  ["invoice", "Invoices"],
  ["backup", "Backups"],
] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "audit.view");
  const url = new URL(request.url);
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  const staffId = Number(get("staff_id"));
  const filters = {
    staff_id: Number.isSafeInteger(staffId) && staffId > 0 ? staffId : undefined,
    entity: get("entity")?.slice(0, 40),
    entity_id: get("entity_id")?.slice(0, 60),
    action: get("action")?.slice(0, 60),
    from: DAY.test(get("from") ?? "") ? get("from") : undefined,
    to: DAY.test(get("to") ?? "") ? get("to") : undefined,
    cursor: /^\d{1,18}$/.test(get("cursor") ?? "") ? get("cursor") : undefined,
  };
  const [log, people] = await Promise.all([app.services.audit.list(actor, filters), app.services.audit.staffOptions(actor)]);
  return { entries: log.data, nextCursor: log.next_cursor, filters, people };
}

// Full width of their column and allowed to shrink: date fields never spill into the next one.
const control = "min-h-10 w-full min-w-0 rounded-md border border-stone-400 bg-white px-2 font-normal";

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { entries, filters, people, nextCursor } = loaderData;
  const search = new URLSearchParams(useLocation().search);
  return (
    <>
      <PageHeader title="Audit log" intro="Every change made by staff, through these screens, the API or the command line: who, when, what, and the fields before and after. Nobody can change or delete an entry." />
      <FilterDisclosure active={activeFilters(search, ["staff_id", "entity", "entity_id", "action", "from", "to"])}>
<Form method="get" role="search" aria-label="Filter the audit log" className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-6 [&>label]:min-w-0">
        <label className="grid gap-1 text-sm font-semibold">
          Staff member
          <select name="staff_id" defaultValue={filters.staff_id ?? ""} className={control}>
            <option value="">Anyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name === "system" ? "system (command line)" : `${p.name} (${p.email})`}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          What
          <select name="entity" defaultValue={filters.entity ?? ""} className={control}>
            <option value="">Anything</option>
            {ENTITIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          Which (number or id)
          <input name="entity_id" defaultValue={filters.entity_id ?? ""} className={control} />
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          Action
          <input name="action" defaultValue={filters.action ?? ""} placeholder="e.g. order.transition" className={control} />
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          From
          <input name="from" type="date" defaultValue={filters.from ?? ""} className={control} />
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          To
          <input name="to" type="date" defaultValue={filters.to ?? ""} className={control} />
        </label>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-3 2xl:col-span-6">
          <button type="submit" className="btn-primary min-h-10">
            Apply filters
          </button>
          <Link to="?" className="btn-secondary min-h-10">
            Clear
          </Link>
        </div>
      </Form>
      </FilterDisclosure>
      {entries.length === 0 ? (
        <EmptyState title="No entries match" action={search.size ? { to: "?", label: "Show every entry" } : undefined}>
          Changes made by staff appear here as they happen.
        </EmptyState>
      ) : (
        <div className={STACKED.frame}>
          <table className={STACKED.table}>
            <caption className="sr-only">Audit log, newest first</caption>
            <thead className={STACKED.head}>
              <tr>
                <th scope="col" className="px-3 py-2">When</th>
                <th scope="col" className="px-3 py-2">Who</th>
                <th scope="col" className="px-3 py-2">Action</th>
                <th scope="col" className="px-3 py-2">On</th>
                <th scope="col" className="px-3 py-2">What changed</th>
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {entries.map((e) => (
                <tr key={e.id} className={`${STACKED.row} max-lg:bg-white`}>
                  <td data-label="When" className={`${STACKED.cell} lg:whitespace-nowrap`}>
                    <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                  </td>
                  <td data-label="Who" className={STACKED.cell}>
                    <span>
                      {e.staff.name}
                      <span className="block text-stone-600">
                        via {AUDIT_VIA_LABELS[e.via] ?? e.via}
                        {e.token_name ? ` “${e.token_name}”` : ""}
                      </span>
                    </span>
                  </td>
                  <td data-label="Action" className={STACKED.cell}>
                    <span>{actionWords(e.action)}</span>
                  </td>
                  <td data-label="On" className={`${STACKED.cell} lg:whitespace-nowrap`}>
                    {e.entity === "order" ? (
                      <Link to={`/admin/orders/${e.entity_id}`} className="link">
                        {e.entity_id}
                      </Link>
                    ) : (
                      `${e.entity.replaceAll("_", " ")} ${e.entity_id}`
                    )}
                  </td>
                  <td data-label="What changed" className={STACKED.cell}>
                    <Changes entry={e} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} first="Newest" next="Older entries" />
    </>
  );
}
