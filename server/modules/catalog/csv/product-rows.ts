import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { slugFrom } from "../products/product-rules.ts";
import { VARIANTS_MAX, optionsInput } from "../variants/variant-rules.ts";
import { ATTRIBUTE_PREFIX, type FieldColumn, type MatchedColumn, OPTION_COLUMNS } from "./columns.ts";
import type { CsvRecord } from "./read.ts";

/**
 * A product's rows in the catalogue CSV (issue 29, ADR 0046). A product with
 * options is a row per variant, one after another; its product columns are
 * repeated on each row or left empty on all but the first. These rules say
 * which rows make one product, what its options are, and which variants a
 * file adds to it, so the import can create, change or refuse a product's
 * variants together.
 */

export type Options = { name: string; values: string[] }[];

/** A row's cells by column, trimmed and non-empty. */
export interface RowCells {
  row: number;
  cells: Map<FieldColumn, string>;
  attributes: { name: string; value: string }[];
  /** stock@ cells by the branch's slug. */
  stockAt: Map<string, string>;
  /** Cells past the header's columns. */
  stray: number[];
}

export function readRow(record: CsvRecord, columns: MatchedColumn[]): RowCells {
  const read: RowCells = { row: record.row, cells: new Map(), attributes: [], stockAt: new Map(), stray: [] };
  record.cells.forEach((raw, i) => {
    const value = raw.trim();
    if (i >= columns.length) {
      if (value) read.stray.push(i + 1);
      return;
    }
    const column = columns[i];
    if (!column || value === "") return;
    if (column.kind === "attribute") read.attributes.push({ name: column.name, value });
    else if (column.kind === "stock_at") read.stockAt.set(column.slug, value);
    else read.cells.set(column.field, value);
  });
  return read;
}

/** The row's option name and value pairs in column order; a name without its value (or the reverse) is a problem. */
export function rowOptions(row: RowCells): { pairs: [string, string][]; problems: { column: string; message: string }[] } {
  const pairs: [string, string][] = [];
  const problems: { column: string; message: string }[] = [];
  for (const [nameColumn, valueColumn] of OPTION_COLUMNS) {
    const name = row.cells.get(nameColumn);
    const value = row.cells.get(valueColumn);
    if (name === undefined && value === undefined) continue;
    if (name === undefined || value === undefined) problems.push({ column: name === undefined ? nameColumn : valueColumn, message: `Give both ${nameColumn} and ${valueColumn}.` });
    else pairs.push([name, value]);
  }
  return { pairs, problems };
}

export const hasOptions = (row: RowCells) => OPTION_COLUMNS.some(([n, v]) => row.cells.has(n) || row.cells.has(v));

/** The product a new row with options names: its slug cell (the handle), else its name made a slug, else none (a variant row left empty). */
function handleOf(row: RowCells): { handle: string; explicit: boolean } | null {
  const slug = row.cells.get("slug")?.toLowerCase();
  if (slug) return { handle: slug, explicit: true };
  const name = row.cells.get("name");
  return name ? { handle: slugFrom(name), explicit: false } : null;
}

/**
 * Whether `next` may be one more row of the product `group` began, as the
 * batches see it before anything is read from the database: both have
 * options and the later one names the same product or none. A batch is never
 * cut between such rows, so a product's variants are checked together.
 */
export function sameProductRows(first: RowCells, next: RowCells): boolean {
  if (!hasOptions(first) || !hasOptions(next)) return false;
  const a = handleOf(first);
  const b = handleOf(next);
  return b === null || (a !== null && a.handle === b.handle);
}

/** An existing product that new rows add variants to (named by its slug). */
export interface HeldProduct {
  id: number;
  sku: string;
  slug: string;
  name: string;
  options: Options;
  /** Its active variants' option values, lower-cased and joined: what a new variant may not repeat. */
  combos: Set<string>;
  active: number;
  nextPosition: number;
}

export const comboKey = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([n, v]) => `${n.toLowerCase()}=${v.toLowerCase()}`)
    .sort()
    .join("|");

