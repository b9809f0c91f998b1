import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { STACKED } from "../../../components/admin/stacked-table.ts";
import { SERVICE_LABELS } from "../../../components/branches/branch-labels.tsx";
import { EmptyState } from "../../../components/page.tsx";
import { requirePermission } from "../../../lib/admin/access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { openLabel, openState } from "../../../../server/modules/branches/hours.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Branches");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "branches.manage");
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
      {branches.length === 0 ? (
        <EmptyState title="No branches">Add the shop's first branch.</EmptyState>
      ) : (
        <div className={STACKED.frame}>
          <table className={STACKED.table}>
            <caption className="sr-only">Branches in the shop's order</caption>
            <thead className={STACKED.head}>
              <tr>
                <th scope="col" className="px-3 py-2">
                  Branch
                </th>
                <th scope="col" className="px-3 py-2">
                  Town
                </th>
                <th scope="col" className="px-3 py-2">
                  Services
                </th>
                <th scope="col" className="px-3 py-2">
                  Now
                </th>
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {branches.map((b) => (
                <tr key={b.slug} className={`${STACKED.row} ${b.status === "closed" ? "max-lg:bg-stone-100" : "max-lg:bg-white"}`} data-testid="branch-row">
                  <th scope="row" className={`${STACKED.cell} font-normal`} data-label="Branch">
                    <span className="flex flex-wrap items-center gap-2">
                      <Link to={`/admin/branches/${b.slug}`} className="link font-semibold">
                        {b.name}
                        <span className="sr-only">: edit</span>
                      </Link>
                      {b.is_default ? <span className="rounded bg-brand-50 px-2 py-0.5 text-sm font-semibold text-brand-900">Default</span> : null}
                    </span>
                  </th>
                  <td className={STACKED.cell} data-label="Town">
                    <span>{b.town}</span>
                  </td>
                  <td className={STACKED.cell} data-label="Services">
                    <span>{b.services.length ? b.services.map((s) => SERVICE_LABELS[s]).join(", ") : "None"}</span>
                  </td>
                  <td className={STACKED.cell} data-label="Now">
                    <span>{b.status === "closed" ? <span className="font-semibold">Closed branch: shown nowhere</span> : b.listed ? b.open_label : "Not shown to customers until it has an address"}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
