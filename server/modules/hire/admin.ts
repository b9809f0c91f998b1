import { type SQL, and, asc, desc, eq, ilike, ne, sql } from "drizzle-orm";
import { decodeNameCursor, encodeNameCursor } from "../../db/name-cursor.ts";
import { escapeLike } from "../../db/like.ts";
import type { Db } from "../../db/client.ts";
import { refusingUniqueClash } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { pounds } from "../catalog/products/products.ts";
import { slugFrom } from "../catalog/products/product-rules.ts";
import { sanitizeDescription } from "../catalog/products/sanitize.ts";
import { products } from "../catalog/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { readsHireCatalogue } from "./catalogue-access.ts";
import type { HireItemCreate, HireItemPatch, HireUnitCreate, HireUnitPatch } from "./item-rules.ts";
import { londonDate } from "./pricing.ts";
import { extraDayRate, rateExamples } from "./rate-card.ts";
import { hireAllocations, hireCategories, hireItemSlugRedirects, hireItems, hireUnits } from "./schema.ts";
import { liveAllocation } from "./service.ts";
import { branches } from "../branches/schema.ts";
import { createDepotService } from "./depots/service.ts";
import { transferUnitIn } from "./depots/transfers.ts";

/**
 * The hire catalogue in the back office (issue 20): hire items with their
 * rate cards, specifications and linked product, and their units (asset and
 * serial numbers). Reading needs `catalogue.view`, or `hire.desk` (the hire
 * counter looks up units and rates); every change `catalogue.manage`. Each
 * write is audited in its own transaction; the page-version triggers on
 * hire_items, hire_units and hire_item_slug_redirects make the storefront's
 * next request show it.
 */
export const ADMIN_HIRE_PAGE_MAX = 100;

/** The hire catalogue's readers (catalogue-access.ts), or 401/403. */
function mayReadHireCatalogue(actor: StaffActor | null | undefined): StaffActor {
  if (actor && readsHireCatalogue(actor.role)) return actor;
  return authorize(actor, "catalogue.view");
}

export interface AdminHireFilters {
  /** Any words of the name. */
  q?: string;
  /** A hire category's id. */
  category?: number;
  cursor?: string;
  limit?: number;
}


const NOT_FOUND = "No hire item has that web address.";

type ItemRow = typeof hireItems.$inferSelect;

const activeUnits = sql<number>`(select count(*)::int from ${hireUnits} u where u.hire_item_id = "hire_items"."id" and u.active)`;

function summaryJson(item: ItemRow, category: { id: number; name: string }, units: number) {
  return {
    slug: item.slug,
    name: item.name,
    category,
    day_rate: pounds(item.dayRate),
    weekend_rate: pounds(item.weekendRate),
    week_rate: pounds(item.weekRate),
    deposit: pounds(item.deposit),
    vat_rate: item.vatRate,
    units,
    photo: item.images[0]?.src ?? null,
    /** Real photos (with an id), not the drawn fallback. */
    photos: item.images.filter((i) => i.id).length,
    updated_at: item.updatedAt.toISOString(),
  };
}
export type AdminHireItemSummary = ReturnType<typeof summaryJson>;

function auditView(item: ItemRow, productSku: string | null) {
  return {
    name: item.name,
    slug: item.slug,
    hire_category_id: item.hireCategoryId,
    day_rate: pounds(item.dayRate),
    weekend_rate: pounds(item.weekendRate),
    week_rate: pounds(item.weekRate),
    deposit: pounds(item.deposit),
    vat_rate: item.vatRate,
    product_sku: productSku,
    specifications: item.specifications,
  };
}

