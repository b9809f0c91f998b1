import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { escapeLike } from "../../db/like.ts";
import { ValidationError, parseInput } from "../../http-errors.ts";
import { pounds } from "../catalog/products/products.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { HIRE_REQUEST_STATUSES, type HireRequestState } from "./desk-labels.ts";
import { londonDate } from "./pricing.ts";
import { hireHandovers } from "./desk/schema.ts";
import { hireAllocations, hireItems, hireRequestLines, hireRequests, hireUnits } from "./schema.ts";
import { branches } from "../branches/schema.ts";
import { idCursor } from "../../lib/id-cursor.ts";

/**
 * The hire desk's overview (`/admin/hire`) and its list of hire requests
 * (issue 21). Days are London calendar days. A unit's return date is its
 * request line's `end_date` (what the customer agreed, as the dashboard
 * counts it). A unit is out from its hand-over (allocation kind `out`) until
 * its return is recorded (hire_handovers.returned_on), off-hired or not.
 */
export const HIRE_REQUESTS_PAGE_MAX = 100;
/** At most this many entries in each overview bucket; its `total` counts them all. */
export const OVERVIEW_BUCKET_MAX = 50;

const blank = (v: unknown) => (v === "" ? undefined : v);

export const hireRequestListQuery = z.object({
  status: z.preprocess(blank, z.enum(HIRE_REQUEST_STATUSES, { error: `The status must be one of ${HIRE_REQUEST_STATUSES.join(", ")}.` }).optional().describe("Only requests in this state")),
  q: z.string().trim().max(100, "Search (q) for at most 100 characters.").optional().describe("A request number (or its digits), or words of the name, email or company"),
  depot: z.preprocess(blank, z.string().regex(/^[a-z0-9-]{1,80}$/, "Choose one of our hire depots (depot).").optional().describe("Only requests going out from this hire depot (its slug)")),
  cursor: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional().describe("`next_cursor` of the page before"),
  limit: z.preprocess(blank, z.coerce.number().int().min(1, "Ask for at least 1 request (limit).").max(HIRE_REQUESTS_PAGE_MAX, `Ask for at most ${HIRE_REQUESTS_PAGE_MAX} requests (limit).`).optional()),
});
export type HireRequestListQuery = z.input<typeof hireRequestListQuery>;

export interface OverviewRequest {
  number: string;
  status: HireRequestState;
  name: string;
  company: string;
  fulfilment: string;
  created_at: string;
  hold_expires_at: string;
  /** The earliest start and latest return of its lines. */
  start_date: string;
  end_date: string;
  /** Units over all its lines (waiting), or over the lines starting today (going out). */
  units: number;
  /** Its hire items' names, joined. */
  items: string;
}

export interface OverviewUnit {
  number: string;
  status: HireRequestState;
  name: string;
  phone: string;
  item: string;
  asset_number: string;
  return_date: string;
  /** The day the customer off-hired it (charging stopped), waiting to be collected; null while on hire. */
  off_hire_on: string | null;
  /** Days past the return date: 0 when due back today. */
  days_overdue: number;
}

export interface HireDeskOverview {
  today: string;
  waiting: { total: number; requests: OverviewRequest[] };
  going_out: { total: number; requests: OverviewRequest[] };
  due_back: { total: number; units: OverviewUnit[] };
  overdue: { total: number; units: OverviewUnit[] };
}

export interface HireRequestSummary {
  number: string;
  status: HireRequestState;
  name: string;
  email: string;
  company: string;
  fulfilment: string;
  created_at: string;
  hold_expires_at: string;
  start_date: string | null;
  end_date: string | null;
  units: number;
  items: string;
  /** Pounds. */
  hire_cost: number;
  vat: number;
  deposit: number;
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => ((result as { rows?: Row[] }).rows ?? (result as Row[]));
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v));

// The cursor is the last id of the page, wrapped so clients treat it as opaque.
const { encode: encodeCursor, decode: decodeCursor } = idCursor("h");

