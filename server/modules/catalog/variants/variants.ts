import { type SQL, and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { productVariants, products } from "../schema.ts";

/**
 * The variant rules the catalogue's services share (ADR 0046): the variant is
 * what is sold, and a product is found by any of its variants' SKUs.
 */

/** The product that has a variant with this SKU (any case): the product's own SKU is its first variant's. */
export function productWithSku(sku: string): SQL {
  return sql`${products.id} = (select ${productVariants.productId} from ${productVariants} where lower(${productVariants.sku}) = ${sku.trim().toLowerCase()} order by ${productVariants.id} limit 1)`;
}

/**
 * The product with a variant of this SKU, locked for the rest of the
 * transaction with all its variants. Variants first, then the product: the
 * order the stock ledger takes them in (a variant's row, then its product's
 * summary by trigger), so a save racing a checkout waits and never deadlocks.
 */
export async function lockProductWithSku(tx: Db, sku: string) {
  await tx.select({ id: productVariants.id }).from(productVariants).where(sql`${productVariants.productId} in (select ${products.id} from ${products} where ${productWithSku(sku)})`).orderBy(asc(productVariants.id)).for("update");
  const [row] = await tx.select().from(products).where(productWithSku(sku)).for("update").limit(1);
  return row ?? null;
}

/** The same, or 404: the product screens' and variant calls' lookup by a SKU in the address. */
export async function lockedProductWithSku(tx: Db, sku: string) {
  const row = await lockProductWithSku(tx, sku);
  if (!row) throw new HttpError(404, "No product has that SKU.");
  return row;
}

/** A product's active variants in the picker's order. */
export function activeVariantsOf(q: Db, productId: number) {
  return q
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), eq(productVariants.status, "active")))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
}

/**
 * The one variant a product-level figure (its SKU, price, stock or reorder
 * level) belongs to: a product with several is changed variant by variant,
 * and a change to it as a whole is refused naming the fields.
 */
export async function soleVariant(q: Db, productId: number, fields: string[]) {
  const variants = await activeVariantsOf(q, productId).for("update");
  if (variants.length !== 1) {
    throw new ValidationError(Object.fromEntries(fields.map((f) => [f, [`This product has ${variants.length} variants: change ${f.replace(/_/g, " ")} on each variant.`]])));
  }
  return variants[0]!;
}
