// How a product is sold, and what one unit covers: plain rules with no
// database code, so the product page's calculator and the server agree.

/** The units a product is sold in. */
export const SALE_UNITS = ["each", "m", "m2", "pack", "kg", "tonne", "litre"] as const;
export type SaleUnit = (typeof SALE_UNITS)[number];

/** What a coverage is measured in: an area or a length. */
export const COVERAGE_UNITS = ["m2", "m"] as const;
export type CoverageUnit = (typeof COVERAGE_UNITS)[number];

/** "per length" would be a guess: each names the thing, the others their measure. */
export const UNIT_LABELS: Record<SaleUnit, { one: string; per: string }> = {
  each: { one: "each", per: "each" },
  m: { one: "metre", per: "per m" },
  m2: { one: "m²", per: "per m²" },
  pack: { one: "pack", per: "per pack" },
  kg: { one: "kg", per: "per kg" },
  tonne: { one: "tonne", per: "per tonne" },
  litre: { one: "litre", per: "per litre" },
};

export const COVERAGE_LABELS: Record<CoverageUnit, string> = { m2: "m²", m: "m" };

export interface Coverage {
  per_unit: number;
  unit: CoverageUnit;
}

/**
 * Whole units to cover `amount` (m² or m) with `wastePercent` extra for cuts
 * and breakages: rounded up, never below one. A figure a float would push
 * over a whole number (12.96 / 1.44 = 9.000000000000002) is taken as that
 * number, so 9 packs cover 12.96 m² exactly.
 */
export function unitsToCover(amount: number, perUnit: number, wastePercent = 0): number {
  if (!(amount > 0) || !(perUnit > 0)) return 1;
  const needed = (amount * (100 + Math.max(0, wastePercent))) / 100 / perUnit;
  const rounded = Math.round(needed);
  return Math.max(1, Math.abs(needed - rounded) < 1e-9 ? rounded : Math.ceil(needed));
}

/** The price of one coverage unit (£ per m²) from a unit's price, in pence, half-up. */
export function pricePerCoverage(unitPence: number, perUnit: number): number {
  return Math.round(unitPence / perUnit);
}

/** How a quantity of each unit is written after its number: one, and many (each is the bare number). */
const QUANTITY_WORDS: Partial<Record<SaleUnit, [one: string, many: string]>> = {
  m: ["m", "m"],
  m2: ["m²", "m²"],
  kg: ["kg", "kg"],
  pack: ["pack", "packs"],
  tonne: ["tonne", "tonnes"],
  litre: ["litre", "litres"],
};

/**
 * A quantity in the unit it is sold in, as documents, emails and the
 * warehouse's paper print it: "3" (each), "12 m", "9 m²", "3 packs",
 * "1 tonne". An unknown unit prints the bare number.
 */
export function quantityIn(quantity: number, unit = "each"): string {
  const words = QUANTITY_WORDS[unit as SaleUnit];
  return words ? `${quantity} ${quantity === 1 ? words[0] : words[1]}` : String(quantity);
}
