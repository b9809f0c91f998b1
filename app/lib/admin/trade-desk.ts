import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import { can } from "../../../server/modules/staff/permissions.ts";
import { requireStaff } from "./access.ts";

/** The trade desk's screens open to trade.manage or invoices.manage (the service checks each action's own again). */
export function requireTradeDesk(staff: StaffActor | null, request: Request): StaffActor {
  const actor = requireStaff(staff, request);
  if (!can(actor.role, "trade.manage") && !can(actor.role, "invoices.manage")) throw new Response("Your role does not allow this page.", { status: 403, statusText: "Forbidden" });
  return actor;
}

/** A service's field errors under the forms' names: the terms check names them as the CLI knows them (`terms`, `discount`). */
export function termsFormErrors(errors: Record<string, string[]> | undefined): Record<string, string[]> {
  const names: Record<string, string> = { terms: "terms_days", discount: "discount_percent" };
  return errors ? Object.fromEntries(Object.entries(errors).map(([k, v]) => [names[k] ?? k, v])) : {};
}
