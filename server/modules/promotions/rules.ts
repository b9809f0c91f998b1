// The promotion rules (issue 32): which lines a promotion reaches, what a
// multi-buy or a code takes off each line, and how a basket's discount is
// shared out over its lines. Pure: no database, no clock; the pricing pipeline
// (pricing/pipeline.ts) calls it between the trade price and VAT.
//
// Every amount here is pence ex VAT, the basis the shop keeps its prices in:
// VAT is worked afterwards on each line's discounted value.

export const PROMOTION_KINDS = ["percent", "amount", "free_delivery", "multi_buy"] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

/** A multi-buy: `free` (buy 3, 1 free: 3 for 2), `percent` (buy 2 or more, 10% off them), `price` (any 3 for £10). */
export const MULTI_BUY_KINDS = ["free", "percent", "price"] as const;
export type MultiBuyKind = (typeof MULTI_BUY_KINDS)[number];

export const AUDIENCES = ["all", "consumer", "trade"] as const;
export type Audience = (typeof AUDIENCES)[number];

/** What a promotion reaches: any product named, or in a category named (or below it), or of a brand named; all empty is the whole basket. */
export interface AppliesTo {
  product_ids: number[];
  category_ids: number[];
  brand_ids: number[];
}

export const WHOLE_BASKET: AppliesTo = Object.freeze({ product_ids: [], category_ids: [], brand_ids: [] }) as AppliesTo;

export interface PromotionRule {
  id: number;
  /** Null for an automatic promotion (a multi-buy). */
  code: string | null;
  name: string;
  kind: PromotionKind;
  /**
   * percent: basis points off (1000 = 10%); amount: pence off; free_delivery: unused;
   * multi_buy: `free` units free in each group, `percent` basis points off, `price` a group's price in pence.
   */
  value: number;
  /** A multi-buy's group size (buy 3…). */
  buy: number | null;
  multiBuy: MultiBuyKind | null;
  /** The basket's goods (after multi-buys) must come to at least this for a code to apply. */
  minSpendPence: number;
  appliesTo: AppliesTo;
  audience: Audience;
  stackable: boolean;
}

export interface RuleLine {
  productId: number;
  /** The product's categories with their ancestors (product_listing.category_ids). */
  categoryIds: readonly number[];
  brandId: number | null;
  quantity: number;
  /** The unit price ex VAT this buyer pays before promotions (after any trade discount). */
  unitPence: number;
}

/** Why a code in the basket takes nothing off as it stands. */
export type NotApplying = { reason: "audience" | "no_lines" | "min_spend"; shortPence?: number };

export interface AppliedPromotion {
  promotion: PromotionRule;
  /** Pence ex VAT taken off the goods (0 for free delivery). */
  amount: number;
  /** Indexes of the lines it took something off. */
  lines: number[];
  /** A code that applies to nothing now, and why. */
  notApplying?: NotApplying;
}

