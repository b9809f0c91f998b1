import { asc, desc, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { ProductService } from "./products.ts";
import { categories, manufacturers, products } from "./schema.ts";

export interface Suggestion {
  type: "product" | "category" | "manufacturer";
  label: string;
  url: string;
}

export function createSearchService(db: Db, productService: ProductService) {
  /** The closest name the shop knows, for "did you mean". */
  async function didYouMean(q: string): Promise<string | null> {
    const [best] = await db
      .select({ name: products.name, score: sql<number>`word_similarity(${q}, ${products.name})` })
      .from(products)
      .where(sql`${q} <% ${products.name}`)
      .orderBy(desc(sql`word_similarity(${q}, ${products.name})`))
      .limit(1);
    const [brand] = await db
      .select({ name: manufacturers.name, score: sql<number>`similarity(${q}, ${manufacturers.name})` })
      .from(manufacturers)
      .orderBy(desc(sql`similarity(${q}, ${manufacturers.name})`))
      .limit(1);
    const candidates = [best, brand].filter((c): c is { name: string; score: number } => !!c && c.score > 0.2);
    candidates.sort((a, b) => b.score - a.score);
    return candidates[0]?.name ?? null;
  }

  return {
    async search(q: string, options: { page?: number; perPage?: number } = {}) {
      const result = await productService.list({ q, sort: "relevance", page: options.page, perPage: options.perPage });
      const suggestion = result && result.total === 0 ? await didYouMean(q) : null;
      return { ...result!, query: q, did_you_mean: suggestion };
    },

    /** Up to 8 suggestions for the header search box: brands, categories, then products. */
    async suggest(q: string): Promise<Suggestion[]> {
      const like = `%${q.replace(/[\\%_]/g, "\\$&")}%`;
      const [brands, cats, items] = await Promise.all([
        db
          .select({ name: manufacturers.name, id: manufacturers.id })
          .from(manufacturers)
          .where(sql`${manufacturers.name} ilike ${like} or ${q} <% ${manufacturers.name}`)
          .orderBy(desc(sql`word_similarity(${q}, ${manufacturers.name})`), asc(manufacturers.name))
          .limit(2),
        db
          .select({ name: categories.name, path: categories.path })
          .from(categories)
          .where(sql`${categories.name} ilike ${like}`)
          .orderBy(asc(categories.name))
          .limit(2),
        db
          .select({ name: products.name, slug: products.slug })
          .from(products)
          .where(sql`${products.name} ilike ${like} or ${q} <% ${products.name} or lower(${products.sku}) = lower(${q})`)
          .orderBy(desc(sql`word_similarity(${q}, ${products.name})`), asc(products.name))
          .limit(8),
      ]);
      const all: Suggestion[] = [
        ...brands.map((b) => ({ type: "manufacturer" as const, label: b.name, url: `/manufacturer/${b.id}` })),
        ...cats.map((c) => ({ type: "category" as const, label: c.name, url: `/category/${c.path}` })),
        ...items.map((p) => ({ type: "product" as const, label: p.name, url: `/product/${p.slug}` })),
      ];
      return all.slice(0, 8);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
