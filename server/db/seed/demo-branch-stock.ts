import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../client.ts";
import { branches } from "../../modules/branches/schema.ts";
import { productVariants, products } from "../../modules/catalog/schema.ts";
import { applyMovements } from "../../modules/stock/ledger.ts";

/**
 * The demo's stock beyond Leeds (issue 30): every product keeps its Leeds
 * stock (the default branch, where the demo's journeys collect), and about
 * half also have some at York, Manchester or Harrogate, received there, so a
 * newcomer sees branches with different stock, transfers with something to
 * send, and "order now, ready tomorrow" where their branch has none.
 */
export async function seedDemoBranchStock(tx: Db): Promise<number> {
  const others = await tx.select({ id: branches.id, slug: branches.slug }).from(branches).where(and(ne(branches.isDefault, true), eq(branches.status, "open"))).orderBy(asc(branches.position));
  const at = (slug: string) => others.find((b) => b.slug === slug)?.id;
  const variants = await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.status, "published"), eq(productVariants.status, "active")))
    .orderBy(asc(productVariants.id));
  // A fixed pattern, so every demo shop is the same: York every second variant, Manchester every third, Harrogate every fifth.
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
