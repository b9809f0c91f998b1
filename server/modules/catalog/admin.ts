import { type SQL, and, asc, desc, eq, gt, ilike, inArray, ne, or, sql } from "drizzle-orm";
import { decodeNameCursor, encodeNameCursor } from "../../db/name-cursor.ts";
import { escapeLike } from "../../db/like.ts";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation, uniqueViolationDetail } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { can } from "../staff/permissions.ts";
import { missingAltText } from "../media/contract.ts";
import { applyMovements, countTotalTo, stockElsewhere } from "../stock/ledger.ts";
import { stockMovements } from "../stock/schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { attributeSetFor, normaliseAttributes } from "./attribute-sets.ts";
import { incVat, pounds, refreshSearchWords } from "./products.ts";
import { type ProductCreate, type ProductPatch, slugFrom } from "./product-rules.ts";
import { PRICE_PERCENT_LIMIT } from "./product-status.ts";
import { sanitizeDescription } from "./sanitize.ts";
import {
  type ProductImage,
  type ProductStatus,
  categories,
  manufacturers,
  productAttributes,
  productCategories,
  productOptions,
  productSlugRedirects,
  productVariants,
  products,
  relatedProducts,
} from "./schema.ts";
import { adminVariantJson } from "./admin-variants.ts";
import { lockedProductWithSku, productWithSku, soleVariant } from "./variants.ts";

/**
 * The catalogue in the back office (issue 20): the product list with its
 * filters, one product's every field, creating and editing products, and bulk
 * changes with a preview. Each call checks its permission again; each write is
 * audited in its own transaction; the catalogue triggers keep listings, facets
 * and the page cache in step, so the storefront's next request shows it.
 */
export const ADMIN_PRODUCTS_PAGE_MAX = 100;
export const BULK_MAX = 500;
export { PRICE_PERCENT_LIMIT };
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