export function createAdminHireService(db: Db) {
  const depots = createDepotService(db);
  /** The item's row by slug (locked for the transaction when `lock`), or 404. */
  async function itemOf(q: Db, slug: string, lock = false) {
    const query = q.select().from(hireItems).where(eq(hireItems.slug, slug)).limit(1);
    const [row] = lock ? await query.for("update") : await query;
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  }

  /** Each unit, with its live allocation now or next (a unit with one cannot be retired). */
  async function unitsOf(q: Db, itemId: number, today: string) {
    const rows = await q
      .select({
        id: hireUnits.id,
        assetNumber: hireUnits.assetNumber,
        serialNumber: hireUnits.serialNumber,
        active: hireUnits.active,
        depot: { slug: branches.slug, name: branches.name },
        createdAt: hireUnits.createdAt,
        next: sql<{ start: string; end: string; kind: string } | null>`(
          select json_build_object('start', lower(a.period)::text, 'end', upper(a.period)::text, 'kind', a.kind)
          from ${hireAllocations} a
          where a.unit_id = "hire_units"."id" and upper(a.period) > ${today}::date
            and a.released_at is null and (a.kind = 'booking' or a.expires_at > now())
          order by lower(a.period) limit 1)`,
      })
      .from(hireUnits)
      .innerJoin(branches, eq(branches.id, hireUnits.branchId))
      .where(eq(hireUnits.hireItemId, itemId))
      .orderBy(desc(hireUnits.active), asc(hireUnits.assetNumber), asc(hireUnits.id));
    return rows.map((u) => ({
      id: u.id,
      asset_number: u.assetNumber,
      serial_number: u.serialNumber,
      active: u.active,
      /** The hire depot it is based at (issue 30). */
      depot: u.depot,
      /** The live hold or booking it is out on now, or next: `[start, end)`. */
      allocation: u.next,
      created_at: u.createdAt.toISOString(),
    }));
  }

  async function detail(q: Db, id: number) {
    const [row] = await q
      .select({ item: hireItems, category: { id: hireCategories.id, name: hireCategories.name, slug: hireCategories.slug }, units: activeUnits, productSku: products.sku, productName: products.name })
      .from(hireItems)
      .innerJoin(hireCategories, eq(hireCategories.id, hireItems.hireCategoryId))
      .leftJoin(products, eq(products.id, hireItems.productId))
      .where(eq(hireItems.id, id))
      .limit(1);
    if (!row) throw new HttpError(404, NOT_FOUND);
    const item = row.item;
    const today = londonDate();
    const [units, oldSlugs] = await Promise.all([
      unitsOf(q, id, today),
      q.select({ slug: hireItemSlugRedirects.slug }).from(hireItemSlugRedirects).where(eq(hireItemSlugRedirects.hireItemId, id)).orderBy(desc(hireItemSlugRedirects.createdAt)),
    ]);
    const rates = { day: item.dayRate, weekend: item.weekendRate, week: item.weekRate };
    return {
      ...summaryJson(item, { id: row.category.id, name: row.category.name }, row.units),
      description: item.description,
      specifications: item.specifications,
      product: row.productSku ? { sku: row.productSku, name: row.productName ?? "" } : null,
      images: item.images,
      old_slugs: oldSlugs.map((s) => s.slug),
      /** Each day past whole weeks, as the pricing engine charges it: the week rate ÷ 7. */
      extra_day_rate: pounds(extraDayRate(item.weekRate)),
      examples: rateExamples(rates, item.vatRate, item.deposit, today).map((e) => ({
        label: e.label,
        start_date: e.start,
        end_date: e.end,
        days: e.days,
        weekend_rate: e.weekend,
        hire_ex_vat: pounds(e.hireExVat),
        vat: pounds(e.vat),
        hire_inc_vat: pounds(e.hireIncVat),
        deposit: pounds(e.deposit),
        total: pounds(e.total),
      })),
      unit_list: units,
      created_at: item.createdAt.toISOString(),
    };
  }

  /** The hire category and linked product a change names exist; the slug is no other item's. Each refusal names its field. */
  async function references(tx: Db, fields: HireItemPatch, selfId: number | null): Promise<{ productId?: number | null; productSku?: string | null }> {
    const errors: Record<string, string[]> = {};
    if (fields.hire_category_id !== undefined) {
      const [found] = await tx.select({ id: hireCategories.id }).from(hireCategories).where(eq(hireCategories.id, fields.hire_category_id)).limit(1);
      if (!found) errors.hire_category_id = ["That hire category does not exist."];
    }
    let productId: number | null | undefined;
    let productSku: string | null | undefined;
    if (fields.product_sku === null) productId = productSku = null;
    else if (fields.product_sku !== undefined) {
      const [found] = await tx.select({ id: products.id, sku: products.sku }).from(products).where(eq(sql`lower(${products.sku})`, fields.product_sku.toLowerCase())).limit(1);
      if (!found) errors.product_sku = [`No product has the SKU ${fields.product_sku}.`];
      productId = found?.id;
      productSku = found?.sku;
    }
    if (fields.slug !== undefined) {
      const others = selfId === null ? eq(hireItems.slug, fields.slug) : and(eq(hireItems.slug, fields.slug), ne(hireItems.id, selfId));
      const [taken] = await tx.select({ name: hireItems.name }).from(hireItems).where(others).limit(1);
      if (taken) errors.slug = [`The web address /hire/${fields.slug} is already used by “${taken.name}”.`];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { productId, productSku };
  }

  /** `work` in one transaction; `clash` is what a unique index's refusal means. */
  function guarded<T>(clash: Record<string, string[]>, work: (tx: Db) => Promise<T>): Promise<T> {
    // Two saves racing for one slug or asset number: the loser hears which, like any other clash.
    return refusingUniqueClash(() => db.transaction(async (t) => work(t as unknown as Db)), () => clash);
  }

  async function productSkuOf(tx: Db, productId: number | null): Promise<string | null> {
    if (productId === null) return null;
    const [p] = await tx.select({ sku: products.sku }).from(products).where(eq(products.id, productId)).limit(1);
    return p?.sku ?? null;
  }

  /** An asset number no other unit has (any case), or a refusal naming the unit that has it. */
  async function assetFree(tx: Db, asset: string, selfId: number | null): Promise<void> {
    const same = eq(sql`lower(${hireUnits.assetNumber})`, asset.toLowerCase());
    const [taken] = await tx
      .select({ name: hireItems.name })
      .from(hireUnits)
      .innerJoin(hireItems, eq(hireItems.id, hireUnits.hireItemId))
      .where(selfId === null ? same : and(same, ne(hireUnits.id, selfId)))
      .limit(1);
    if (taken) throw new ValidationError({ asset_number: [`The asset number ${asset} is already a unit of “${taken.name}”.`] });
  }

  return {
    async list(actor: StaffActor, filters: AdminHireFilters) {
      mayReadHireCatalogue(actor);
      const limit = Math.min(Math.max(1, filters.limit ?? 50), ADMIN_HIRE_PAGE_MAX);
      const where: SQL[] = [];
      if (filters.category) where.push(eq(hireItems.hireCategoryId, filters.category));
      const words = filters.q?.trim().split(/\s+/).filter(Boolean).slice(0, 6) ?? [];
      for (const w of words) where.push(ilike(hireItems.name, `%${escapeLike(w)}%`));
      if (filters.cursor) {
        const [name, id] = decodeNameCursor(filters.cursor);
        where.push(sql`(${hireItems.name}, ${hireItems.id}) > (${name}, ${id})`);
      }
      const rows = await db
        .select({ item: hireItems, category: { id: hireCategories.id, name: hireCategories.name }, units: activeUnits })
        .from(hireItems)
        .innerJoin(hireCategories, eq(hireCategories.id, hireItems.hireCategoryId))
        .where(and(...where))
        .orderBy(asc(hireItems.name), asc(hireItems.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { data: page.map((r) => summaryJson(r.item, r.category, r.units)), next_cursor: rows.length > limit && last ? encodeNameCursor(last.item.name, last.item.id) : null };
    },

    /** The hire categories a hire item may be in, in the storefront's order. */
    async categories(actor: StaffActor) {
      mayReadHireCatalogue(actor);
      return db.select({ id: hireCategories.id, slug: hireCategories.slug, name: hireCategories.name }).from(hireCategories).orderBy(asc(hireCategories.position), asc(hireCategories.name));
    },

    async get(actor: StaffActor, slug: string) {
      mayReadHireCatalogue(actor);
      const item = await itemOf(db, slug);
      return detail(db, item.id);
    },

    /** A new hire item from fields already checked by the rules (`hireItemCreate`). */
    async create(actor: StaffActor, fields: HireItemCreate) {
      authorize(actor, "catalogue.manage");
      const slug = fields.slug ?? slugFrom(fields.name);
      if (!slug) throw new ValidationError({ slug: ["Give the hire item a web address of letters and digits."] });
      return guarded({ slug: ["That web address was just taken by another hire item."] }, async (tx) => {
        const refs = await references(tx, { ...fields, slug }, null);
        const [row] = await tx
          .insert(hireItems)
          .values({
            slug,
            name: fields.name,
            description: sanitizeDescription(fields.description ?? ""),
            hireCategoryId: fields.hire_category_id,
            specifications: fields.specifications ?? [],
            productId: refs.productId ?? null,
            dayRate: fields.day_rate,
            weekendRate: fields.weekend_rate,
            weekRate: fields.week_rate,
            deposit: fields.deposit ?? 0,
            vatRate: fields.vat_rate ?? 20,
          })
          .returning();
        const item = row!;
        // The live slug wins over an old one another item left behind.
        await tx.delete(hireItemSlugRedirects).where(eq(hireItemSlugRedirects.slug, slug));
        await recordAudit(tx, actor, { action: "hire_item.created", entity: "hire_item", entityId: item.slug, before: null, after: auditView(item, refs.productSku ?? null) });
        return detail(tx, item.id);
      });
    },

    /** Changes any of a hire item's fields; a new slug leaves the old one redirecting (301) to it. */
    async update(actor: StaffActor, slug: string, patch: HireItemPatch) {
      authorize(actor, "catalogue.manage");
      return guarded({ slug: ["That web address was just taken by another hire item."] }, async (tx) => {
        const before = await itemOf(tx, slug, true);
        const refs = await references(tx, patch, before.id);
        const set: Partial<typeof hireItems.$inferInsert> = {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
          ...(patch.description !== undefined ? { description: sanitizeDescription(patch.description) } : {}),
          ...(patch.hire_category_id !== undefined ? { hireCategoryId: patch.hire_category_id } : {}),
          ...(patch.specifications !== undefined ? { specifications: patch.specifications } : {}),
          ...(refs.productId !== undefined ? { productId: refs.productId } : {}),
          ...(patch.day_rate !== undefined ? { dayRate: patch.day_rate } : {}),
          ...(patch.weekend_rate !== undefined ? { weekendRate: patch.weekend_rate } : {}),
          ...(patch.week_rate !== undefined ? { weekRate: patch.week_rate } : {}),
          ...(patch.deposit !== undefined ? { deposit: patch.deposit } : {}),
          ...(patch.vat_rate !== undefined ? { vatRate: patch.vat_rate } : {}),
        };
        let after = before;
        if (Object.keys(set).length) {
          const [row] = await tx
            .update(hireItems)
            .set({ ...set, updatedAt: sql`now()` })
            .where(eq(hireItems.id, before.id))
            .returning();
          after = row!;
        }
        if (patch.slug !== undefined && patch.slug !== before.slug) {
          await tx.delete(hireItemSlugRedirects).where(eq(hireItemSlugRedirects.slug, patch.slug));
          await tx
            .insert(hireItemSlugRedirects)
            .values({ slug: before.slug, hireItemId: before.id })
            .onConflictDoUpdate({ target: hireItemSlugRedirects.slug, set: { hireItemId: before.id, createdAt: sql`now()` } });
        }
        const beforeSku = await productSkuOf(tx, before.productId);
        await recordAudit(tx, actor, {
          action: "hire_item.updated",
          entity: "hire_item",
          entityId: after.slug,
          before: { ...auditView(before, beforeSku), description_changed: undefined },
          after: {
            ...auditView(after, refs.productSku !== undefined ? refs.productSku : beforeSku),
            description_changed: patch.description !== undefined && after.description !== before.description ? true : undefined,
          },
        });
        return detail(tx, before.id);
      });
    },

    async units(actor: StaffActor, slug: string) {
      mayReadHireCatalogue(actor);
      const item = await itemOf(db, slug);
      return unitsOf(db, item.id, londonDate());
    },

    /** A new unit of the item: its asset number unique across the fleet. */
    async addUnit(actor: StaffActor, slug: string, fields: HireUnitCreate) {
      authorize(actor, "catalogue.manage");
      return guarded({ asset_number: [`The asset number ${fields.asset_number} was just given to another unit.`] }, async (tx) => {
        const item = await itemOf(tx, slug, true);
        await assetFree(tx, fields.asset_number, null);
        const depot = fields.depot ? await depots.resolve({ slug: fields.depot }, "depot", tx) : null;
        const [unit] = await tx
          .insert(hireUnits)
          .values({ hireItemId: item.id, assetNumber: fields.asset_number, serialNumber: fields.serial_number ?? "", ...(depot ? { branchId: depot.id } : {}) })
          .returning();
        await recordAudit(tx, actor, {
          action: "hire_unit.created",
          entity: "hire_unit",
          entityId: unit!.assetNumber,
          before: null,
          after: { hire_item: item.slug, asset_number: unit!.assetNumber, serial_number: unit!.serialNumber, active: true, branch_id: unit!.branchId },
        });
        return { ...(await unitsOf(tx, item.id, londonDate())).find((u) => u.id === unit!.id)!, hire_item: item.slug };
      });
    },

    /**
     * Changes a unit's asset or serial number, or retires it (`active: false`)
     * or brings it back. A unit out on a hire now, or held or booked for one to
     * come, is not retired: the refusal names the dates.
     */
    async updateUnit(actor: StaffActor, slug: string, unitId: number, patch: HireUnitPatch) {
      authorize(actor, "catalogue.manage");
      return guarded({ asset_number: ["That asset number was just given to another unit."] }, async (tx) => {
        const item = await itemOf(tx, slug, true);
        const [before] = await tx
          .select()
          .from(hireUnits)
          .where(and(eq(hireUnits.id, unitId), eq(hireUnits.hireItemId, item.id)))
          .for("update")
          .limit(1);
        if (!before) throw new HttpError(404, `“${item.name}” has no such unit.`);
        if (patch.asset_number !== undefined && patch.asset_number !== before.assetNumber) await assetFree(tx, patch.asset_number, before.id);
        if (patch.active === false && before.active) {
          const [taken] = await tx
            .select({ start: sql<string>`lower(${hireAllocations.period})::text`, end: sql<string>`upper(${hireAllocations.period})::text`, kind: hireAllocations.kind })
            .from(hireAllocations)
            .where(and(eq(hireAllocations.unitId, before.id), sql`upper(${hireAllocations.period}) > ${londonDate()}::date`, liveAllocation))
            .orderBy(sql`lower(${hireAllocations.period})`)
            .limit(1);
          if (taken) {
            const what = taken.kind === "booking" ? "booked" : "held";
            throw new HttpError(409, `Unit ${before.assetNumber} is ${what} from ${taken.start} until ${taken.end}: move or end that hire before retiring it.`);
          }
        }
        const set = {
          ...(patch.asset_number !== undefined ? { assetNumber: patch.asset_number } : {}),
          ...(patch.serial_number !== undefined ? { serialNumber: patch.serial_number } : {}),
          ...(patch.active !== undefined ? { active: patch.active } : {}),
        };
        let after = before;
        if (Object.keys(set).length) {
          const [row] = await tx.update(hireUnits).set(set).where(eq(hireUnits.id, before.id)).returning();
          after = row!;
        }
        // A new depot is a transfer: the same move, history and audit as the hire desk's.
        const [current] = patch.depot ? await tx.select({ slug: branches.slug }).from(branches).where(eq(branches.id, before.branchId)) : [];
        if (patch.depot && current?.slug !== patch.depot) await transferUnitIn(tx, depots, actor, before.id, { depot: patch.depot, reason: "Depot changed on the hire item's units" });
        const view = (u: typeof before) => ({ asset_number: u.assetNumber, serial_number: u.serialNumber, active: u.active });
        const action = before.active && !after.active ? "hire_unit.retired" : !before.active && after.active ? "hire_unit.reinstated" : "hire_unit.updated";
        await recordAudit(tx, actor, { action, entity: "hire_unit", entityId: after.assetNumber, before: view(before), after: view(after) });
        return { ...(await unitsOf(tx, item.id, londonDate())).find((u) => u.id === before.id)!, hire_item: item.slug };
      });
    },
  };
}

export type AdminHireService = ReturnType<typeof createAdminHireService>;
