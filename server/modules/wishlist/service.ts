import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import { type ProductService, onSale } from "../catalog/products/products.ts";
import type { PriceContext } from "../trade/pricing.ts";
import { products } from "../catalog/schema.ts";
import { wishlistItems } from "./schema.ts";

export const MAX_WISHLIST = 200;

export function createWishlistService(db: Db, productService: ProductService) {
  return {
    async list(userId: number, prices?: PriceContext) {
      const rows = await db
        .select({ productId: wishlistItems.productId, addedAt: wishlistItems.addedAt })
        .from(wishlistItems)
        .where(eq(wishlistItems.userId, userId))
        .orderBy(desc(wishlistItems.addedAt))
        .limit(MAX_WISHLIST);
      const cards = await productService.byIds(rows.map((r) => r.productId), prices);
      const byId = new Map(cards.map((c) => [c.id, c]));
      return rows.flatMap((r) => {
        const product = byId.get(r.productId);
        if (!product) return [];
        const { attributes: _attributes, ...card } = product;
        return [{ product_id: r.productId, product: card, added_at: r.addedAt.toISOString() }];
      });
    },

    /** Adding twice keeps one row. */
    async add(userId: number, productId: number): Promise<void> {
      const [exists] = await db.select({ id: products.id }).from(products).where(and(eq(products.id, productId), onSale)).limit(1);
      if (!exists) throw new HttpError(404, "Product not found.");
      await db.insert(wishlistItems).values({ userId, productId }).onConflictDoNothing();
    },

    async remove(userId: number, productId: number): Promise<void> {
      await db.delete(wishlistItems).where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
    },
  };
}

export type WishlistService = ReturnType<typeof createWishlistService>;
