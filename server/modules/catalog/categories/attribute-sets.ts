import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { ValidationError } from "../../../http-errors.ts";
import { type AttributeKind, categories, categoryAttributes } from "../schema.ts";

/**
 * Category attribute sets (issue 20): a category says which attributes its
 * products have and of what kind, a subcategory inheriting its ancestors'. A
 * product's attribute named in its set is checked and written one way (a
 * number with its unit, Yes or No), so the category's filters do not split
 * "18V" from "18 v". Names outside the set stay free text.
 */
export interface AttributeSpec {
  name: string;
  kind: AttributeKind;
  unit: string;
}

/** Every category's path and own attribute set: the tree is small, so one read serves a whole import. */
export interface AttributeSetIndex {
  pathOf: Map<number, string>;
  idOf: Map<string, number>;
  specs: Map<number, AttributeSpec[]>;
}

export async function loadAttributeSets(q: Db): Promise<AttributeSetIndex> {
  const [cats, specs] = await Promise.all([
    q.select({ id: categories.id, path: categories.path }).from(categories),
    q.select({ categoryId: categoryAttributes.categoryId, name: categoryAttributes.name, kind: categoryAttributes.kind, unit: categoryAttributes.unit }).from(categoryAttributes).orderBy(categoryAttributes.position, categoryAttributes.id),
  ]);
  const index: AttributeSetIndex = { pathOf: new Map(cats.map((c) => [c.id, c.path])), idOf: new Map(cats.map((c) => [c.path, c.id])), specs: new Map() };
  for (const { categoryId, ...spec } of specs) index.specs.set(categoryId, [...(index.specs.get(categoryId) ?? []), spec]);
  return index;
}

/** The set of a product in these categories: each category's own and its ancestors', the nearest first, each name once. */
export function attributeSetOf(index: AttributeSetIndex, categoryIds: number[]): AttributeSpec[] {
  const levels: { depth: number; specs: AttributeSpec[] }[] = [];
  for (const id of categoryIds) {
    const parts = (index.pathOf.get(id) ?? "").split("/").filter(Boolean);
    parts.forEach((_, i) => {
      const ancestor = index.idOf.get(parts.slice(0, i + 1).join("/"));
      if (ancestor !== undefined) levels.push({ depth: i, specs: index.specs.get(ancestor) ?? [] });
    });
  }
  const seen = new Set<string>();
  return levels
    .sort((a, b) => b.depth - a.depth)
    .flatMap((l) => l.specs)
    .filter((spec) => !seen.has(spec.name.toLowerCase()) && seen.add(spec.name.toLowerCase()));
}

export async function attributeSetFor(q: Db, categoryIds: number[]): Promise<AttributeSpec[]> {
  return categoryIds.length ? attributeSetOf(await loadAttributeSets(q), categoryIds) : [];
}

const YES = /^(yes|y|true)$/i;
const NO = /^(no|n|false)$/i;

/** A number as typed ("18", "18V", "1,200 mm") without its unit; null when it is not one. */
function numberOf(value: string, unit: string): string | null {
  let text = value.trim().replaceAll(",", "");
  if (unit && text.toLowerCase().endsWith(unit.toLowerCase())) text = text.slice(0, -unit.length).trim();
  // As typed, less its spaces and thousands commas: "2.0Ah" stays "2.0Ah", so an export reads back unchanged.
  text = text.replaceAll(" ", "");
  return /^-?\d+(\.\d+)?$/.test(text) ? text : null;
}

/** One value of an attribute in the set, as it is stored (`18V`, `Yes`), or why it is refused. */
export function normaliseValue(spec: AttributeSpec, value: string): { value: string } | { problem: string } {
  if (spec.kind === "number") {
    const n = numberOf(value, spec.unit);
    return n === null ? { problem: `${spec.name}: give a number${spec.unit ? ` (in ${spec.unit})` : ""}.` } : { value: `${n}${spec.unit}` };
  }
  if (spec.kind === "yes_no") {
    if (YES.test(value.trim())) return { value: "Yes" };
    if (NO.test(value.trim())) return { value: "No" };
    return { problem: `${spec.name}: answer Yes or No.` };
  }
  return { value };
}

/**
 * The attributes as they will be stored: those in the set checked and written
 * alike (`18V`, `Yes`) under the set's own name, the rest (and any value
 * unchanged from `current`) as given. Refuses,
 * naming each attribute, a number that is not one or a yes/no that is neither.
 */
export function normaliseAttributes(set: AttributeSpec[], attributes: { name: string; value: string }[], current: { name: string; value: string }[] = []): { name: string; value: string }[] {
  const problems: string[] = [];
  const out = attributes.map((a) => {
    const spec = set.find((s) => s.name.toLowerCase() === a.name.trim().toLowerCase());
    // A value as it already stands is left alone, even one written before the set said otherwise.
    if (!spec || current.some((c) => c.name.toLowerCase() === a.name.trim().toLowerCase() && c.value === a.value)) return a;
    const done = normaliseValue(spec, a.value);
    if ("problem" in done) problems.push(done.problem);
    return { name: spec.name, value: "value" in done ? done.value : a.value };
  });
  if (problems.length) throw new ValidationError({ attributes: problems });
  return out;
}

/**
 * The demo catalogue's attribute sets, read off its products: each category
 * that holds products gets the attributes they use (a drill's, not every power
 * tool's), a number where every value is one number and the same unit, yes/no
 * where every value is Yes or No.
 */
export async function deriveAttributeSets(tx: Db): Promise<void> {
  await tx.execute(sql`
    with used as (
      select pc.category_id, pa.name, pa.value, pa.position
      from product_attributes pa
      join product_categories pc on pc.product_id = pa.product_id
    ),
    kinds as (
      select category_id, name, min(position) as position,
             bool_and(value ~* '^(yes|no)$') as yes_no,
             bool_and(value ~ '^-?[0-9]+(\\.[0-9]+)?[A-Za-z]{1,4}$') as numeric,
             min(regexp_replace(value, '^-?[0-9]+(\\.[0-9]+)?', '')) as unit,
             count(distinct regexp_replace(value, '^-?[0-9]+(\\.[0-9]+)?', '')) as units
      from used group by category_id, name
    )
    insert into category_attributes (category_id, name, kind, unit, position)
    select k.category_id, k.name,
           case when k.yes_no then 'yes_no' when k.numeric and k.units = 1 then 'number' else 'text' end,
           case when k.numeric and k.units = 1 and not k.yes_no then k.unit else '' end,
           k.position
    from kinds k
    on conflict do nothing`);
}
