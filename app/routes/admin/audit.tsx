import { FilterDisclosure, activeFilters } from "../../components/admin/filter-disclosure.tsx";
import { Link } from "react-router";
import { AUDIT_VIA_LABELS, Changes } from "../../components/admin/audit-entries.tsx";
import { actionWords } from "../../lib/admin/audit-words.ts";
import { KeysetPager, useListAddress } from "../../components/admin/pager.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/audit";
import { DataTable } from "../../components/admin/table-or-cards.tsx";
import { DateCell, LinesCell } from "../../components/admin/cells.tsx";
import { EmptyState } from "../../components/admin/empty-state.tsx";
import { FilterDate, FilterForm, FilterSelect, FilterText } from "../../components/admin/filter-form.tsx";
import { staffScreen } from "../../lib/admin/staff-route.ts";

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
  const { app, actor } = staffScreen(context, request, "audit.view");
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

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { entries, filters, people, nextCursor } = loaderData;
  const { search } = useListAddress();
  return (
    <>
      <PageHeader title="Audit log" intro="Every change made by staff, through these screens, the API or the command line: who, when, what, and the fields before and after. Nobody can change or delete an entry." />
      <FilterDisclosure active={activeFilters(search, ["staff_id", "entity", "entity_id", "action", "from", "to"])}>
        <FilterForm label="Filter the audit log" className="sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-6" buttonsClassName="sm:col-span-2 lg:col-span-3 2xl:col-span-6">
          <FilterSelect name="staff_id" label="Staff member" value={filters.staff_id} any="Anyone" options={people.map((p) => [p.id, p.name === "system" ? "system (command line)" : `${p.name} (${p.email})`] as const)} />
          <FilterSelect name="entity" label="What" value={filters.entity} any="Anything" options={ENTITIES} />
          <FilterText name="entity_id" label="Which (number or id)" value={filters.entity_id} />
          <FilterText name="action" label="Action" value={filters.action} placeholder="e.g. order.transition" />
          <FilterDate name="from" label="From" value={filters.from} />
          <FilterDate name="to" label="To" value={filters.to} />
        </FilterForm>
      </FilterDisclosure>
      {entries.length === 0 ? (
        <EmptyState title="No entries match" action={search.size ? { to: "?", label: "Show every entry" } : undefined}>
          Changes made by staff appear here as they happen.
        </EmptyState>
      ) : (
        <DataTable
          caption="Audit log, newest first"
          rows={entries}
          rowKey={(e) => e.id}
          rowProps={() => ({ className: "max-lg:bg-white" })}
          columns={[
            { label: "When", cell: (e) => <DateCell value={e.at} /> },
            { label: "Who", cell: (e) => <LinesCell first={e.staff.name} rest={[`via ${AUDIT_VIA_LABELS[e.via] ?? e.via}${e.token_name ? ` “${e.token_name}”` : ""}`]} /> },
            { label: "Action", cell: (e) => actionWords(e.action) },
            {
              label: "On",
              cellClassName: "lg:whitespace-nowrap",
              cell: (e) =>
                e.entity === "order" ? (
                  <Link to={`/admin/orders/${e.entity_id}`} className="link">
                    {e.entity_id}
                  </Link>
                ) : (
                  `${e.entity.replaceAll("_", " ")} ${e.entity_id}`
                ),
            },
            { label: "What changed", cell: (e) => <Changes entry={e} /> },
          ]}
        />
      )}
      <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} first="Newest" next="Older entries" />
    </>
  );
}
