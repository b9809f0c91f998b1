// The multi-buys a product is in, for the badge on its card and its page
// (issue 32): the automatic promotions running now that reach it by its id,
// its categories (with their ancestors) or its brand, and that this buyer
// gets (a trade-only offer is not shown to consumers, nor the reverse).
import { and, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { productListing } from "../catalog/schema.ts";
import { forBuyer, reaches } from "./rules.ts";
import { ruleOf, runningNow } from "./running.ts";
import { promotions } from "./schema.ts";

/** A product's offers by id: the multi-buys' names ("3 for 2 on gloves"). One query when none is running, two otherwise. */
export async function multiBuyOffers(q: Db, products: readonly { id: number; brandId: number | null }[], trade: boolean): Promise<Map<number, string[]>> {
  const offers = new Map<number, string[]>();
  if (products.length === 0) return offers;
  const running = (await q.select().from(promotions).where(and(isNull(promotions.code), runningNow))).map(ruleOf).filter((p) => forBuyer(p, trade));
  if (running.length === 0) return offers;
  const listed = await q
    .select({ id: productListing.productId, categoryIds: productListing.categoryIds })
    .from(productListing)
    .where(inArray(productListing.productId, products.map((p) => p.id)));
  const categoriesOf = new Map(listed.map((l) => [l.id, l.categoryIds ?? []]));
  for (const p of products) {
    const line = { productId: p.id, categoryIds: categoriesOf.get(p.id) ?? [], brandId: p.brandId };
    const names = running.filter((r) => reaches(r.appliesTo, line)).map((r) => r.name);
    if (names.length) offers.set(p.id, names);
  }
  return offers;
}
