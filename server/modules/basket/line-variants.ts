import { type SQL, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { productVariants, products } from "../catalog/schema.ts";
import type { LineVariant } from "./bulk.ts";

/** The variants a list of lines names (by SKU, or by id), on sale or not, with their product's words, price and stock: the quick order's and the quotes' one read. */
export function lineVariants(q: Db, where: SQL | undefined): Promise<LineVariant[]> {
  return q
    .select({
      id: productVariants.id,
      productId: products.id,
      sku: productVariants.sku,
      name: products.name,
      slug: products.slug,
      options: productVariants.options,
      unit: products.unit,
      pricePence: productVariants.pricePence,
      vatRate: products.vatRate,
      stock: productVariants.stock,
      onSale: sql<boolean>`${products.status} = 'published' and ${productVariants.status} = 'active'`,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(where)
    .orderBy(asc(productVariants.id));
}
