import type { RouterContextProvider } from "react-router";
import { type AppContext, appContext } from "#app-context";
import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import type { Permission } from "../../../server/modules/staff/permissions.ts";
import { requirePermission, requireSameOrigin } from "./access.ts";

// Every back-office loader and action starts the same way; here once.

/** A screen's loader (or action) begins here: the shop's services, and the member signed in, who must hold `permission`. */
export function staffScreen(context: Readonly<RouterContextProvider>, request: Request, permission: Permission): { app: AppContext; actor: StaffActor } {
  const app = context.get(appContext);
  return { app, actor: requirePermission(app.staff, request, permission) };
}

/** A screen's form post begins here: from this site only, then as `staffScreen`, and the form that was sent. */
export async function staffPost(context: Readonly<RouterContextProvider>, request: Request, permission: Permission): Promise<{ app: AppContext; actor: StaffActor; form: FormData }> {
  requireSameOrigin(request);
  const { app, actor } = staffScreen(context, request, permission);
  return { app, actor, form: await request.formData() };
}
