import type { TradeAccountState, TradeRole } from "./schema.ts";

/**
 * Who is asking for prices, resolved once per request with the signed-in user
 * (see resolveAccessToken): the trade discount to apply, if any. Services take
 * it as a parameter; the default, RETAIL, keeps every consumer answer as it was.
 */
export interface PriceContext {
  /** 0 for consumers; 1000 = 10% off the ex-VAT price. */
  discountBasisPoints: number;
  /** An approved trade member (whatever their discount): trade-only promotions are theirs, consumer-only ones are not. */
  trade?: boolean;
}

export const RETAIL: PriceContext = Object.freeze({ discountBasisPoints: 0 });

/** The session's trade membership, read in the same query as the user. */
export interface TradeMembership {
  accountId: number;
  role: TradeRole;
  state: TradeAccountState;
  discountBasisPoints: number;
  pricesIncVat: boolean;
}

/** Only an approved account gets trade prices: pending, declined and suspended ones pay retail. */
export function priceContextFor(trade: TradeMembership | null): PriceContext {
  return trade && trade.state === "approved" ? { discountBasisPoints: trade.discountBasisPoints, trade: true } : RETAIL;
}

/** The unit price ex VAT after the trade discount, rounded half-up to the penny. */
export function unitPence(pricePence: number, prices: PriceContext): number {
  if (prices.discountBasisPoints === 0) return pricePence;
  return Math.floor((pricePence * (10_000 - prices.discountBasisPoints) + 5_000) / 10_000);
}

/** What the storefront needs to show prices: whether trade prices apply and which VAT view. */
export interface PriceDisplay {
  trade: boolean;
  discountPercent: number;
  incVat: boolean;
}

export function priceDisplayFor(trade: TradeMembership | null): PriceDisplay {
  const prices = priceContextFor(trade);
  const member = prices.discountBasisPoints > 0 || trade?.state === "approved";
  // Consumers always see inc VAT; trade members default to ex VAT.
  return { trade: member, discountPercent: prices.discountBasisPoints / 100, incVat: member ? (trade?.pricesIncVat ?? false) : true };
}

/** The price view of everyone who sees the shop's own prices: visitors, consumers, accounts not approved. */
export const RETAIL_VIEW = "retail";

/**
 * What a catalogue page's prices depend on, and nothing else: the discount and
 * the VAT view. Catalogue pages are kept once per price view, never per user
 * (ADR 0043), so two accounts with the same terms share a copy, and a changed
 * discount is a new view whose pages render afresh.
 */
export function priceViewOf(trade: TradeMembership | null): string {
  const display = priceDisplayFor(trade);
  if (!display.trade) return RETAIL_VIEW;
  return `trade-${priceContextFor(trade).discountBasisPoints}-${display.incVat ? "inc" : "ex"}-vat`;
}