/** Products that new rows add variants to, by their slugs (named in the file) or ids (the product of the rows above). */
export async function loadHeldProducts(db: Db, by: { slugs?: string[]; ids?: number[] }): Promise<HeldProduct[]> {
  const slugs = by.slugs ?? [];
  const ids = by.ids ?? [];
  if (slugs.length === 0 && ids.length === 0) return [];
  const result = (await db.execute(sql`
    select p.id, p.sku, p.slug, p.name,
           coalesce((select jsonb_agg(jsonb_build_object('name', o.name, 'values', to_jsonb(o.values)) order by o.position) from product_options o where o.product_id = p.id), '[]'::jsonb) as options,
           coalesce((select jsonb_agg(v.options) from product_variants v where v.product_id = p.id and v.status = 'active'), '[]'::jsonb) as combos,
           (select coalesce(max(v.position), -1) + 1 from product_variants v where v.product_id = p.id)::int as next_position
    from products p
    where p.slug in (select jsonb_array_elements_text(${JSON.stringify(slugs)}::jsonb))
       or p.id in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int)`)) as unknown as {
    rows: { id: number; sku: string; slug: string; name: string; options: Options; combos: Record<string, string>[]; next_position: number }[];
  };
  return result.rows.map((r) => ({ id: r.id, sku: r.sku, slug: r.slug, name: r.name, options: r.options, combos: new Set(r.combos.map(comboKey)), active: r.combos.length, nextPosition: r.next_position }));
}

/** What a row is part of: an existing product (by id), a product the file creates with options (by handle), or itself alone. */
export type ProductKey = `p:${number}` | `new:${string}` | `row:${number}`;

export interface RowGroup {
  key: ProductKey;
  rows: RowCells[];
  /** For a product that exists: it, when new rows name it by its slug. */
  held: HeldProduct | null;
}

/**
 * The batch's rows as products, each a run of rows one after another. A row
 * whose SKU exists belongs to that variant's product; a new row with options
 * belongs to the product its slug names (one already in the shop, only when
 * the slug is given: a name never joins a row to another product), else to a
 * new product named by its name, else (left empty) to the product above it.
 */
export function groupRows(rows: RowCells[], productOf: (sku: string) => number | undefined, held: Map<string, HeldProduct>): RowGroup[] {
  const groups: RowGroup[] = [];
  let last: RowGroup | null = null;
  for (const row of rows) {
    const sku = row.cells.get("sku") ?? "";
    const existing = sku ? productOf(sku) : undefined;
    let key: ProductKey;
    let owner: HeldProduct | null = null;
    if (existing !== undefined) key = `p:${existing}`;
    else if (!hasOptions(row)) key = `row:${row.row}`;
    else {
      const handle = handleOf(row);
      owner = handle?.explicit ? (held.get(handle.handle) ?? null) : null;
      if (owner) key = `p:${owner.id}`;
      else if (handle) key = `new:${handle.handle}`;
      // Left empty: a variant of the product above, when that one has options.
      else key = last && last.rows.some(hasOptions) ? last.key : `row:${row.row}`;
    }
    if (last && last.key === key && !key.startsWith("row:")) {
      last.rows.push(row);
      last.held ??= owner;
    } else {
      last = { key, rows: [row], held: owner };
      groups.push(last);
    }
  }
  return groups;
}

/** The product columns a product's rows must agree on (or leave empty). */
const PRODUCT_COLUMNS: FieldColumn[] = ["name", "slug", "status", "vat_rate", "brand", "categories", "summary", "description_html", "heavy", "featured", "seo_title", "seo_description", "bin_location", "unit", "coverage_per_unit", "coverage_unit"];

