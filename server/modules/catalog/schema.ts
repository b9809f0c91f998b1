import { type SQL, sql } from "drizzle-orm";
import { DEFAULT_REORDER_LEVEL, PRODUCT_STATUSES } from "./products/product-status.ts";
import { SALE_UNITS } from "./products/units.ts";
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, optionalRef, ref, serialId, slugAndName, timestamps, timestamptz } from "../../db/columns.ts";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * Categories form a tree. `path` is the slug path from the root
 * (`power-tools/cordless-drills`), kept so a URL resolves in one indexed read.
 */
export const categories = pgTable(
  "categories",
  {
    id: serialId(),
    parentId: optionalRef("parent_id", (): AnyPgColumn => categories.id, { onDelete: "restrict" }),
    slug: text("slug").notNull(),
    path: text("path").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("categories_path_key").on(t.path),
    uniqueIndex("categories_parent_slug_key").on(sql`coalesce(${t.parentId}, 0)`, t.slug),
    index("categories_parent_position_idx").on(t.parentId, t.position),
  ],
);

export type Category = typeof categories.$inferSelect;

/**
 * A category's attribute set: the attributes its products have, typed, so the
 * product screen asks for a number with its unit or a yes/no where it should,
 * and the category's filters read alike. A subcategory inherits its ancestors'.
 */
export const ATTRIBUTE_KINDS = ["text", "number", "yes_no"] as const;
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number];

export const categoryAttributes = pgTable(
  "category_attributes",
  {
    id: serialId(),
    categoryId: ref("category_id", () => categories.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ATTRIBUTE_KINDS }).notNull().default("text"),
    /** A number's unit, written straight after it: "V" makes "18V", "mm" makes "120mm". */
    unit: text("unit").notNull().default(""),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    uniqueIndex("category_attributes_name_key").on(t.categoryId, sql`lower(${t.name})`),
    check("category_attributes_kind_check", sql`${t.kind} in ('text', 'number', 'yes_no')`),
  ],
);

