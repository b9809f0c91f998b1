import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { branches } from "../../modules/branches/schema.ts";
import { productVariants, products } from "../../modules/catalog/schema.ts";
import { applyMovements } from "../../modules/stock/ledger.ts";

/**
 * The demo's stock beyond Leeds (issue 30): every product keeps its Leeds
 * stock (the default branch, where the demo's journeys collect), and some
 * also have stock at York, Manchester or Harrogate, received there, so a
 * newcomer sees branches with different stock, transfers with something to
 * send, and "order now, ready tomorrow" where their branch has none.
 */
/** How many products get stock at the other branches. */
const DEMO_SPREAD = 24;

export async function seedDemoBranchStock(tx: Db): Promise<number> {
  const others = await tx.select({ id: branches.id, slug: branches.slug }).from(branches).where(and(ne(branches.isDefault, true), eq(branches.status, "open"))).orderBy(asc(branches.position));
  const at = (slug: string) => others.find((b) => b.slug === slug)?.id;
  // The catalogue's last products with one variant each (the tests' own picks come from its start), so the pattern is the same in every demo shop.
  const variants = await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.status, "published"), eq(productVariants.status, "active"), sql`(select count(*) from ${productVariants} w where w.product_id = ${products.id}) = 1`))
    .orderBy(desc(products.id))
    .limit(DEMO_SPREAD);
  // York every second of them, Manchester every third, Harrogate every fifth.
  const movements = variants.flatMap((v, i) =>
    [
      { branchId: at("york"), every: 2, quantity: 3 + (i % 6) },
      { branchId: at("manchester"), every: 3, quantity: 2 + (i % 5) },
      { branchId: at("harrogate"), every: 5, quantity: 4 },
    ]
      .filter((b) => b.branchId !== undefined && i % b.every === 1)
      .map((b) => ({ variantId: v.id, branchId: b.branchId!, change: b.quantity, kind: "received" as const, reason: "Demo stock at the branch" })),
  );
  if (movements.length) await applyMovements(tx, movements);
  return movements.length;
}
