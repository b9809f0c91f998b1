import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { findCategory } from "./categories/category-tree.ts";
import type { CategoryNode } from "./contract.ts";
import { type Category, categories, categoryRedirects, manufacturers, products } from "./schema.ts";

function toNode(c: Pick<Category, "id" | "name" | "slug" | "path" | "description">): CategoryNode {
  return { id: c.id, name: c.name, slug: c.slug, path: c.path, description: c.description, children: [] };
}

export function createCatalogService(db: Db) {
  /** The whole tree in one query, assembled in memory (the tree is small). */
  async function categoryTree(): Promise<CategoryNode[]> {
    const rows = await db
      .select({ id: categories.id, parentId: categories.parentId, name: categories.name, slug: categories.slug, path: categories.path, description: categories.description })
      .from(categories)
      .orderBy(asc(categories.position), asc(categories.id));
    const byId = new Map(rows.map((r) => [r.id, toNode(r)]));
    const roots: CategoryNode[] = [];
    for (const row of rows) {
      const node = byId.get(row.id)!;
      const parent = row.parentId === null ? undefined : byId.get(row.parentId);
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  return {
    categoryTree,

    /** A category by its slug path, with its ancestors for breadcrumbs and its children. */
    async categoryByPath(path: string): Promise<{ category: CategoryNode; ancestors: CategoryNode[] } | null> {
      return findCategory(await categoryTree(), path);
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

    /** Where an earlier path of a renamed or moved category now lives: the storefront answers it with a 301. */
    async movedCategory(path: string): Promise<string | null> {
      const [row] = await db
        .select({ path: categories.path })
        .from(categoryRedirects)
        .innerJoin(categories, eq(categories.id, categoryRedirects.categoryId))
        .where(eq(categoryRedirects.path, path))
        .limit(1);
      return row?.path ?? null;
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