/** A category's earlier paths (renamed or moved, or under a parent that was): the storefront answers them with a 301. */
export const categoryRedirects = pgTable(
  "category_redirects",
  {
    path: text("path").primaryKey(),
    categoryId: ref("category_id", () => categories.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("category_redirects_category_idx").on(t.categoryId)],
);

export const manufacturers = pgTable(
  "manufacturers",
  {
    id: serialId(),
    ...slugAndName(),
    description: text("description").notNull().default(""),
    /** A path on this site (generated locally), e.g. /images/manufacturers/makita.svg */
    logo: text("logo").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("manufacturers_slug_key").on(t.slug), index("manufacturers_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`)],
);

/** `{src, alt}`, and for a real photo its id, size and AVIF/WebP renditions (ADR 0034). */
import type { ProductImage } from "../media/contract.ts";
export type { ProductImage };

export { DEFAULT_REORDER_LEVEL, PRODUCT_STATUSES, type ProductStatus } from "./products/product-status.ts";

/**
 * A product groups its variants and carries the words, photos, VAT rate and
 * unit. Its `sku`, `price_pence`, `was_price_pence` and `stock` are a summary
 * of its active variants (the first's SKU, the cheapest's prices, the total
 * stock), kept by a trigger on product_variants (migration 0030), so listings
 * and everything that reads a product's figures read one row. They are never
 * written by services: the variant is what is sold.
 */
export const products = pgTable(
  "products",
  {
    id: serialId(),
    sku: text("sku").notNull(),
    ...slugAndName(),
    summary: text("summary").notNull().default(""),
    /** Sanitised HTML: sanitised when written, so it renders as stored. */
    descriptionHtml: text("description_html").notNull().default(""),
    /** Where it sits in the warehouse (aisle, bay, shelf): the picking list is sorted by it (issue 34). */
    binLocation: text("bin_location").notNull().default(""),
    manufacturerId: optionalRef("manufacturer_id", () => manufacturers.id, { onDelete: "set null" }),
    /** Integer pence, ex VAT. */
    pricePence: integer("price_pence").notNull(),
    vatRate: integer("vat_rate").notNull().default(20),
    wasPricePence: integer("was_price_pence"),
    stock: integer("stock").notNull().default(0),
    /** How it is sold and priced: each, by the metre, by the pack… (catalog/products/units.ts). */
    unit: text("unit", { enum: SALE_UNITS }).notNull().default("each"),
    /** What one unit covers (a pack of tiles: 1.44 m²); null where that means nothing. */
    coveragePerUnit: numeric("coverage_per_unit", { precision: 12, scale: 3, mode: "number" }),
    coverageUnit: text("coverage_unit", { enum: ["m", "m2"] }),
    /** Heavy or bulky: delivery adds its surcharge. */
    heavy: boolean("heavy").notNull().default(false),
    /**
     * Whether a customer may send it back for a refund (issue 31): not for
     * goods cut to length or made to order. `nonReturnableReason` is what the
     * order page tells the customer.
     */
    returnable: boolean("returnable").notNull().default(true),
    nonReturnableReason: text("non_returnable_reason").notNull().default(""),
    images: jsonb("images").$type<ProductImage[]>().notNull().default(sql`'[]'::jsonb`),
    featured: boolean("featured").notNull().default(false),
    showcase: boolean("showcase").notNull().default(false),
    /** Only published products are listed, found, shown and sold (the listing triggers leave the others out). */
    status: text("status", { enum: PRODUCT_STATUSES }).notNull().default("published"),
    /** At or below this the back office calls the stock low. */
    reorderLevel: integer("reorder_level").notNull().default(DEFAULT_REORDER_LEVEL),
    /** Empty: the page title and description are made from the name and summary. */
    seoTitle: text("seo_title").notNull().default(""),
    seoDescription: text("seo_description").notNull().default(""),
    /** Name, brand, SKU and summary, kept by the service for search. */
    searchText: text("search_text").notNull().default(""),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      (): SQL => sql`setweight(to_tsvector('english', coalesce(${products.name}, '')), 'A') || setweight(to_tsvector('english', coalesce(${products.searchText}, '')), 'B')`,
    ),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("products_sku_key").on(t.sku),
    uniqueIndex("products_slug_key").on(t.slug),
    index("products_manufacturer_idx").on(t.manufacturerId),
    index("products_price_idx").on(t.pricePence, t.id),
    index("products_created_idx").on(t.createdAt, t.id),
    index("products_name_idx").on(t.name, t.id),
    index("products_featured_idx").on(t.id).where(sql`${t.featured}`),
    index("products_search_idx").using("gin", t.searchVector),
    index("products_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
    index("products_sku_lower_idx").on(sql`lower(${t.sku})`),
    check("products_price_check", sql`${t.pricePence} >= 0`),
    check("products_vat_rate_check", sql`${t.vatRate} in (0, 5, 20)`),
    check("products_stock_check", sql`${t.stock} >= 0`),
    check("products_status_check", sql`${t.status} in ('draft', 'published', 'archived')`),
    check("products_reorder_level_check", sql`${t.reorderLevel} >= 0`),
    check("products_unit_check", sql`${t.unit} in ('each', 'm', 'm2', 'pack', 'kg', 'tonne', 'litre')`),
    check("products_coverage_check", sql`(${t.coveragePerUnit} is null) = (${t.coverageUnit} is null) and (${t.coveragePerUnit} is null or ${t.coveragePerUnit} > 0)`),
  ],
);

/**
 * A product's options (Length; Size and Colour), at most three, each with its
 * values in the order the picker shows them.
 */
export const productOptions = pgTable(
  "product_options",
  {
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    values: text("values").array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.position] }),
    uniqueIndex("product_options_name_key").on(t.productId, sql`lower(${t.name})`),
    check("product_options_position_check", sql`${t.position} between 0 and 2`),
  ],
);

export const VARIANT_STATUSES = ["active", "archived"] as const;

/**
 * The thing that is sold (ADR 0046): its own SKU, price, stock (through the
 * ledger), reorder level, weight, barcode and photos. A product without
 * options has exactly one, whose `options` is `{}`.
 */
