import { Link } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { SERVICE_LABELS } from "../../../components/branches/branch-labels.tsx";
import { pageMeta } from "../../../lib/meta.ts";
import { openLabel, openState } from "../../../../server/modules/branches/hours.ts";
import type { Route } from "./+types/index";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { EmptyState } from "../../../components/admin/empty-state.tsx";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Branches");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "branches.manage");
  const now = new Date();
  const { data } = await app.services.branchAdmin.list(actor);
  return {
    branches: data.map((b) => ({
      slug: b.slug,
      name: b.name,
      town: b.address.town,
      services: b.services,
      is_default: b.is_default,
      status: b.status,
      // An upgraded shop's "Main branch" has no address yet, so the public pages leave it out.
      listed: b.status === "open" && b.address.postcode !== "",
      open_label: openLabel(openState({ weekly: b.opening_hours, exceptions: b.exceptions }, now), now),
    })),
  };
}

export default function AdminBranches({ loaderData }: Route.ComponentProps) {
  const { branches } = loaderData;
  return (
    <>
      <PageHeader
        title="Branches"
        intro="Where customers collect, trade customers buy at the counter and hire equipment leaves from: each branch's address, services, hours and collection times."
        actions={
          <Link to="/admin/branches/new" className="btn-primary min-h-10">
            Add a branch
          </Link>
        }
      />
      <DataTable
        empty={<EmptyState title="No branches">Add the shop's first branch.</EmptyState>}
        caption="Branches in the shop's order"
        rows={branches}
        rowKey={(b) => b.slug}
        rowProps={(b) => ({ className: b.status === "closed" ? "max-lg:bg-stone-100" : "max-lg:bg-white", "data-testid": "branch-row" })}
        columns={[
          {
            label: "Branch",
            head: true,
            cellClassName: "font-normal",
            cell: (b) => (
              <span className="flex flex-wrap items-center gap-2">
                <Link to={`/admin/branches/${b.slug}`} className="link font-semibold">
                  {b.name}
                  <span className="sr-only">: edit</span>
                </Link>
                {b.is_default ? <span className="rounded bg-brand-50 px-2 py-0.5 text-sm font-semibold text-brand-900">Default</span> : null}
              </span>
            ),
          },
          { label: "Town", cell: (b) => b.town },
          { label: "Services", cell: (b) => (b.services.length ? b.services.map((s) => SERVICE_LABELS[s]).join(", ") : "None") },
          { label: "Now", cell: (b) => (b.status === "closed" ? <span className="font-semibold">Closed branch: shown nowhere</span> : b.listed ? b.open_label : "Not shown to customers until it has an address") },
        ]}
      />
    </>
  );
}
