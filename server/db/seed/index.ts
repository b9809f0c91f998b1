import { sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { hashPassword } from "../../modules/auth/passwords.ts";
import { categories, users } from "../schema.ts";
import { refreshSearchWords } from "../../modules/catalog/search/product-search.ts";
import { recordOpeningStock } from "../../modules/stock/ledger.ts";
import { deriveAttributeSets } from "../../modules/catalog/categories/attribute-sets.ts";
import { seedDemoCatalogue } from "./catalogue.ts";
import { type CategorySeed, demoCategories, slugify } from "./demo-categories.ts";
import { seedDemoDelivery } from "./demo-delivery.ts";
import { seedDemoVariants } from "./demo-variants.ts";
import { seedDemoBranchStock } from "./demo-branch-stock.ts";
import { seedDemoBranches } from "./demo-branches.ts";
import { seedDemoDepots, seedDemoHire } from "./demo-hire.ts";
import { DEMO_TRADE, DEMO_TRADE_USERS, seedDemoJoinery, seedDemoTrade } from "./demo-trade.ts";
import { seedDemoPromotions } from "./demo-promotions.ts";
import { seedDemoQuotes } from "./demo-quotes.ts";
import { DEMO_STAFF, seedDemoStaff } from "./demo-staff.ts";

export { DEMO_STAFF, DEMO_TRADE, DEMO_TRADE_USERS };

/** True when the shop has no catalogue yet: the demo seed only fills an empty database. */
export async function isEmpty(db: Db): Promise<boolean> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(categories);
  return (rows[0]?.n ?? 0) === 0;
}

async function insertTree(db: Db, nodes: CategorySeed[], parent: { id: number; path: string } | null): Promise<number> {
  let count = 0;
  for (const [position, node] of nodes.entries()) {
    const slug = slugify(node.name);
    const path = parent ? `${parent.path}/${slug}` : slug;
    const [row] = await db
      .insert(categories)
      .values({ parentId: parent?.id ?? null, slug, path, name: node.name, description: node.description ?? "", position })
      .returning({ id: categories.id });
    if (!row) throw new Error(`Could not insert category ${path}`);
    count += 1;
    if (node.children) count += await insertTree(db, node.children, { id: row.id, path });
  }
  return count;
}

/** The demo customer; created by the demo seed only, never in production. */
export const DEMO_CUSTOMER = { email: "customer@example.com", password: "demo-password-2026", firstname: "Sam", lastname: "Carter" };

/** Seeds the demo shop in one transaction, so a failed seed leaves nothing half-made. */
export async function seedDemo(db: Db): Promise<{ categories: number; manufacturers: number; products: number; hireItems: number; addresses: number; users: number }> {
  const passwordHash = await hashPassword(DEMO_CUSTOMER.password);
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const count = await insertTree(tx, demoCategories, null);
    const catalogue = await seedDemoCatalogue(tx);
    const variantProducts = await seedDemoVariants(tx);
    await refreshSearchWords(tx);
    await recordOpeningStock(tx);
    await deriveAttributeSets(tx);
    const hireItemCount = await seedDemoHire(tx);
    const delivery = await seedDemoDelivery(tx);
    await seedDemoBranches(tx);
    await seedDemoDepots(tx);
    await seedDemoBranchStock(tx);
    await tx
      .insert(users)
      .values({ email: DEMO_CUSTOMER.email, firstname: DEMO_CUSTOMER.firstname, lastname: DEMO_CUSTOMER.lastname, passwordHash })
      .onConflictDoNothing();
    await seedDemoTrade(tx, passwordHash);
    await seedDemoJoinery(tx, passwordHash);
    await seedDemoStaff(tx, passwordHash);
    await seedDemoPromotions(tx);
    await seedDemoQuotes(tx);
    return { categories: count, manufacturers: catalogue.manufacturers, products: catalogue.products + variantProducts, hireItems: hireItemCount, ...delivery, users: 3 + DEMO_TRADE_USERS.length };
  });
}
