// Which promotions a basket gets now: the running multi-buys, and the codes it
// holds, each either live (a rule for the pipeline) or no longer usable with
// the reason the customer reads. Read by the basket and, under its lock, by
// checkout.
import { type SQL, and, asc, eq, getTableColumns, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { jsonObject } from "../../db/json-object.ts";
import { productListing } from "../catalog/schema.ts";
import type { MultiBuyKind, PromotionKind, PromotionRule } from "./rules.ts";
import { basketPromotions, promotions } from "./schema.ts";

export type PromotionRow = typeof promotions.$inferSelect;

/** A line's categories with their ancestors, what promotions reach it by (with a left join of product_listing on the product). */
export const lineCategoryIds = sql<number[]>`coalesce(${productListing.categoryIds}, '{}'::integer[])`;

export function ruleOf(row: PromotionRow): PromotionRule {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    kind: row.kind as PromotionKind,
    value: row.value,
    buy: row.buy,
    multiBuy: row.multiBuy as MultiBuyKind | null,
    minSpendPence: row.minSpend,
    appliesTo: row.appliesTo,
    audience: row.audience as PromotionRule["audience"],
    stackable: row.stackable,
  };
}

const LONDON_DATE = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "long", year: "numeric" });

/** Why a code cannot be used now, in the customer's words; null while it can. */
export function unusableReason(row: PromotionRow, now: Date): string | null {
  const code = row.code ?? row.name;
  if (row.status !== "active") return `The code ${code} has ended.`;
  if (row.startsAt && row.startsAt > now) return `The code ${code} starts on ${LONDON_DATE.format(row.startsAt)}.`;
  if (row.endsAt && row.endsAt <= now) return `The code ${code} expired on ${LONDON_DATE.format(row.endsAt)}.`;
  if (row.maxUses !== null && row.uses >= row.maxUses) return `The code ${code} has been used up.`;
  return null;
}

export const runningNow = sql`${promotions.status} = 'active' and (${promotions.startsAt} is null or ${promotions.startsAt} <= now()) and (${promotions.endsAt} is null or ${promotions.endsAt} > now())`;

export interface BasketPromotions {
  /** The multi-buys running now, then the basket's usable codes in the order added. */
  rules: PromotionRule[];
  /** The basket's codes that can no longer be used, and why. */
  unusable: { code: string; message: string }[];
  rows: PromotionRow[];
}

/** The running multi-buys and the basket's codes: one query, the basket's id a placeholder so it can be prepared. */
function promotionsQuery(q: Db) {
  return q
    .select({ promotion: promotions })
    .from(promotions)
    .leftJoin(basketPromotions, and(eq(basketPromotions.promotionId, promotions.id), eq(basketPromotions.basketId, sql.placeholder("basket"))))
    .where(or(and(isNull(promotions.code), runningNow), sql`${basketPromotions.basketId} is not null`))
    .orderBy(sql`${promotions.code} is not null`, asc(basketPromotions.addedAt), asc(promotions.id));
}

/** Each row a live rule, or a code no longer usable with its reason. */
function sorted(rows: { promotion: PromotionRow }[], now: Date): BasketPromotions {
  const out: BasketPromotions = { rules: [], unusable: [], rows: [] };
  for (const { promotion } of rows) {
    const why = promotion.code === null ? null : unusableReason(promotion, now);
    if (why) out.unusable.push({ code: promotion.code!, message: why });
    else {
      out.rules.push(ruleOf(promotion));
      out.rows.push(promotion);
    }
  }
  return out;
}

/** One query: the running multi-buys and the basket's codes (in a transaction: checkout, under the basket's lock). */
export async function basketPromotionsOf(q: Db, basketId: number | null, now = new Date()): Promise<BasketPromotions> {
  return sorted(await promotionsQuery(q).execute({ basket: basketId ?? 0 }), now);
}

/** A promotion as JSON answers it: its times as text. */
export type PromotionJson = Omit<PromotionRow, "startsAt" | "endsAt" | "createdAt" | "updatedAt"> & { startsAt: string | null; endsAt: string | null; createdAt: string; updatedAt: string };

/**
 * The same rows as one JSON array, for the basket whose id `basketId` (an SQL
 * expression) gives: the basket's lines read them in the same statement, one
 * round trip for a basket read instead of two (issue 35). Not correlated with
 * the outer query, so PostgreSQL works it out once per statement, however many lines.
 */
export function basketPromotionsJson(basketId: SQL): SQL<PromotionJson[]> {
  return sql<PromotionJson[]>`(select coalesce(json_agg(${jsonObject(getTableColumns(promotions))} order by ${promotions.code} is not null, ${basketPromotions.addedAt}, ${promotions.id}), '[]')
    from ${promotions} left join ${basketPromotions} on ${basketPromotions.promotionId} = ${promotions.id} and ${basketPromotions.basketId} = ${basketId}
    where (${promotions.code} is null and ${runningNow}) or ${basketPromotions.basketId} is not null)`;
}

/** basketPromotionsJson's rows, their times Dates again, sorted as basketPromotionsOf sorts them. */
export function basketPromotionsFromJson(rows: readonly PromotionJson[], now = new Date()): BasketPromotions {
  const at = (time: string | null) => (time === null ? null : new Date(time));
  return sorted(
    rows.map((r) => ({ promotion: { ...r, startsAt: at(r.startsAt), endsAt: at(r.endsAt), createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) } })),
    now,
  );
}
