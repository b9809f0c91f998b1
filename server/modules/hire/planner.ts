import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { decodeNameCursor, encodeNameCursor } from "../../db/name-cursor.ts";
import { escapeLike } from "../../db/like.ts";
import { parseInput } from "../../http-errors.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { addDays, dayNumber, londonDate } from "./pricing.ts";
import { hireAllocations, hireItems, hireRequestLines, hireRequests, hireUnits } from "./schema.ts";
import { branches } from "../branches/schema.ts";

/**
 * The hire desk's planner (issue 21): each hire item's units across a window
 * of days, with the live allocations that take them. It reads the table whose
 * exclusion constraint forbids double booking, so a gap it draws is a gap the
 * database would let a new booking fill.
 */
export const PLANNER_DAYS_DEFAULT = 14;
export const PLANNER_DAYS_MAX = 62;
export const PLANNER_ITEMS_DEFAULT = 50;
export const PLANNER_ITEMS_MAX = 100;

export type PlannerBarKind = "hold" | "booking" | "out" | "service";

/** The planner's query, at both doors (the API's schema and the screen's loader). Empty values mean "the default". */
/** A filter form sends an empty value for "the default". */
const blank = (v: unknown) => (v === "" ? undefined : v);
const DAYS_MESSAGE = `The number of days (days) must be a whole number from 1 to ${PLANNER_DAYS_MAX}.`;
const ITEM_MESSAGE = "The hire item (item) must be a hire item's id.";

/** The planner's query, at both doors (the API's schema and the screen's loader). */
export const plannerQuery = z.object({
  from: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .refine((v) => dayNumber(v) !== null, "The first day (from) must be a real date, YYYY-MM-DD.")
      .optional()
      .describe("The first day shown, YYYY-MM-DD; today in London when absent"),
  ),
  days: z.preprocess(
    blank,
    z.coerce
      .number({ error: DAYS_MESSAGE })
      .int(DAYS_MESSAGE)
      .min(1, DAYS_MESSAGE)
      .max(PLANNER_DAYS_MAX, DAYS_MESSAGE)
      .optional()
      .describe(`How many days from \`from\`: 1 to ${PLANNER_DAYS_MAX}, ${PLANNER_DAYS_DEFAULT} when absent`),
  ),
  item: z.preprocess(blank, z.coerce.number({ error: ITEM_MESSAGE }).int(ITEM_MESSAGE).positive(ITEM_MESSAGE).max(2_147_483_647, ITEM_MESSAGE).optional().describe("One hire item, by its id")),
  q: z.string().trim().max(100, "Search (q) for at most 100 characters.").optional().describe("Hire items whose name has all these words"),
  depot: z.preprocess(blank, z.string().regex(/^[a-z0-9-]{1,80}$/, "Choose one of our hire depots (depot).").optional().describe("Only units based at this hire depot (its slug); all depots when absent")),
  cursor: z.string().max(400).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional().describe("`next_cursor` of the page before"),
  limit: z.preprocess(
    blank,
    z.coerce
      .number()
      .int()
      .min(1, "Ask for at least 1 hire item (limit).")
      .max(PLANNER_ITEMS_MAX, `Ask for at most ${PLANNER_ITEMS_MAX} hire items (limit).`)
      .optional()
      .describe(`Hire items a page, ${PLANNER_ITEMS_DEFAULT} when absent`),
  ),
});
export type PlannerQuery = z.input<typeof plannerQuery>;

export interface PlannerBar {
  /** The allocation's own first day, `YYYY-MM-DD` (not clipped to the window). */
  from: string;
  /** The day the unit is free again: exclusive, as the daterange `[start, return)` (not clipped). */
  to: string;
  kind: PlannerBarKind;
  /** The hire request it serves; absent for service. */
  request_number?: string;
  /** Why a unit is in service; absent for the other kinds. */
  note?: string;
}

export interface PlannerUnit {
  id: number;
  asset_number: string;
  /** False for a retired unit: shown only while it still has a bar in the window. */
  active: boolean;
  bars: PlannerBar[];
}

export interface PlannerItem {
  id: number;
  name: string;
  units: PlannerUnit[];
}

