import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { ValidationError } from "../../http-errors.ts";
import { type AttributeKind, categories, categoryAttributes } from "./schema.ts";

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

/** The attribute set of products in these categories: each category's own and its ancestors', the nearest first. */
export async function attributeSetFor(q: Db, categoryIds: number[]): Promise<AttributeSpec[]> {
  if (categoryIds.length === 0) return [];
  const result = (await q.execute(sql`
    select a.name, a.kind, a.unit
    from ${categoryAttributes} a join ${categories} c on c.id = a.category_id
    where exists (select 1 from ${categories} p where p.id in ${categoryIds} and (p.path = c.path or starts_with(p.path, c.path || '/')))
    order by array_length(string_to_array(c.path, '/'), 1) desc, a.position, a.id`)) as unknown as { rows: AttributeSpec[] };
  const rows = result.rows;
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.name.toLowerCase()) && seen.add(r.name.toLowerCase())).map(({ name, kind, unit }) => ({ name, kind, unit }));
}

const YES = /^(yes|y|true)$/i;
const NO = /^(no|n|false)$/i;

/** A number as typed ("18", "18V", "1,200 mm") without its unit; null when it is not one. */
function numberOf(value: string, unit: string): string | null {
  let text = value.trim().replaceAll(",", "");
  if (unit && text.toLowerCase().endsWith(unit.toLowerCase())) text = text.slice(0, -unit.length).trim();
  return /^-?\d+(\.\d+)?$/.test(text) ? String(Number(text)) : null;
}

/**
 * The attributes as they will be stored: those in the set checked and written
 * alike (`18V`, `Yes`), the rest as given. Refuses, naming each attribute, a
 * number that is not one or a yes/no that is neither.
 */
export function normaliseAttributes(set: AttributeSpec[], attributes: { name: string; value: string }[]): { name: string; value: string }[] {
  const problems: string[] = [];
  const out = attributes.map((a) => {
    const spec = set.find((s) => s.name.toLowerCase() === a.name.trim().toLowerCase());
    if (!spec) return a;
    if (spec.kind === "number") {
      const n = numberOf(a.value, spec.unit);
      if (n === null) problems.push(`${spec.name}: give a number${spec.unit ? ` (in ${spec.unit})` : ""}.`);
      return { name: spec.name, value: n === null ? a.value : `${n}${spec.unit}` };
    }
    if (spec.kind === "yes_no") {
      if (!YES.test(a.value.trim()) && !NO.test(a.value.trim())) problems.push(`${spec.name}: answer Yes or No.`);
      return { name: spec.name, value: YES.test(a.value.trim()) ? "Yes" : NO.test(a.value.trim()) ? "No" : a.value };
    }
    return { name: spec.name, value: a.value };
  });
  if (problems.length) throw new ValidationError({ attributes: problems });
  return out;
}

/**
 * The demo catalogue's attribute sets, read off its products: each top
 * category gets the attributes its products use, a number where every value is
 * one number and the same unit, yes/no where every value is Yes or No.
 */
export async function deriveAttributeSets(tx: Db): Promise<void> {
  await tx.execute(sql`
    with used as (
      select split_part(c.path, '/', 1) as top, pa.name, pa.value, pa.position
      from product_attributes pa
      join product_categories pc on pc.product_id = pa.product_id
      join categories c on c.id = pc.category_id
    ),
    kinds as (
      select top, name, min(position) as position,
             bool_and(value ~* '^(yes|no)$') as yes_no,
             bool_and(value ~ '^-?[0-9]+(\\.[0-9]+)?[A-Za-z]{1,4}$') as numeric,
             min(regexp_replace(value, '^-?[0-9]+(\\.[0-9]+)?', '')) as unit,
             count(distinct regexp_replace(value, '^-?[0-9]+(\\.[0-9]+)?', '')) as units
      from used group by top, name
    )
    insert into category_attributes (category_id, name, kind, unit, position)
    select c.id, k.name,
           case when k.yes_no then 'yes_no' when k.numeric and k.units = 1 then 'number' else 'text' end,
           case when k.numeric and k.units = 1 and not k.yes_no then k.unit else '' end,
           k.position
    from kinds k join categories c on c.path = k.top
    on conflict do nothing`);
}
