import { sql } from "drizzle-orm";
import { type AttributeSetIndex, attributeSetOf, loadAttributeSets, normaliseValue } from "../attribute-sets.ts";
import type { Db } from "../../../db/client.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { type Movement, applyMovements, countTo } from "../../stock/ledger.ts";
import { refreshSearchWords } from "../products.ts";
import { ATTRIBUTES_MAX, CATEGORIES_MAX, type ProductPatch, fieldErrorsOf, productCreate, productFields, productPatch, slugFrom } from "../product-rules.ts";
import { sanitizeDescription } from "../sanitize.ts";
import { COVERAGE_UNITS, type CoverageUnit, SALE_UNITS, type SaleUnit } from "../units.ts";
import { optionsWithNames } from "../variant-names.ts";
import { VARIANTS_MAX, variantCreate, variantFields } from "../variant-rules.ts";
import { DEFAULT_REORDER_LEVEL, type ProductStatus } from "../schema.ts";
import { type FieldColumn, type MatchedColumn, STOCK_AT_PREFIX, branchColumnProblems, categoriesCell, matchHeaders, parseCategories, parseYesNo, poundsCell, yesNoCell } from "./columns.ts";
import { type HeldProduct, type Options, type RowCells, type RowGroup, comboKey, disagreements, groupRows, hasOptions, loadHeldProducts, planOptions, readRow, rowOptions, sameProductRows } from "./product-rows.ts";
import { type CsvEncoding, CsvReadError, type CsvRecord, type CsvSource, detectEncoding, isBlank, readRecords } from "./read.ts";

/**
 * The catalogue import (issue 20, ADR 0036). Each row is checked by the same
 * field rules as the product screen (product-rules.ts), matched to a product
 * by SKU, and compared with it: created, changed (field: old → new),
 * unchanged or refused (row, column, why). A dry run writes nothing. Applying
 * runs in ONE transaction, set-based a batch at a time: any refused row (unless
 * only the valid rows are wanted), an error, or the process dying rolls all of
 * it back, so the catalogue is as it was.
 */

/** Rows read, checked and written per statement. */
export const IMPORT_BATCH = 2_000;
/** The report lists this many changes and refusals; the counts are always whole. */
export const REPORT_CHANGES_MAX = 1_000;
export const REPORT_REFUSED_MAX = 1_000;

export interface Refusal {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  column?: string;
  message: string;
  sku?: string;
}
export interface FieldChange {
  field: string;
  old: string;
  new: string;
}
export interface RowChange {
  row: number;
  sku: string;
  action: "create" | "update";
  fields: FieldChange[];
}

export interface ImportReport {
  file_name: string;
  encoding: CsvEncoding | null;
  dry_run: boolean;
  valid_only: boolean;
  /** Whether the catalogue was changed: false for a dry run, and for an import refused or rolled back. */
  applied: boolean;
  /** Data rows in the file (blank rows aside). */
  rows: number;
  /** Products created and updated: by a dry run, what would be; by a refused import, 0 (see would_create). */
  created: number;
  updated: number;
  unchanged: number;
  would_create: number;
  would_update: number;
  /** Rows refused (the header's own problems are in `refused` as row 1, not counted here). */
  refused_rows: number;
  refused: Refusal[];
  more_refused: number;
  changes: RowChange[];
  more_changes: number;
  /** Set when the file could not be read at all (no sku column, malformed quoting, too large). */
  fatal: boolean;
  seconds: number;
}

export interface ImportProgress {
  done: number;
  total: number;
  phase: "reading" | "checking" | "writing";
}

export interface ImportOptions {
  fileName: string;
  dryRun: boolean;
  /** Apply the valid rows and skip the refused ones ("import the valid rows"). */
  validOnly?: boolean;
  batchSize?: number;
  /** The import's id (product_imports), as the audit log names it. */
  importId?: number;
  onProgress?: (progress: ImportProgress) => void | Promise<void>;
}

/** A row's SKU names a variant: its product's fields, and the variant's own SKU, prices, stock and reorder level. */
interface Current {
  id: number;
  variant_id: number;
  sku: string;
  slug: string;
  name: string;
  status: ProductStatus;
  price_pence: number;
  was_price_pence: number | null;
  vat_rate: number;
  stock: number;
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
  options: Record<string, string>;
  barcode: string | null;
  weight_grams: number | null;
  variant_status: "active" | "archived";
  /** Its stock at each branch that holds a row for it, by branch id (read only when the file has stock@ columns). */
  branch_stock: Record<string, number>;
  /** The product's variants on sale: one of them must stay. */
  active_variants: number;
  unnamed_photos: number;
  category_ids: number[];
  attributes: Record<string, string>;
}

