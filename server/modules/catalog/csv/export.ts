import { Readable, pipeline } from "node:stream";
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { csvWriter } from "../../../lib/csv.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { type AdminProductFilters, productConditions } from "../admin.ts";
import { ATTRIBUTE_PREFIX, CSV_COLUMNS, poundsCell, yesNoCell } from "./columns.ts";

/** Products read per query: memory holds one batch, whatever the catalogue's size (ADR 0032). */
export const CATALOGUE_EXPORT_BATCH = 1_000;

/** The admin product list's filters (the whole catalogue, archived included, when no status is given). */
export type CatalogueExportFilters = Omit<AdminProductFilters, "cursor" | "limit">;

interface ExportRow {
  id: number;
  sku: string;
  name: string;
  slug: string;
  status: string;
  price_pence: number;
  was_price_pence: number | null;
  vat_rate: number;
  stock: number;
  reorder_level: number;
  brand: string | null;
  categories: string | null;
  summary: string;
  description_html: string;
  heavy: boolean;
  featured: boolean;
  seo_title: string;
  seo_description: string;
  attributes: Record<string, string> | null;
}

/** The catalogue's attribute names, one per name whatever its case, in order: the export's attribute columns. */
async function attributeNames(db: Db): Promise<string[]> {
  const result = (await db.execute(sql`select min(name) as name from product_attributes group by lower(name) order by lower(min(name))`)) as unknown as { rows: { name: string }[] };
  return result.rows.map((r) => r.name);
}

/**
 * The catalogue (or the filtered list) as CSV in the import's own columns, so
 * the file reads back unchanged: read in keyset batches by id and streamed
 * through csv-stringify, formulas escaped (CSV injection). Checks the
 * permission before the first byte; a failed query ends the download with an
 * error, not a short file that looks whole.
 */
export async function exportCatalogueCsv(db: Db, actor: StaffActor, filters: CatalogueExportFilters = {}): Promise<Readable> {
  authorize(actor, "catalogue.view");
  const names = await attributeNames(db);
  const lowerNames = names.map((n) => n.toLowerCase());
  const columns = [...CSV_COLUMNS.map((c) => ({ key: c.header, header: c.header })), ...names.map((name, i) => ({ key: `a${i}`, header: `${ATTRIBUTE_PREFIX}${name}` }))];
  const where = productConditions({ ...filters, status: filters.status ?? "all" });

  async function* records() {
    let after = 0;
    for (;;) {
      const result = (await db.execute(sql`
        select products.id, products.sku, products.name, products.slug, products.status, products.price_pence, products.was_price_pence, products.vat_rate, products.stock, products.reorder_level,
               case when m.id is null then null
                    when (select count(*) from manufacturers m2 where lower(m2.name) = lower(m.name)) > 1 then m.slug
                    else m.name end as brand,
               (select string_agg(c.path, '|' order by c.path) from product_categories pc join categories c on c.id = pc.category_id where pc.product_id = products.id) as categories,
               products.summary, products.description_html, products.heavy, products.featured, products.seo_title, products.seo_description,
               (select jsonb_object_agg(a.name, a.value) from product_attributes a where a.product_id = products.id) as attributes
        from products left join manufacturers m on m.id = products.manufacturer_id
        where products.id > ${after} ${where.length ? sql`and ${sql.join(where, sql` and `)}` : sql``}
        order by products.id
        limit ${CATALOGUE_EXPORT_BATCH}`)) as unknown as { rows: ExportRow[] };
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
        };
        for (const [name, value] of Object.entries(r.attributes ?? {})) {
          const i = lowerNames.indexOf(name.toLowerCase());
          if (i >= 0) record[`a${i}`] = value;
        }
        yield record;
      }
      if (result.rows.length < CATALOGUE_EXPORT_BATCH) return;
      after = result.rows.at(-1)!.id;
    }
  }

  const csv = csvWriter(columns);
  pipeline(Readable.from(records()), csv, () => {});
  return csv;
}
