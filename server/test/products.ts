import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { productVariants, products } from "../modules/catalog/schema.ts";

/**
 * A published product of the demo seed with one variant and no heavy-goods
 * charge, the `nth` such by id, set to this stock and list price (pence ex
 * VAT, 20% VAT): a line whose figures a test can work out. Its id and SKU.
 */
export async function oneVariantProduct(db: Db, nth: number, stock: number, pricePence: number): Promise<{ id: number; sku: string }> {
  const [p] = await db
    .update(products)
    .set({ stock, pricePence, vatRate: 20 })
    .where(
      eq(
        products.id,
        sql`(select p.id from products p where p.status = 'published' and not p.heavy and (select count(*) from product_variants v where v.product_id = p.id) = 1 order by p.id offset ${nth} limit 1)`,
      ),
    )
    .returning({ id: products.id });
  const [v] = await db.update(productVariants).set({ pricePence }).where(eq(productVariants.productId, p!.id)).returning({ sku: productVariants.sku });
  return { id: p!.id, sku: v!.sku };
}

/**
 * A claw hammer (£10) and a spirit level (£20) under these two SKUs (their
 * slugs are the SKUs in lower case) with this stock: the two products the
 * back-office desk tests order, cancel and wish for. Their ids, hammer first.
 */
export async function hammerAndLevel(db: Db, skus: readonly [string, string], stock: readonly [number, number]): Promise<[number, number]> {
  const made = await db
    .insert(products)
    .values([
      { sku: skus[0], slug: skus[0].toLowerCase(), name: "Claw hammer", pricePence: 1000, stock: stock[0] },
      { sku: skus[1], slug: skus[1].toLowerCase(), name: "Spirit level", pricePence: 2000, stock: stock[1] },
    ])
    .returning({ id: products.id });
  return [made[0]!.id, made[1]!.id];
}