/** A request number typed whole (`HR-000045`, any case) or by its digits (`45`), or words of the name, email or company. */
function searchWhere(q: string): SQL | null {
  const text = q.trim();
  if (!text) return null;
  const digits = /^(?:hr-?)?0*(\d{1,9})$/i.exec(text);
  const byNumber = digits ? sql`r.number = ${`HR-${digits[1]!.padStart(6, "0")}`}` : sql`false`;
  const words = text.split(/\s+/).filter(Boolean).slice(0, 6);
  const byWords = sql.join(
    words.map((w) => {
      const like = `%${escapeLike(w)}%`;
      return sql`(r.name ilike ${like} or r.email ilike ${like} or r.company ilike ${like})`;
    }),
    sql` and `,
  );
  return sql`(${byNumber} or r.number ilike ${`${escapeLike(text)}%`} or (${byWords}))`;
}

/** Requests (alias `r`) going out from the depot with this slug. */
const atDepot = (slug: string) => sql`r.branch_id = (select b.id from ${branches} b where b.slug = ${slug})`;

export function createHireDesk(db: Db, options: { now?: () => Date } = {}) {
  const now = () => options.now?.() ?? new Date();

  /** Live allocations of units out on hire, with their request and return date. */
  const outUnits = (where: SQL) => sql`
    select r.number, r.status, r.name, r.phone, i.name as item, u.asset_number,
      l.end_date::text as return_date, h.off_hire_on::text as off_hire_on, count(*) over ()::int as total
    from ${hireAllocations} a
    join ${hireUnits} u on u.id = a.unit_id
    join ${hireItems} i on i.id = u.hire_item_id
    join ${hireRequestLines} l on l.id = a.request_line_id
    join ${hireRequests} r on r.id = l.request_id
    -- A unit back while others of its request are still out keeps its allocation until the last is back.
    left join ${hireHandovers} h on h.allocation_id = a.id
    where a.kind = 'out' and a.released_at is null and h.returned_on is null and ${where}
    order by return_date, r.number, u.asset_number
    limit ${OVERVIEW_BUCKET_MAX}`;

  function unitJson(r: Row, today: string): OverviewUnit {
    const returnDate = day(r.return_date);
    const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${returnDate}T00:00:00Z`)) / 86_400_000);
    return {
      number: String(r.number),
      status: r.status as HireRequestState,
      name: String(r.name),
      phone: String(r.phone),
      item: String(r.item),
      asset_number: String(r.asset_number),
      return_date: returnDate,
      off_hire_on: r.off_hire_on === null || r.off_hire_on === undefined ? null : day(r.off_hire_on),
      days_overdue: Math.max(0, days),
    };
  }

  function requestJson(r: Row): OverviewRequest {
    return {
      number: String(r.number),
      status: r.status as HireRequestState,
      name: String(r.name),
      company: String(r.company),
      fulfilment: String(r.fulfilment),
      created_at: iso(r.created_at),
      hold_expires_at: iso(r.hold_expires_at),
      start_date: day(r.start_date),
      end_date: day(r.end_date),
      units: Number(r.units),
      items: String(r.items ?? ""),
    };
  }

  return {
    /**
     * What the hire desk does today: requests waiting for a decision (oldest
     * first, with their holds' expiry), approved requests with a line starting
     * today, and units out on hire due back today or overdue (past their return
     * date, not back; the longest overdue first).
     */
    async overview(actor: StaffActor, depot?: string): Promise<HireDeskOverview> {
      authorize(actor, "hire.desk");
      if (depot !== undefined && !/^[a-z0-9-]{1,80}$/.test(depot)) throw new ValidationError({ depot: ["Choose one of our hire depots (depot)."] });
      const here = depot ? atDepot(depot) : sql`true`;
      const today = londonDate(now());
      const requestsOf = (where: SQL, lines: SQL, order: SQL) => sql`
        select r.number, r.status, r.name, r.company, r.fulfilment, r.created_at, r.hold_expires_at,
          min(l.start_date)::text as start_date, max(l.end_date)::text as end_date,
          coalesce(sum(l.quantity) filter (where ${lines}), 0)::int as units,
          string_agg(distinct l.name, ', ') as items, count(*) over ()::int as total
        from ${hireRequests} r
        join ${hireRequestLines} l on l.request_id = r.id
        where ${where} and ${here}
        group by r.id
        order by ${order}
        limit ${OVERVIEW_BUCKET_MAX}`;
      const waiting = rowsOf(await db.execute(requestsOf(sql`r.status = 'pending'`, sql`true`, sql`r.created_at, r.id`)));
      const goingOut = rowsOf(
        await db.execute(
          requestsOf(
            sql`r.status = 'confirmed' and exists (select 1 from ${hireRequestLines} s where s.request_id = r.id and s.start_date = ${today}::date)`,
            sql`l.start_date = ${today}::date`,
            sql`r.number`,
          ),
        ),
      );
      const dueBack = rowsOf(await db.execute(outUnits(sql`l.end_date = ${today}::date and ${here}`)));
      const overdue = rowsOf(await db.execute(outUnits(sql`l.end_date < ${today}::date and ${here}`)));
      const total = (rows: Row[]) => Number(rows[0]?.total ?? 0);
      return {
        today,
        waiting: { total: total(waiting), requests: waiting.map(requestJson) },
        going_out: { total: total(goingOut), requests: goingOut.map(requestJson) },
        due_back: { total: total(dueBack), units: dueBack.map((r) => unitJson(r, today)) },
        overdue: { total: total(overdue), units: overdue.map((r) => unitJson(r, today)) },
      };
    },

    /** Hire requests, newest first, a keyset page at a time: by state, and by number, name, email or company. */
    async requests(actor: StaffActor, raw: HireRequestListQuery): Promise<{ data: HireRequestSummary[]; next_cursor: string | null }> {
      authorize(actor, "hire.desk");
      const query = parseInput(hireRequestListQuery, raw);
      const limit = query.limit ?? 50;
      const where: SQL[] = [sql`true`];
      if (query.status) where.push(sql`r.status = ${query.status}`);
      if (query.depot) where.push(atDepot(query.depot));
      const search = query.q ? searchWhere(query.q) : null;
      if (search) where.push(search);
      if (query.cursor) where.push(sql`r.id < ${decodeCursor(query.cursor)}`);
      const rows = rowsOf(
        await db.execute(sql`
          select r.id, r.number, r.status, r.name, r.email, r.company, r.fulfilment, r.created_at, r.hold_expires_at,
            r.hire_cost, r.vat, r.deposit, l.start_date, l.end_date, coalesce(l.units, 0) as units, l.items
          from ${hireRequests} r
          left join lateral (
            select min(start_date)::text as start_date, max(end_date)::text as end_date, sum(quantity)::int as units, string_agg(distinct name, ', ') as items
            from ${hireRequestLines} where request_id = r.id
          ) l on true
          where ${sql.join(where, sql` and `)}
          order by r.id desc
          limit ${limit + 1}`),
      );
      const page = rows.slice(0, limit);
      return {
        data: page.map((r) => ({
          number: String(r.number),
          status: r.status as HireRequestState,
          name: String(r.name),
          email: String(r.email),
          company: String(r.company),
          fulfilment: String(r.fulfilment),
          created_at: iso(r.created_at),
          hold_expires_at: iso(r.hold_expires_at),
          start_date: r.start_date === null ? null : day(r.start_date),
          end_date: r.end_date === null ? null : day(r.end_date),
          units: Number(r.units),
          items: String(r.items ?? ""),
          hire_cost: pounds(Number(r.hire_cost)),
          vat: pounds(Number(r.vat)),
          deposit: pounds(Number(r.deposit)),
        })),
        next_cursor: rows.length > limit ? encodeCursor(Number(page[page.length - 1]!.id)) : null,
      };
    },
  };
}

export type HireDesk = ReturnType<typeof createHireDesk>;
