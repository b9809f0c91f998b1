import { type SQL, and, asc, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { refusingUniqueClash } from "../../../db/errors.ts";
import { type FieldErrors, HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { can } from "../../staff/permissions.ts";
import { missingAltText } from "../../media/contract.ts";
import { applyMovements, countTotalTo, stockElsewhere } from "../../stock/ledger.ts";
import { stockMovements } from "../../stock/schema.ts";
import { tradeAccounts } from "../../trade/schema.ts";
import { attributeSetFor, normaliseAttributes } from "../categories/attribute-sets.ts";
import { incVat, pounds } from "./prices.ts";
import { refreshSearchWords } from "../search/product-search.ts";
import { type ProductCreate, type ProductPatch, slugFrom } from "./product-rules.ts";
import { sanitizeDescription } from "./sanitize.ts";
import { type ProductImage, type ProductStatus, categories, manufacturers, productAttributes, productCategories, productOptions, productSlugRedirects, productVariants, products, relatedProducts } from "../schema.ts";
import { adminVariantJson } from "../variants/admin-variants.ts";
import { lockedProductWithSku, productWithSku, soleVariant } from "../variants/variants.ts";
import { type SummaryRow, createAdminProductList, summaryColumns, summaryJson } from "./admin-list.ts";
import { type BulkRequest, bulkChange } from "./admin-bulk.ts";

/** Name, brand, SKU and summary: what the search vector weighs beside the name. */
export function productSearchText(brand: string | null | undefined, sku: string, summary: string): string {
  return [brand ?? "", sku, summary].filter(Boolean).join(" ");
}

/** How a product is handled, returned, featured, found and kept, as the API names it: its detail and its audit view both carry these. */
function handlingJson(p: typeof products.$inferSelect) {
  return {
    heavy: p.heavy,
    returnable: p.returnable,
    non_returnable_reason: p.nonReturnableReason,
    featured: p.featured,
    seo_title: p.seoTitle,
    seo_description: p.seoDescription,
    bin_location: p.binLocation,
  };
}

/**
 * The catalogue in the back office (issue 20): the product list with its
 * filters, one product's every field, creating and editing products, and bulk
 * changes with a preview. Each call checks its permission again; each write is
 * audited in its own transaction; the catalogue triggers keep listings, facets
 * and the page cache in step, so the storefront's next request shows it.
 * The list is admin-list.ts's, the bulk changes admin-bulk.ts's.
 */
export function createAdminProductService(db: Db) {
  const list = createAdminProductList(db);

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
      ...handlingJson(p),
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
      ...handlingJson(p),
      description_changed: undefined as boolean | undefined,
    };
  }

  /** Two saves racing for one SKU or slug: the loser hears which. */
  function guarded<T>(work: () => Promise<T>): Promise<T> {
    return refusingUniqueClash(work, (detail): FieldErrors => (detail.includes("slug") ? { slug: ["That web address was just taken by another product."] } : { sku: ["That SKU was just taken by another product."] }));
  }

  return {
    ...list,

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

    /** A change to many products at once (admin-bulk.ts): previewed, or applied in one transaction. */
    bulk: (actor: StaffActor, request: BulkRequest, options: { preview: boolean }) => bulkChange(db, actor, request, options),
  };
}

export type AdminProductService = ReturnType<typeof createAdminProductService>;
