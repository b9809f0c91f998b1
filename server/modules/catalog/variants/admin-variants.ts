import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { refusingUniqueClash } from "../../../db/errors.ts";
import { type FieldErrors, HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { can } from "../../staff/permissions.ts";
import { applyMovements, countTotalTo, stockElsewhere } from "../../stock/ledger.ts";
import { incVat } from "../products/prices.ts";
import { pounds } from "../products/products.ts";
import { type ProductVariant, productOptions, productVariants, products } from "../schema.ts";
import { lineName } from "./variant-names.ts";
import { type OptionInput, VARIANTS_MAX, type VariantCreate, type VariantPatch, combinations, variantSku } from "./variant-rules.ts";
import { activeVariantsOf, lockProductWithSku, lockedProductWithSku, productWithSku } from "./variants.ts";

/**
 * Options and variants in the back office and the admin API (ADR 0046): the
 * options editor that generates a product's variants, and each variant's own
 * fields. Every call checks its permission, locks what it changes, and is
 * audited in its transaction; the product's summary and listings follow by
 * trigger.
 */

type Options = { name: string; values: string[] }[];

/** A variant as the back office reads it. */
export function adminVariantJson(v: ProductVariant, vatRate: number) {
  return {
    id: v.id,
    sku: v.sku,
    options: v.options,
    price_ex_vat: pounds(v.pricePence),
    price_inc_vat: pounds(incVat(v.pricePence, vatRate)),
    was_price_ex_vat: v.wasPricePence === null ? null : pounds(v.wasPricePence),
    stock: v.stock,
    reorder_level: v.reorderLevel,
    low_stock: v.stock <= v.reorderLevel,
    barcode: v.barcode,
    weight_grams: v.weightGrams,
    images: v.images,
    position: v.position,
    status: v.status,
  };
}
export type AdminVariant = ReturnType<typeof adminVariantJson>;

/** A variant's options named and valued as the product's options spell them, or the field's refusal. */
function canonicalOptions(options: Options, given: Record<string, string>): { values: Record<string, string>; added: Options } {
  if (options.length === 0) throw new ValidationError({ options: ["This product has no options yet: give it its options (such as Length) first."] });
  const entries = Object.entries(given);
  const unknown = entries.filter(([name]) => !options.some((o) => o.name.toLowerCase() === name.toLowerCase()));
  if (unknown.length) throw new ValidationError({ options: [`This product has no option ${unknown.map(([n]) => `“${n}”`).join(" or ")}: its options are ${options.map((o) => o.name).join(", ")}.`] });
  const values: Record<string, string> = {};
  const added: Options = [];
  for (const option of options) {
    const value = entries.find(([name]) => name.toLowerCase() === option.name.toLowerCase())?.[1];
    if (value === undefined) throw new ValidationError({ options: [`Give the ${option.name}.`] });
    const known = option.values.find((v) => v.toLowerCase() === value.toLowerCase());
    // A new value joins the option's list, at its end: an ERP adding a 5.4 m length needs no second call.
    if (!known) added.push({ name: option.name, values: [value] });
    values[option.name] = known ?? value;
  }
  return { values, added };
}

/** The options with new values added at the end of theirs. */
const withValues = (options: Options, added: Options): Options => options.map((o) => ({ ...o, values: [...o.values, ...(added.find((a) => a.name === o.name)?.values ?? [])] }));

const sameOptions = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(a) === JSON.stringify(b);

export function createAdminVariantService(db: Db) {
  async function optionsOf(q: Db, productId: number): Promise<Options> {
    return q.select({ name: productOptions.name, values: productOptions.values }).from(productOptions).where(eq(productOptions.productId, productId)).orderBy(asc(productOptions.position));
  }

  async function writeOptions(tx: Db, productId: number, options: Options): Promise<void> {
    await tx.delete(productOptions).where(eq(productOptions.productId, productId));
    if (options.length) await tx.insert(productOptions).values(options.map((o, position) => ({ productId, position, name: o.name, values: o.values })));
  }

  /** A product's active variants, locked (they are already, with the product: the lock is only said again). */
  const activeVariants = (tx: Db, productId: number) => activeVariantsOf(tx, productId).for("update");

  /** A SKU or barcode another variant already has, named by its field. */
  async function clashes(tx: Db, fields: { sku?: string; barcode?: string | null }, selfId: number | null): Promise<void> {
    const errors: Record<string, string[]> = {};
    const others = selfId === null ? sql`true` : ne(productVariants.id, selfId);
    if (fields.sku !== undefined) {
      const [taken] = await tx
        .select({ name: products.name, options: productVariants.options })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(and(eq(sql`lower(${productVariants.sku})`, fields.sku.toLowerCase()), others))
        .limit(1);
      if (taken) errors.sku = [`The SKU ${fields.sku} is already used by “${lineName(taken.name, taken.options)}”.`];
    }
    if (fields.barcode) {
      const [taken] = await tx
        .select({ sku: productVariants.sku })
        .from(productVariants)
        .where(and(eq(productVariants.barcode, fields.barcode), others))
        .limit(1);
      if (taken) errors.barcode = [`The barcode ${fields.barcode} is already on ${taken.sku}.`];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }

  /** Two saves racing for one SKU or barcode: the loser hears which. */
  function guarded<T>(work: () => Promise<T>): Promise<T> {
    return refusingUniqueClash(work, (detail): FieldErrors => {
      if (detail.includes("barcode")) return { barcode: ["That barcode was just given to another variant."] };
      if (detail.includes("options")) return { options: ["Another variant of this product was just given those option values."] };
      return { sku: ["That SKU was just taken by another variant."] };
    });
  }

  async function variantsView(q: Db, productId: number, vatRate: number) {
    const [options, variants] = await Promise.all([
      optionsOf(q, productId),
      q.select().from(productVariants).where(eq(productVariants.productId, productId)).orderBy(asc(productVariants.position), asc(productVariants.id)),
    ]);
    return { options, variants: variants.map((v) => adminVariantJson(v, vatRate)) };
  }

  return {
    variantsView,

    /** A product's options and every variant, archived ones too, with the product they belong to. */
    async list(actor: StaffActor, productSku: string) {
      authorize(actor, "catalogue.view");
      const [row] = await db
        .select({ id: products.id, sku: products.sku, name: products.name, slug: products.slug, status: products.status, vatRate: products.vatRate, unit: products.unit })
        .from(products)
        .where(productWithSku(productSku))
        .limit(1);
      if (!row) throw new HttpError(404, "No product has that SKU.");
      return { product: { sku: row.sku, name: row.name, slug: row.slug, status: row.status, vat_rate: row.vatRate, unit: row.unit }, ...(await variantsView(db, row.id, row.vatRate)) };
    },

    /**
     * A product's options, which make its variants: every combination of their
     * values is a variant. A variant that still fits keeps its SKU, price,
     * stock and history (the only variant of a product without options becomes
     * the first combination); a missing combination is made with the first
     * variant's price and no stock; one that no longer fits is archived, and
     * refused while it holds stock.
     */
    async setOptions(actor: StaffActor, productSku: string, options: OptionInput[]) {
      authorize(actor, "catalogue.manage");
      const wanted = combinations(options);
      if (wanted.length > VARIANTS_MAX) throw new ValidationError({ options: [`Those options make ${wanted.length} variants; a product can have at most ${VARIANTS_MAX}.`] });
      return guarded(() =>
        db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const product = await lockedProductWithSku(tx, productSku);
          const before = await optionsOf(tx, product.id);
          const variants = await activeVariants(tx, product.id);
          const first = variants[0]!;

          // Each variant's values carried over to the new options: a new option takes its first value.
          const taken = new Map<string, ProductVariant>();
          const unmatched: ProductVariant[] = [];
          for (const v of variants) {
            const projected: Record<string, string> = {};
            let fits = true;
            for (const o of options) {
              const oldName = Object.keys(v.options).find((n) => n.toLowerCase() === o.name.toLowerCase());
              const wasAnOption = before.some((b) => b.name.toLowerCase() === o.name.toLowerCase());
              const value = oldName === undefined ? undefined : o.values.find((x) => x.toLowerCase() === v.options[oldName]!.toLowerCase());
              if (value !== undefined) projected[o.name] = value;
              else if (!wasAnOption) projected[o.name] = o.values[0]!;
              else fits = false;
            }
            const key = JSON.stringify(projected);
            if (!fits || taken.has(key)) unmatched.push(v);
            else taken.set(key, { ...v, options: projected });
          }
          const stocked = unmatched.filter((v) => v.stock > 0);
          if (stocked.length) {
            throw new ValidationError({
              options: stocked.map((v) => `${v.sku} (${Object.values(v.options).join(", ") || "no options"}) has ${v.stock} in stock: count it to 0 before taking its option value away.`),
            });
          }

          // Archive first, so a kept variant may take the values an archived one held.
          for (const v of unmatched) await tx.update(productVariants).set({ status: "archived", updatedAt: sql`now()` }).where(eq(productVariants.id, v.id));
          const created: string[] = [];
          const usedSkus = new Set((await tx.select({ sku: productVariants.sku }).from(productVariants).where(sql`lower(${productVariants.sku}) like ${`${product.sku.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`}`)).map((r) => r.sku.toLowerCase()));
          for (const [position, combo] of wanted.entries()) {
            const kept = taken.get(JSON.stringify(combo));
            if (kept) {
              await tx.update(productVariants).set({ options: combo, position, updatedAt: sql`now()` }).where(eq(productVariants.id, kept.id));
              continue;
            }
            let sku = variantSku(product.sku, combo);
            for (let n = 2; usedSkus.has(sku.toLowerCase()); n++) sku = `${variantSku(product.sku, combo).slice(0, 60)}-${n}`;
            usedSkus.add(sku.toLowerCase());
            await clashes(tx, { sku }, null);
            await tx.insert(productVariants).values({ productId: product.id, sku, options: combo, pricePence: first.pricePence, reorderLevel: first.reorderLevel, position });
            created.push(sku);
          }
          await writeOptions(tx, product.id, options);
          await recordAudit(tx, actor, {
            action: "product.options_changed",
            entity: "product",
            entityId: product.sku,
            before: { options: before },
            after: { options, variants_created: created, variants_archived: unmatched.map((v) => v.sku) },
          });
          return { ...(await variantsView(tx, product.id, product.vatRate)), created, archived: unmatched.map((v) => v.sku) };
        }),
      );
    },

    /** One more variant for an ERP: its option values (a new value joins the option), SKU, price and opening stock. */
    async add(actor: StaffActor, productSku: string, fields: VariantCreate) {
      authorize(actor, "catalogue.manage");
      return guarded(() =>
        db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const product = await lockedProductWithSku(tx, productSku);
          const options = await optionsOf(tx, product.id);
          const { values, added } = canonicalOptions(options, fields.options);
          const variants = await activeVariants(tx, product.id);
          const twin = variants.find((v) => sameOptions(v.options, values));
          if (twin) throw new ValidationError({ options: [`${Object.values(values).join(", ")} is already a variant: ${twin.sku}.`] });
          await clashes(tx, { sku: fields.sku, barcode: fields.barcode }, null);
          if (added.length) await writeOptions(tx, product.id, withValues(options, added));
          const [row] = await tx
            .insert(productVariants)
            .values({
              productId: product.id,
              sku: fields.sku,
              options: values,
              pricePence: fields.price_ex_vat,
              wasPricePence: fields.was_price_ex_vat ?? null,
              reorderLevel: fields.reorder_level ?? variants[0]?.reorderLevel ?? 5,
              barcode: fields.barcode ?? null,
              weightGrams: fields.weight_grams ?? null,
              position: variants.length ? Math.max(...variants.map((v) => v.position)) + 1 : 0,
            })
            .returning();
          if (fields.stock) await applyMovements(tx, [{ variantId: row!.id, change: fields.stock, kind: "opening", reason: "Stock when the variant was created", staffId: actor.staffId }]);
          const after = { ...adminVariantJson(row!, product.vatRate), stock: fields.stock ?? 0 };
          await recordAudit(tx, actor, { action: "variant.created", entity: "variant", entityId: row!.sku, before: null, after: { ...after, product: product.sku } });
          return after;
        }),
      );
    },

    /** Changes a variant's fields; a stock figure is a count, its difference a `counted` movement in the ledger. */
    async update(actor: StaffActor, sku: string, patch: VariantPatch) {
      const keys = Object.keys(patch);
      const stockOnly = keys.length > 0 && keys.every((k) => k === "stock" || k === "reorder_level");
      authorize(actor, stockOnly && !can(actor.role, "catalogue.manage") ? "stock.count" : "catalogue.manage");
      return guarded(() =>
        db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const product = await lockProductWithSku(tx, sku);
          const [before] = await tx.select().from(productVariants).where(eq(sql`lower(${productVariants.sku})`, sku.trim().toLowerCase())).limit(1);
          if (!before || !product) throw new HttpError(404, "No variant has that SKU.");
          await clashes(tx, { sku: patch.sku, barcode: patch.barcode }, before.id);
          const errors: Record<string, string[]> = {};
          let options = before.options;
          if (patch.options !== undefined) {
            const list = await optionsOf(tx, product.id);
            const { values, added } = canonicalOptions(list, patch.options);
            const twin = (await activeVariants(tx, product.id)).find((v) => v.id !== before.id && sameOptions(v.options, values));
            if (twin) errors.options = [`${Object.values(values).join(", ")} is already a variant: ${twin.sku}.`];
            else if (added.length) await writeOptions(tx, product.id, withValues(list, added));
            options = values;
          }
          if (patch.status === "archived" && before.status === "active") {
            const active = (await activeVariants(tx, product.id)).length;
            if (active <= 1) errors.status = ["This is the product's only variant on sale: archive the product instead."];
            else if (before.stock > 0 && (patch.stock ?? before.stock) > 0) errors.status = [`It has ${before.stock} in stock: count it to 0 before archiving it.`];
          }
          if (Object.keys(errors).length) throw new ValidationError(errors);
          const [after] = await tx
            .update(productVariants)
            .set({
              ...(patch.sku !== undefined ? { sku: patch.sku } : {}),
              ...(patch.options !== undefined ? { options } : {}),
              ...(patch.price_ex_vat !== undefined ? { pricePence: patch.price_ex_vat } : {}),
              ...(patch.was_price_ex_vat !== undefined ? { wasPricePence: patch.was_price_ex_vat } : {}),
              ...(patch.reorder_level !== undefined ? { reorderLevel: patch.reorder_level } : {}),
              ...(patch.barcode !== undefined ? { barcode: patch.barcode } : {}),
              ...(patch.weight_grams !== undefined ? { weightGrams: patch.weight_grams } : {}),
              ...(patch.position !== undefined ? { position: patch.position } : {}),
              updatedAt: sql`now()`,
            })
            .where(eq(productVariants.id, before.id))
            .returning();
          let stock = before.stock;
          if (patch.stock !== undefined && patch.stock !== before.stock) {
            const elsewhere = await countTotalTo(tx, before.id, patch.stock, actor.via === "screen" ? "Counted in the variants table" : "Counted through the API", actor.staffId);
            if (elsewhere !== null) throw new ValidationError({ stock: [stockElsewhere(elsewhere)] });
            stock = patch.stock;
          }
          // Archived last: its stock, counted to 0 above, leaves the product's total.
          let status = after!.status;
          if (patch.status !== undefined && patch.status !== before.status) {
            await tx.update(productVariants).set({ status: patch.status }).where(eq(productVariants.id, before.id));
            status = patch.status;
          }
          const view = { ...adminVariantJson(after!, product.vatRate), stock, low_stock: stock <= after!.reorderLevel, status };
          await recordAudit(tx, actor, { action: "variant.updated", entity: "variant", entityId: view.sku, before: adminVariantJson(before, product.vatRate), after: view });
          return view;
        }),
      );
    },
  };
}

export type AdminVariantService = ReturnType<typeof createAdminVariantService>;
