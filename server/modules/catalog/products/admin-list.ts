// The back office's product list (issue 20): its filters, read the same by the
// list, its tabs' counts and the CSV export; a keyset page by name.
import { type SQL, and, asc, eq, gt, ilike, ne, or, sql } from "drizzle-orm";
import { decodeNameCursor, encodeNameCursor } from "../../../db/name-cursor.ts";
import { escapeLike } from "../../../db/like.ts";
import type { Db } from "../../../db/client.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { incVat, pounds } from "./prices.ts";
import { type ProductStatus, categories, manufacturers, productCategories, productVariants, products } from "../schema.ts";

export const ADMIN_PRODUCTS_PAGE_MAX = 100;
export const STOCK_FILTERS = ["in_stock", "low", "out"] as const;
export const STATUS_FILTERS = ["active", "draft", "published", "archived", "all"] as const;

export interface AdminProductFilters {
  /** Name (any words, any order) or SKU. */
  q?: string;
  category?: number;
  brand?: number;
  stock?: (typeof STOCK_FILTERS)[number];
  /** `active` (the default): drafts and published; `all` includes archived. */
  status?: (typeof STATUS_FILTERS)[number];
  no_photo?: boolean;
  cursor?: string;
  limit?: number;
}


export const summaryColumns = {
  id: products.id,
  sku: products.sku,
  name: products.name,
  slug: products.slug,
  status: products.status,
  pricePence: products.pricePence,
  vatRate: products.vatRate,
  stock: products.stock,
  reorderLevel: products.reorderLevel,
  images: products.images,
  updatedAt: products.updatedAt,
  brandId: manufacturers.id,
  brandName: manufacturers.name,
};
export type SummaryRow = { [K in keyof typeof summaryColumns]: (typeof summaryColumns)[K]["_"]["data"] } & { brandId: number | null; brandName: string | null };

export function summaryJson(r: SummaryRow) {
  return {
    sku: r.sku,
    name: r.name,
    slug: r.slug,
    status: r.status,
    brand: r.brandId !== null && r.brandName !== null ? { id: r.brandId, name: r.brandName } : null,
    price_ex_vat: pounds(r.pricePence),
    price_inc_vat: pounds(incVat(r.pricePence, r.vatRate)),
    vat_rate: r.vatRate,
    stock: r.stock,
    reorder_level: r.reorderLevel,
    low_stock: r.stock <= r.reorderLevel,
    photo: r.images[0]?.src ?? null,
    /** Real photos (with an id), not the drawn fallback. */
    photos: r.images.filter((i) => i.id).length,
    updated_at: r.updatedAt.toISOString(),
  };
}
export type AdminProductSummary = ReturnType<typeof summaryJson>;


/** The product list's filters as conditions on `products`: the list, its counts and the CSV export read the same. */
export function productConditions(filters: Omit<AdminProductFilters, "cursor" | "limit">): SQL[] {
  const where: SQL[] = [];
  const status = filters.status ?? "active";
  if (status === "active") where.push(ne(products.status, "archived"));
  else if (status !== "all") where.push(eq(products.status, status));
  if (filters.brand) where.push(eq(products.manufacturerId, filters.brand));
  if (filters.category) {
    // The category and everything under it, as the storefront's category page lists them (paths are slugs: no LIKE wildcards).
    where.push(sql`${products.id} in (
      select pc.product_id from ${productCategories} pc join ${categories} c on c.id = pc.category_id
      where c.id = ${filters.category} or c.path like (select path || '/%' from ${categories} where id = ${filters.category}))`);
  }
  if (filters.stock === "in_stock") where.push(gt(products.stock, 0));
  if (filters.stock === "out") where.push(eq(products.stock, 0));
  // Low: any of its variants at or below its own reorder level.
  if (filters.stock === "low") where.push(sql`exists (select 1 from ${productVariants} v where v.product_id = ${products.id} and v.status = 'active' and v.stock <= v.reorder_level)`);
  // A photo has an id; the drawn SVG the storefront falls back on has none.
  if (filters.no_photo) where.push(sql`not jsonb_path_exists(${products.images}, '$[*].id')`);
  const q = filters.q?.trim();
  if (q) {
    // Every word in the name (trigram index), or the SKU exactly or by its start.
    const words = q.split(/\s+/).slice(0, 6);
    where.push(or(and(...words.map((w) => ilike(products.name, `%${escapeLike(w)}%`)))!, sql`lower(${products.sku}) like ${`${escapeLike(q.toLowerCase())}%`}`)!);
  }
  return where;
}

export function createAdminProductList(db: Db) {
  async function page(actor: StaffActor, filters: AdminProductFilters, limit: number) {
    authorize(actor, "catalogue.view");
    const where = productConditions(filters);
    if (filters.cursor) {
      const [name, id] = decodeNameCursor(filters.cursor);
      where.push(sql`(${products.name}, ${products.id}) > (${name}, ${id})`);
    }
    const rows = (await db
      .select(summaryColumns)
      .from(products)
      .leftJoin(manufacturers, eq(manufacturers.id, products.manufacturerId))
      .where(and(...where))
      .orderBy(asc(products.name), asc(products.id))
      .limit(limit + 1)) as SummaryRow[];
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    return { rows: data, next_cursor: rows.length > limit && last ? encodeNameCursor(last.name, last.id) : null };
  }

  return {
    async list(actor: StaffActor, filters: AdminProductFilters) {
      const limit = Math.min(Math.max(1, filters.limit ?? 50), ADMIN_PRODUCTS_PAGE_MAX);
      const { rows, next_cursor } = await page(actor, filters, limit);
      return { data: rows.map(summaryJson), next_cursor };
    },

    /** Counts for the list's tabs, under the same filters but the status. */
    async counts(actor: StaffActor, filters: AdminProductFilters) {
      authorize(actor, "catalogue.view");
      const where = productConditions({ ...filters, status: "all" });
      const rows = await db
        .select({ status: products.status, n: sql<number>`count(*)::int` })
        .from(products)
        .where(and(...where))
        .groupBy(products.status);
      const n = (s: ProductStatus) => rows.find((r) => r.status === s)?.n ?? 0;
      return { draft: n("draft"), published: n("published"), archived: n("archived") };
    },
  };
}
