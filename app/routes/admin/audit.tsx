import { Form, Link, useLocation } from "react-router";
import { appContext } from "#app-context";
import { AUDIT_VIA_LABELS, Changes } from "../../components/admin/audit-entries.tsx";
import { KeysetPager } from "../../components/admin/pager.tsx";
import { AdminHeading } from "../../components/admin/frame.tsx";
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

const control = "min-h-10 rounded-md border border-stone-400 bg-white px-2 font-normal";

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { entries, filters, people, nextCursor } = loaderData;
  const search = new URLSearchParams(useLocation().search);
  return (
    <>
      <AdminHeading title="Audit log" intro="Every change made by staff, through these screens, the API or the command line: who, when, what, and the fields before and after. Nobody can change or delete an entry." />
      <Form method="get" role="search" aria-label="Filter the audit log" className="mb-4 grid gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
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
        <div className="flex gap-2 sm:col-span-2 lg:col-span-3 xl:col-span-6">
          <button type="submit" className="btn-primary min-h-10">
            Apply filters
          </button>
          <Link to="?" className="btn-secondary min-h-10">
            Clear
          </Link>
        </div>
      </Form>
      {entries.length === 0 ? (
        <EmptyState title="No entries match" action={search.size ? { to: "?", label: "Show every entry" } : undefined}>
          Changes made by staff appear here as they happen.
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
          <table className="w-full min-w-[52rem] text-left text-sm">
            <caption className="sr-only">Audit log, newest first</caption>
            <thead className="border-b border-stone-200 bg-stone-50 text-stone-700">
              <tr>
                <th scope="col" className="px-3 py-2">When</th>
                <th scope="col" className="px-3 py-2">Who</th>
                <th scope="col" className="px-3 py-2">Action</th>
                <th scope="col" className="px-3 py-2">On</th>
                <th scope="col" className="px-3 py-2">Changes</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100 align-top">
              {entries.map((e) => (
                <tr key={e.id}>
                  <td className="whitespace-nowrap px-3 py-2">
                    <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                  </td>
                  <td className="px-3 py-2">
                    {e.staff.name}
                    <span className="block text-stone-600">
                      via {AUDIT_VIA_LABELS[e.via] ?? e.via}
                      {e.token_name ? ` “${e.token_name}”` : ""}
                    </span>
                  </td>
                  <td className="px-3 py-2 font-mono">{e.action}</td>
                  <td className="whitespace-nowrap px-3 py-2">
                    {e.entity === "order" ? (
                      <Link to={`/admin/orders/${e.entity_id}`} className="link">
                        {e.entity_id}
                      </Link>
                    ) : (
                      `${e.entity.replaceAll("_", " ")} ${e.entity_id}`
                    )}
                  </td>
                  <td className="px-3 py-2">
                    <Changes before={e.before} after={e.after} />
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
