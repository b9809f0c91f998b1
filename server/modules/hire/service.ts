import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { pounds } from "../catalog/products/products.ts";
import { products } from "../catalog/schema.ts";
import { type PricingSettings, DEFAULT_PRICING, addDays, dayNumber, londonDate, quote } from "./pricing.ts";
import { hireAllocations, hireCategories, hireItemSlugRedirects, hireItems, hireUnits } from "./schema.ts";

export const MAX_HIRE_PER_PAGE = 48;
export const MAX_AVAILABILITY_DAYS = 120;

type HireItemRow = typeof hireItems.$inferSelect;

function toCard(item: HireItemRow, category: { slug: string; name: string }, units: number) {
  return {
    id: item.id,
    slug: item.slug,
    name: item.name,
    category,
    image: item.images[0] ?? null,
    rates: { day: pounds(item.dayRate), weekend: pounds(item.weekendRate), week: pounds(item.weekRate) },
    deposit: pounds(item.deposit),
    vat_rate: item.vatRate,
    units,
  };
}

/** A live allocation takes its unit: a booking, a unit out on hire or in service, or a hold that has not lapsed. */
export const liveAllocation = sql`(${hireAllocations.releasedAt} is null and (${hireAllocations.kind} <> 'hold' or ${hireAllocations.expiresAt} > now()))`;

