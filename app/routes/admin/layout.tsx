import { Outlet } from "react-router";
import { appContext } from "#app-context";
import { AdminFrame } from "../../components/admin/frame.tsx";
import { requireStaff } from "../../lib/admin/access.ts";
import { navFor } from "../../lib/admin/nav.ts";
import type { Route } from "./+types/layout";

// Runs before any loader below it: nobody but staff reads back-office data.
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, request }) => {
    requireStaff(context.get(appContext).staff, request);
  },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requireStaff(app.staff, request);
  const me = await app.services.staff.me(actor);
  return { appName: app.config.appName, staff: { name: me.name, email: me.email, role_label: me.role_label }, nav: navFor(actor.role) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminFrame appName={loaderData.appName} staff={loaderData.staff} nav={loaderData.nav}>
      <Outlet />
    </AdminFrame>
  );
}
