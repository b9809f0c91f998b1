// The catalogue's read paths, run once through the real services with every
// query captured, then EXPLAINed: a sequential scan of `products` on any of
// them is reported, so an index that stops being used cannot go unnoticed.
import pg from "pg";
import { openPostgres } from "../../server/db/client.ts";
import { createProductService } from "../../server/modules/catalog/products/products.ts";
import { createSearchService } from "../../server/modules/catalog/search/search.ts";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode, found: string[] = []): string[] {
  if (node["Node Type"] === "Seq Scan" && node["Relation Name"]) found.push(node["Relation Name"]);
  for (const child of node.Plans ?? []) seqScans(child, found);
  return found;
}

export interface ExplainRow {
  path: string;
  queries: number;
  /** Tables read by a sequential scan on this path. */
  seqScans: string[];
}

export async function explainCatalogue(databaseUrl: string, categoryPath: string): Promise<ExplainRow[]> {
  const captured: { query: string; params: unknown[] }[] = [];
  const database = await openPostgres(databaseUrl, { max: 1, logQuery: (query, params) => captured.push({ query, params }) });
  const products = createProductService(database.db);
  const search = createSearchService(database.db, products);
  const paths: [string, () => Promise<unknown>][] = [
    ["category listing", () => products.list({ category: categoryPath })],
    ["category listing, in stock, by price, page 20", () => products.list({ category: categoryPath, inStock: true, sort: "price_asc", page: 20 })],
    ["filtered listing (brands, attribute, in stock)", () => products.list({ category: categoryPath, manufacturer: [1, 2], inStock: true, attributes: { Colour: ["Red"] }, sort: "price_asc" })],
    ["price range", () => products.list({ category: categoryPath, priceMin: 20, priceMax: 200 })],
    ["all products", () => products.list({})],
    ["search", () => search.search("makita drill")],
    ["search with typos", () => search.search("makta dril")],
    ["suggestions", () => search.suggest("mak")],
    ["product page", () => products.bySlug("generated-product-1")],
  ];
  const rows: ExplainRow[] = [];
  const explainer = new pg.Client({ connectionString: databaseUrl });
  await explainer.connect();
  try {
    for (const [path, run] of paths) {
      captured.length = 0;
      await run();
      const found = new Set<string>();
      const queries = [...captured];
      for (const { query, params } of queries) {
        const result = await explainer.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`explain (format json) ${query}`, params);
        for (const table of seqScans(result.rows[0]!["QUERY PLAN"][0]!.Plan)) found.add(table);
      }
      rows.push({ path, queries: queries.length, seqScans: [...found].sort() });
    }
  } finally {
    await explainer.end();
    await database.close();
  }
  return rows;
}
