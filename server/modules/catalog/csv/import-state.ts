// What one import run knows: the shop's lookups, the variants its rows name,
// and each row's plan.
import { sql } from "drizzle-orm";
import { type AttributeSetIndex, loadAttributeSets } from "../categories/attribute-sets.ts";
import type { Db } from "../../../db/client.ts";
import type { StaffActor } from "../../staff/actor.ts";
import type { CoverageUnit, SaleUnit } from "../products/units.ts";
import type { ProductStatus } from "../schema.ts";
import type { MatchedColumn } from "./columns.ts";
import type { Options } from "./product-rows.ts";
import type { FieldChange, ImportReport } from "./report.ts";

/**
 * The products table's columns a CSV row carries, as the statements name
 * them: the import writes them, the export reads them (its own way for the
 * brand and the coverage).
 */
export interface ProductValues {
  name: string;
  slug: string;
  status: ProductStatus;
  price_pence: number;
  was_price_pence: number | null;
  vat_rate: number;
  reorder_level: number;
  manufacturer_id: number | null;
  summary: string;
  description_html: string;
  heavy: boolean;
  featured: boolean;
  seo_title: string;
  seo_description: string;
  bin_location: string;
  unit: SaleUnit;
  coverage_per_unit: number | null;
  coverage_unit: CoverageUnit | null;
}

/** The variant's own columns beyond its SKU, prices, stock and reorder level. */
export interface VariantValues {
  barcode: string | null;
  weight_grams: number | null;
}

/** A variant's row as both CSV directions read it: its product's columns and the variant's own. */
export interface VariantRow extends ProductValues, VariantValues {
  sku: string;
  stock: number;
  options: Record<string, string>;
}

/** A row's SKU names a variant: its product's fields, and the variant's own SKU, prices, stock and reorder level. */
export interface Current extends VariantRow {
  id: number;
  variant_id: number;
  variant_status: "active" | "archived";
  /** Its stock at each branch that holds a row for it, by branch id (read only when the file has stock@ columns). */
  branch_stock: Record<string, number>;
  /** The product's variants on sale: one of them must stay. */
  active_variants: number;
  unnamed_photos: number;
  category_ids: number[];
  attributes: Record<string, string>;
}

export interface Plan {
  row: number;
  sku: string;
  current: Current | null;
  /** The products table's changed columns (all of them on create). */
  set: Partial<ProductValues>;
  /** The variant's changed barcode and weight. */
  variantSet: Partial<VariantValues>;
  /** The wanted stock, when it differs (or a new product's). */
  stock?: number;
  /** The stock@ columns' figures that differ from the branch's (or a new variant's opening stock there). */
  branchCounts?: { branchId: number; counted: number }[];
  categoryIds?: number[];
  attributes?: { name: string; value: string; position: number }[];
  /** The slug wanted, and whether it was made from the name (so it may take the SKU to be unique). */
  slug?: { wanted: string; derived: boolean };
  changes: FieldChange[];
  refreshSearch: boolean;
  /** A new product with options (the first of its rows): its options, and this variant's values. */
  options?: { list: Options; values: Record<string, string> };
  /** A new variant: of a product in the shop (its id) or of the new product whose first row has `leadSku`. */
  variant?: { of: { productId: number } | { leadSku: string }; values: Record<string, string>; position: number };
  /** A product in the shop whose options gain the values this file's new variants bring. */
  optionsAfter?: { productId: number; list: Options };
  /** Archive this variant (it stays for orders and the ledger). */
  archive?: boolean;
}

export interface Lookups {
  brandsByName: Map<string, number[]>;
  brandsBySlug: Map<string, number>;
  brandNames: Map<number, string>;
  categoriesByPath: Map<string, number>;
  categoryPaths: Map<number, string>;
  /** Categories' attribute sets: a row's attributes in its set are checked and written as the product screen writes them. */
  attributeSets: AttributeSetIndex;
  /** Every branch by slug, for the stock@ columns. */
  branches: Map<string, { id: number; status: "open" | "closed" }>;
}

