// A customer's discount codes in their basket (issue 32): added only when it
// takes something off now (or makes delivery free), at most one code unless
// every code is stackable, and each refusal saying which rule refused it.
// The use limits are enforced again, under the promotion's lock, at checkout
// (redeem.ts): a basket holding a code reserves nothing.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { ValidationError } from "../../http-errors.ts";
import type { BasketOwner } from "../../plugins/guest.ts";
import type { Basket, BasketService } from "../basket/service.ts";
import { unusableReason } from "./running.ts";
import { basketPromotions, promotionRedemptions, promotions } from "./schema.ts";

const refuse = (message: string): never => {
  throw new ValidationError({ code: [message] });
};

export function createBasketCodes(db: Db, basket: BasketService) {
  async function byCode(code: string) {
    const [row] = await db
      .select()
      .from(promotions)
      .where(sql`lower(${promotions.code}) = lower(${code.trim()})`)
      .limit(1);
    return row ?? null;
  }

  return {
    async apply(owner: BasketOwner, typed: string): Promise<{ cart: Basket; message: string }> {
      const row = await byCode(typed);
      if (!row) return refuse(`We do not recognise the code ${typed.trim().toUpperCase()}. Check it and try again.`);
      const code = row.code!;
      const why = unusableReason(row, new Date());
      if (why) return refuse(why);
      const current = await basket.cart(owner);
      if (current.items.length === 0) return refuse("Add something to your basket before using a code.");
      // A signed-in customer is told now; a guest's email is counted at checkout.
      if (row.maxUsesPerCustomer !== null && "userId" in owner) {
        const [used] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(promotionRedemptions)
          .where(and(eq(promotionRedemptions.promotionId, row.id), eq(promotionRedemptions.userId, owner.userId), isNull(promotionRedemptions.releasedAt)));
        if ((used?.n ?? 0) >= row.maxUsesPerCustomer) return refuse(`You have already used the code ${code}${row.maxUsesPerCustomer > 1 ? ` ${row.maxUsesPerCustomer} times` : ""}.`);
      }
      const basketId = await basket.idOf(owner);
      const held = await db
        .select({ id: promotions.id, code: promotions.code, stackable: promotions.stackable })
        .from(basketPromotions)
        .innerJoin(promotions, eq(promotions.id, basketPromotions.promotionId))
        .where(eq(basketPromotions.basketId, basketId));
      if (held.some((h) => h.id === row.id)) return { cart: current, message: `The code ${code} is already in your basket.` };
      const blocking = held.find((h) => !h.stackable || !row.stackable);
      if (blocking) return refuse(`Only one code can be used on an order: remove ${blocking.code} first.`);
      await db.insert(basketPromotions).values({ basketId, promotionId: row.id }).onConflictDoNothing();
      const cart = await basket.cart(owner);
      // A code that takes nothing off this basket is not kept: the customer is told what it needs.
      const notice = cart.discount_notices.find((n) => n.code === code);
      if (notice) {
        await db.delete(basketPromotions).where(and(eq(basketPromotions.basketId, basketId), eq(basketPromotions.promotionId, row.id)));
        return refuse(notice.message);
      }
      return { cart, message: `Code ${code} applied: ${row.name}.` };
    },

    /** Takes one code (or, without one, every code) out of the basket. */
    async remove(owner: BasketOwner, typed?: string): Promise<{ cart: Basket; message: string }> {
      const basketId = await basket.idOf(owner);
      const row = typed ? await byCode(typed) : null;
      if (typed && !row) return refuse(`The code ${typed.trim().toUpperCase()} is not in your basket.`);
      await db.delete(basketPromotions).where(and(eq(basketPromotions.basketId, basketId), ...(row ? [eq(basketPromotions.promotionId, row.id)] : [])));
      return { cart: await basket.cart(owner), message: row ? `Code ${row.code} removed.` : "Codes removed." };
    },
  };
}

export type BasketCodes = ReturnType<typeof createBasketCodes>;
