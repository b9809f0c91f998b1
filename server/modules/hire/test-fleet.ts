import type { Db } from "../../db/client.ts";
import { hireCategories, hireItems, hireUnits } from "./schema.ts";

/**
 * For tests: a hire item of the test's own (so no other test's bookings touch
 * it) at £10 a day, £15 a weekend and £40 a week, with units `<prefix>-1`….
 */
export async function testFleet(db: Db, options: { name: string; prefix: string; units: number; deposit?: number }) {
  const [category] = await db.select().from(hireCategories).limit(1);
  const [item] = await db
    .insert(hireItems)
    .values({ slug: options.prefix.toLowerCase(), name: options.name, hireCategoryId: category!.id, dayRate: 1000, weekendRate: 1500, weekRate: 4000, deposit: options.deposit ?? 0 })
    .returning();
  const units = await db
    .insert(hireUnits)
    .values(Array.from({ length: options.units }, (_, i) => ({ hireItemId: item!.id, assetNumber: `${options.prefix}-${i + 1}` })))
    .returning();
  return { item: item!, units };
}