export const BULK_ACTIONS = ["move_category", "set_vat", "archive", "price_percent"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export interface BulkRequest {
  skus: string[];
  action: BulkAction;
  category_id?: number;
  vat_rate?: number;
  /** -90 to +1000: +5 is five per cent dearer, rounded to the penny. */
  percent?: number;
}


const summaryColumns = {
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
type SummaryRow = { [K in keyof typeof summaryColumns]: (typeof summaryColumns)[K]["_"]["data"] } & { brandId: number | null; brandName: string | null };

function summaryJson(r: SummaryRow) {
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

/** Name, brand, SKU and summary: what the search vector weighs beside the name. */
export function productSearchText(brand: string | null | undefined, sku: string, summary: string): string {
  return [brand ?? "", sku, summary].filter(Boolean).join(" ");
}

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

export function createAdminProductService(db: Db) {
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

  async function detail(q: Db, id: number) {
    const [row] = (await q
      .select({ ...summaryColumns, product: products })
      .from(products)
      .leftJoin(manufacturers, eq(manufacturers.id, products.manufacturerId))
      .where(eq(products.id, id))
      .limit(1)) as (SummaryRow & { product: typeof products.$inferSelect })[];
    if (!row) throw new HttpError(404, "No product has that SKU.");
    const p = row.product;
    const [cats, attrs, related, oldSlugs, movements, discounts, optionRows, variantRows] = await Promise.all([
      q
        .select({ id: categories.id, name: categories.name, path: categories.path })
        .from(productCategories)
        .innerJoin(categories, eq(categories.id, productCategories.categoryId))
        .where(eq(productCategories.productId, id))
        .orderBy(asc(categories.path)),
      q.select({ name: productAttributes.name, value: productAttributes.value }).from(productAttributes).where(eq(productAttributes.productId, id)).orderBy(asc(productAttributes.position)),
      q
        .select({ sku: products.sku, name: products.name })
        .from(relatedProducts)
        .innerJoin(products, eq(products.id, relatedProducts.relatedId))
        .where(eq(relatedProducts.productId, id))
        .orderBy(asc(relatedProducts.position)),
      q.select({ slug: productSlugRedirects.slug }).from(productSlugRedirects).where(eq(productSlugRedirects.productId, id)).orderBy(desc(productSlugRedirects.createdAt)),
      q
        .select({ id: stockMovements.id, change: stockMovements.change, kind: stockMovements.kind, reason: stockMovements.reason, stockAfter: stockMovements.stockAfter, createdAt: stockMovements.createdAt })
        .from(stockMovements)
        .where(eq(stockMovements.productId, id))
        .orderBy(desc(stockMovements.id))
        .limit(10),
      // The trade price rules as they stand: each approved account's discount on the ex-VAT price.
      q
        .select({ basisPoints: tradeAccounts.discountBasisPoints, accounts: sql<number>`count(*)::int` })
        .from(tradeAccounts)
        .where(and(eq(tradeAccounts.state, "approved"), gt(tradeAccounts.discountBasisPoints, 0)))
        .groupBy(tradeAccounts.discountBasisPoints)
        .orderBy(asc(tradeAccounts.discountBasisPoints)),
      q.select({ name: productOptions.name, values: productOptions.values }).from(productOptions).where(eq(productOptions.productId, id)).orderBy(asc(productOptions.position)),
      q.select().from(productVariants).where(eq(productVariants.productId, id)).orderBy(asc(productVariants.position), asc(productVariants.id)),
    ]);
    return {
      ...summaryJson(row),
      summary: p.summary,
      description_html: p.descriptionHtml,
      was_price_ex_vat: p.wasPricePence === null ? null : pounds(p.wasPricePence),
      heavy: p.heavy,
      returnable: p.returnable,
      non_returnable_reason: p.nonReturnableReason,
      featured: p.featured,
      seo_title: p.seoTitle,
      seo_description: p.seoDescription,
      bin_location: p.binLocation,
      published: p.status === "published",
      categories: cats,
      attributes: attrs,
      related,
      images: p.images,
      old_slugs: oldSlugs.map((s) => s.slug),
      attribute_set: await attributeSetFor(q, cats.map((c) => c.id)),
      trade_prices: discounts.map((d) => {
        const unit = Math.floor((p.pricePence * (10_000 - d.basisPoints) + 5_000) / 10_000);
        return { discount_percent: d.basisPoints / 100, accounts: d.accounts, price_ex_vat: pounds(unit), price_inc_vat: pounds(incVat(unit, p.vatRate)) };
      }),
      unit: p.unit,
      coverage: p.coveragePerUnit === null || p.coverageUnit === null ? null : { per_unit: p.coveragePerUnit, unit: p.coverageUnit },
      options: optionRows,
      variants: variantRows.map((v) => adminVariantJson(v, p.vatRate)),
      stock_movements: movements.map((m) => ({ id: m.id, change: m.change, kind: m.kind, reason: m.reason, stock_after: m.stockAfter, at: m.createdAt.toISOString() })),
      created_at: p.createdAt.toISOString(),
    };
  }

  /** The fields a patch touches, with who may touch them: stock is the warehouse's, the rest the catalogue's. */
  function authorizePatch(actor: StaffActor, patch: ProductPatch): void {
    const keys = Object.keys(patch);
    // Where it sits on the shelves is the warehouse's to say, like its stock.
    const stockOnly = keys.every((k) => k === "stock" || k === "reorder_level" || k === "bin_location");
    authorize(actor, stockOnly && keys.length > 0 && !can(actor.role, "catalogue.manage") ? "stock.count" : "catalogue.manage");
  }

  /** Brand, categories and related products named in a patch exist; each refusal names its field. */
  async function references(tx: Db, patch: ProductPatch, selfId: number | null) {
    const errors: Record<string, string[]> = {};
    let brandName: string | null | undefined;
    if (patch.brand_id !== undefined && patch.brand_id !== null) {
      const [brand] = await tx.select({ name: manufacturers.name }).from(manufacturers).where(eq(manufacturers.id, patch.brand_id)).limit(1);
      if (!brand) errors.brand_id = ["That brand does not exist."];
      brandName = brand?.name;
    } else if (patch.brand_id === null) brandName = null;
    const categoryIds = [...new Set(patch.category_ids ?? [])];
    if (categoryIds.length) {
      const found = await tx.select({ id: categories.id }).from(categories).where(inArray(categories.id, categoryIds));
      if (found.length !== categoryIds.length) errors.category_ids = ["One of those categories does not exist."];
    }
    let relatedIds: number[] = [];
    if (patch.related_skus?.length) {
      const wanted = [...new Set(patch.related_skus.map((s) => s.toLowerCase()))];
      const found = await tx.select({ id: products.id, sku: products.sku }).from(products).where(inArray(sql`lower(${products.sku})`, wanted));
      const missing = wanted.filter((s) => !found.some((f) => f.sku.toLowerCase() === s));
      if (missing.length) errors.related_skus = [`No product has the SKU ${missing.join(", ")}.`];
      if (selfId !== null && found.some((f) => f.id === selfId)) errors.related_skus = [...(errors.related_skus ?? []), "A product cannot be related to itself."];
      relatedIds = wanted.map((s) => found.find((f) => f.sku.toLowerCase() === s)?.id).filter((id): id is number => id !== undefined);
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { brandName, categoryIds, relatedIds };
  }

  /** A SKU or slug another product already has, named by its field. */
  async function clashes(tx: Db, sku: string | undefined, slug: string | undefined, selfId: number | null): Promise<void> {
    const errors: Record<string, string[]> = {};
    const others = (c: SQL) => (selfId === null ? c : and(c, ne(products.id, selfId))!);
    if (sku !== undefined) {
      const [taken] = await tx.select({ name: products.name }).from(products).where(others(productWithSku(sku))).limit(1);
      if (taken) errors.sku = [`The SKU ${sku} is already used by “${taken.name}”.`];
    }
    if (slug !== undefined) {
      const [taken] = await tx.select({ name: products.name }).from(products).where(others(eq(products.slug, slug))).limit(1);
      if (taken) errors.slug = [`The web address /product/${slug} is already used by “${taken.name}”.`];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }

  /** Writes the parts of a product that live in other tables; each given list replaces the old one. */
  async function writeLists(tx: Db, id: number, patch: ProductPatch, refs: { categoryIds: number[]; relatedIds: number[] }) {
    if (patch.category_ids !== undefined) {
      await tx.delete(productCategories).where(eq(productCategories.productId, id));
      if (refs.categoryIds.length) await tx.insert(productCategories).values(refs.categoryIds.map((categoryId) => ({ productId: id, categoryId })));
    }
    if (patch.attributes !== undefined) {
      await tx.delete(productAttributes).where(eq(productAttributes.productId, id));
      if (patch.attributes.length) await tx.insert(productAttributes).values(patch.attributes.map((a, position) => ({ productId: id, name: a.name, value: a.value, position })));
    }
    if (patch.related_skus !== undefined) {
      await tx.delete(relatedProducts).where(eq(relatedProducts.productId, id));
      if (refs.relatedIds.length) await tx.insert(relatedProducts).values(refs.relatedIds.map((relatedId, position) => ({ productId: id, relatedId, position })));
    }
  }

  function statusOf(patch: ProductPatch, current: ProductStatus): ProductStatus {
    if (patch.status) return patch.status;
    if (patch.published === true) return "published";
    if (patch.published === false) return current === "archived" ? "archived" : "draft";
    return current;
  }

  /** A product goes on sale only when it could be sold: a photo's description is read aloud to those who cannot see it. */
  function publishable(status: ProductStatus, images: ProductImage[]): void {
    if (status !== "published") return;
    const unnamed = missingAltText(images).length;
    if (unnamed) throw new ValidationError({ published: [`Describe ${unnamed === 1 ? "the photo" : `all ${unnamed} photos`} (alt text) before publishing.`] });
  }

  /** Only the fields a patch changed, for the audit log: scalar fields as the API names them. */
  function auditView(p: typeof products.$inferSelect) {
    return {
      sku: p.sku,
      name: p.name,
      slug: p.slug,
      status: p.status,
      summary: p.summary,
      brand_id: p.manufacturerId,
      price_ex_vat: pounds(p.pricePence),
      was_price_ex_vat: p.wasPricePence === null ? null : pounds(p.wasPricePence),
      vat_rate: p.vatRate,
      stock: p.stock,
      reorder_level: p.reorderLevel,
      heavy: p.heavy,
      returnable: p.returnable,
      non_returnable_reason: p.nonReturnableReason,
      featured: p.featured,
      seo_title: p.seoTitle,
      seo_description: p.seoDescription,
      bin_location: p.binLocation,
      description_changed: undefined as boolean | undefined,
    };
  }

  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // Two saves racing for one SKU or slug: the loser hears which, like any other clash.
      if (isUniqueViolation(error)) {
        const detail = uniqueViolationDetail(error);
        throw new ValidationError(detail.includes("slug") ? { slug: ["That web address was just taken by another product."] } : { sku: ["That SKU was just taken by another product."] });
      }
      throw error;
    }
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

    async get(actor: StaffActor, sku: string) {
      authorize(actor, "catalogue.view");
      const [row] = await db.select({ id: products.id }).from(products).where(productWithSku(sku)).limit(1);
      if (!row) throw new HttpError(404, "No product has that SKU.");
      return detail(db, row.id);
    },

    /** What the edit form chooses from: every category (by path) and brand. */
    async choices(actor: StaffActor) {
      authorize(actor, "catalogue.view");
      const [cats, brands] = await Promise.all([
        db.select({ id: categories.id, name: categories.name, path: categories.path }).from(categories).orderBy(asc(categories.path)),
        db.select({ id: manufacturers.id, name: manufacturers.name }).from(manufacturers).orderBy(asc(manufacturers.name)),
      ]);
      return { categories: cats, brands };
    },

    /** A new product from fields already checked by the rules (`parseProduct(productCreate, …)` or the route's schema). */
    async create(actor: StaffActor, fields: ProductCreate, options: { images?: ProductImage[] } = {}) {
      authorize(actor, "catalogue.manage");
      const slug = fields.slug ?? slugFrom(fields.name);
      if (!slug) throw new ValidationError({ slug: ["Give the product a web address of letters and digits."] });
      const status = statusOf(fields, "draft");
      // Photos chosen on the new-product form come with it (adminPhotos.forNewProduct), each with its alt text.
      const images = options.images ?? [];
      publishable(status, images);
      return guarded(() =>
        db.transaction(async (t) => {
          const tx = t as unknown as Db;
          await clashes(tx, fields.sku, slug, null);
          const refs = await references(tx, fields, null);
          if (fields.attributes) fields.attributes = normaliseAttributes(await attributeSetFor(tx, refs.categoryIds), fields.attributes);
          const summary = fields.summary ?? "";
          const [row] = await tx
            .insert(products)
            .values({
              sku: fields.sku,
              slug,
              name: fields.name,
              summary,
              descriptionHtml: sanitizeDescription(fields.description_html ?? ""),
              manufacturerId: fields.brand_id ?? null,
              pricePence: fields.price_ex_vat,
              vatRate: fields.vat_rate ?? 20,
              wasPricePence: fields.was_price_ex_vat ?? null,
              heavy: fields.heavy ?? false,
              returnable: fields.returnable ?? true,
              nonReturnableReason: fields.non_returnable_reason ?? "",
              featured: fields.featured ?? false,
              status,
              reorderLevel: fields.reorder_level,
              seoTitle: fields.seo_title ?? "",
              seoDescription: fields.seo_description ?? "",
              binLocation: fields.bin_location ?? "",
              searchText: productSearchText(refs.brandName, fields.sku, summary),
              ...(images.length ? { images } : {}),
            })
            .returning();
          const product = row!;
          // The live slug wins over an old one another product left behind.
          await tx.delete(productSlugRedirects).where(eq(productSlugRedirects.slug, slug));
          await writeLists(tx, product.id, fields, refs);
          // The product came with its one variant (migration 0030's trigger): the stock is that variant's.
          if (fields.stock) {
            const variant = await soleVariant(tx, product.id, ["stock"]);
            await applyMovements(tx, [{ variantId: variant.id, change: fields.stock, kind: "opening", reason: "Stock when the product was created", staffId: actor.staffId }]);
          }
          await refreshSearchWords(tx, [product.id]);
          await recordAudit(tx, actor, { action: "product.created", entity: "product", entityId: product.sku, before: null, after: { ...auditView(product), stock: fields.stock ?? 0, ...(images.length ? { photos: images.map((i) => i.id) } : {}) } });
          return detail(tx, product.id);
        }),
      );
    },

    /**
     * Changes any of a product's fields. A stock figure is a count: the
     * difference goes into the ledger as a `counted` movement. A new slug leaves
     * the old one redirecting (301) to it.
     */
    async update(actor: StaffActor, sku: string, patch: ProductPatch) {
      authorizePatch(actor, patch);
      return guarded(() =>
        db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const before = await lockedProductWithSku(tx, sku);
          await clashes(tx, patch.sku, patch.slug, before.id);
          const refs = await references(tx, patch, before.id);
          if (patch.attributes) {
            const categoryIds = patch.category_ids !== undefined ? refs.categoryIds : (await tx.select({ id: productCategories.categoryId }).from(productCategories).where(eq(productCategories.productId, before.id))).map((c) => c.id);
            const current = await tx.select({ name: productAttributes.name, value: productAttributes.value }).from(productAttributes).where(eq(productAttributes.productId, before.id));
            patch.attributes = normaliseAttributes(await attributeSetFor(tx, categoryIds), patch.attributes, current);
          }
          const status = statusOf(patch, before.status);
          if (status !== before.status) publishable(status, before.images);
          const nextSku = patch.sku ?? before.sku;
          const summary = patch.summary ?? before.summary;
          const searchMoved = patch.sku !== undefined || patch.summary !== undefined || patch.brand_id !== undefined;
          const brandName =
            refs.brandName !== undefined
              ? refs.brandName
              : before.manufacturerId === null
                ? null
                : ((await tx.select({ name: manufacturers.name }).from(manufacturers).where(eq(manufacturers.id, before.manufacturerId)))[0]?.name ?? null);
          // The SKU, prices, reorder level and stock are the variant's: a product with one is changed through it.
          const variantSet: Partial<typeof productVariants.$inferInsert> = {
            ...(patch.sku !== undefined ? { sku: patch.sku } : {}),
            ...(patch.price_ex_vat !== undefined ? { pricePence: patch.price_ex_vat } : {}),
            ...(patch.was_price_ex_vat !== undefined ? { wasPricePence: patch.was_price_ex_vat } : {}),
            ...(patch.reorder_level !== undefined ? { reorderLevel: patch.reorder_level } : {}),
          };
          const variantFields = Object.keys(patch).filter((k) => ["sku", "price_ex_vat", "was_price_ex_vat", "reorder_level", "stock"].includes(k));
          const variant = variantFields.length ? await soleVariant(tx, before.id, variantFields) : null;
          if (variant && Object.keys(variantSet).length) await tx.update(productVariants).set({ ...variantSet, updatedAt: sql`now()` }).where(eq(productVariants.id, variant.id));
          const set: Partial<typeof products.$inferInsert> = {
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
            ...(patch.summary !== undefined ? { summary: patch.summary } : {}),
            ...(patch.description_html !== undefined ? { descriptionHtml: sanitizeDescription(patch.description_html) } : {}),
            ...(patch.brand_id !== undefined ? { manufacturerId: patch.brand_id } : {}),
            ...(patch.vat_rate !== undefined ? { vatRate: patch.vat_rate } : {}),
            ...(patch.reorder_level !== undefined ? { reorderLevel: patch.reorder_level } : {}),
            ...(patch.heavy !== undefined ? { heavy: patch.heavy } : {}),
            ...(patch.returnable !== undefined ? { returnable: patch.returnable } : {}),
            ...(patch.non_returnable_reason !== undefined ? { nonReturnableReason: patch.non_returnable_reason } : {}),
            ...(patch.featured !== undefined ? { featured: patch.featured } : {}),
            ...(patch.seo_title !== undefined ? { seoTitle: patch.seo_title } : {}),
            ...(patch.seo_description !== undefined ? { seoDescription: patch.seo_description } : {}),
            ...(patch.bin_location !== undefined ? { binLocation: patch.bin_location } : {}),
            ...(status !== before.status ? { status } : {}),
            ...(searchMoved ? { searchText: productSearchText(brandName, nextSku, summary) } : {}),
          };
          let after = before;
          if (Object.keys(set).length || Object.keys(variantSet).length) {
            const [row] = await tx
              .update(products)
              .set({ ...set, updatedAt: sql`now()` })
              .where(eq(products.id, before.id))
              .returning();
            after = row!;
          }
          if (patch.slug !== undefined && patch.slug !== before.slug) {
            await tx.delete(productSlugRedirects).where(eq(productSlugRedirects.slug, patch.slug));
            await tx
              .insert(productSlugRedirects)
              .values({ slug: before.slug, productId: before.id })
              .onConflictDoUpdate({ target: productSlugRedirects.slug, set: { productId: before.id, createdAt: sql`now()` } });
          }
          await writeLists(tx, before.id, patch, refs);
          if (variant && patch.stock !== undefined && patch.stock !== variant.stock) {
            const elsewhere = await countTotalTo(tx, variant.id, patch.stock, actor.via === "screen" ? "Counted in the product editor" : "Counted through the API", actor.staffId);
            if (elsewhere !== null) throw new ValidationError({ stock: [stockElsewhere(elsewhere)] });
            after = { ...after, stock: patch.stock };
          }
          if (patch.name !== undefined || searchMoved) await refreshSearchWords(tx, [before.id]);
          const lists = {
            ...(patch.category_ids !== undefined ? { category_ids: refs.categoryIds } : {}),
            ...(patch.attributes !== undefined ? { attributes: patch.attributes } : {}),
            ...(patch.related_skus !== undefined ? { related_skus: patch.related_skus } : {}),
          };
          await recordAudit(tx, actor, {
            action: "product.updated",
            entity: "product",
            entityId: after.sku,
            before: { ...auditView(before), description_changed: undefined },
            after: { ...auditView(after), description_changed: patch.description_html !== undefined && after.descriptionHtml !== before.descriptionHtml ? true : undefined, ...lists },
          });
          return detail(tx, before.id);
        }),
      );
    },

    /**
     * A change to many products at once. `preview` answers what would change
     * (each product's old → new) and writes nothing; otherwise it all applies
     * in one transaction, audited per product.
     */
    async bulk(actor: StaffActor, request: BulkRequest, options: { preview: boolean }) {
      authorize(actor, "catalogue.manage");
      const skus = [...new Set(request.skus.map((s) => s.trim().toLowerCase()).filter(Boolean))];
      if (skus.length === 0) throw new ValidationError({ skus: ["Choose at least one product."] });
      if (skus.length > BULK_MAX) throw new ValidationError({ skus: [`Choose at most ${BULK_MAX} products at once.`] });
      const percent = request.percent;
      if (request.action === "price_percent" && (percent === undefined || !Number.isFinite(percent) || percent === 0 || percent < -PRICE_PERCENT_LIMIT || percent > 1000)) {
        throw new ValidationError({ percent: [`Give a change between -${PRICE_PERCENT_LIMIT} and 1000 per cent, not 0.`] });
      }
      if (request.action === "set_vat" && ![0, 5, 20].includes(request.vat_rate ?? -1)) throw new ValidationError({ vat_rate: ["The VAT rate is 20, 5 or 0 per cent."] });
      if (request.action === "move_category" && !request.category_id) throw new ValidationError({ category_id: ["Choose the category to move them to."] });

      const work = async (tx: Db) => {
        const chosen = tx
          .select({ id: products.id, sku: products.sku, name: products.name, status: products.status, pricePence: products.pricePence, vatRate: products.vatRate })
          .from(products)
          .where(inArray(sql`lower(${products.sku})`, skus))
          .orderBy(asc(products.id));
        // Applying locks them in id order, so two bulk changes never deadlock.
        const rows = options.preview ? await chosen : await chosen.for("update");
        const missing = skus.filter((s) => !rows.some((r) => r.sku.toLowerCase() === s));
        if (missing.length) throw new ValidationError({ skus: [`No product has the SKU ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}.`] });
        const ids = rows.map((r) => r.id);
        let changes: { sku: string; name: string; field: string; from: string; to: string }[];
        if (request.action === "price_percent") {
          const next = (pence: number) => Math.max(0, Math.round((pence * (100 + percent!)) / 100));
          changes = rows.map((r) => ({ sku: r.sku, name: r.name, field: "price_ex_vat", from: pounds(r.pricePence).toFixed(2), to: pounds(next(r.pricePence)).toFixed(2) }));
          if (!options.preview) {
            // Every variant of each product by the same per cent: the products' "from" prices follow by trigger.
            await tx.execute(sql`update ${productVariants} set price_pence = greatest(0, round(price_pence * (100 + ${percent}::numeric) / 100))::int, updated_at = now() where product_id in ${ids}`);
          }
        } else if (request.action === "set_vat") {
          changes = rows.filter((r) => r.vatRate !== request.vat_rate).map((r) => ({ sku: r.sku, name: r.name, field: "vat_rate", from: `${r.vatRate}%`, to: `${request.vat_rate}%` }));
          if (!options.preview) await tx.update(products).set({ vatRate: request.vat_rate!, updatedAt: sql`now()` }).where(inArray(products.id, ids));
        } else if (request.action === "archive") {
          changes = rows.filter((r) => r.status !== "archived").map((r) => ({ sku: r.sku, name: r.name, field: "status", from: r.status, to: "archived" }));
          if (!options.preview) await tx.update(products).set({ status: "archived", updatedAt: sql`now()` }).where(inArray(products.id, ids));
        } else {
          const [category] = await tx.select({ id: categories.id, path: categories.path }).from(categories).where(eq(categories.id, request.category_id!)).limit(1);
          if (!category) throw new ValidationError({ category_id: ["That category does not exist."] });
          const current = await tx
            .select({ productId: productCategories.productId, path: sql<string>`string_agg(${categories.path}, ', ' order by ${categories.path})` })
            .from(productCategories)
            .innerJoin(categories, eq(categories.id, productCategories.categoryId))
            .where(inArray(productCategories.productId, ids))
            .groupBy(productCategories.productId);
          changes = rows
            .map((r) => ({ sku: r.sku, name: r.name, field: "categories", from: current.find((c) => c.productId === r.id)?.path ?? "(none)", to: category.path }))
            .filter((c) => c.from !== c.to);
          if (!options.preview) {
            await tx.delete(productCategories).where(inArray(productCategories.productId, ids));
            await tx.insert(productCategories).values(ids.map((productId) => ({ productId, categoryId: category.id })));
          }
        }
        if (!options.preview) {
          for (const c of changes) {
            await recordAudit(tx, actor, { action: `product.bulk_${request.action}`, entity: "product", entityId: c.sku, before: { [c.field]: c.from }, after: { [c.field]: c.to } });
          }
        }
        return { action: request.action, products: rows.length, changes, applied: !options.preview };
      };
      return options.preview ? work(db) : db.transaction((t) => work(t as unknown as Db));
    },
  };
}

export type AdminProductService = ReturnType<typeof createAdminProductService>;
