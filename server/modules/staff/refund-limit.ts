import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import type { StaffActor } from "./actor.ts";
import { staff } from "./schema.ts";

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/**
 * The refund limit: a `sales` member refunds at most the amount an owner set
 * for them (staff.refund_limit_pence), by card, credit note or by hand; every
 * other role with `refunds.create` has none. 403 above it.
 */
export async function checkRefundLimit(tx: Db, actor: StaffActor, pence: number): Promise<void> {
  if (actor.role !== "sales") return;
  const [member] = await tx.select({ limit: staff.refundLimit }).from(staff).where(eq(staff.id, actor.staffId));
  const limit = member?.limit ?? 0;
  if (pence > limit) throw new HttpError(403, `Your refund limit is ${money(limit)}; ask a manager or the accounts team to refund ${money(pence)}.`);
}
