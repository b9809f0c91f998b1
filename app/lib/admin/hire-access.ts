import { readsHireCatalogue } from "../../../server/modules/hire/catalogue-access.ts";
import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import { requireStaff } from "./access.ts";

/** The hire catalogue's screens: its readers (catalogue.view or hire.desk), else a 403 page; checked in each loader and action. */
export function requireHireCatalogueReader(staff: StaffActor | null, request: Request): StaffActor {
  const actor = requireStaff(staff, request);
  if (!readsHireCatalogue(actor.role)) throw new Response("Your role does not allow this page.", { status: 403, statusText: "Forbidden" });
  return actor;
}
