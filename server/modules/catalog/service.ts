import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { CategoryNode } from "./contract.ts";
import { type Category, categories, manufacturers, products } from "./schema.ts";


function toNode(c: Category): CategoryNode {
  return { id: c.id, name: c.name, slug: c.slug, path: c.path, description: c.description, children: [] };
}

export function createCatalogService(db: Db) {
  return {
    /** The whole tree in one query, assembled in memory (the tree is small). */
    async categoryTree(): Promise<CategoryNode[]> {
      const rows = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
      const byId = new Map(rows.map((r) => [r.id, toNode(r)]));
      const roots: CategoryNode[] = [];
      for (const row of rows) {
        const node = byId.get(row.id)!;
        const parent = row.parentId === null ? undefined : byId.get(row.parentId);
        (parent ? parent.children : roots).push(node);
      }
      return roots;
    },

    /** A category by its slug path, with its ancestors for breadcrumbs and its children. */
    async categoryByPath(path: string): Promise<{ category: CategoryNode; ancestors: CategoryNode[] } | null> {
      const [row] = await db.select().from(categories).where(eq(categories.path, path)).limit(1);
      if (!row) return null;
      const segments = path.split("/");
      const ancestorPaths = segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join("/"));
      const [ancestors, children] = await Promise.all([
        ancestorPaths.length
          ? db.select().from(categories).where(inArray(categories.path, ancestorPaths))
          : Promise.resolve([] as Category[]),
        db.select().from(categories).where(eq(categories.parentId, row.id)).orderBy(asc(categories.position)),
      ]);
      const category = { ...toNode(row), children: children.map(toNode) };
      const ordered = ancestorPaths.map((p) => ancestors.find((a) => a.path === p)).filter((a) => a !== undefined);
      return { category, ancestors: ordered.map(toNode) };
    },

    /** Every brand with how many products it has. */
    async manufacturers() {
      // A join, not a correlated subquery: in a one-table select Drizzle writes
      // ${manufacturers.id} as a bare "id", which inside `from products p`
      // would mean p.id and give every brand the same count.
      return db
        .select({
          id: manufacturers.id,
          name: manufacturers.name,
          slug: manufacturers.slug,
          logo: manufacturers.logo,
          description: manufacturers.description,
          product_count: sql<number>`count(${products.id})::int`,
        })
        .from(manufacturers)
        .leftJoin(products, eq(products.manufacturerId, manufacturers.id))
        .groupBy(manufacturers.id)
        .orderBy(asc(manufacturers.name))
        .limit(500);
    },

    async manufacturer(id: number) {
      const [row] = await db
        .select({ id: manufacturers.id, name: manufacturers.name, slug: manufacturers.slug, logo: manufacturers.logo, description: manufacturers.description })
        .from(manufacturers)
        .where(eq(manufacturers.id, id))
        .limit(1);
      return row ?? null;
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
