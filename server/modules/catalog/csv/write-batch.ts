// A batch's accepted plans written set-based: products, options, variants,
// stock through the ledger, categories, attributes, slugs.
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { type Movement, applyMovements, countTo } from "../../stock/ledger.ts";
import { refreshSearchWords } from "../search/product-search.ts";
import type { Plan, RunState } from "./import-state.ts";

/** A row's values as jsonb_to_recordset takes them: a column left out is null (and the update keeps the product's own). */
const recordColumns = sql.raw(`name text, slug text, status text, price_pence int, was_price_pence int, vat_rate int, reorder_level int, manufacturer_id int,
  summary text, description_html text, heavy boolean, featured boolean, seo_title text, seo_description text, bin_location text, unit text, coverage_per_unit numeric, coverage_unit text,
  barcode text, weight_grams int`);

/** The fields of a row that are its variant's, not its product's. */
const VARIANT_FIELDS = new Set(["price_pence", "was_price_pence", "reorder_level"]);

export async function writeBatch(tx: Db, plans: Plan[], state: RunState): Promise<void> {
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