/** Each later row's product cell that says something else than the first row that gives it. */
export function disagreements(rows: RowCells[]): { row: number; column: string; message: string }[] {
  const first = new Map<string, { row: number; value: string }>();
  const problems: { row: number; column: string; message: string }[] = [];
  for (const row of rows) {
    const cells: [string, string][] = [...PRODUCT_COLUMNS.flatMap((c): [string, string][] => (row.cells.has(c) ? [[c, row.cells.get(c)!]] : [])), ...row.attributes.map((a): [string, string] => [`${ATTRIBUTE_PREFIX}${a.name.toLowerCase()}`, a.value])];
    for (const [column, value] of cells) {
      const given = first.get(column);
      if (!given) first.set(column, { row: row.row, value });
      else if (given.value !== value) {
        problems.push({ row: row.row, column, message: `This product's ${column} is "${given.value.slice(0, 60)}" on row ${given.row}: a product's rows give its columns once, the same on each row or empty.` });
      }
    }
  }
  return problems;
}

export interface OptionPlan {
  /** The product's options after the file: a new product's, or an existing one's with new values at the end. */
  list: Options;
  /** Each row's variant values, spelled as the options spell them, by row number. */
  values: Map<number, Record<string, string>>;
  problems: { row: number; column: string; message: string }[];
  /** Whether `list` differs from the product's options before. */
  changed: boolean;
}

/**
 * The options of a product the file creates (from its rows' option columns,
 * values in the order they first appear), or of an existing product that the
 * rows add variants to (its own names; a new value joins its option's list at
 * the end). Every row names each option once and is a combination no other
 * variant of the product has.
 */
export function planOptions(rows: RowCells[], held: HeldProduct | null): OptionPlan {
  const problems: OptionPlan["problems"] = [];
  const list: Options = held ? held.options.map((o) => ({ name: o.name, values: [...o.values] })) : [];
  const values = new Map<number, Record<string, string>>();
  const seen = new Map<string, number>();
  if (held && list.length === 0) {
    for (const row of rows) problems.push({ row: row.row, column: "option1_name", message: `${held.sku} has no options yet: give it its options (such as Length) in the back office first, then add its variants here.` });
    return { list, values, problems, changed: false };
  }
  for (const row of rows) {
    const { pairs, problems: own } = rowOptions(row);
    for (const p of own) problems.push({ row: row.row, ...p });
    if (own.length) continue;
    // A new product takes its option names from its first row.
    if (!held && list.length === 0) for (const [name] of pairs) list.push({ name, values: [] });
    const names = pairs.map(([n]) => n.toLowerCase());
    const wanted = list.map((o) => o.name.toLowerCase());
    if (names.length !== wanted.length || names.some((n) => !wanted.includes(n))) {
      problems.push({ row: row.row, column: "option1_name", message: `Give this product's options, ${list.map((o) => o.name).join(", ")}, on each of its rows.` });
      continue;
    }
    const combo: Record<string, string> = {};
    for (const option of list) {
      const value = pairs.find(([n]) => n.toLowerCase() === option.name.toLowerCase())![1];
      const known = option.values.find((v) => v.toLowerCase() === value.toLowerCase());
      if (!known) option.values.push(value);
      combo[option.name] = known ?? value;
    }
    const key = comboKey(combo);
    const label = Object.values(combo).join(", ");
    if (held?.combos.has(key)) problems.push({ row: row.row, column: "option1_value", message: `${held.sku}'s product already has a variant ${label}: update that variant's row instead.` });
    else if (seen.has(key)) problems.push({ row: row.row, column: "option1_value", message: `Row ${seen.get(key)} is already the variant ${label}.` });
    else {
      seen.set(key, row.row);
      values.set(row.row, combo);
    }
  }
  const checked = optionsInput.safeParse(list);
  if (!checked.success) problems.push({ row: rows[0]!.row, column: "option1_value", message: checked.error.issues[0]!.message });
  const total = (held?.active ?? 0) + values.size;
  if (total > VARIANTS_MAX) problems.push({ row: rows[0]!.row, column: "sku", message: `This product would have ${total} variants; a product can have at most ${VARIANTS_MAX}.` });
  const before = JSON.stringify(held?.options ?? []);
  return { list, values, problems, changed: JSON.stringify(list) !== before };
}
