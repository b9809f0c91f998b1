import { asc, desc, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import type { PriceContext } from "../../trade/pricing.ts";
import { type ProductService, onSale } from "../products/products.ts";
import { expandSearchWords, searchWords, variantCodeMatch, variantsByCode } from "./product-search.ts";
import { categories, manufacturers, products, searchWords as searchWordsTable } from "../schema.ts";

export interface Suggestion {
  type: "product" | "category" | "manufacturer";
  label: string;
  url: string;
}

export function createSearchService(db: Db, productService: ProductService) {
  /** The query with each word replaced by the closest word the catalogue uses, for "did you mean". */
  async function didYouMean(q: string): Promise<string | null> {
    const words = searchWords(q);
    if (words.length === 0) return null;
    const result = (await db.execute(sql`
      select (select word from ${searchWordsTable} where word % q.w order by word <-> q.w limit 1) as best
      from unnest(string_to_array(${words.join(" ")}, ' ')) with ordinality as q(w, n)
      order by q.n`)) as unknown as { rows: { best: string | null }[] };
    const suggestion = result.rows.map((r) => r.best).filter((w): w is string => !!w).join(" ");
    return suggestion && suggestion !== words.join(" ") ? suggestion : null;
  }

  /**
   * Products for the search box: every word (or a close catalogue word) must
   * match, the last one as a prefix, through the full-text index. A common
   * prefix ("mak") matches thousands, so only 100 of the matches are ranked
   * by closeness to the name: the box wants quick, likely answers, and the
   * search page ranks them all.
   */
  async function productSuggestions(q: string): Promise<{ id: number; name: string; slug: string }[]> {
    const groups = await expandSearchWords(db, searchWords(q));
    const text = groups.map((g, i) => (i === groups.length - 1 ? g.map((w) => `${w}:*`) : g)).map((g) => `(${g.join(" | ")})`).join(" & ");
    const fullText = text ? sql` or ${products.searchVector} @@ to_tsquery('english', ${text})` : sql``;
    // The matches come from the index (materialised, so a LIMIT cannot talk the
    // planner into a scan that hopes to meet 100 matches early); the first 100
    // are ranked.
    const result = (await db.execute(sql`
      with matches as materialized (
        select ${products.id} as id from ${products}
        where (${variantCodeMatch(q)}${fullText}) and ${onSale}
      )
      select ${products.id} as id, ${products.name} as name, ${products.slug} as slug from ${products}
      where ${products.id} in (select id from matches limit 100)
      order by word_similarity(${q}, ${products.name}) desc, ${products.name} asc
      limit 8`)) as unknown as { rows: { id: number; name: string; slug: string }[] };
    return result.rows;
  }

  return {
    async search(q: string, options: { page?: number; perPage?: number } = {}, prices?: PriceContext) {
      const [result, codes] = await Promise.all([productService.list({ q, sort: "relevance", page: options.page, perPage: options.perPage }, prices), variantsByCode(db, q)]);
      const suggestion = result && result.total === 0 ? await didYouMean(q) : null;
      // A search for a variant's SKU or barcode lands on that variant: its card names it.
      const items = result!.items.map((card) => (codes.has(card.id) ? { ...card, variant_sku: codes.get(card.id)! } : card));
      return { ...result!, items, query: q, did_you_mean: suggestion };
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
        productSuggestions(q),
      ]);
      const codes = items.length ? await variantsByCode(db, q) : new Map<number, string>();
      const all: Suggestion[] = [
        ...brands.map((b) => ({ type: "manufacturer" as const, label: b.name, url: `/manufacturer/${b.id}` })),
        ...cats.map((c) => ({ type: "category" as const, label: c.name, url: `/category/${c.path}` })),
        ...items.map((p) => ({ type: "product" as const, label: p.name, url: `/product/${p.slug}${codes.has(p.id) ? `?variant=${encodeURIComponent(codes.get(p.id)!)}` : ""}` })),
      ];
      return all.slice(0, 8);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
