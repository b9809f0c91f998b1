import type { Db } from "../db/client.ts";
import type { StaffActor } from "../modules/staff/actor.ts";
import { STAFF_ROLES, type StaffRole } from "../modules/staff/permissions.ts";
import { staff } from "../modules/staff/schema.ts";

/**
 * A staff member of each role added to `db`, as a screen's actor: the owner
 * is `owner@{domain}`, named "Owner Member".
 */
export async function staffMembers(db: Db, domain: string): Promise<Record<StaffRole, StaffActor>> {
  const as = {} as Record<StaffRole, StaffActor>;
  for (const role of STAFF_ROLES) {
    const [member] = await db.insert(staff).values({ email: `${role}@${domain}`, name: `${role[0]!.toUpperCase()}${role.slice(1)} Member`, role }).returning();
    as[role] = { staffId: member!.id, name: member!.name, email: member!.email, role, via: "screen" };
  }
  return as;
}
