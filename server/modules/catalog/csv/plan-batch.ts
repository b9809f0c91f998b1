// A batch's plans checked together: a product's rows as one, barcodes and slugs
// unique, one variant kept on sale.
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { slugFrom } from "../products/product-rules.ts";
import { type HeldProduct, type RowCells, type RowGroup, disagreements, planOptions } from "./product-rows.ts";
import type { Current, Plan, RunState } from "./import-state.ts";
import { planNewVariant, planRow } from "./plan-row.ts";
import { type Refusal, refuse, refuseRow } from "./report.ts";

/**
 * A product's rows: each planned, the rows of a product with options checked
 * together (its columns agree, its options and new variants are whole). The
 * whole product's refusal is keepWholeProducts'.
 */
export function planGroup(group: RowGroup, state: RunState, current: Map<string, Current>): Plan[] {
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
export function keepWholeProducts(plans: Plan[], groups: RowGroup[], state: RunState): Plan[] {
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
export async function checkBarcodes(db: Db, plans: Plan[], state: RunState): Promise<Plan[]> {
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
export function keepOneOnSale(plans: Plan[], state: RunState): Plan[] {
  const archiving = new Map<number, number>();
  for (const p of plans) if (p.archive) archiving.set(p.current!.id, (archiving.get(p.current!.id) ?? 0) + 1);
  return plans.filter((p) => {
    if (!p.archive || archiving.get(p.current!.id)! < p.current!.active_variants) return true;
    refuseRow(state, [{ row: p.row, column: "variant_status", message: `This would archive every variant of ${p.current!.name}: archive the product instead (status archived).` }], p.sku);
    return false;
  });
}

/** Each wanted slug is free: not another product's (unless a row before moved it away), not claimed by an earlier row. */
export async function planSlugs(db: Db, plans: Plan[], state: RunState): Promise<Plan[]> {
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

