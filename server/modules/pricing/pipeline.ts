// The one pricing pipeline (design brief, "How a merchant trades"): list price,
// then the trade price, then promotions, then VAT per line on the discounted
// value, rounded half-up. The basket, checkout and the promotions desk's
// preview call it; none works a price out for itself.
import { incVat } from "../catalog/products/prices.ts";
import { type AppliedPromotion, type PromotionRule, type RuleLine, discountsFor } from "../promotions/rules.ts";
import { type PriceContext, unitPence } from "../trade/pricing.ts";

export interface PipelineLine {
  productId: number;
  categoryIds: readonly number[];
  brandId: number | null;
  quantity: number;
  /** The variant's list price, pence ex VAT. */
  listPence: number;
  vatRate: number;
}

export interface PricedLine {
  /** The unit price ex VAT before promotions (the list or trade price). */
  unitPence: number;
  /** Unit price × quantity, ex VAT, before promotions. */
  grossPence: number;
  /** Taken off the line by promotions, ex VAT. */
  discountPence: number;
  /** What the line is sold for, ex VAT: gross less discount. VAT is on this. */
  netPence: number;
  vatPence: number;
}

export interface PricedBasket {
  lines: PricedLine[];
  /** Goods ex VAT before promotions. */
  grossPence: number;
  discountPence: number;
  /** Goods ex VAT after promotions: the sum of the lines' net. */
  netPence: number;
  /** The sum of the lines' VAT. */
  vatPence: number;
  applied: AppliedPromotion[];
  freeDelivery: boolean;
  /** The code that makes standard delivery free, when one applies. */
  freeDeliveryCode: string | null;
}

export function priceLines(lines: readonly PipelineLine[], prices: PriceContext, promotions: readonly PromotionRule[] = []): PricedBasket {
  const ruleLines: RuleLine[] = lines.map((l) => ({ productId: l.productId, categoryIds: l.categoryIds, brandId: l.brandId, quantity: l.quantity, unitPence: unitPence(l.listPence, prices) }));
  const discounts = promotions.length ? discountsFor(ruleLines, promotions, prices.trade === true) : { perLine: ruleLines.map(() => 0), applied: [], freeDelivery: false };
  const priced = ruleLines.map((l, i) => {
    const grossPence = l.unitPence * l.quantity;
    const discountPence = discounts.perLine[i]!;
    const netPence = grossPence - discountPence;
    return { unitPence: l.unitPence, grossPence, discountPence, netPence, vatPence: incVat(netPence, lines[i]!.vatRate) - netPence };
  });
  const total = (pick: (l: PricedLine) => number) => priced.reduce((n, l) => n + pick(l), 0);
  return {
    lines: priced,
    grossPence: total((l) => l.grossPence),
    discountPence: total((l) => l.discountPence),
    netPence: total((l) => l.netPence),
    vatPence: total((l) => l.vatPence),
    applied: discounts.applied,
    freeDelivery: discounts.freeDelivery,
    freeDeliveryCode: discounts.freeDelivery ? (discounts.applied.find((a) => a.promotion.kind === "free_delivery" && !a.notApplying)?.promotion.code ?? null) : null,
  };
}
