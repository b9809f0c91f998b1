import { sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { categories } from "../schema.ts";
import { type CategorySeed, demoCategories, slugify } from "./demo-categories.ts";

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

/** Seeds the demo shop in one transaction, so a failed seed leaves nothing half-made. */
export async function seedDemo(db: Db): Promise<{ categories: number }> {
  return db.transaction(async (tx) => ({ categories: await insertTree(tx as unknown as Db, demoCategories, null) }));
}
