import { Readable, pipeline } from "node:stream";
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { csvWriter } from "../../../lib/csv.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { type AdminProductFilters, productConditions } from "../products/admin-list.ts";
import { ATTRIBUTE_PREFIX, CSV_COLUMNS, OPTION_COLUMNS, STOCK_AT_PREFIX, poundsCell, yesNoCell } from "./columns.ts";
import type { VariantRow } from "./import-state.ts";

/** Products read per query: memory holds one batch, whatever the catalogue's size (ADR 0032). */
export const CATALOGUE_EXPORT_BATCH = 1_000;

/** The admin product list's filters (the whole catalogue, archived included, when no status is given). */
export type CatalogueExportFilters = Omit<AdminProductFilters, "cursor" | "limit">;

/** One variant with its product's fields: a product with options is a row per variant. */
interface ExportRow extends Omit<VariantRow, "manufacturer_id" | "coverage_per_unit"> {
  /** The batch's products and the last one's id: a product whose variants are all archived writes no row. */
  page_size: number;
  page_last: number;
  id: number;
  /** numeric(12,3) as text, as Postgres gives it. */
  coverage_per_unit: string | null;
  option_names: string[] | null;
  /** Its brand's name, or slug where two brands share the name. */
  brand: string | null;
  categories: string | null;
  attributes: Record<string, string> | null;
  /** Stock by branch id (only when the export has stock@ columns). */
  branch_stock: Record<string, number> | null;
}

/** The catalogue's attribute names, one per name whatever its case, in order: the export's attribute columns. */
async function attributeNames(db: Db): Promise<string[]> {
  const result = (await db.execute(sql`select min(name) as name from product_attributes group by lower(name) order by lower(min(name))`)) as unknown as { rows: { name: string }[] };
  return result.rows.map((r) => r.name);
}

/**
 * The stock@ columns: one per open branch, in the merchant's order, when the
 * shop has more than one (a shop with one branch sees the file it always had).
 */
async function branchColumns(db: Db): Promise<{ id: number; slug: string }[]> {
  const result = (await db.execute(sql`select id, slug from branches where status = 'open' order by position, id`)) as unknown as { rows: { id: number; slug: string }[] };
  return result.rows.length > 1 ? result.rows : [];
}

/**
 * The catalogue (or the filtered list) as CSV in the import's own columns, so
 * the file reads back unchanged: a row per variant, the product's fields on
 * each, its option names and values in the option columns (ADR 0046); read
 * in keyset batches of products by id and streamed
 * through csv-stringify, formulas escaped (CSV injection). Checks the
 * permission before the first byte; a failed query ends the download with an
 * error, not a short file that looks whole.
 */
export async function exportCatalogueCsv(db: Db, actor: StaffActor, filters: CatalogueExportFilters = {}): Promise<Readable> {
  authorize(actor, "catalogue.view");
  const names = await attributeNames(db);
  const lowerNames = names.map((n) => n.toLowerCase());
  const atBranches = await branchColumns(db);
  // Each branch's column follows the total's.
  const columns = [
    ...CSV_COLUMNS.flatMap((c) => [{ key: c.header, header: c.header }, ...(c.header === "stock" ? atBranches.map((b) => ({ key: `b${b.id}`, header: `${STOCK_AT_PREFIX}${b.slug}` })) : [])]),
    ...names.map((name, i) => ({ key: `a${i}`, header: `${ATTRIBUTE_PREFIX}${name}` })),
  ];
  const where = productConditions({ ...filters, status: filters.status ?? "all" });

  async function* records() {
    let after = 0;
    for (;;) {
      const result = (await db.execute(sql`
        with page as materialized (
          select products.* from products
          where products.id > ${after} ${where.length ? sql`and ${sql.join(where, sql` and `)}` : sql``}
          order by products.id
          limit ${CATALOGUE_EXPORT_BATCH}
        )
        select (select count(*) from page)::int as page_size, (select max(id) from page) as page_last,
               products.id, v.sku, products.name, products.slug, products.status, v.price_pence, v.was_price_pence, products.vat_rate, v.stock, v.reorder_level,
               products.unit, products.coverage_per_unit::text, products.coverage_unit, v.options, v.barcode, v.weight_grams,
               (select array_agg(o.name order by o.position) from product_options o where o.product_id = products.id) as option_names,
               case when m.id is null then null
                    when (select count(*) from manufacturers m2 where lower(m2.name) = lower(m.name)) > 1 then m.slug
                    else m.name end as brand,
               (select string_agg(c.path, '|' order by c.path) from product_categories pc join categories c on c.id = pc.category_id where pc.product_id = products.id) as categories,
               products.summary, products.description_html, products.heavy, products.featured, products.seo_title, products.seo_description, products.bin_location,
               (select jsonb_object_agg(a.name, a.value) from product_attributes a where a.product_id = products.id) as attributes,
               ${atBranches.length ? sql`(select jsonb_object_agg(s.branch_id, s.stock) from branch_stock s where s.variant_id = v.id)` : sql`null::jsonb`} as branch_stock
        from page products
        join product_variants v on v.product_id = products.id and v.status = 'active'
        left join manufacturers m on m.id = products.manufacturer_id
        order by products.id, v.position, v.id`)) as unknown as { rows: ExportRow[] };
      for (const r of result.rows) {
        const record: Record<string, string> = {
          sku: r.sku,
          name: r.name,
          slug: r.slug,
          status: r.status,
          price_ex_vat: poundsCell(r.price_pence),
          was_price_ex_vat: poundsCell(r.was_price_pence),
          vat_rate: String(r.vat_rate),
          stock: String(r.stock),
          reorder_level: String(r.reorder_level),
          brand: r.brand ?? "",
          categories: r.categories ?? "",
          summary: r.summary,
          description_html: r.description_html,
          heavy: yesNoCell(r.heavy),
          featured: yesNoCell(r.featured),
          seo_title: r.seo_title,
          seo_description: r.seo_description,
          bin_location: r.bin_location,
          unit: r.unit,
          // numeric(12,3) as text: "1.440" written as the figure it is.
          coverage_per_unit: r.coverage_per_unit === null ? "" : String(Number(r.coverage_per_unit)),
          coverage_unit: r.coverage_unit ?? "",
          barcode: r.barcode ?? "",
          weight_grams: r.weight_grams === null ? "" : String(r.weight_grams),
          variant_status: "active",
        };
        for (const b of atBranches) record[`b${b.id}`] = String(r.branch_stock?.[b.id] ?? 0);
        for (const [i, name] of (r.option_names ?? []).entries()) {
          const [nameColumn, valueColumn] = OPTION_COLUMNS[i]!;
          record[nameColumn] = name;
          record[valueColumn] = r.options[name] ?? "";
        }
        for (const [name, value] of Object.entries(r.attributes ?? {})) {
          const i = lowerNames.indexOf(name.toLowerCase());
          if (i >= 0) record[`a${i}`] = value;
        }
        yield record;
      }
      const page = result.rows[0];
      if (!page || page.page_size < CATALOGUE_EXPORT_BATCH) return;
      after = page.page_last;
    }
  }

  const csv = csvWriter(columns);
  pipeline(Readable.from(records()), csv, () => {});
  return csv;
}