export interface RunState {
  lookups: Lookups;
  columns: MatchedColumn[];
  /** The file has stock@ columns: they set each branch's stock, and the stock column (the total) is not read. */
  byBranch: boolean;
  skuRows: Map<string, number>;
  /** The first row of each product the file adds variants to: its rows go one after another. */
  productRuns: Map<string, number>;
  /** Barcodes given by rows already accepted, to their SKU. */
  barcodes: Map<string, string>;
  /** Slugs taken by rows already accepted, to their SKU. */
  claimed: Map<string, string>;
  /** Current slugs that rows already accepted move away from. */
  freed: Set<string>;
  report: ImportReport;
  refusedCount: number;
  /** Writing (an apply with nothing refused yet, or valid rows only). */
  writing: boolean;
  actor: StaffActor;
  fileName: string;
}

export async function loadLookups(db: Db): Promise<Lookups> {
  const brands = (await db.execute(sql`select id, slug, name from manufacturers`)) as unknown as { rows: { id: number; slug: string; name: string }[] };
  const cats = (await db.execute(sql`select id, path from categories`)) as unknown as { rows: { id: number; path: string }[] };
  const branchRows = (await db.execute(sql`select id, slug, status from branches`)) as unknown as { rows: { id: number; slug: string; status: "open" | "closed" }[] };
  const brandsByName = new Map<string, number[]>();
  for (const b of brands.rows) brandsByName.set(b.name.trim().toLowerCase(), [...(brandsByName.get(b.name.trim().toLowerCase()) ?? []), b.id]);
  return {
    brandsByName,
    brandsBySlug: new Map(brands.rows.map((b) => [b.slug.toLowerCase(), b.id])),
    brandNames: new Map(brands.rows.map((b) => [b.id, b.name])),
    categoriesByPath: new Map(cats.rows.map((c) => [c.path.toLowerCase(), c.id])),
    categoryPaths: new Map(cats.rows.map((c) => [c.id, c.path])),
    attributeSets: await loadAttributeSets(db),
    branches: new Map(branchRows.rows.map((b) => [b.slug, { id: b.id, status: b.status }])),
  };
}

export async function loadCurrent(db: Db, skus: string[], byBranch: boolean): Promise<Map<string, Current>> {
  if (skus.length === 0) return new Map();
  const result = (await db.execute(sql`
    select p.id, v.id as variant_id, v.sku, p.slug, p.name, p.status, v.price_pence, v.was_price_pence, p.vat_rate, v.stock, v.reorder_level,
           p.manufacturer_id, p.summary, p.description_html, p.heavy, p.featured, p.seo_title, p.seo_description, p.bin_location,
           p.unit, p.coverage_per_unit::float8 as coverage_per_unit, p.coverage_unit, v.options, v.barcode, v.weight_grams, v.status as variant_status,
           (select count(*) from product_variants a where a.product_id = p.id and a.status = 'active')::int as active_variants,
           (select count(*) from jsonb_array_elements(p.images) i where coalesce(trim(i->>'alt'), '') = '')::int as unnamed_photos,
           coalesce((select jsonb_agg(pc.category_id order by pc.category_id) from product_categories pc where pc.product_id = p.id), '[]'::jsonb) as category_ids,
           coalesce((select jsonb_object_agg(a.name, a.value) from product_attributes a where a.product_id = p.id), '{}'::jsonb) as attributes,
           ${byBranch ? sql`coalesce((select jsonb_object_agg(s.branch_id, s.stock) from branch_stock s where s.variant_id = v.id), '{}'::jsonb)` : sql`'{}'::jsonb`} as branch_stock
    from product_variants v join products p on p.id = v.product_id
    where v.sku in (select jsonb_array_elements_text(${JSON.stringify(skus)}::jsonb))`)) as unknown as { rows: Current[] };
  return new Map(result.rows.map((r) => [r.sku, r]));
}

