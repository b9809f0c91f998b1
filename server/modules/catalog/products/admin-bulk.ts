// Bulk changes to the catalogue (issue 20): many products' category, VAT rate,
// status or price at once, previewed first.
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { pounds } from "./prices.ts";
import { PRICE_PERCENT_LIMIT } from "./product-status.ts";
import { categories, productCategories, productVariants, products } from "../schema.ts";

export const BULK_MAX = 500;
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


/**
 * A change to many products at once. `preview` answers what would change
 * (each product's old → new) and writes nothing; otherwise it all applies
 * in one transaction, audited per product.
 */
export async function bulkChange(db: Db, actor: StaffActor, request: BulkRequest, options: { preview: boolean }) {
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
}
