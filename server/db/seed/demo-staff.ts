import type { Db } from "../client.ts";
import { staff } from "../../modules/staff/schema.ts";
import type { StaffRole } from "../../modules/staff/permissions.ts";

/** The demo's staff, one of each role, all with the demo password and no authenticator (outside production only). */
export const DEMO_STAFF: { email: string; name: string; role: StaffRole }[] = [
  { email: "owner@example.com", name: "Olivia Owner", role: "owner" },
  { email: "manager@staff.example.com", name: "Max Manager", role: "manager" },
  { email: "sales@staff.example.com", name: "Sita Sales", role: "sales" },
  { email: "warehouse@staff.example.com", name: "Wes Warehouse", role: "warehouse" },
  { email: "hire@staff.example.com", name: "Hana Hire", role: "hire" },
  { email: "accounts@staff.example.com", name: "Ada Accounts", role: "accounts" },
];

export async function seedDemoStaff(tx: Db, passwordHash: string): Promise<void> {
  await tx
    .insert(staff)
    .values(DEMO_STAFF.map((m) => ({ ...m, passwordHash, refundLimit: m.role === "sales" ? 25_000 : 0 })))
    .onConflictDoNothing();
}
