import { Link } from "react-router";
import { appContext } from "#app-context";
import { AdminHeading } from "../../components/admin/frame.tsx";
import { requirePermission } from "../../lib/admin/access.ts";
import { navFor } from "../../lib/admin/nav.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Back office");

export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = requirePermission(context.get(appContext).staff, request, "dashboard.view");
  return { name: actor.name, areas: navFor(actor.role).filter((item) => item.to !== "/admin") };
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AdminHeading title={`Hello, ${loaderData.name.split(" ")[0]}`} intro="What your role can open:" />
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {loaderData.areas.map((area) => (
          <li key={area.to}>
            <Link to={area.to} className="block rounded-lg border border-stone-200 bg-white p-4 font-semibold text-brand-800 hover:border-brand-700">
              {area.label}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