/** The products table's columns an import writes, as the statements name them. */
interface ProductValues {
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
interface VariantValues {
  barcode: string | null;
  weight_grams: number | null;
}

interface Plan {
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

interface Lookups {
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

interface RunState {
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

const PRODUCT_COLUMNS: FieldColumn[] = ["name", "slug", "status", "price_ex_vat", "was_price_ex_vat", "vat_rate", "stock", "reorder_level", "summary", "description_html", "heavy", "featured", "seo_title", "seo_description", "bin_location"];
const attributeItem = productFields.shape.attributes.element;

class RolledBack extends Error {}

function emptyReport(options: ImportOptions): ImportReport {
  return {
    file_name: options.fileName,
    encoding: null,
    dry_run: options.dryRun,
    valid_only: !!options.validOnly,
    applied: false,
    rows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    would_create: 0,
    would_update: 0,
    refused_rows: 0,
    refused: [],
    more_refused: 0,
    changes: [],
    more_changes: 0,
    fatal: false,
    seconds: 0,
  };
}

function refuse(state: Pick<RunState, "report" | "refusedCount">, refusal: Refusal) {
  state.refusedCount += 1;
  if (state.report.refused.length < REPORT_REFUSED_MAX) state.report.refused.push(refusal);
  else state.report.more_refused += 1;
}

async function loadLookups(db: Db): Promise<Lookups> {
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

async function loadCurrent(db: Db, skus: string[], byBranch: boolean): Promise<Map<string, Current>> {
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

const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);

/** A new product's or variant's row that says archived. */
const NEW_VARIANT_ON_SALE = "A new variant is created on sale: archive it once it is in.";

/** Refuses a row for each of its problems, counted once. */
function refuseRow(state: RunState, refusals: Refusal[], sku: string): null {
  for (const r of refusals) refuse(state, { ...r, ...(sku ? { sku } : {}) });
  state.report.refused_rows += 1;
  return null;
}

/** The row's SKU, well-formed and not on an earlier row, or its refusal (with the row's other problems). */
function rowSku(row: RowCells, state: RunState, refusals: Refusal[]): string | null {
  for (const column of row.stray) refusals.push({ row: row.row, column: `column ${column}`, message: "This row has more cells than the header has columns: check for a stray comma or an unquoted cell." });
  const sku = row.cells.get("sku") ?? "";
  const problem = (message: string) => {
    refusals.push({ row: row.row, column: "sku", message });
    return refuseRow(state, refusals, sku);
  };
  if (!sku) return problem("Give the SKU: each row is matched to a product by it.");
  const skuCheck = productFields.shape.sku.safeParse(sku);
  if (!skuCheck.success) return problem(skuCheck.error.issues[0]!.message);
  const earlier = state.skuRows.get(sku);
  if (earlier !== undefined) return problem(`This SKU is also on row ${earlier}: give each variant once.`);
  state.skuRows.set(sku, row.row);
  return sku;
}

/** The row's stock@ figures: whole numbers of 0 or more, by the stock field's own rule and message. */
function branchFigures(row: RowCells, state: RunState, refusals: Refusal[]): { branchId: number; slug: string; counted: number }[] {
  const figures: { branchId: number; slug: string; counted: number }[] = [];
  for (const [slug, cell] of row.stockAt) {
    const checked = productFields.shape.stock.safeParse(cell);
    if (!checked.success) refusals.push({ row: row.row, column: `${STOCK_AT_PREFIX}${slug}`, message: checked.error.issues[0]!.message });
    // The header's branches were checked before any row (branchColumnProblems).
    else figures.push({ branchId: state.lookups.branches.get(slug)!.id, slug, counted: checked.data });
  }
  return figures;
}

/** A new variant's stock@ figures: its opening stock at each branch. */
function openAtBranches(plan: Plan, figures: { branchId: number; slug: string; counted: number }[]) {
  const opening = figures.filter((b) => b.counted > 0);
  if (opening.length) plan.branchCounts = opening.map(({ branchId, counted }) => ({ branchId, counted }));
  for (const b of opening) plan.changes.push({ field: `${STOCK_AT_PREFIX}${b.slug}`, old: "", new: String(b.counted) });
}

/** What the rest of its product's rows say about a row: their refusals, and a new product's options (on its first row). */
interface RowContext {
  refusals: Refusal[];
  lead?: { list: Options; values: Record<string, string> };
}

/**
 * One row against its variant (or none, for a new product): what it would
 * change, or why it is refused. The slug's uniqueness is the batch's to check
 * (planSlugs).
 */
function planRow(row: RowCells, state: RunState, cur: Current | null, context: RowContext): Plan | null {
  const { lookups } = state;
  const { cells, attributes: attributeCells } = row;
  const refusals: Refusal[] = [...context.refusals];
  const sku = rowSku(row, state, refusals);
  if (sku === null) return null;
  const done = (): null => refuseRow(state, refusals, sku);

  // The same rules as the product screen, on the cells given.
  const input: Record<string, unknown> = cur ? {} : { sku };
  for (const field of PRODUCT_COLUMNS) {
    const value = cells.get(field);
    if (value === undefined || (field === "stock" && state.byBranch)) continue;
    if (field === "heavy" || field === "featured") {
      const yes = parseYesNo(value);
      if (yes === null) refusals.push({ row: row.row, column: field, message: `Say yes or no for ${field}.` });
      else input[field] = yes;
    } else if (field === "vat_rate") input[field] = value.replace(/\s*%$/, "");
    else input[field] = value;
  }
  const parsed = (cur ? productPatch : productCreate).safeParse(input);
  if (!parsed.success) {
    for (const [field, messages] of Object.entries(fieldErrorsOf(parsed.error))) for (const message of messages) refusals.push({ row: row.row, column: field, message });
  }
  const p: ProductPatch = parsed.success ? parsed.data : {};

  let brandId: number | null | undefined;
  const brand = cells.get("brand");
  if (brand !== undefined) {
    const key = brand.toLowerCase();
    const byName = lookups.brandsByName.get(key) ?? [];
    const bySlug = lookups.brandsBySlug.get(key);
    if (byName.length === 1) brandId = byName[0]!;
    else if (bySlug !== undefined) brandId = bySlug;
    else if (byName.length > 1) refusals.push({ row: row.row, column: "brand", message: `${byName.length} brands are called "${brand}": give the brand's slug instead.` });
    else refusals.push({ row: row.row, column: "brand", message: `No brand is called "${brand}" (by name or slug): add the brand first, or correct the name.` });
  }

  let categoryIds: number[] | undefined;
  const categoriesText = cells.get("categories");
  if (categoriesText !== undefined) {
    const paths = [...new Set(parseCategories(categoriesText))];
    const unknown = paths.filter((path) => !lookups.categoriesByPath.has(path));
    if (unknown.length) refusals.push({ row: row.row, column: "categories", message: `No category has the path ${unknown.map((u) => `"${u}"`).join(", ")}: use paths such as power-tools/cordless-drills, separated by |.` });
    else if (paths.length > CATEGORIES_MAX) refusals.push({ row: row.row, column: "categories", message: `Choose at most ${CATEGORIES_MAX} categories.` });
    else categoryIds = paths.map((path) => lookups.categoriesByPath.get(path)!).sort((a, b) => a - b);
  }

  const attributes: { name: string; value: string; position: number }[] = [];
  const existingNames = new Map(Object.keys(cur?.attributes ?? {}).map((n) => [n.toLowerCase(), n]));
  let position = existingNames.size;
  const attributeSet = attributeSetOf(lookups.attributeSets, categoryIds ?? cur?.category_ids ?? []);
  for (const a of attributeCells) {
    const check = attributeItem.safeParse(a);
    if (!check.success) {
      refusals.push({ row: row.row, column: `attribute:${a.name}`, message: check.error.issues[0]!.message });
      continue;
    }
    // A value as it already stands is left alone, even one written before its category's set said otherwise.
    if (cur?.attributes[existingNames.get(a.name.toLowerCase()) ?? check.data.name] === check.data.value) continue;
    const spec = attributeSet.find((s) => s.name.toLowerCase() === check.data.name.toLowerCase());
    const typed = spec ? normaliseValue(spec, check.data.value) : { value: check.data.value };
    if ("problem" in typed) {
      refusals.push({ row: row.row, column: `attribute:${a.name}`, message: typed.problem });
      continue;
    }
    const name = existingNames.get(a.name.toLowerCase()) ?? spec?.name ?? check.data.name;
    if (cur?.attributes[name] === typed.value) continue;
    attributes.push({ name, value: typed.value, position: existingNames.has(a.name.toLowerCase()) ? 0 : position++ });
  }
  if (position > ATTRIBUTES_MAX) refusals.push({ row: row.row, column: "attributes", message: `A product can have at most ${ATTRIBUTES_MAX} attributes.` });

  // How it is sold, what a unit covers, and the variant's own barcode and weight: the variant rules' messages.
  const unitCell = cells.get("unit");
  let unit: SaleUnit | undefined;
  if (unitCell !== undefined) {
    if ((SALE_UNITS as readonly string[]).includes(unitCell.toLowerCase())) unit = unitCell.toLowerCase() as SaleUnit;
    else refusals.push({ row: row.row, column: "unit", message: `Give the unit as one of ${SALE_UNITS.join(", ")}.` });
  }
  const coverageCell = cells.get("coverage_per_unit");
  const coverageUnitCell = cells.get("coverage_unit")?.toLowerCase();
  let coverage: { per_unit: number; unit: CoverageUnit } | undefined;
  if (coverageCell !== undefined || coverageUnitCell !== undefined) {
    const perUnit = Number(coverageCell);
    if (coverageCell === undefined || !Number.isFinite(perUnit) || perUnit <= 0 || perUnit > 1_000_000) refusals.push({ row: row.row, column: "coverage_per_unit", message: "Give what one unit covers as a number above 0, such as 1.44." });
    else if (!(COVERAGE_UNITS as readonly string[]).includes(coverageUnitCell ?? "")) refusals.push({ row: row.row, column: "coverage_unit", message: "Give the coverage unit as m2 or m." });
    else coverage = { per_unit: Math.round(perUnit * 1000) / 1000, unit: coverageUnitCell as CoverageUnit };
  }
  const variant: Partial<VariantValues> = {};
  for (const field of ["barcode", "weight_grams"] as const) {
    const value = cells.get(field);
    if (value === undefined) continue;
    const checked = variantFields.shape[field].safeParse(value);
    if (checked.success) Object.assign(variant, { [field]: checked.data });
    else refusals.push({ row: row.row, column: field, message: checked.error.issues[0]!.message });
  }
  // Option values name the variant a row is: an existing one's are checked, never changed from a file.
  const { pairs, problems: optionProblems } = rowOptions(row);
  if (!context.lead) for (const problem of optionProblems) refusals.push({ row: row.row, ...problem });
  const options = Object.fromEntries(pairs);
  if (cur && pairs.length) {
    if (comboKey(options) !== comboKey(cur.options)) {
      refusals.push({ row: row.row, column: "option1_value", message: `${sku} is ${optionsWithNames(cur.options) || "a product without options"}: a variant's options change in the back office, not from a file.` });
    }
  } else if (!cur && pairs.length && !context.lead) {
    refusals.push({ row: row.row, column: "option1_name", message: "Name this variant's product: its slug (to add a variant to a product in the shop) or, for a new product, its name." });
  }
  const atBranches = branchFigures(row, state, refusals);
  const variantStatus = cells.get("variant_status")?.toLowerCase();
  let archive = false;
  if (variantStatus !== undefined) {
    if (variantStatus !== "active" && variantStatus !== "archived") refusals.push({ row: row.row, column: "variant_status", message: "Say active or archived." });
    else if (!cur) {
      if (variantStatus === "archived") refusals.push({ row: row.row, column: "variant_status", message: NEW_VARIANT_ON_SALE });
    } else if (variantStatus === "active" && cur.variant_status === "archived") {
      refusals.push({ row: row.row, column: "variant_status", message: `${sku} is archived: bring it back on sale on its product's Variants screen, where its options are checked against the others.` });
    } else if (variantStatus === "archived" && cur.variant_status === "active") {
      const left = state.byBranch ? cur.stock + atBranches.reduce((sum, b) => sum + b.counted - (cur.branch_stock[b.branchId] ?? 0), 0) : (p.stock ?? cur.stock);
      if (left > 0) refusals.push({ row: row.row, column: "variant_status", message: `${sku} has ${left} in stock: count it to 0 (a stock of 0 on this row) before archiving it.` });
      else archive = true;
    }
  }

  if (refusals.length) return done();

  // What it would be, and what changes.
  const changes: FieldChange[] = [];
  const set: Partial<ProductValues> = {};
  const note = (field: string, old: string, next: string) => changes.push({ field, old, new: next });
  const brandName = (id: number | null | undefined) => (id ? (lookups.brandNames.get(id) ?? "") : "");
  const paths = (ids: number[]) => categoriesCell(ids.map((id) => lookups.categoryPaths.get(id) ?? String(id)));
  const variantSet: Partial<VariantValues> = {};
  const plan: Plan = { row: row.row, sku, current: cur, set, variantSet, changes, refreshSearch: false };

  if (!cur) {
    const values: ProductValues = {
      name: p.name!,
      slug: "",
      status: p.status ?? "draft",
      price_pence: p.price_ex_vat!,
      was_price_pence: p.was_price_ex_vat ?? null,
      vat_rate: p.vat_rate ?? 20,
      reorder_level: p.reorder_level ?? DEFAULT_REORDER_LEVEL,
      manufacturer_id: brandId ?? null,
      summary: p.summary ?? "",
      description_html: p.description_html ? sanitizeDescription(p.description_html) : "",
      heavy: p.heavy ?? false,
      featured: p.featured ?? false,
      seo_title: p.seo_title ?? "",
      seo_description: p.seo_description ?? "",
      bin_location: p.bin_location ?? "",
      unit: unit ?? "each",
      coverage_per_unit: coverage?.per_unit ?? null,
      coverage_unit: coverage?.unit ?? null,
    };
    Object.assign(set, values);
    Object.assign(variantSet, variant);
    if (context.lead) {
      plan.options = context.lead;
      note("options", "", context.lead.list.map((o) => `${o.name}: ${o.values.join(", ")}`).join("; "));
      note("variant", "", optionsWithNames(context.lead.values));
    }
    if (values.unit !== "each") note("unit", "", values.unit);
    if (coverage) note("coverage", "", `${coverage.per_unit} ${coverage.unit}`);
    if (variant.barcode) note("barcode", "", variant.barcode);
    if (variant.weight_grams != null) note("weight_grams", "", String(variant.weight_grams));
    const wanted = p.slug ?? slugFrom(values.name);
    if (!wanted) {
      refusals.push({ row: row.row, column: "slug", message: "Give a slug: no web address can be made from this name." });
      return done();
    }
    plan.slug = { wanted, derived: p.slug === undefined };
    note("name", "", values.name);
    note("status", "", values.status);
    note("price_ex_vat", "", poundsCell(values.price_pence));
    if (values.was_price_pence !== null) note("was_price_ex_vat", "", poundsCell(values.was_price_pence));
    note("vat_rate", "", String(values.vat_rate));
    if (p.stock !== undefined) {
      plan.stock = p.stock;
      note("stock", "", String(p.stock));
    }
    openAtBranches(plan, atBranches);
    if (brandId) note("brand", "", brandName(brandId));
    if (categoryIds?.length) {
      plan.categoryIds = categoryIds;
      note("categories", "", paths(categoryIds));
    }
    for (const a of attributes) note(`attribute:${a.name}`, "", a.value);
    if (attributes.length) plan.attributes = attributes;
    plan.refreshSearch = true;
    return plan;
  }

  const compare = <K extends keyof ProductValues>(key: K, field: string, next: ProductValues[K] | undefined, show: (v: ProductValues[K]) => string = String) => {
    if (next === undefined || next === cur[key as keyof Current]) return;
    set[key] = next;
    note(field, show(cur[key as keyof Current] as ProductValues[K]), show(next));
  };
  compare("name", "name", p.name);
  compare("status", "status", p.status);
  compare("price_pence", "price_ex_vat", p.price_ex_vat, (v) => poundsCell(v as number));
  compare("was_price_pence", "was_price_ex_vat", p.was_price_ex_vat ?? undefined, (v) => poundsCell(v as number | null));
  compare("vat_rate", "vat_rate", p.vat_rate);
  compare("reorder_level", "reorder_level", p.reorder_level);
  compare("manufacturer_id", "brand", brandId, (v) => brandName(v as number | null));
  compare("summary", "summary", p.summary);
  if (p.description_html !== undefined && p.description_html !== cur.description_html) compare("description_html", "description_html", sanitizeDescription(p.description_html));
  compare("heavy", "heavy", p.heavy, (v) => yesNoCell(v as boolean));
  compare("featured", "featured", p.featured, (v) => yesNoCell(v as boolean));
  compare("seo_title", "seo_title", p.seo_title);
  compare("seo_description", "seo_description", p.seo_description);
  compare("bin_location", "bin_location", p.bin_location);
  compare("unit", "unit", unit);
  if (coverage && (coverage.per_unit !== cur.coverage_per_unit || coverage.unit !== cur.coverage_unit)) {
    set.coverage_per_unit = coverage.per_unit;
    set.coverage_unit = coverage.unit;
    note("coverage", cur.coverage_per_unit === null ? "" : `${cur.coverage_per_unit} ${cur.coverage_unit}`, `${coverage.per_unit} ${coverage.unit}`);
  }
  for (const field of ["barcode", "weight_grams"] as const) {
    if (variant[field] === undefined || variant[field] === cur[field]) continue;
    Object.assign(variantSet, { [field]: variant[field] });
    note(field, cur[field] === null ? "" : String(cur[field]), variant[field] === null ? "" : String(variant[field]));
  }
  if (p.slug !== undefined && p.slug !== cur.slug) plan.slug = { wanted: p.slug, derived: false };
  if (p.stock !== undefined && p.stock !== cur.stock) {
    plan.stock = p.stock;
    note("stock", String(cur.stock), String(p.stock));
  }
  const counts = atBranches.filter((b) => b.counted !== (cur.branch_stock[b.branchId] ?? 0));
  if (counts.length) {
    plan.branchCounts = counts.map(({ branchId, counted }) => ({ branchId, counted }));
    for (const b of counts) note(`${STOCK_AT_PREFIX}${b.slug}`, String(cur.branch_stock[b.branchId] ?? 0), String(b.counted));
  }
  if (categoryIds && !sameIds(categoryIds, cur.category_ids)) {
    plan.categoryIds = categoryIds;
    note("categories", paths(cur.category_ids), paths(categoryIds));
  }
  if (attributes.length) {
    plan.attributes = attributes;
    for (const a of attributes) note(`attribute:${a.name}`, cur.attributes[a.name] ?? "", a.value);
  }
  if (set.status === "published" && cur.unnamed_photos > 0) {
    refusals.push({ row: row.row, column: "status", message: `Describe ${cur.unnamed_photos === 1 ? "the photo" : `all ${cur.unnamed_photos} photos`} (alt text) before publishing.` });
    return done();
  }
  if (archive) {
    plan.archive = true;
    note("variant_status", "active", "archived");
  }
  plan.refreshSearch = set.name !== undefined || set.manufacturer_id !== undefined || set.summary !== undefined;
  return plan;
}

/** The cells a new variant's row gives for its own fields, by the variant rules' names. */
const VARIANT_CELLS = ["price_ex_vat", "was_price_ex_vat", "stock", "reorder_level", "barcode", "weight_grams"] as const;

/**
 * A new variant of a product (one in the shop, or one the file creates): its
 * SKU, option values, price, stock and own columns, by the variant rules. Its
 * product's columns are its product's rows' to agree on (product-rows.ts).
 */
function planNewVariant(row: RowCells, state: RunState, variant: NonNullable<Plan["variant"]>, product: string, context: RowContext): Plan | null {
  const refusals: Refusal[] = [...context.refusals];
  const sku = rowSku(row, state, refusals);
  if (sku === null) return null;
  const input: Record<string, unknown> = { sku, options: variant.values };
  for (const field of VARIANT_CELLS) if (row.cells.has(field) && !(field === "stock" && state.byBranch)) input[field] = row.cells.get(field);
  const atBranches = branchFigures(row, state, refusals);
  const parsed = variantCreate.safeParse(input);
  if (!parsed.success) {
    for (const [field, messages] of Object.entries(fieldErrorsOf(parsed.error))) for (const message of messages) refusals.push({ row: row.row, column: field, message });
  }
  if (row.cells.get("variant_status")?.toLowerCase() === "archived") refusals.push({ row: row.row, column: "variant_status", message: NEW_VARIANT_ON_SALE });
  if (refusals.length || !parsed.success) return refuseRow(state, refusals, sku);
  const v = parsed.data;
  const changes: FieldChange[] = [
    { field: "product", old: "", new: product },
    { field: "variant", old: "", new: optionsWithNames(variant.values) },
    { field: "price_ex_vat", old: "", new: poundsCell(v.price_ex_vat) },
  ];
  if (v.was_price_ex_vat != null) changes.push({ field: "was_price_ex_vat", old: "", new: poundsCell(v.was_price_ex_vat) });
  if (v.stock !== undefined) changes.push({ field: "stock", old: "", new: String(v.stock) });
  if (v.barcode) changes.push({ field: "barcode", old: "", new: v.barcode });
  if (v.weight_grams != null) changes.push({ field: "weight_grams", old: "", new: String(v.weight_grams) });
  const plan: Plan = {
    row: row.row,
    sku,
    current: null,
    set: { price_pence: v.price_ex_vat, was_price_pence: v.was_price_ex_vat ?? null, reorder_level: v.reorder_level ?? DEFAULT_REORDER_LEVEL },
    variantSet: { barcode: v.barcode ?? null, weight_grams: v.weight_grams ?? null },
    ...(v.stock !== undefined ? { stock: v.stock } : {}),
    variant,
    changes,
    refreshSearch: false,
  };
  openAtBranches(plan, atBranches);
  return plan;
}

/**
 * A product's rows: each planned, the rows of a product with options checked
 * together (its columns agree, its options and new variants are whole). The
 * whole product's refusal is keepWholeProducts'.
 */
function planGroup(group: RowGroup, state: RunState, current: Map<string, Current>): Plan[] {
  const skuOf = (row: RowCells) => row.cells.get("sku") ?? "";
  const [first] = group.rows;
  if (group.rows.length === 1 && !group.key.startsWith("new:") && !(group.held && !current.has(skuOf(first!)))) {
    const plan = planRow(first!, state, current.get(skuOf(first!)) ?? null, { refusals: [] });
    return plan ? [plan] : [];
  }
  const extra = new Map<number, Refusal[]>();
  const add = (row: number, refusal: Omit<Refusal, "row">) => extra.set(row, [...(extra.get(row) ?? []), { row, ...refusal }]);
  for (const problem of disagreements(group.rows)) add(problem.row, problem);
  const fresh = group.rows.filter((r) => !current.has(skuOf(r)));
  const creating = group.key.startsWith("new:");
  // A product the file adds variants to has its rows together: a second run of them would be checked against options the first has not written yet.
  const runKey = fresh.length ? group.key : null;
  const earlier = runKey ? state.productRuns.get(runKey) : undefined;
  if (runKey && earlier !== undefined) {
    for (const row of group.rows) add(row.row, { column: "sku", message: `This product's rows began at row ${earlier}: keep a product's rows together, one after another.` });
  } else if (runKey) state.productRuns.set(runKey, first!.row);
  const options = fresh.length ? planOptions(fresh, creating ? null : group.held) : null;
  for (const problem of options?.problems ?? []) add(problem.row, problem);

  const plans: Plan[] = [];
  const lead = creating ? fresh[0] : undefined;
  const held: HeldProduct | null = group.held;
  let position = held?.nextPosition ?? 1;
  for (const row of group.rows) {
    const refusals = extra.get(row.row) ?? [];
    const cur = current.get(skuOf(row));
    let plan: Plan | null;
    const values = options?.values.get(row.row) ?? {};
    if (cur) plan = planRow(row, state, cur, { refusals });
    else if (row === lead) plan = planRow(row, state, null, { refusals, lead: { list: options!.list, values } });
    else if (creating) plan = planNewVariant(row, state, { of: { leadSku: skuOf(lead!) }, values, position: position++ }, lead?.cells.get("name") ?? skuOf(lead!), { refusals });
    else if (held) plan = planNewVariant(row, state, { of: { productId: held.id }, values, position: position++ }, `${held.name} (${held.slug})`, { refusals });
    else plan = planRow(row, state, null, { refusals });
    if (plan) plans.push(plan);
  }
  // An existing product's options gain the new values, written with its first new variant.
  const firstNew = plans.find((p) => p.variant && "productId" in p.variant.of);
  if (held && options?.changed && firstNew) firstNew.optionsAfter = { productId: held.id, list: options.list };
  return plans;
}

/**
 * A product's variants are imported together: when one of its rows is
 * refused, so are the rest, each saying which row was (even when only the
 * valid rows are wanted, so no product is left half made).
 */
function keepWholeProducts(plans: Plan[], groups: RowGroup[], state: RunState): Plan[] {
  const groupOf = new Map<number, RowGroup>();
  for (const g of groups) if (g.rows.length > 1) for (const row of g.rows) groupOf.set(row.row, g);
  const acceptedRows = new Set(plans.map((p) => p.row));
  const accepted = new Map<RowGroup, number>();
  for (const plan of plans) {
    const g = groupOf.get(plan.row);
    if (g) accepted.set(g, (accepted.get(g) ?? 0) + 1);
  }
  return plans.filter((plan) => {
    const g = groupOf.get(plan.row);
    if (!g || accepted.get(g) === g.rows.length) return true;
    const refused = g.rows.find((r) => !acceptedRows.has(r.row))!;
    refuseRow(state, [{ row: plan.row, message: `Refused with the rest of its product, as row ${refused.row} was: a product's variants are imported together.` }], plan.sku);
    return false;
  });
}

/** Each barcode is one variant's: not another's in the shop, nor given twice in the file. */
async function checkBarcodes(db: Db, plans: Plan[], state: RunState): Promise<Plan[]> {
  const given = plans.filter((p) => p.variantSet.barcode);
  if (given.length === 0) return plans;
  const result = (await db.execute(sql`
    select barcode, sku from product_variants where barcode in (select jsonb_array_elements_text(${JSON.stringify(given.map((p) => p.variantSet.barcode))}::jsonb))`)) as unknown as {
    rows: { barcode: string; sku: string }[];
  };
  const owners = new Map(result.rows.map((r) => [r.barcode, r.sku]));
  return plans.filter((plan) => {
    const code = plan.variantSet.barcode;
    if (!code) return true;
    const owner = state.barcodes.get(code) ?? owners.get(code);
    if (owner !== undefined && owner !== plan.sku) {
      refuseRow(state, [{ row: plan.row, column: "barcode", message: `The barcode ${code} is already on ${owner}.` }], plan.sku);
      return false;
    }
    state.barcodes.set(code, plan.sku);
    return true;
  });
}

/** A product keeps one variant on sale: rows that would archive every one are refused. */
function keepOneOnSale(plans: Plan[], state: RunState): Plan[] {
  const archiving = new Map<number, number>();
  for (const p of plans) if (p.archive) archiving.set(p.current!.id, (archiving.get(p.current!.id) ?? 0) + 1);
  return plans.filter((p) => {
    if (!p.archive || archiving.get(p.current!.id)! < p.current!.active_variants) return true;
    refuseRow(state, [{ row: p.row, column: "variant_status", message: `This would archive every variant of ${p.current!.name}: archive the product instead (status archived).` }], p.sku);
    return false;
  });
}

/** Each wanted slug is free: not another product's (unless a row before moved it away), not claimed by an earlier row. */
async function planSlugs(db: Db, plans: Plan[], state: RunState): Promise<Plan[]> {
  const wanted = plans.filter((p) => p.slug);
  const candidates = new Set<string>();
  for (const p of wanted) {
    candidates.add(p.slug!.wanted);
    if (p.slug!.derived) candidates.add(`${p.slug!.wanted}-${slugFrom(p.sku)}`);
  }
  const owners = new Map<string, string>();
  if (candidates.size) {
    const result = (await db.execute(sql`select slug, sku from products where slug in (select jsonb_array_elements_text(${JSON.stringify([...candidates])}::jsonb))`)) as unknown as {
      rows: { slug: string; sku: string }[];
    };
    for (const r of result.rows) owners.set(r.slug, r.sku);
  }
  const takenFor = (slug: string, sku: string) => {
    const owner = owners.get(slug);
    const claimant = state.claimed.get(slug);
    if (claimant !== undefined) return claimant === sku ? null : claimant;
    if (owner !== undefined && owner !== sku && !state.freed.has(slug)) return owner;
    return null;
  };
  const accepted: Plan[] = [];
  for (const plan of plans) {
    if (plan.slug) {
      let slug = plan.slug.wanted;
      let taken = takenFor(slug, plan.sku);
      if (taken !== null && plan.slug.derived) {
        slug = `${plan.slug.wanted}-${slugFrom(plan.sku)}`;
        taken = takenFor(slug, plan.sku);
      }
      if (taken !== null) {
        refuse(state, { row: plan.row, column: "slug", sku: plan.sku, message: `The web address "${slug}" is already used by the product ${taken}: choose another slug.` });
        state.report.refused_rows += 1;
        continue;
      }
      state.claimed.set(slug, plan.sku);
      plan.set.slug = slug;
      if (plan.current) {
        state.freed.add(plan.current.slug);
        plan.changes.splice(1, 0, { field: "slug", old: plan.current.slug, new: slug });
      } else plan.changes.splice(1, 0, { field: "slug", old: "", new: slug });
    }
    accepted.push(plan);
  }
  return accepted;
}

/** A row's values as jsonb_to_recordset takes them: a column left out is null (and the update keeps the product's own). */
const recordColumns = sql.raw(`name text, slug text, status text, price_pence int, was_price_pence int, vat_rate int, reorder_level int, manufacturer_id int,
  summary text, description_html text, heavy boolean, featured boolean, seo_title text, seo_description text, bin_location text, unit text, coverage_per_unit numeric, coverage_unit text,
  barcode text, weight_grams int`);

/** The fields of a row that are its variant's, not its product's. */
const VARIANT_FIELDS = new Set(["price_pence", "was_price_pence", "reorder_level"]);

async function writeBatch(tx: Db, plans: Plan[], state: RunState): Promise<void> {
  const creates = plans.filter((p) => !p.current && !p.variant);
  const updates = plans.filter((p) => p.current);
  const ids = new Map<string, number>();
  for (const p of updates) ids.set(p.sku, p.current!.id);

  // Every variant this batch changes, locked in (product, id) order (as the stock ledger and checkout lock them),
  // so the stock differences below are taken against stock nobody else can move meanwhile.
  const locked = new Map<number, number>();
  const variantIds = new Map<string, number>();
  for (const p of updates) variantIds.set(p.sku, p.current!.variant_id);
  if (updates.length) {
    const result = (await tx.execute(sql`
      select id, stock from product_variants where id in (select (jsonb_array_elements_text(${JSON.stringify(updates.map((p) => p.current!.variant_id))}::jsonb))::int)
      order by product_id, id for update`)) as unknown as { rows: { id: number; stock: number }[] };
    for (const r of result.rows) locked.set(r.id, r.stock);
  }

  if (creates.length) {
    const rows = creates.map((p, ord) => ({ ...p.set, sku: p.sku, ord }));
    const result = (await tx.execute(sql`
      insert into products (sku, slug, name, status, price_pence, was_price_pence, vat_rate, reorder_level, manufacturer_id,
                            summary, description_html, heavy, featured, seo_title, seo_description, bin_location, unit, coverage_per_unit, coverage_unit, stock, search_text)
      select r.sku, r.slug, r.name, r.status, r.price_pence, r.was_price_pence, r.vat_rate, r.reorder_level, r.manufacturer_id,
             r.summary, r.description_html, r.heavy, r.featured, r.seo_title, r.seo_description, r.bin_location, r.unit, r.coverage_per_unit, r.coverage_unit, 0,
             concat_ws(' ', (select m.name from manufacturers m where m.id = r.manufacturer_id), r.sku, nullif(r.summary, ''))
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(sku text, ord int, ${recordColumns})
      order by r.ord
      returning id, sku`)) as unknown as { rows: { id: number; sku: string }[] };
    for (const r of result.rows) ids.set(r.sku, r.id);
    // Each new product came with its one variant (migration 0030's trigger), under the same SKU.
    const made = (await tx.execute(sql`
      select id, sku from product_variants where product_id in (select (jsonb_array_elements_text(${JSON.stringify(result.rows.map((r) => r.id))}::jsonb))::int)`)) as unknown as {
      rows: { id: number; sku: string }[];
    };
    for (const r of made.rows) variantIds.set(r.sku, r.id);
  }

  // A new product with options: its options, and its first variant's values; then its other variants, and new ones of products in the shop.
  const leads = plans.filter((p) => p.options);
  const optionRows = [
    ...leads.map((p) => ({ product_id: ids.get(p.sku)!, list: p.options!.list })),
    ...plans.filter((p) => p.optionsAfter).map((p) => ({ product_id: p.optionsAfter!.productId, list: p.optionsAfter!.list })),
  ];
  if (optionRows.length) {
    await tx.execute(sql`delete from product_options where product_id in (select (jsonb_array_elements_text(${JSON.stringify(optionRows.map((o) => o.product_id))}::jsonb))::int)`);
    await tx.execute(sql`
      insert into product_options (product_id, position, name, values)
      select r.product_id, r.position, r.name, array(select jsonb_array_elements_text(r.values))
      from jsonb_to_recordset(${JSON.stringify(optionRows.flatMap((o) => o.list.map((option, position) => ({ product_id: o.product_id, position, name: option.name, values: option.values }))))}::jsonb)
        as r(product_id int, position int, name text, values jsonb)`);
  }
  if (leads.length) {
    await tx.execute(sql`
      update product_variants v set options = r.options
      from jsonb_to_recordset(${JSON.stringify(leads.map((p) => ({ id: variantIds.get(p.sku), options: p.options!.values })))}::jsonb) as r(id int, options jsonb)
      where v.id = r.id`);
  }
  const added = plans.filter((p) => p.variant);
  if (added.length) {
    const rows = added.map((p) => ({
      product_id: "productId" in p.variant!.of ? p.variant!.of.productId : ids.get(p.variant!.of.leadSku)!,
      sku: p.sku,
      options: p.variant!.values,
      position: p.variant!.position,
      ...p.set,
      ...p.variantSet,
    }));
    const result = (await tx.execute(sql`
      insert into product_variants (product_id, sku, options, price_pence, was_price_pence, reorder_level, barcode, weight_grams, position)
      select r.product_id, r.sku, r.options, r.price_pence, r.was_price_pence, r.reorder_level, r.barcode, r.weight_grams, r.position
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(product_id int, sku text, options jsonb, position int, ${recordColumns})
      order by r.product_id, r.position
      returning id, sku`)) as unknown as { rows: { id: number; sku: string }[] };
    for (const r of result.rows) variantIds.set(r.sku, r.id);
  }

  // Only rows that change the product's own fields: a price, was-price or reorder level is its variant's (below), and
  // writing the product row anyway would fire every product trigger (listing, search, page versions) for nothing.
  const changedRows = updates.filter((p) => Object.keys(p.set).some((field) => !VARIANT_FIELDS.has(field)));
  if (changedRows.length) {
    const rows = changedRows.map((p) => ({ ...p.set, id: p.current!.id, search: p.set.manufacturer_id !== undefined || p.set.summary !== undefined }));
    await tx.execute(sql`
      update products p set
        name = coalesce(r.name, p.name),
        slug = coalesce(r.slug, p.slug),
        status = coalesce(r.status, p.status),
        vat_rate = coalesce(r.vat_rate, p.vat_rate),
        manufacturer_id = coalesce(r.manufacturer_id, p.manufacturer_id),
        summary = coalesce(r.summary, p.summary),
        description_html = coalesce(r.description_html, p.description_html),
        heavy = coalesce(r.heavy, p.heavy),
        featured = coalesce(r.featured, p.featured),
        seo_title = coalesce(r.seo_title, p.seo_title),
        seo_description = coalesce(r.seo_description, p.seo_description),
        bin_location = coalesce(r.bin_location, p.bin_location),
        unit = coalesce(r.unit, p.unit),
        coverage_per_unit = coalesce(r.coverage_per_unit, p.coverage_per_unit),
        coverage_unit = coalesce(r.coverage_unit, p.coverage_unit),
        search_text = case when r.search
          then concat_ws(' ', (select m.name from manufacturers m where m.id = coalesce(r.manufacturer_id, p.manufacturer_id)), p.sku, nullif(coalesce(r.summary, p.summary), ''))
          else p.search_text end,
        updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id int, search boolean, ${recordColumns})
      where p.id = r.id`);
    // The SKU's own figures are its variant's; the product's summary follows by trigger.
  }
  // The SKU's own figures are its variant's (a new product's one variant too); the product's summary follows by trigger.
  const variantRows = plans.filter((p) => !p.variant).filter((p) => p.set.price_pence !== undefined || p.set.was_price_pence !== undefined || p.set.reorder_level !== undefined || Object.keys(p.variantSet).length > 0);
  if (variantRows.length) {
    await tx.execute(sql`
      update product_variants v set
        price_pence = coalesce(r.price_pence, v.price_pence),
        was_price_pence = coalesce(r.was_price_pence, v.was_price_pence),
        reorder_level = coalesce(r.reorder_level, v.reorder_level),
        barcode = case when r.has_barcode then r.barcode else v.barcode end,
        weight_grams = case when r.has_weight then r.weight_grams else v.weight_grams end,
        updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(
        variantRows.map((p) => ({ ...p.set, ...p.variantSet, has_barcode: "barcode" in p.variantSet, has_weight: "weight_grams" in p.variantSet, id: variantIds.get(p.sku) })),
      )}::jsonb) as r(id int, has_barcode boolean, has_weight boolean, ${recordColumns})
      where v.id = r.id`);
  }

  // Stock through the ledger: a new product's as its opening stock, a changed figure as a count's difference.
  const reason = `CSV import: ${state.fileName}`.slice(0, 200);
  const movements: Movement[] = [];
  for (const p of plans) {
    if (p.stock === undefined) continue;
    const id = variantIds.get(p.sku)!;
    const before = p.current ? (locked.get(id) ?? p.current.stock) : 0;
    if (p.stock !== before) movements.push({ variantId: id, change: p.stock - before, kind: p.current ? "counted" : "opening", reason, staffId: state.actor.staffId });
  }
  // stock@ columns: a new variant's figures are its opening stock there, a variant in the shop's are counted (below).
  for (const p of plans) {
    if (!p.branchCounts || p.current) continue;
    for (const b of p.branchCounts) movements.push({ variantId: variantIds.get(p.sku)!, branchId: b.branchId, change: b.counted, kind: "opening", reason, staffId: state.actor.staffId });
  }
  if (movements.length) {
    const { refused } = await applyMovements(tx, movements);
    // The file's stock is the total; the difference is counted at the default branch, which may not hold enough.
    if (refused.length) {
      const skus = plans.filter((p) => refused.includes(variantIds.get(p.sku)!)).map((p) => p.sku);
      throw new Error(`The stock of ${skus.join(", ")} could not be set: other branches hold more than the file's figure; count those branches on the stock desk.`);
    }
  }
  // Counted at each branch under the locks taken above (one read of their branch rows, one write for the batch).
  const counts = plans.filter((p) => p.current && p.branchCounts).flatMap((p) => p.branchCounts!.map((b) => ({ variantId: p.current!.variant_id, branchId: b.branchId, counted: b.counted })));
  if (counts.length) await countTo(tx, counts, reason, state.actor.staffId, { variantsLocked: true });
  // Archived once its stock is counted to 0: it leaves its product's total and listings, and stays for orders and the ledger.
  const archived = plans.filter((p) => p.archive).map((p) => variantIds.get(p.sku)!);
  if (archived.length) {
    await tx.execute(sql`update product_variants set status = 'archived', updated_at = now() where id in (select (jsonb_array_elements_text(${JSON.stringify(archived)}::jsonb))::int)`);
  }

  const withCategories = plans.filter((p) => p.categoryIds);
  if (withCategories.length) {
    const productIds = withCategories.map((p) => ids.get(p.sku)!);
    await tx.execute(sql`delete from product_categories where product_id in (select (jsonb_array_elements_text(${JSON.stringify(productIds)}::jsonb))::int)`);
    const pairs = withCategories.flatMap((p) => p.categoryIds!.map((categoryId) => ({ product_id: ids.get(p.sku)!, category_id: categoryId })));
    if (pairs.length) {
      await tx.execute(sql`
        insert into product_categories (product_id, category_id)
        select r.product_id, r.category_id from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as r(product_id int, category_id int)
        order by 1, 2`);
    }
  }

  const attributeRows = plans.flatMap((p) => (p.attributes ?? []).map((a) => ({ product_id: ids.get(p.sku)!, ...a })));
  if (attributeRows.length) {
    await tx.execute(sql`
      insert into product_attributes (product_id, name, value, position)
      select r.product_id, r.name, r.value, r.position from jsonb_to_recordset(${JSON.stringify(attributeRows)}::jsonb) as r(product_id int, name text, value text, position int)
      order by 1, 2
      on conflict (product_id, name) do update set value = excluded.value`);
  }

  // A slug now in use is nobody's old address any more; an old one redirects to its product (301).
  const slugged = plans.filter((p) => p.set.slug !== undefined);
  if (slugged.length) {
    await tx.execute(sql`delete from product_slug_redirects where slug in (select jsonb_array_elements_text(${JSON.stringify(slugged.map((p) => p.set.slug))}::jsonb))`);
    const moved = slugged.filter((p) => p.current).map((p) => ({ slug: p.current!.slug, product_id: p.current!.id }));
    if (moved.length) {
      await tx.execute(sql`
        insert into product_slug_redirects (slug, product_id)
        select r.slug, r.product_id from jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) as r(slug text, product_id int)
        on conflict (slug) do update set product_id = excluded.product_id, created_at = now()`);
    }
  }

  const searchIds = plans.filter((p) => p.refreshSearch).map((p) => ids.get(p.sku)!);
  if (searchIds.length) await refreshSearchWords(tx, searchIds);
}

async function processBatch(db: Db, batch: CsvRecord[], state: RunState): Promise<void> {
  const rows = batch.map((record) => readRow(record, state.columns));
  const skus = [...new Set(rows.map((r) => r.cells.get("sku") ?? "").filter(Boolean))];
  const current = await loadCurrent(db, skus, state.byBranch);
  // Products in the shop that new rows name by their slug, and those new rows below a product's own rows add to.
  const slugs = [...new Set(rows.filter((r) => hasOptions(r) && !current.has(r.cells.get("sku") ?? "") && r.cells.has("slug")).map((r) => r.cells.get("slug")!.toLowerCase()))];
  const bySlug = new Map((await loadHeldProducts(db, { slugs })).map((h) => [h.slug, h]));
  const groups = groupRows(rows, (sku) => current.get(sku)?.id, bySlug);
  const orphans = groups.filter((g) => g.key.startsWith("p:") && !g.held && g.rows.some((r) => !current.has(r.cells.get("sku") ?? "")));
  if (orphans.length) {
    const byId = new Map((await loadHeldProducts(db, { ids: orphans.map((g) => Number(g.key.slice(2))) })).map((h) => [h.id, h]));
    for (const g of orphans) g.held = byId.get(Number(g.key.slice(2))) ?? null;
  }
  const refusedBefore = state.refusedCount;
  const planned = groups.flatMap((group) => planGroup(group, state, current));
  const accepted = keepWholeProducts(await planSlugs(db, keepOneOnSale(await checkBarcodes(db, planned, state), state), state), groups, state);
  const { report } = state;
  const changed: Plan[] = [];
  for (const plan of accepted) {
    if (plan.changes.length === 0) {
      report.unchanged += 1;
      continue;
    }
    changed.push(plan);
    if (plan.current) report.would_update += 1;
    else report.would_create += 1;
    if (report.changes.length < REPORT_CHANGES_MAX) report.changes.push({ row: plan.row, sku: plan.sku, action: plan.current ? "update" : "create", fields: plan.changes });
    else report.more_changes += 1;
  }
  // One refused row and the import (unless for valid rows only) will be rolled back: stop writing, keep checking.
  if (state.refusedCount > refusedBefore && !report.valid_only) state.writing = false;
  if (state.writing && changed.length) await writeBatch(db, changed, state);
}

/**
 * Reads, checks and (unless a dry run) applies a catalogue CSV, all or
 * nothing. Never throws for what is in the file: the report says what was
 * refused. Throws for a fault (the database), having changed nothing.
 */
export async function runImport(db: Db, actor: StaffActor, source: CsvSource, options: ImportOptions): Promise<ImportReport> {
  authorize(actor, "catalogue.manage");
  const started = performance.now();
  const report = emptyReport(options);
  const finish = () => {
    report.seconds = Math.round((performance.now() - started) / 10) / 100;
    return report;
  };
  const progress = options.onProgress ?? (() => {});
  const batchSize = options.batchSize ?? IMPORT_BATCH;

  // First the whole file is read: its encoding, its header, its rows counted, its quoting checked.
  report.encoding = await detectEncoding(source);
  let header: string[] = [];
  try {
    for await (const record of readRecords(source, report.encoding)) {
      if (record.row === 1) header = record.cells;
      else if (!isBlank(record.cells)) report.rows += 1;
      if (record.row % 20_000 === 0) await progress({ done: 0, total: 0, phase: "reading" });
    }
  } catch (error) {
    if (!(error instanceof CsvReadError)) throw error;
    report.fatal = true;
    report.refused.push({ row: error.row, ...(error.column ? { column: error.column } : {}), message: error.message });
    return finish();
  }
  if (header.length === 0) {
    report.fatal = true;
    report.refused.push({ row: 1, message: "The file is empty: the first row should name the columns (sku, name, price_ex_vat, …)." });
    return finish();
  }
  const { columns, problems } = matchHeaders(header);
  const lookups = await loadLookups(db);
  problems.push(...branchColumnProblems(header, columns, lookups.branches));
  const state: RunState = {
    lookups,
    columns,
    byBranch: columns.some((c) => c?.kind === "stock_at"),
    skuRows: new Map(),
    productRuns: new Map(),
    barcodes: new Map(),
    claimed: new Map(),
    freed: new Set(),
    report,
    refusedCount: 0,
    writing: !options.dryRun,
    actor,
    fileName: options.fileName,
  };
  for (const problem of problems) refuse(state, { row: 1, column: problem.column, message: problem.message });
  if (problems.some((p) => p.fatal)) {
    report.fatal = true;
    return finish();
  }
  if (problems.length && !report.valid_only) state.writing = false;

  async function pass(handle: Db) {
    let batch: CsvRecord[] = [];
    let done = 0;
    const phase = state.writing ? "writing" : "checking";
    await progress({ done, total: report.rows, phase });
    let last: CsvRecord | null = null;
    for await (const record of readRecords(source, report.encoding!)) {
      if (record.row === 1 || isBlank(record.cells)) continue;
      // A batch is cut between products, never inside one's rows (bounded, should a file never change product).
      const full = batch.length >= batchSize && !(last && batch.length < batchSize + VARIANTS_MAX && sameProductRows(readRow(last, columns), readRow(record, columns)));
      if (full) {
        await processBatch(handle, batch, state);
        done += batch.length;
        batch = [];
        await progress({ done, total: report.rows, phase: state.writing ? "writing" : "checking" });
      }
      batch.push(record);
      last = record;
    }
    if (batch.length) await processBatch(handle, batch, state);
    await progress({ done: report.rows, total: report.rows, phase });
  }

  if (options.dryRun) {
    await pass(db);
  } else {
    try {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await pass(tx);
        if (state.refusedCount > 0 && !report.valid_only) throw new RolledBack();
        if (report.would_create + report.would_update === 0) return;
        await recordAudit(tx, actor, {
          action: "product.imported",
          entity: "product_import",
          entityId: options.importId ?? options.fileName.slice(0, 200),
          after: { file: options.fileName, rows: report.rows, created: report.would_create, updated: report.would_update, unchanged: report.unchanged, refused: report.refused_rows, valid_only: report.valid_only },
        });
      });
      report.applied = true;
      report.created = report.would_create;
      report.updated = report.would_update;
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
    }
  }
  if (options.dryRun) {
    report.created = report.would_create;
    report.updated = report.would_update;
  }
  return finish();
}
