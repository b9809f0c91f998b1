// The catalogue's search: the words of a query, close words the catalogue uses,
// the full-text condition and rank, an exact SKU or barcode first.
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { productVariants, products, searchWords as searchWordsTable } from "../schema.ts";

/** The words of a search, at most 6, each at least 2 letters or digits. */
export function searchWords(q: string): string[] {
  return q
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 2)
    .slice(0, 6);
}

/**
 * Each query word with up to 3 close words the catalogue really uses
 * ("makta" → "makita", "dril" → "drill"), found by trigram similarity in the
 * small `search_words` table rather than across every product.
 */
export async function expandSearchWords(db: Db, words: string[]): Promise<string[][]> {
  if (words.length === 0) return [];
  const result = (await db.execute(sql`
    select q.w as word, s.word as close
    from unnest(string_to_array(${words.join(" ")}, ' ')) as q(w)
    cross join lateral (
      select word from ${searchWordsTable} where word % q.w order by word <-> q.w limit 3
    ) s`)) as unknown as { rows: { word: string; close: string }[] };
  return words.map((w) => [w, ...result.rows.filter((r) => r.word === w && r.close !== w).map((r) => r.close)]);
}

/** `(makta | makita) & (dril | drill)`: every word, or a close one, must match. Words are [a-z0-9] only. */
export function tsqueryText(groups: string[][]): string {
  return groups.map((g) => `(${g.join(" | ")})`).join(" & ");
}

/** The product has a variant whose SKU (any case) or barcode is exactly the query: both indexed. */
export function variantCodeMatch(q: string): SQL {
  const code = q.trim();
  return sql`${products.id} in (select ${productVariants.productId} from ${productVariants} where (lower(${productVariants.sku}) = lower(${code}) or ${productVariants.barcode} = ${code}) and ${productVariants.status} = 'active')`;
}

/** An exact SKU or barcode of any variant, or the full-text match of every (corrected) word: all use indexes. */
export function searchCondition(q: string, groups: string[][]): SQL {
  const text = tsqueryText(groups);
  const fullText = text ? sql` or ${products.searchVector} @@ to_tsquery('english', ${text})` : sql``;
  return sql`(${variantCodeMatch(q)}${fullText})`;
}

/** The active variants whose SKU or barcode is exactly the query, by product: a search for one lands on it. */
export async function variantsByCode(db: Db, q: string): Promise<Map<number, string>> {
  const code = q.trim();
  if (!code) return new Map();
  const rows = await db
    .select({ productId: productVariants.productId, sku: productVariants.sku })
    .from(productVariants)
    .where(sql`(lower(${productVariants.sku}) = lower(${code}) or ${productVariants.barcode} = ${code}) and ${productVariants.status} = 'active'`)
    .limit(8);
  return new Map(rows.map((r) => [r.productId, r.sku]));
}

/** Exact SKU first, then full-text relevance, then closeness of the words to the name. */
export function searchRank(q: string, groups: string[][]): SQL<number> {
  const text = tsqueryText(groups);
  const words = groups.map((g) => g[0]!);
  const closeness = words.length ? sql.join(words.map((w) => sql`word_similarity(${w}, ${products.name})`), sql` + `) : sql`0`;
  const relevance = text ? sql`ts_rank(${products.searchVector}, to_tsquery('english', ${text})) * 10` : sql`0`;
  return sql<number>`(case when ${variantCodeMatch(q)} then 1000 else 0 end + ${relevance} + ${closeness})`;
}

/**
 * Adds the words of these products (all when none given) to the search
 * dictionary. Words with digits (SKUs, sizes) are left out: a typo there is
 * not a near word, and 100,000 SKUs would swamp the dictionary.
 */
export async function refreshSearchWords(db: Db, productIds?: number[]): Promise<void> {
  const only = productIds?.length ? sql`where ${products.id} in ${productIds}` : sql``;
  await db.execute(sql`
    insert into ${searchWordsTable} (word)
    select distinct w from ${products}, regexp_split_to_table(lower(${products.name} || ' ' || ${products.searchText}), '[^a-z0-9]+') as w
    ${only} ${productIds?.length ? sql`and` : sql`where`} length(w) >= 2 and w !~ '[0-9]'
    on conflict do nothing`);
}

/** `Name=Value` counts as facet groups: names in order, values in natural order (2.4 m before 10 m). */
