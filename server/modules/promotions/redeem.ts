// An order's use of its promotions, taken at checkout inside the order's
// transaction (issue 32). Each promotion's row is counted up by one
// conditional statement, which locks it: thirty checkouts at once with a code
// limited to five find it one after another, and the sixth finds it used up
// and places nothing. Promotions are taken in id order, so two baskets with the
// same two codes never wait on each other.
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { ValidationError } from "../../http-errors.ts";
import type { AppliedPromotion } from "./rules.ts";
import { unusableReason } from "./running.ts";
import { promotionRedemptions, promotions } from "./schema.ts";

/** What an order used: the promotions that took something off, and a free-delivery code that made delivery free. */
export function usedBy(applied: readonly AppliedPromotion[], freeDeliveryUsed: boolean): AppliedPromotion[] {
  return applied.filter((a) => !a.notApplying && (a.amount > 0 || (a.promotion.kind === "free_delivery" && freeDeliveryUsed))).sort((a, b) => a.promotion.id - b.promotion.id);
}

const refused = (message: string): never => {
  throw new ValidationError({ code: [`${message} Remove it from your basket to check out without it.`] });
};

export async function redeemPromotions(tx: Db, used: readonly AppliedPromotion[], order: { id: number; userId: number | null; email: string }): Promise<void> {
  const email = order.email.trim().toLowerCase();
  for (const { promotion, amount } of used) {
    const [taken] = await tx
      .update(promotions)
      .set({ uses: sql`${promotions.uses} + 1` })
      .where(
        and(
          eq(promotions.id, promotion.id),
          sql`${promotions.status} = 'active' and (${promotions.startsAt} is null or ${promotions.startsAt} <= now()) and (${promotions.endsAt} is null or ${promotions.endsAt} > now())`,
          sql`(${promotions.maxUses} is null or ${promotions.uses} < ${promotions.maxUses})`,
        ),
      )
      .returning({ perCustomer: promotions.maxUsesPerCustomer });
    if (!taken) {
      const [row] = await tx.select().from(promotions).where(eq(promotions.id, promotion.id));
      return refused((row && unusableReason(row, new Date())) ?? `The code ${promotion.code ?? promotion.name} can no longer be used.`);
    }
    // Under the row's lock: this customer's other orders with it are all counted.
    if (taken.perCustomer !== null) {
      const [mine] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(promotionRedemptions)
        .where(
          and(
            eq(promotionRedemptions.promotionId, promotion.id),
            isNull(promotionRedemptions.releasedAt),
            or(eq(promotionRedemptions.email, email), order.userId === null ? sql`false` : eq(promotionRedemptions.userId, order.userId)),
          ),
        );
      if ((mine?.n ?? 0) >= taken.perCustomer) refused(`You have already used the code ${promotion.code}.`);
    }
    await tx.insert(promotionRedemptions).values({ promotionId: promotion.id, orderId: order.id, userId: order.userId, email, discount: amount });
  }
}

/** An order wholly returned gives its uses back (a cancelled one does so by the orders trigger, migration 0043). */
export async function releasePromotions(tx: Db, orderId: number): Promise<void> {
  await tx.execute(sql`select release_order_promotions(${orderId})`);
}
