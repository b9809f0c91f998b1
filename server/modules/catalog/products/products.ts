import { type SQL, and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { type PriceContext, RETAIL } from "../../trade/pricing.ts";
import { categories, listingFacets, manufacturers, productAttributes, productCategories, productListing, productOptions, productSlugRedirects, productVariants, products, relatedProducts } from "../schema.ts";
import type { Coverage } from "./units.ts";
import { pounds } from "./prices.ts";
import { type CardVariants, type ProductCard, type ProductRow, cardVariants, selectCards, toCard, variantJson, withOffers } from "./product-cards.ts";
import { expandSearchWords, searchCondition, searchRank, searchWords } from "../search/product-search.ts";

export const MAX_PER_PAGE = 96;
export const MAX_PAGE = 500;

export type ProductSort = "relevance" | "price_asc" | "price_desc" | "newest" | "name";

export interface ProductQuery {
  category?: string;
  manufacturer?: number[];
  priceMin?: number;
  priceMax?: number;
  inStock?: boolean;
  /** Attribute name → accepted values (values of one name are alternatives). */
  attributes?: Record<string, string[]>;
  /** Option name → accepted values: a product with a variant of any of them (Length: 3.0 m). */
  options?: Record<string, string[]>;
  q?: string;
  sort?: ProductSort;
  page?: number;
  perPage?: number;
}

/** Money helpers that many modules import from here (their home is prices.ts, which has no database). */
export { incVat, pounds } from "./prices.ts";
/** The card a listing shows (product-cards.ts; the storefront's card component mirrors it). */
export type { ProductCard } from "./product-cards.ts";

/** On the storefront: listed, found, shown and sold. Drafts and archived products are the back office's alone. */
export const onSale = sql`${products.status} = 'published'`;

function optionFacet(rows: { key: string; count: number }[]): { name: string; values: { value: string; count: number }[] }[] {
  const natural = new Intl.Collator("en-GB", { numeric: true }).compare;
  const groups = new Map<string, { value: string; count: number }[]>();
  for (const r of rows) {
    const at = r.key.indexOf("=");
    const name = r.key.slice(0, at);
    groups.set(name, [...(groups.get(name) ?? []), { value: r.key.slice(at + 1), count: r.count }]);
  }
  return [...groups]
    .sort(([a], [b]) => natural(a, b))
    .map(([name, values]) => ({ name, values: values.sort((x, y) => natural(x.value, y.value)) }));
}

/** A text[] literal from values, each its own parameter. */
const textArray = (values: string[]) => sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`;

/** `Name=Value`, as product_listing.attribute_keys holds them. */
const attributeKey = (name: string, value: string) => `${name}=${value}`;

export function createProductService(db: Db) {
  const L = productListing;

  return {
    /**
     * A listing page with its facets. Every filter, sort and count runs on the
     * narrow `product_listing` rows (a category holds its subcategories'
     * products through `category_ids`); only the page's products are then read
     * from `products`.
     */
    async list(query: ProductQuery, prices: PriceContext = RETAIL) {
      const page = Math.min(Math.max(1, query.page ?? 1), MAX_PAGE);
      const perPage = Math.min(Math.max(1, query.perPage ?? 24), MAX_PER_PAGE);
      const q = query.q?.trim() || undefined;
      const groups = q ? await expandSearchWords(db, searchWords(q)) : [];

      // Filters that facets keep: category, price, stock and the search words.
      const base: SQL[] = [];
      let categoryId = 0;
      if (query.category) {
        const [category] = await db.select({ id: categories.id }).from(categories).where(eq(categories.path, query.category)).limit(1);
        if (!category) return null;
        categoryId = category.id;
        base.push(sql`${L.categoryIds} @> array[${category.id}]::integer[]`);
      }
      // Option values filter (and price) by one variant that has them all: see matchingVariant below.
      const optionFilters = Object.entries(query.options ?? {}).filter(([, v]) => v.length > 0);
      // A product's listed price is its cheapest variant's, so "at most £x" holds for it whenever it holds for a
      // matching variant; "at least £x" may not (the matching variant can be dearer), and is the variant's to answer.
      if (query.priceMin !== undefined && optionFilters.length === 0) base.push(sql`${L.pricePence} >= ${Math.round(query.priceMin * 100)}`);
      if (query.priceMax !== undefined) base.push(sql`${L.pricePence} <= ${Math.round(query.priceMax * 100)}`);
      if (query.inStock) base.push(sql`${L.stock} > 0`);
      if (q) base.push(sql`${L.productId} in (select ${products.id} from ${products} where ${searchCondition(q, groups)})`);

      // Values of one attribute are alternatives: the product has any of them.
      const attributeFilters = Object.entries(query.attributes ?? {}).filter(([, v]) => v.length > 0);
      const attributeCondition = (name: string, values: string[]) => sql`${L.attributeKeys} && ${textArray(values.map((v) => attributeKey(name, v)))}`;
      const attributeConditions = attributeFilters.map(([n, v]) => attributeCondition(n, v));
      // Option values filter alike, on the values the product's variants have (the index narrows),
      const optionCondition = (name: string, values: string[]) => sql`${L.optionKeys} && ${textArray(values.map((v) => attributeKey(name, v)))}`;
      const optionConditions = optionFilters.map(([n, v]) => optionCondition(n, v));
      // and then by one variant on sale that has every chosen value (5 L and Soft Grey in one tin, not a 5 L
      // of one colour and a Soft Grey of another), within the price range and in stock when asked. Its price,
      // the cheapest such, is the product's in this listing: its sort, and its card.
      // Prices filter inc VAT, rounded as the listing's own (migration 0009).
      const variantIncVat = sql`(v.price_pence * (100 + vp.vat_rate) + 50) / 100`;
      const variantConditions = optionFilters.length
        ? and(
            sql`v.status = 'active'`,
            ...optionFilters.map(([n, v]) => sql`v.options->>${n} = any(${textArray(v)})`),
            query.priceMin !== undefined ? sql`${variantIncVat} >= ${Math.round(query.priceMin * 100)}` : undefined,
            query.priceMax !== undefined ? sql`${variantIncVat} <= ${Math.round(query.priceMax * 100)}` : undefined,
            query.inStock ? sql`v.stock > 0` : undefined,
          )!
        : null;
      const matchingVariant = variantConditions ? sql`v.product_id = ${L.productId} and ${variantConditions}` : null;
      const matching = sql`${productVariants} v join ${products} vp on vp.id = v.product_id`;
      // One option's values alone, without price or stock: the index's option_keys already say a variant has it.
      const needsVariantCheck = optionFilters.length > 1 || query.priceMin !== undefined || query.priceMax !== undefined || !!query.inStock;
      if (matchingVariant && needsVariantCheck) optionConditions.push(sql`exists (select 1 from ${matching} where ${matchingVariant})`);
      attributeConditions.push(...optionConditions);
      const manufacturerCondition = query.manufacturer?.length ? inArray(L.manufacturerId, query.manufacturer) : undefined;
      const all = and(...base, manufacturerCondition, ...attributeConditions);

      // A category (or the whole catalogue), in stock or not, reads its counts
      // from listing_facets; a price range or a search counts its own set.
      const plainBase = !q && query.priceMin === undefined && query.priceMax === undefined;
      const plain = plainBase && !manufacturerCondition && attributeConditions.length === 0;
      /** Stored keys for in-stock products start with `s`. */
      const prefix = query.inStock ? "s" : "";

      const sort = query.sort ?? (q ? "relevance" : "newest");
      // Unqualified: the same order serves the listing table and the filtered set below.
      const order: SQL = {
        relevance: q ? sql`${searchRank(q, groups)} desc, ${L.productId} asc` : sql`featured desc, created_at desc, product_id desc`,
        price_asc: sql`price_pence asc, product_id asc`,
        price_desc: sql`price_pence desc, product_id desc`,
        newest: sql`created_at desc, product_id desc`,
        name: sql`name asc, product_id asc`,
      }[sort];
      const offset = (page - 1) * perPage;
      // Sorted by price, each match's price is its cheapest matching variant's (inc VAT); any other sort reads
      // the matching prices of the page's products alone, below.
      const byPrice = sort === "price_asc" || sort === "price_desc";
      const matched = matchingVariant && byPrice ? sql`(select min(${variantIncVat}) from ${matching} where ${matchingVariant}) as price_pence` : sql`price_pence`;
      const pageIds: Promise<{ id: number }[]> =
        sort === "relevance" && q
          ? // Relevance needs the product's words.
            db.select({ id: L.productId }).from(L).innerJoin(products, eq(products.id, L.productId)).where(all).orderBy(order).limit(perPage).offset(offset)
          : plain
            ? db.select({ id: L.productId }).from(L).where(all).orderBy(order).limit(perPage).offset(offset)
            : // Filters first, then sort what is left: walking a sort index in hope of
              // matches is the planner's gamble that loses on correlated filters.
              db
                .execute(
                  sql`with matches as materialized (select product_id, ${matched}, created_at, name, featured from ${L} where ${all})
                      select product_id as id from matches order by ${order} limit ${perPage} offset ${offset}`,
                )
                .then((r) => (r as unknown as { rows: { id: number }[] }).rows);

      const stored = plainBase
        ? db
            .select({ key: listingFacets.key, count: listingFacets.count, name: manufacturers.name, slug: manufacturers.slug, manufacturerId: manufacturers.id })
            .from(listingFacets)
            .leftJoin(manufacturers, sql`${listingFacets.key} = ${`${prefix}m:`} || ${manufacturers.id}`)
            .where(and(eq(listingFacets.categoryId, categoryId), sql`${listingFacets.count} > 0`))
        : Promise.resolve([]);

      const facetKey = sql<string>`k`;
      // The cheapest and dearest by the price index: each stops at its first match.
      const priceEdge = (direction: SQL) => sql`(select ${L.pricePence} from ${L} where ${and(sql`true`, ...base)} order by ${L.pricePence} ${direction} limit 1)`;
      // The options facet: only the products that have options are read (a partial index), each value counting
      // the products that pass every other filter, as the attributes' facet does.
      const attributeOnly = attributeFilters.map(([n, v]) => attributeCondition(n, v));
      const liveOptions = db
        .select({ key: facetKey, count: sql<number>`count(*)::int` })
        .from(sql`${L} cross join unnest(${L.optionKeys}) as k`)
        .where(
          and(
            sql`${L.optionKeys} <> '{}'::text[]`,
            ...base,
            manufacturerCondition,
            ...attributeOnly,
            ...optionFilters.map(([n, v]) => sql`(starts_with(k, ${`${n}=`}) or ${optionCondition(n, v)})`),
          ),
        )
        .groupBy(facetKey)
        .limit(500);
      const [ids, storedFacets, liveTotal, liveManufacturers, liveAttributes, range, optionRows] = await Promise.all([
        pageIds,
        stored,
        plain ? Promise.resolve([]) : db.select({ total: sql<number>`count(*)::int` }).from(L).where(all),
        plainBase && attributeConditions.length === 0
          ? Promise.resolve([])
          : db
              .select({ id: manufacturers.id, name: manufacturers.name, slug: manufacturers.slug, count: sql<number>`count(*)::int` })
              .from(L)
              .innerJoin(manufacturers, eq(manufacturers.id, L.manufacturerId))
              .where(and(...base, ...attributeConditions))
              .groupBy(manufacturers.id),
        // One facet query: each attribute value counts the products that pass every
        // other filter, so choosing a value never hides its alternatives.
        plain
          ? Promise.resolve([])
          : db
              .select({ key: facetKey, count: sql<number>`count(*)::int` })
              .from(sql`${L} cross join unnest(${L.attributeKeys}) as k`)
              .where(and(...base, manufacturerCondition, ...optionConditions, ...attributeFilters.map(([n, v]) => sql`(starts_with(k, ${`${n}=`}) or ${attributeCondition(n, v)})`)))
              .groupBy(facetKey)
              .limit(500),
        plainBase
          ? db
              .execute(sql`select ${priceEdge(sql`asc`)} as min, ${priceEdge(sql`desc`)} as max`)
              .then((r) => ({ ...(r as unknown as { rows: { min: number | null; max: number | null }[] }).rows[0]!, inStock: null }))
          : db
              .select({
                min: sql<number | null>`min(${L.pricePence})::int`,
                max: sql<number | null>`max(${L.pricePence})::int`,
                inStock: sql<number | null>`count(*) filter (where ${L.stock} > 0)::int`,
              })
              .from(L)
              .where(and(...base))
              .then((r) => r[0]),
        liveOptions,
      ]);

      const storedCount = (key: string) => storedFacets.find((f) => f.key === key)?.count ?? 0;
      const total = plain ? storedCount(query.inStock ? "s" : "t") : (liveTotal[0]?.total ?? 0);
      const manufacturerFacet = (
        plainBase && attributeConditions.length === 0
          ? storedFacets.flatMap((f) => (f.manufacturerId !== null && f.name !== null && f.slug !== null ? [{ id: f.manufacturerId, name: f.name, slug: f.slug, count: f.count }] : []))
          : liveManufacturers
      ).sort((x, y) => x.name.localeCompare(y.name));
      const byCodePoint = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      const attributes = new Map<string, { value: string; count: number }[]>();
      const attributeRows = plain
        ? storedFacets.filter((f) => f.key.startsWith(`${prefix}a:`)).map((f) => ({ key: f.key.slice(prefix.length + 2), count: f.count }))
        : liveAttributes;
      for (const row of attributeRows
        .map((r) => ({ name: r.key.slice(0, r.key.indexOf("=")), value: r.key.slice(r.key.indexOf("=") + 1), count: r.count }))
        .sort((x, y) => byCodePoint(x.name, y.name) || byCodePoint(x.value, y.value))) {
        const list = attributes.get(row.name) ?? [];
        list.push({ value: row.value, count: row.count });
        attributes.set(row.name, list);
      }

      const shown = ids.map((r) => r.id);
      const [rows, variants, matchedPrices] = shown.length
        ? await Promise.all([
            selectCards(db).where(inArray(products.id, shown)).then((r) => r as ProductRow[]),
            cardVariants(db, shown),
            // With option values chosen, each card's price is its cheapest matching variant's (ex VAT, as a card's own).
            variantConditions
              ? db
                  .execute(
                    sql`select v.product_id, min(v.price_pence)::int as low, max(v.price_pence)::int as high from ${matching}
                        where v.product_id = any(${sql`array[${sql.join(shown.map((id) => sql`${id}`), sql`, `)}]::int[]`}) and ${variantConditions} group by v.product_id`,
                  )
                  .then((r) => new Map((r as unknown as { rows: { product_id: number; low: number; high: number }[] }).rows.map((m) => [m.product_id, m])))
              : Promise.resolve(new Map<number, { low: number; high: number }>()),
          ])
        : [[], new Map<number, CardVariants>(), new Map<number, { low: number; high: number }>()];
      const byId = new Map(rows.map((r) => [r.id, r]));

      const cards = ids.flatMap((match) => {
          const r = byId.get(match.id);
          if (!r) return [];
          // With option values chosen, the card's price is the cheapest matching variant's.
          const m = matchedPrices.get(r.id);
          if (!m) return [toCard(r, prices, variants.get(r.id))];
          return [toCard({ ...r, pricePence: m.low, wasPricePence: m.low === r.pricePence ? r.wasPricePence : null }, prices, { priceVaries: m.high !== m.low, chips: variants.get(r.id)?.chips ?? null })];
      });
      return {
        items: await withOffers(db, cards, prices),
        total,
        page,
        per_page: perPage,
        last_page: Math.max(1, Math.min(MAX_PAGE, Math.ceil(total / perPage))),
        sort,
        facets: {
          manufacturers: manufacturerFacet,
          attributes: [...attributes].map(([name, values]) => ({ name, values })),
          options: optionFacet(optionRows),
          price: { min: range?.min == null ? null : pounds(range.min), max: range?.max == null ? null : pounds(range.max) },
          in_stock: plainBase ? storedCount("s") : (range?.inStock ?? 0),
        },
      };
    },

    /**
     * One product with its options and variants. With `variantSku` (any case)
     * the product's own SKU, prices and stock are that variant's; a SKU that is
     * not one of its active variants answers null, as an unknown slug does.
     */
    async bySlug(slug: string, prices: PriceContext = RETAIL, variantSku?: string) {
      const [row] = await selectCards(db).where(and(eq(products.slug, slug), onSale)).limit(1);
      if (!row) return null;
      const p = row as ProductRow;
      const [attributeRows, categoryRows, relatedRows, optionRows, variantRows] = await Promise.all([
        db.select().from(productAttributes).where(eq(productAttributes.productId, p.id)).orderBy(asc(productAttributes.position)),
        db
          .select({ id: categories.id, name: categories.name, path: categories.path })
          .from(productCategories)
          .innerJoin(categories, eq(categories.id, productCategories.categoryId))
          .where(eq(productCategories.productId, p.id)),
        selectCards(db)
          .innerJoin(relatedProducts, eq(relatedProducts.relatedId, products.id))
          .where(and(eq(relatedProducts.productId, p.id), onSale))
          .orderBy(asc(relatedProducts.position))
          .limit(8),
        db.select({ name: productOptions.name, values: productOptions.values }).from(productOptions).where(eq(productOptions.productId, p.id)).orderBy(asc(productOptions.position)),
        db
          .select()
          .from(productVariants)
          .where(and(eq(productVariants.productId, p.id), eq(productVariants.status, "active")))
          .orderBy(asc(productVariants.position), asc(productVariants.id)),
      ]);
      const chosen = variantSku === undefined ? null : (variantRows.find((v) => v.sku.toLowerCase() === variantSku.trim().toLowerCase()) ?? null);
      if (variantSku !== undefined && !chosen) return null;
      const variants = variantRows.map((v) => variantJson(v, p.vatRate, prices));
      const card = (await withOffers(db, [toCard(p, prices, { priceVaries: new Set(variantRows.map((v) => v.pricePence)).size > 1, chips: optionRows[0] ?? null })], prices))[0]!;
      const own = chosen ? variants.find((v) => v.id === chosen.id)! : null;
      return {
        ...card,
        // The chosen variant's figures stand for the product's, so a reader of `sku`, `price` and `stock` sees what it will buy.
        ...(own
          ? { sku: own.sku, price: own.price, price_ex_vat: own.price_ex_vat, was_price: own.was_price, stock: own.stock, in_stock: own.in_stock, list_price: own.list_price, list_price_ex_vat: own.list_price_ex_vat }
          : {}),
        description_html: p.descriptionHtml,
        seo_title: p.seoTitle,
        seo_description: p.seoDescription,
        images: p.images,
        featured: p.featured,
        coverage: (p.coveragePerUnit === null || p.coverageUnit === null ? null : { per_unit: p.coveragePerUnit, unit: p.coverageUnit }) satisfies Coverage | null,
        options: optionRows,
        variants,
        selected_variant_id: own?.id ?? null,
        attributes: attributeRows.map((a) => ({ name: a.name, value: a.value })),
        categories: categoryRows,
        related: (relatedRows as unknown as ProductRow[]).map((r) => toCard(r, prices)),
      };
    },

    /** Products by id with their attributes and variants on sale, for compare (a variant's figures, or the range) and the wishlist. */
    async byIds(ids: number[], prices: PriceContext = RETAIL) {
      if (ids.length === 0) return [];
      const [rows, attributeRows, variantRows] = await Promise.all([
        selectCards(db).where(and(inArray(products.id, ids), onSale)),
        db.select().from(productAttributes).where(inArray(productAttributes.productId, ids)).orderBy(asc(productAttributes.position)),
        db
          .select()
          .from(productVariants)
          .where(and(inArray(productVariants.productId, ids), eq(productVariants.status, "active")))
          .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id)),
      ]);
      const byId = new Map((rows as ProductRow[]).map((r) => [r.id, r]));
      const variantsOf = Map.groupBy(variantRows, (v) => v.productId);
      return ids
        .map((id) => byId.get(id))
        .filter((r): r is ProductRow => r !== undefined)
        .map((r) => {
          const variants = (variantsOf.get(r.id) ?? []).map((v) => variantJson(v, r.vatRate, prices));
          return {
            ...toCard(r, prices, { priceVaries: new Set(variants.map((v) => v.price)).size > 1, chips: null }),
            attributes: attributeRows.filter((a) => a.productId === r.id).map((a) => ({ name: a.name, value: a.value })),
            variants: variants.map(({ id, sku, options, price, price_ex_vat, stock, in_stock }) => ({ id, sku, options, price, price_ex_vat, stock, in_stock })),
          };
        });
    },

    /** Where an earlier slug of a product now lives: the storefront answers it with a 301. */
    async movedSlug(slug: string): Promise<string | null> {
      const [row] = await db
        .select({ slug: products.slug })
        .from(productSlugRedirects)
        .innerJoin(products, eq(products.id, productSlugRedirects.productId))
        .where(and(eq(productSlugRedirects.slug, slug), onSale))
        .limit(1);
      return row?.slug ?? null;
    },

    async featured(limit = 8, prices: PriceContext = RETAIL): Promise<ProductCard[]> {
      const rows = await selectCards(db).where(and(eq(products.featured, true), onSale)).orderBy(asc(products.id)).limit(limit);
      return (rows as ProductRow[]).map((r) => toCard(r, prices));
    },
  };
}

export type ProductService = ReturnType<typeof createProductService>;