export const productVariants = pgTable(
  "product_variants",
  {
    id: serialId(),
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    sku: text("sku").notNull(),
    /** Option name → value, one for each of the product's options. */
    options: jsonb("options").$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** Integer pence, ex VAT (the VAT rate is the product's). */
    pricePence: integer("price_pence").notNull(),
    wasPricePence: integer("was_price_pence"),
    /** The sum of its stock movements, moved only by the ledger (stock/ledger.ts). */
    stock: integer("stock").notNull().default(0),
    reorderLevel: integer("reorder_level").notNull().default(DEFAULT_REORDER_LEVEL),
    weightGrams: integer("weight_grams"),
    /** EAN or GTIN. */
    barcode: text("barcode"),
    /** Photos of this variant; empty shows the product's. */
    images: jsonb("images").$type<ProductImage[]>().notNull().default(sql`'[]'::jsonb`),
    position: integer("position").notNull().default(0),
    /** Archived: no longer sold, kept for orders and the ledger. */
    status: text("status", { enum: VARIANT_STATUSES }).notNull().default("active"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("product_variants_sku_key").on(t.sku),
    index("product_variants_sku_lower_idx").on(sql`lower(${t.sku})`),
    uniqueIndex("product_variants_barcode_key").on(t.barcode).where(sql`${t.barcode} is not null`),
    index("product_variants_product_idx").on(t.productId, t.position, t.id),
    // No two active variants of a product share their option values.
    uniqueIndex("product_variants_options_key").on(t.productId, t.options).where(sql`${t.status} = 'active'`),
    check("product_variants_price_check", sql`${t.pricePence} >= 0`),
    check("product_variants_stock_check", sql`${t.stock} >= 0`),
    check("product_variants_reorder_level_check", sql`${t.reorderLevel} >= 0`),
    check("product_variants_weight_check", sql`${t.weightGrams} is null or ${t.weightGrams} >= 0`),
    check("product_variants_status_check", sql`${t.status} in ('active', 'archived')`),
  ],
);

export type ProductVariant = typeof productVariants.$inferSelect;

/** A product's earlier slugs: the storefront answers them with a 301 to the current one. */
export const productSlugRedirects = pgTable(
  "product_slug_redirects",
  {
    slug: text("slug").primaryKey(),
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("product_slug_redirects_product_idx").on(t.productId)],
);

export const productCategories = pgTable(
  "product_categories",
  {
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    categoryId: ref("category_id", () => categories.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.productId, t.categoryId] }), index("product_categories_category_idx").on(t.categoryId, t.productId)],
);

/**
 * One narrow row per product holding only what listings filter, sort and count
 * by, with each product's categories widened to their ancestors. Facet counts
 * over a large category scan these small rows instead of the wide products
 * table. Kept in step by triggers (migration 0009), never written by services.
 */
export const productListing = pgTable(
  "product_listing",
  {
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }).primaryKey(),
    /** The product's categories and all their ancestors. */
    categoryIds: integer("category_ids").array().notNull().default(sql`'{}'::integer[]`),
    /** `Name=Value` for each attribute. */
    attributeKeys: text("attribute_keys").array().notNull().default(sql`'{}'::text[]`),
    /** `Name=Value` for each option value one of its active variants has (migration 0031). */
    optionKeys: text("option_keys").array().notNull().default(sql`'{}'::text[]`),
    manufacturerId: integer("manufacturer_id"),
    /** Inc VAT, rounded as everywhere else. */
    pricePence: integer("price_pence").notNull(),
    stock: integer("stock").notNull(),
    featured: boolean("featured").notNull(),
    name: text("name").notNull(),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    index("product_listing_category_ids_idx").using("gin", t.categoryIds),
    index("product_listing_attribute_keys_idx").using("gin", t.attributeKeys),
    index("product_listing_option_keys_idx").using("gin", t.optionKeys),
    // The few products with options, found without reading every listing row: the options facet reads only these.
    index("product_listing_with_options_idx").on(t.productId).where(sql`${t.optionKeys} <> '{}'::text[]`),
    index("product_listing_manufacturer_idx").on(t.manufacturerId),
    index("product_listing_price_idx").on(t.pricePence, t.productId),
    index("product_listing_created_idx").on(t.createdAt, t.productId),
    index("product_listing_name_idx").on(t.name, t.productId),
    // The storefront's default order ("Featured": featured, then newest), walked
    // backwards: without it a large category sorts every one of its rows.
    index("product_listing_featured_idx").on(t.featured, t.createdAt, t.productId),
  ],
);

/**
 * Facet counts of each category (0: the whole catalogue) for the unfiltered
 * listing, kept in step with product_listing by a trigger so a large category's
 * facets are one indexed read. Keys: `t` (products), `s` (in stock),
 * `m:{manufacturer id}` and `a:{Name=Value}`.
 */
export const listingFacets = pgTable(
  "listing_facets",
  {
    categoryId: integer("category_id").notNull(),
    key: text("key").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.key] })],
);

export const productAttributes = pgTable(
  "product_attributes",
  {
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    value: text("value").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.name] }), index("product_attributes_name_value_idx").on(t.name, t.value, t.productId)],
);

export const relatedProducts = pgTable(
  "related_products",
  {
    productId: ref("product_id", () => products.id, { onDelete: "cascade" }),
    relatedId: ref("related_id", () => products.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.relatedId] })],
);

export type Manufacturer = typeof manufacturers.$inferSelect;
export type Product = typeof products.$inferSelect;

/**
 * Every word of the catalogue's names, brands and SKUs, once: typo tolerance
 * corrects each search word against this small table (trigram index) and then
 * searches products by full text, so no search scans every product.
 */
export const searchWords = pgTable(
  "search_words",
  {
    word: text("word").primaryKey(),
  },
  (t) => [index("search_words_trgm_idx").using("gin", sql`${t.word} gin_trgm_ops`)],
);
