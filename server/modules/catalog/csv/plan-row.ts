// One row's plan: its cells checked by the product screen's and the variant
// screen's rules, and compared with what the shop holds.
import { attributeSetOf, normaliseValue } from "../categories/attribute-sets.ts";
import { ATTRIBUTES_MAX, CATEGORIES_MAX, type ProductPatch, fieldErrorsOf, productCreate, productFields, productPatch, slugFrom } from "../products/product-rules.ts";
import { sanitizeDescription } from "../products/sanitize.ts";
import { COVERAGE_UNITS, type CoverageUnit, SALE_UNITS, type SaleUnit } from "../products/units.ts";
import { optionsWithNames } from "../variants/variant-names.ts";
import { variantCreate, variantFields } from "../variants/variant-rules.ts";
import { DEFAULT_REORDER_LEVEL } from "../schema.ts";
import { type FieldColumn, STOCK_AT_PREFIX, categoriesCell, parseCategories, parseYesNo, poundsCell, yesNoCell } from "./columns.ts";
import { type Options, type RowCells, comboKey, rowOptions } from "./product-rows.ts";
import type { Current, Plan, ProductValues, RunState, VariantValues } from "./import-state.ts";
import { type FieldChange, type Refusal, refuseRow } from "./report.ts";

const PRODUCT_COLUMNS: FieldColumn[] = ["name", "slug", "status", "price_ex_vat", "was_price_ex_vat", "vat_rate", "stock", "reorder_level", "summary", "description_html", "heavy", "featured", "seo_title", "seo_description", "bin_location"];
const attributeItem = productFields.shape.attributes.element;

const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);

/** A new product's or variant's row that says archived. */
const NEW_VARIANT_ON_SALE = "A new variant is created on sale: archive it once it is in.";

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
export interface RowContext {
  refusals: Refusal[];
  lead?: { list: Options; values: Record<string, string> };
}

/**
 * One row against its variant (or none, for a new product): what it would
 * change, or why it is refused. The slug's uniqueness is the batch's to check
 * (planSlugs).
 */
export function planRow(row: RowCells, state: RunState, cur: Current | null, context: RowContext): Plan | null {
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
export function planNewVariant(row: RowCells, state: RunState, variant: NonNullable<Plan["variant"]>, product: string, context: RowContext): Plan | null {
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

