import { redirect } from "react-router";
import { appContext } from "#app-context";
import { requireSameOrigin } from "../../lib/admin/access.ts";
import { staffSignOutCookies } from "../../../server/modules/staff/cookies.ts";
import type { Route } from "./+types/logout";

/** Sign out of the back office: this session ends and its cookies go. */
export async function action({ context, request }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  if (app.staff?.sessionId) await app.services.staff.signOut(app.staff.sessionId);
  const headers = new Headers();
  for (const cookie of staffSignOutCookies(app.secureCookies)) headers.append("set-cookie", cookie);
  return redirect("/admin/login", { headers });
}

export function loader() {
  return redirect("/admin");
}