export interface Discounts {
  /** Per line, in the order given: pence ex VAT off the line. Never more than the line. */
  perLine: number[];
  applied: AppliedPromotion[];
  freeDelivery: boolean;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Whether a promotion is for this buyer: consumers, approved trade members, or both. */
export function forBuyer(promotion: Pick<PromotionRule, "audience">, trade: boolean): boolean {
  return promotion.audience === "all" || (promotion.audience === "trade") === trade;
}

/** Whether a line is one the promotion reaches. */
export function reaches(appliesTo: AppliesTo, line: Pick<RuleLine, "productId" | "categoryIds" | "brandId">): boolean {
  const { product_ids, category_ids, brand_ids } = appliesTo;
  if (!product_ids.length && !category_ids.length && !brand_ids.length) return true;
  return (
    product_ids.includes(line.productId) ||
    category_ids.some((c) => line.categoryIds.includes(c)) ||
    (line.brandId !== null && brand_ids.includes(line.brandId))
  );
}

/**
 * Shares `total` pence over lines in proportion to their `weights`, to the
 * penny: each line its floor share, and the pennies left over to the largest
 * line (the first of equals), then the next largest where that one is full.
 * No share exceeds its weight; the shares always add up to `total` (which is
 * capped at the weights' sum).
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const whole = sum(weights);
  const amount = Math.max(0, Math.min(total, whole));
  if (whole === 0) return weights.map(() => 0);
  // BigInt: 999 units of a £10,000 line times a large total stays exact.
  const shares = weights.map((w) => Number((BigInt(amount) * BigInt(w)) / BigInt(whole)));
  let left = amount - sum(shares);
  const byLargest = weights.map((w, i) => i).sort((a, b) => weights[b]! - weights[a]! || a - b);
  for (const i of byLargest) {
    if (left === 0) break;
    const room = weights[i]! - shares[i]!;
    const take = Math.min(room, left);
    shares[i]! += take;
    left -= take;
  }
  return shares;
}

/** Each unit of the lines, dearest first (the first line first among equals), with the line it belongs to. */
function unitsDearestFirst(lines: readonly RuleLine[], indexes: readonly number[], remaining: readonly number[]) {
  const units: { line: number; pence: number }[] = [];
  for (const i of indexes) {
    const line = lines[i]!;
    // What is left of the line after earlier promotions, spread over its units (the odd pennies on the first ones).
    const base = Math.floor(remaining[i]! / line.quantity);
    const odd = remaining[i]! - base * line.quantity;
    for (let u = 0; u < line.quantity; u++) units.push({ line: i, pence: base + (u < odd ? 1 : 0) });
  }
  return units.sort((a, b) => b.pence - a.pence || a.line - b.line);
}

/** What a multi-buy takes off each of the lines it reaches. */
function multiBuyOff(promotion: PromotionRule, lines: readonly RuleLine[], indexes: readonly number[], remaining: readonly number[]): number[] {
  const off = lines.map(() => 0);
  const buy = promotion.buy ?? 0;
  const count = sum(indexes.map((i) => lines[i]!.quantity));
  if (buy < 1 || count < buy) return off;
  if (promotion.multiBuy === "percent") {
    // Buy `buy` or more, that much off all of them.
    const weights = indexes.map((i) => remaining[i]!);
    const shares = apportion(Math.floor((sum(weights) * promotion.value + 5_000) / 10_000), weights);
    indexes.forEach((i, k) => (off[i] = shares[k]!));
    return off;
  }
  // `free` and `price` work on whole groups of `buy` units, the dearest grouped first, so the
  // customer gets the most a shop's till would give: in 3 for 2, each group's cheapest unit free.
  const units = unitsDearestFirst(lines, indexes, remaining);
  for (let start = 0; start + buy <= units.length; start += buy) {
    const group = units.slice(start, start + buy);
    if (promotion.multiBuy === "free") {
      for (const unit of group.slice(buy - Math.min(promotion.value, buy))) off[unit.line]! += unit.pence;
    } else {
      const saving = Math.max(0, sum(group.map((u) => u.pence)) - promotion.value);
      const shares = apportion(saving, group.map((u) => u.pence));
      group.forEach((u, k) => (off[u.line]! += shares[k]!));
    }
  }
  return off;
}

/**
 * The promotions' discounts on a basket's lines: first the automatic
 * multi-buys (a line takes at most one, the first that reaches it), then the
 * codes in the order they were added, each on what is left of its lines.
 */
export function discountsFor(lines: readonly RuleLine[], promotions: readonly PromotionRule[], trade: boolean): Discounts {
  const remaining = lines.map((l) => l.unitPence * l.quantity);
  const inMultiBuy = new Set<number>();
  const applied: AppliedPromotion[] = [];
  let freeDelivery = false;

  const take = (promotion: PromotionRule, off: number[]) => {
    const touched = off.flatMap((o, i) => (o > 0 ? [i] : []));
    for (const i of touched) remaining[i]! -= off[i]!;
    applied.push({ promotion, amount: sum(off), lines: touched });
    return touched;
  };

  for (const promotion of promotions) {
    if (promotion.kind !== "multi_buy" || !forBuyer(promotion, trade)) continue;
    const indexes = lines.flatMap((l, i) => (!inMultiBuy.has(i) && reaches(promotion.appliesTo, l) ? [i] : []));
    const off = multiBuyOff(promotion, lines, indexes, remaining);
    if (sum(off) > 0) for (const i of take(promotion, off)) inMultiBuy.add(i);
  }

  for (const promotion of promotions) {
    if (promotion.kind === "multi_buy") continue;
    const refuse = (notApplying: NotApplying) => applied.push({ promotion, amount: 0, lines: [], notApplying });
    if (!forBuyer(promotion, trade)) {
      refuse({ reason: "audience" });
      continue;
    }
    const indexes = lines.flatMap((l, i) => (reaches(promotion.appliesTo, l) && remaining[i]! > 0 ? [i] : []));
    if (!indexes.length) {
      refuse({ reason: "no_lines" });
      continue;
    }
    // The minimum spend is on what the promotion reaches, after the multi-buys.
    const reached = sum(indexes.map((i) => remaining[i]!));
    if (reached < promotion.minSpendPence) {
      refuse({ reason: "min_spend", shortPence: promotion.minSpendPence - reached });
      continue;
    }
    if (promotion.kind === "free_delivery") {
      freeDelivery = true;
      applied.push({ promotion, amount: 0, lines: [] });
      continue;
    }
    const total = promotion.kind === "percent" ? Math.floor((reached * promotion.value + 5_000) / 10_000) : promotion.value;
    const shares = apportion(total, indexes.map((i) => remaining[i]!));
    const off = lines.map(() => 0);
    indexes.forEach((i, k) => (off[i] = shares[k]!));
    take(promotion, off);
  }

  return { perLine: lines.map((l, i) => l.unitPence * l.quantity - remaining[i]!), applied, freeDelivery };
}

/** What a customer reads about a code that takes nothing off as the basket stands. */
export function notApplyingMessage(code: string, why: NotApplying): string {
  switch (why.reason) {
    case "audience":
      return `The code ${code} is not for this account.`;
    case "no_lines":
      return `The code ${code} does not apply to anything in your basket.`;
    case "min_spend":
      return `Spend £${((why.shortPence ?? 0) / 100).toFixed(2)} more (ex VAT) on qualifying items to use the code ${code}.`;
  }
}