export function createHireService(db: Db, settings: PricingSettings = DEFAULT_PRICING) {
  const unitCount = sql<number>`(select count(*)::int from ${hireUnits} u where u.hire_item_id = ${hireItems.id} and u.active)`;

  return {
    async list(query: { category?: string; q?: string; page?: number; perPage?: number }) {
      const page = Math.max(1, query.page ?? 1);
      const perPage = Math.min(Math.max(1, query.perPage ?? 24), MAX_HIRE_PER_PAGE);
      const q = query.q?.trim();
      const search = q
        ? sql`(${hireItems.searchVector} @@ websearch_to_tsquery('english', ${q}) or word_similarity(${q}, ${hireItems.name}) > 0.4)`
        : undefined;
      const where = and(query.category ? eq(hireCategories.slug, query.category) : undefined, search);
      const [rows, [{ total } = { total: 0 }], categories] = await Promise.all([
        db
          .select({ item: hireItems, category: { slug: hireCategories.slug, name: hireCategories.name }, units: unitCount })
          .from(hireItems)
          .innerJoin(hireCategories, eq(hireCategories.id, hireItems.hireCategoryId))
          .where(where)
          .orderBy(asc(hireCategories.position), asc(hireItems.name), asc(hireItems.id))
          .limit(perPage)
          .offset((page - 1) * perPage),
        db
          .select({ total: count() })
          .from(hireItems)
          .innerJoin(hireCategories, eq(hireCategories.id, hireItems.hireCategoryId))
          .where(where),
        db
          .select({ slug: hireCategories.slug, name: hireCategories.name, count: sql<number>`count(${hireItems.id})::int` })
          .from(hireCategories)
          .leftJoin(hireItems, and(eq(hireItems.hireCategoryId, hireCategories.id), search))
          .groupBy(hireCategories.id)
          .orderBy(asc(hireCategories.position)),
      ]);
      return {
        items: rows.map((r) => toCard(r.item, r.category, r.units)),
        total,
        page,
        per_page: perPage,
        last_page: Math.max(1, Math.ceil(total / perPage)),
        categories,
      };
    },

    async bySlug(slug: string) {
      const [row] = await db
        .select({
          item: hireItems,
          category: { slug: hireCategories.slug, name: hireCategories.name },
          units: unitCount,
          productSlug: products.slug,
          productName: products.name,
        })
        .from(hireItems)
        .innerJoin(hireCategories, eq(hireCategories.id, hireItems.hireCategoryId))
        .leftJoin(products, eq(products.id, hireItems.productId))
        .where(eq(hireItems.slug, slug))
        .limit(1);
      if (!row) return null;
      return {
        ...toCard(row.item, row.category, row.units),
        description: row.item.description,
        images: row.item.images,
        specifications: row.item.specifications,
        product: row.productSlug ? { slug: row.productSlug, name: row.productName ?? "" } : null,
      };
    },

    /** Where an earlier slug of a renamed hire item now lives: its page and the API answer it with a 301. */
    async movedSlug(slug: string): Promise<string | null> {
      const [row] = await db
        .select({ slug: hireItems.slug })
        .from(hireItemSlugRedirects)
        .innerJoin(hireItems, eq(hireItems.id, hireItemSlugRedirects.hireItemId))
        .where(eq(hireItemSlugRedirects.slug, slug))
        .limit(1);
      return row?.slug ?? null;
    },

    /**
     * Units free on each day from `from` to `to` (inclusive): at one depot
     * when `depotId` is given (issue 30), else across the fleet. A unit is out
     * on the days of `[start, return)`: it can go out again on its return date.
     */
    async availability(itemId: number, from: string, to: string, depotId?: number): Promise<{ date: string; free: number }[]> {
      const atDepot = depotId === undefined ? sql`true` : sql`u.branch_id = ${depotId}`;
      const rows = (await db.execute(sql`
        select d::date::text as date,
          (select count(*)::int from ${hireUnits} u where u.hire_item_id = ${itemId} and u.active and ${atDepot})
          - (select count(distinct ${hireAllocations.unitId})::int from ${hireAllocations} join ${hireUnits} u on u.id = ${hireAllocations.unitId}
             where u.hire_item_id = ${itemId} and ${atDepot} and ${hireAllocations.period} @> d::date and ${liveAllocation}) as free
        from generate_series(${from}::date, ${to}::date, interval '1 day') d
        order by d`)) as unknown as { rows: { date: string; free: number }[] };
      return rows.rows.map((r) => ({ date: r.date, free: Math.max(0, r.free) }));
    },

    /** The item's active units based at a depot. */
    async unitsAt(itemId: number, depotId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(hireUnits).where(and(eq(hireUnits.hireItemId, itemId), eq(hireUnits.branchId, depotId), eq(hireUnits.active, true)));
      return row?.n ?? 0;
    },

    /** Units free for the whole of `[start, end)`, at one depot when `depotId` is given. */
    async freeUnits(itemId: number, start: string, end: string, depotId?: number): Promise<number> {
      const last = end === start ? start : addDays(end, -1);
      const days = await this.availability(itemId, start, last, depotId);
      return days.reduce((min, d) => Math.min(min, d.free), Number.POSITIVE_INFINITY);
    },

    /**
     * Units at other depots that could come to `depotId` for `[start, end)`:
     * free from the day before (the transfer day), which must not be in the past.
     */
    async byTransfer(itemId: number, start: string, end: string, depotId: number): Promise<number> {
      const from = addDays(start, -1);
      if (from < londonDate()) return 0;
      const rows = (await db.execute(sql`
        select count(*)::int as n from ${hireUnits} u
        where u.hire_item_id = ${itemId} and u.active and u.branch_id <> ${depotId}
          and not exists (select 1 from ${hireAllocations} where ${hireAllocations.unitId} = u.id and ${liveAllocation}
            and ${hireAllocations.period} && daterange(${from}::date, greatest(${end}::date, ${start}::date + 1)))`)) as unknown as { rows: { n: number }[] };
      return rows.rows[0]?.n ?? 0;
    },

    quote(item: { rates: { day: number; weekend: number; week: number }; deposit: number; vat_rate: number }, quantity: number, start: string, end: string) {
      const q = quote({
        rates: { day: Math.round(item.rates.day * 100), weekend: Math.round(item.rates.weekend * 100), week: Math.round(item.rates.week * 100) },
        depositPerUnit: Math.round(item.deposit * 100),
        quantity,
        start,
        end,
        vatRate: item.vat_rate,
        settings,
      });
      return {
        days: q.days,
        weekend_rate: q.weekend,
        hire_cost: pounds(q.hireCost),
        vat: pounds(q.vat),
        deposit: pounds(q.deposit),
        total: pounds(q.total),
      };
    },

    today: () => londonDate(),
    isDate: (value: string) => dayNumber(value) !== null,
  };
}

export type HireService = ReturnType<typeof createHireService>;
