import { sql } from "drizzle-orm";
import { refreshSearchWords } from "../../modules/catalog/search/product-search.ts";
import { recordOpeningStock } from "../../modules/stock/ledger.ts";
import type { Db } from "../client.ts";

const LEAVES = sql`(select id, row_number() over (order by id) - 1 as i, count(*) over () as n
  from categories c where not exists (select 1 from categories k where k.parent_id = c.id))`;
/** Every this many generated products, one in four lengths (with its options and variants). */
export const LENGTHS_EVERY = 20;
const BRANDS = sql`(select id, name, row_number() over (order by id) - 1 as i, count(*) over () as n from manufacturers)`;

/**
 * Adds `count` generated products for performance work
 * (`npm run db:seed -- --products 100000`): spread over the leaf categories and
 * brands, each with two attributes (colour independent of brand, so filters
 * combine as in a real catalogue), in set-based inserts of 10,000 at a time.
 * Generated products are numbered after any earlier ones, so it can run again.
 */
export async function seedScale(db: Db, count: number): Promise<number> {
  const batch = 10_000;
  const result = (await db.execute(sql`select coalesce(max(substr(sku, 5)::int), 0)::int as last from products where sku like 'GEN-%'`)) as unknown as {
    rows: { last: number }[];
  };
  let next = (result.rows[0]?.last ?? 0) + 1;
  let made = 0;
  while (made < count) {
    const from = next;
    const to = next + Math.min(batch, count - made) - 1;
    await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      // Ten thousand rows a statement: the listing and summary triggers join each statement's old and new
      // rows, which the planner, without statistics for them, loops over (n × n: minutes and gigabytes).
      // Hash joins for this bulk load only (PostgreSQL; PGlite takes the setting alike).
      await tx.execute(sql`set local enable_nestloop = off`);
      await tx.execute(sql`
        insert into products (sku, slug, name, summary, description_html, manufacturer_id, price_pence, vat_rate, stock, images, search_text, created_at)
        select 'GEN-' || k, 'generated-product-' || k, b.name || ' Trade Product ' || k,
               'Generated product for performance work.', '<p>Generated product for performance work.</p>',
               b.id, 199 + (k * 7919) % 99800, 20, (k * 31) % 150,
               jsonb_build_array(jsonb_build_object('src', '/images/products/generated-product-' || k || '/1.svg', 'alt', b.name || ' Trade Product ' || k)),
               b.name || ' GEN-' || k, now() - ((k % 365) || ' days')::interval
        from generate_series(${from}::int, ${to}::int) k
        join ${BRANDS} b on b.i = k % b.n`);
      await tx.execute(sql`
        insert into product_categories (product_id, category_id)
        select p.id, l.id from products p
        join ${LEAVES} l on l.i = (substr(p.sku, 5)::int / 7) % l.n
        where p.sku like 'GEN-%' and substr(p.sku, 5)::int between ${from} and ${to}`);
      await tx.execute(sql`
        insert into product_attributes (product_id, name, value, position)
        select p.id, a.name, case a.name when 'Size' then (array['Small','Medium','Large'])[substr(p.sku, 5)::int % 3 + 1]
                                         else (array['Black','Blue','Green','Red','Yellow'])[substr(p.sku, 5)::int / 25 % 5 + 1] end, a.pos
        from products p cross join (values ('Size', 0), ('Colour', 1)) a(name, pos)
        where p.sku like 'GEN-%' and substr(p.sku, 5)::int between ${from} and ${to}`);
      // Every 20th comes in four lengths, as timber does: its one variant becomes the 2.4 m, three more follow.
      const lengths = sql`p.sku like 'GEN-%' and substr(p.sku, 5)::int between ${from} and ${to} and substr(p.sku, 5)::int % ${LENGTHS_EVERY} = 0`;
      await tx.execute(sql`
        insert into product_options (product_id, position, name, values)
        select p.id, 0, 'Length', array['2.4 m', '3.0 m', '3.6 m', '4.8 m'] from products p where ${lengths}`);
      await tx.execute(sql`update product_variants v set options = '{"Length": "2.4 m"}'::jsonb from products p where p.id = v.product_id and ${lengths}`);
      await tx.execute(sql`
        insert into product_variants (product_id, sku, options, price_pence, stock, position)
        select p.id, p.sku || '-' || l.code, jsonb_build_object('Length', l.length), round(p.price_pence * l.factor)::int, p.stock, l.position
        from products p cross join (values ('30M', '3.0 m', 1.25, 1), ('36M', '3.6 m', 1.5, 2), ('48M', '4.8 m', 2.0, 3)) l(code, length, factor, position)
        where ${lengths}
        order by p.id, l.position`);
    });
    made += to - from + 1;
    next = to + 1;
  }
  // New words (brands, SKUs) join the search dictionary.
  await refreshSearchWords(db);
  // Each generated product's stock starts its ledger.
  await recordOpeningStock(db);
  // Fresh statistics, and the GIN indexes' pending lists merged: after a bulk
  // load an unmerged list makes every full-text and facet read scan it.
  await db.execute(sql`vacuum analyze`);
  return made;
}
