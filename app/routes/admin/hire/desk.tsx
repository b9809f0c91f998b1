import { type ReactNode, useId } from "react";
import { Link } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { LinesCell } from "../../../components/admin/cells.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { longDay, shortDay } from "../../../lib/admin/dashboard.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { hireRequestHref, hireStatusLabel } from "../../../../server/modules/hire/desk-labels.ts";
import type { OverviewRequest, OverviewUnit } from "../../../../server/modules/hire/desk-overview.ts";
import type { Route } from "./+types/desk";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Hire desk");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "hire.desk");
  return { overview: await app.services.hireDesk.overview(actor) };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One of the day's lists: its heading with a count, the table, or a plain sentence when it is empty. */
function Bucket({ title, total, shown, empty, children }: { title: string; total: number; shown: number; empty: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mb-8">
      <h2 id={id} className="mb-3 flex items-center gap-2 text-lg font-bold">
        {title}
        <span className="rounded-full bg-stone-200 px-2.5 py-0.5 text-sm tabular-nums">{total}</span>
      </h2>
      {total === 0 ? (
        <p role="status" className="rounded-lg border border-dashed border-stone-300 bg-white px-4 py-4 text-stone-600">
          {empty}
        </p>
      ) : (
        <>
          {children}
          {total > shown ? (
            <p className="mt-2 text-sm text-stone-700">
              The first {shown} of {total}. <Link to="/admin/hire/requests" className="link">See every hire request</Link>.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function RequestTable({ caption, rows, when }: { caption: string; rows: OverviewRequest[]; when: "waiting" | "going_out" }) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(r) => r.number}
      rowProps={() => ({ className: "max-lg:bg-white" })}
      columns={[
        {
          label: "Request",
          head: true,
          cellClassName: "font-normal",
          cell: (r) => (
            <Link to={hireRequestHref(r.number)} className="link font-semibold">
              {r.number}
            </Link>
          ),
        },
        { label: "Customer", cell: (r) => <LinesCell first={r.name} rest={[r.company]} /> },
        { label: "Hire", cell: (r) => <LinesCell first={r.items} rest={[when === "going_out" ? `${plural(r.units, "unit")} going out` : plural(r.units, "unit")]} /> },
        { label: "Dates", cell: (r) => `${shortDay(r.start_date)} to ${shortDay(r.end_date)}` },
        when === "waiting"
          ? { label: "Hold lapses", cell: (r) => formatDateTime(r.hold_expires_at) }
          : { label: "Handing over", header: "Collection or delivery", cell: (r) => (r.fulfilment === "delivery" ? "Delivery" : "Collection") },
      ]}
    />
  );
}

function UnitTable({ caption, rows, overdue }: { caption: string; rows: OverviewUnit[]; overdue: boolean }) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(u) => `${u.number}-${u.asset_number}`}
      rowProps={() => ({ className: "max-lg:bg-white" })}
      columns={[
        { label: "Unit", head: true, cellClassName: "font-normal", cell: (u) => <LinesCell first={<span className="font-mono font-semibold">{u.asset_number}</span>} rest={[u.item]} /> },
        {
          label: "Request",
          cell: (u) => (
            <Link to={hireRequestHref(u.number)} className="link font-semibold">
              {u.number}
            </Link>
          ),
        },
        {
          label: "Customer",
          cell: (u) => (
            <span>
              {u.name}
              <a href={`tel:${u.phone.replace(/[^\d+]/g, "")}`} className="link block">
                {u.phone}
              </a>
            </span>
          ),
        },
        {
          label: overdue ? "Was due back" : "State",
          cell: (u) => (
            <span>
              {overdue ? (
                <>
                  {shortDay(u.return_date)}
                  <strong className="block text-red-800">{plural(u.days_overdue, "day")} overdue</strong>
                </>
              ) : (
                <StatusBadge status={u.status} label={hireStatusLabel(u.status)} />
              )}
              {u.off_hire_on ? <span className="block text-stone-700">Off-hired {shortDay(u.off_hire_on)}: to collect</span> : null}
            </span>
          ),
        },
      ]}
    />
  );
}

export default function HireDesk({ loaderData }: Route.ComponentProps) {
  const { overview: o } = loaderData;
  return (
    <>
      <PageHeader
        title="Hire desk"
        intro={`${longDay(o.today)}: requests waiting for a decision, hires going out and units due back.`}
        links={[{ to: "/admin/hire/bookings/new", label: "New hire", primary: true }, { to: "/admin/hire/planner", label: "Planner" }, { to: "/admin/hire/requests", label: "Every hire request" }]}
      />
      <Bucket title="Waiting for a decision" total={o.waiting.total} shown={o.waiting.requests.length} empty="No hire request is waiting.">
        <RequestTable caption="Hire requests waiting, oldest first" rows={o.waiting.requests} when="waiting" />
      </Bucket>
      <Bucket title="Going out today" total={o.going_out.total} shown={o.going_out.requests.length} empty="Nothing goes out today.">
        <RequestTable caption="Approved hire requests with units starting today" rows={o.going_out.requests} when="going_out" />
      </Bucket>
      <Bucket title="Due back today" total={o.due_back.total} shown={o.due_back.units.length} empty="No unit is due back today.">
        <UnitTable caption="Units out on hire due back today" rows={o.due_back.units} overdue={false} />
      </Bucket>
      <Bucket title="Overdue" total={o.overdue.total} shown={o.overdue.units.length} empty="No unit is overdue.">
        <UnitTable caption="Units out past their return date, longest overdue first" rows={o.overdue.units} overdue />
      </Bucket>
    </>
  );
}
