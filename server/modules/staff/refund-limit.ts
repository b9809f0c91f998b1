import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import type { StaffActor } from "./actor.ts";
import { staff } from "./schema.ts";

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/**
 * What this member of staff has already given back on an order, in pence: by
 * card (the orders desk, a return, cancelled lines), by credit note against
 * its invoice, and by hand for a return. Failed card refunds gave nothing.
 */
export async function refundedByMember(tx: Db, staffId: number, orderId: number): Promise<number> {
  const rows = (await tx.execute(sql`
    select
      (select coalesce(sum(r.amount_pence), 0) from payment_refunds r
         join payments p on p.id = r.payment_id join payment_sessions s on s.id = p.session_id
        where s.order_id = ${orderId} and r.staff_id = ${staffId} and r.status <> 'failed')
      + (select coalesce(sum(c.total_pence), 0) from trade_credit_notes c join trade_invoices i on i.id = c.invoice_id
          where i.order_id = ${orderId} and c.created_by = ${staffId})
      + (select coalesce(sum(t.refunded), 0) from returns t
          where t.order_id = ${orderId} and t.refund_method = 'manual'
            and exists (select 1 from return_events e where e.return_id = t.id and e.status = 'refunded' and e.staff_id = ${staffId}))
      as pence
  `)) as unknown as { rows: { pence: string | number }[] };
  return Number(rows.rows[0]?.pence ?? 0);
}

/**
 * The refund limit: a `sales` member refunds at most the amount an owner set
 * for them (staff.refund_limit_pence) on any one order, in total, by card,
 * credit note or by hand, so two refunds under the limit cannot together pass
 * it; every other role with `refunds.create` has none. 403 above it. The
 * caller holds the order's row lock, so a member's refunds of one order are
 * counted one after another.
 */
export async function checkRefundLimit(tx: Db, actor: StaffActor, pence: number, orderId: number): Promise<void> {
  if (actor.role !== "sales") return;
  const [member] = await tx.select({ limit: staff.refundLimit }).from(staff).where(eq(staff.id, actor.staffId));
  const limit = member?.limit ?? 0;
  if (pence > limit) throw new HttpError(403, `Your refund limit is ${money(limit)}; ask a manager or the accounts team to refund ${money(pence)}.`);
  const already = await refundedByMember(tx, actor.staffId, orderId);
  if (already + pence > limit) {
    throw new HttpError(403, `Your refund limit is ${money(limit)} an order, and you have refunded ${money(already)} on this one; ask a manager or the accounts team to refund ${money(pence)}.`);
  }
}