export interface Planner {
  /** The window `[from, to)`, and today in London (the screen marks its column). */
  from: string;
  to: string;
  days: number;
  today: string;
  items: PlannerItem[];
  next_cursor: string | null;
}

interface Row {
  item_id: number;
  item_name: string;
  unit_id: number | null;
  asset_number: string | null;
  active: boolean | null;
  bar_from: string | null;
  bar_to: string | null;
  kind: PlannerBarKind | null;
  note: string | null;
  request_number: string | null;
}

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[]));

/**
 * What the planner draws: live allocations (not released). A hold past its
 * expiry is left out, as the allocator releases it before it books (it is a
 * gap to the next request); bookings, time out on hire and service are drawn
 * until released.
 */
const drawn = sql`a.released_at is null and (a.kind <> 'hold' or a.expires_at > now())`;

export function createHirePlanner(db: Db) {
  return {
    /**
     * Hire items by name (a keyset page of them), each with its units by
     * asset number and their bars in the window, in one statement: the page of
     * items, their units and the allocations overlapping the window with their
     * requests' numbers. Active units always; a retired one only with a bar.
     */
    async planner(actor: StaffActor, raw: PlannerQuery, now: Date = new Date()): Promise<Planner> {
      authorize(actor, "hire.desk");
      const query = parseInput(plannerQuery, raw);
      const today = londonDate(now);
      const from = query.from || today;
      const days = query.days || PLANNER_DAYS_DEFAULT;
      const to = addDays(from, days);
      const limit = query.limit ?? PLANNER_ITEMS_DEFAULT;

      const where = [sql`true`];
      if (query.item) where.push(sql`i.id = ${query.item}`);
      for (const w of query.q?.split(/\s+/).filter(Boolean).slice(0, 6) ?? []) where.push(sql`i.name ilike ${`%${escapeLike(w)}%`}`);
      if (query.cursor) {
        const [name, id] = decodeNameCursor(query.cursor);
        where.push(sql`(i.name, i.id) > (${name}, ${id})`);
      }
      const result = await db.execute(sql`
        with page as (
          select i.id, i.name from ${hireItems} i
          where ${sql.join(where, sql` and `)}
          order by i.name, i.id
          limit ${limit + 1}
        )
        select p.id as item_id, p.name as item_name, u.id as unit_id, u.asset_number, u.active,
          lower(a.period)::text as bar_from, upper(a.period)::text as bar_to, a.kind, a.note, r.number as request_number
        from page p
        left join ${hireUnits} u on u.hire_item_id = p.id ${query.depot ? sql`and u.branch_id = (select b.id from ${branches} b where b.slug = ${query.depot})` : sql``}
        left join ${hireAllocations} a on a.unit_id = u.id and ${drawn} and a.period && daterange(${from}::date, ${to}::date)
        left join ${hireRequestLines} l on l.id = a.request_line_id
        left join ${hireRequests} r on r.id = l.request_id
        order by p.name, p.id, u.asset_number, u.id, lower(a.period)`);

      const items: PlannerItem[] = [];
      const units = new Map<number, PlannerUnit>();
      for (const row of rowsOf<Row>(result)) {
        let item = items[items.length - 1];
        if (item?.id !== row.item_id) {
          item = { id: row.item_id, name: row.item_name, units: [] };
          items.push(item);
        }
        if (row.unit_id === null) continue;
        let unit = units.get(row.unit_id);
        if (!unit) {
          unit = { id: row.unit_id, asset_number: row.asset_number!, active: row.active === true, bars: [] };
          units.set(row.unit_id, unit);
          item.units.push(unit);
        }
        if (row.kind === null) continue;
        unit.bars.push({
          from: row.bar_from!,
          to: row.bar_to!,
          kind: row.kind,
          ...(row.request_number ? { request_number: row.request_number } : {}),
          ...(row.kind === "service" ? { note: row.note ?? "" } : {}),
        });
      }
      for (const item of items) item.units = item.units.filter((u) => u.active || u.bars.length > 0);
      const page = items.slice(0, limit);
      const last = page[page.length - 1];
      return { from, to, days, today, items: page, next_cursor: items.length > limit && last ? encodeNameCursor(last.name, last.id) : null };
    },
  };
}

export type HirePlanner = ReturnType<typeof createHirePlanner>;
