import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { priceLines } from "../pricing/pipeline.ts";
import { RETAIL } from "../trade/pricing.ts";
import { type PromotionRule, type RuleLine, WHOLE_BASKET, apportion, discountsFor, reaches } from "./rules.ts";

const rule = (over: Partial<PromotionRule>): PromotionRule => ({
  id: 1,
  code: "SAVE",
  name: "Save",
  kind: "percent",
  value: 1000,
  buy: null,
  multiBuy: null,
  minSpendPence: 0,
  appliesTo: WHOLE_BASKET,
  audience: "all",
  stackable: false,
  ...over,
});
const line = (over: Partial<RuleLine>): RuleLine => ({ productId: 1, categoryIds: [], brandId: null, quantity: 1, unitPence: 1000, ...over });

describe("apportion", () => {
  it("shares in proportion, the leftover pennies on the largest line (the first of equals)", () => {
    expect(apportion(100, [1000, 1000, 1000])).toEqual([34, 33, 33]);
    expect(apportion(100, [500, 2000, 500])).toEqual([16, 68, 16]);
    expect(apportion(10, [333, 667])).toEqual([3, 7]);
    expect(apportion(1, [200, 300, 300])).toEqual([0, 1, 0]);
  });

  it("never gives a line more than it holds, nor more than the lines hold together", () => {
    expect(apportion(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(apportion(500, [100, 50])).toEqual([100, 50]);
    expect(apportion(5, [0, 0])).toEqual([0, 0]);
  });

  it("always adds up to the amount, to the penny, with no share negative or over its line", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 50_000_000 }), (weights, total) => {
        const shares = apportion(total, weights);
        const whole = weights.reduce((a, b) => a + b, 0);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(Math.min(total, whole));
        shares.forEach((s, i) => {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(weights[i]!);
          expect(Number.isInteger(s)).toBe(true);
        });
      }),
    );
  });
});

describe("which lines a promotion reaches", () => {
  it("the whole basket, or products, categories (with their subcategories' products) or brands named", () => {
    const drill = { productId: 7, categoryIds: [3, 12], brandId: 4 };
    expect(reaches(WHOLE_BASKET, drill)).toBe(true);
    expect(reaches({ product_ids: [7], category_ids: [], brand_ids: [] }, drill)).toBe(true);
    expect(reaches({ product_ids: [], category_ids: [3], brand_ids: [] }, drill)).toBe(true);
    expect(reaches({ product_ids: [], category_ids: [], brand_ids: [4] }, drill)).toBe(true);
    expect(reaches({ product_ids: [8], category_ids: [5], brand_ids: [9] }, drill)).toBe(false);
    expect(reaches({ product_ids: [], category_ids: [], brand_ids: [4] }, { ...drill, brandId: null })).toBe(false);
  });
});

describe("codes", () => {
  it("a percentage off the lines it reaches, shared out over them", () => {
    const lines = [line({ productId: 1, unitPence: 1999, quantity: 3 }), line({ productId: 2, unitPence: 500 }), line({ productId: 3, unitPence: 1000 })];
    const d = discountsFor(lines, [rule({ value: 1000, appliesTo: { product_ids: [1, 2], category_ids: [], brand_ids: [] } })], false);
    // 10% of 5997 + 500 = 649.7 → 650, shared 5997 : 500.
    expect(d.perLine).toEqual([600, 50, 0]);
    expect(d.applied[0]).toMatchObject({ amount: 650, lines: [0, 1] });
  });

  it("a fixed amount off, never more than the lines it reaches", () => {
    expect(discountsFor([line({ unitPence: 1500 })], [rule({ kind: "amount", value: 500 })], false).perLine).toEqual([500]);
    expect(discountsFor([line({ unitPence: 300 })], [rule({ kind: "amount", value: 500 })], false).perLine).toEqual([300]);
  });

  it("a minimum spend on what it reaches, saying how much more is needed", () => {
    const d = discountsFor([line({ unitPence: 4000 })], [rule({ kind: "amount", value: 500, minSpendPence: 5000 })], false);
    expect(d.perLine).toEqual([0]);
    expect(d.applied[0]!.notApplying).toEqual({ reason: "min_spend", shortPence: 1000 });
  });

  it("free delivery takes nothing off the goods", () => {
    const d = discountsFor([line({})], [rule({ kind: "free_delivery", value: 0 })], false);
    expect(d).toMatchObject({ perLine: [0], freeDelivery: true });
    expect(discountsFor([line({})], [rule({ kind: "free_delivery", minSpendPence: 5000 })], false).freeDelivery).toBe(false);
  });

  it("consumers' codes are not trade members', and trade codes not consumers'", () => {
    expect(discountsFor([line({})], [rule({ audience: "trade" })], false).applied[0]!.notApplying).toEqual({ reason: "audience" });
    expect(discountsFor([line({})], [rule({ audience: "consumer" })], true).applied[0]!.notApplying).toEqual({ reason: "audience" });
    expect(discountsFor([line({})], [rule({ audience: "trade" })], true).perLine).toEqual([100]);
  });

  it("a code nothing in the basket qualifies for says so", () => {
    const d = discountsFor([line({ brandId: 2 })], [rule({ appliesTo: { product_ids: [], category_ids: [], brand_ids: [9] } })], false);
    expect(d.applied[0]!.notApplying).toEqual({ reason: "no_lines" });
  });
});

describe("multi-buys", () => {
  const threeForTwo = rule({ id: 5, code: null, kind: "multi_buy", multiBuy: "free", buy: 3, value: 1 });

  it("3 for 2: in each group of three, dearest first, the cheapest is free", () => {
    const lines = [line({ productId: 1, unitPence: 1000, quantity: 2 }), line({ productId: 2, unitPence: 400, quantity: 2 })];
    // Units 1000, 1000, 400 | 400: one full group, its 400 free; the last unit pays.
    expect(discountsFor(lines, [threeForTwo], false).perLine).toEqual([0, 400]);
    expect(discountsFor([line({ unitPence: 700, quantity: 7 })], [threeForTwo], false).perLine).toEqual([1400]);
    expect(discountsFor([line({ quantity: 2 })], [threeForTwo], false).perLine).toEqual([0]);
  });

  it("buy 2 or more, 10% off them", () => {
    const tenOff = rule({ code: null, kind: "multi_buy", multiBuy: "percent", buy: 2, value: 1000 });
    expect(discountsFor([line({ unitPence: 999, quantity: 2 })], [tenOff], false).perLine).toEqual([200]);
    expect(discountsFor([line({ unitPence: 999, quantity: 1 })], [tenOff], false).perLine).toEqual([0]);
  });

  it("any 3 for a bundle price, the saving shared over the group's units", () => {
    const bundle = rule({ code: null, kind: "multi_buy", multiBuy: "price", buy: 3, value: 2500 });
    const lines = [line({ productId: 1, unitPence: 1200 }), line({ productId: 2, unitPence: 1000, quantity: 2 })];
    // 1200 + 1000 + 1000 = 3200 for 2500: 700 off, shared 262 + 218 + 218 and the 2p left on the dearest unit.
    expect(discountsFor(lines, [bundle], false).perLine).toEqual([264, 436]);
    // Never a rise: a group already cheaper than the bundle price stays as it is.
    expect(discountsFor([line({ unitPence: 500, quantity: 3 })], [bundle], false).perLine).toEqual([0]);
  });

  it("a line takes one multi-buy; a code then works on what is left", () => {
    const other = rule({ id: 6, code: null, kind: "multi_buy", multiBuy: "percent", buy: 1, value: 5000 });
    const d = discountsFor([line({ unitPence: 1000, quantity: 3 })], [threeForTwo, other, rule({ value: 1000 })], false);
    // 3 for 2 takes 1000; the half-price multi-buy cannot take the same line; 10% of the 2000 left is 200.
    expect(d.perLine).toEqual([1200]);
    expect(d.applied.map((a) => [a.promotion.id, a.amount])).toEqual([
      [5, 1000],
      [1, 200],
    ]);
  });
});

describe("the pipeline: trade price, promotions, then VAT per line on the discounted value", () => {
  it("works VAT on each line's net after its discount", () => {
    const priced = priceLines(
      [
        { productId: 1, categoryIds: [], brandId: null, quantity: 3, listPence: 1999, vatRate: 20 },
        { productId: 2, categoryIds: [], brandId: null, quantity: 1, listPence: 500, vatRate: 0 },
      ],
      RETAIL,
      [rule({ value: 1000 })],
    );
    expect(priced.lines.map((l) => [l.grossPence, l.discountPence, l.netPence, l.vatPence])).toEqual([
      [5997, 600, 5397, 1079],
      [500, 50, 450, 0],
    ]);
    expect(priced).toMatchObject({ grossPence: 6497, discountPence: 650, netPence: 5847, vatPence: 1079 });
  });

  it("applies the trade discount before promotions", () => {
    const priced = priceLines([{ productId: 1, categoryIds: [], brandId: null, quantity: 1, listPence: 1000, vatRate: 20 }], { discountBasisPoints: 1000, trade: true }, [rule({ value: 1000 })]);
    expect(priced.lines[0]).toMatchObject({ unitPence: 900, discountPence: 90, netPence: 810, vatPence: 162 });
  });

  it("for any basket and promotions: totals are the sum of the lines, nothing negative, VAT to the penny on each net", () => {
    const lines = fc.array(
      fc.record({
        productId: fc.integer({ min: 1, max: 6 }),
        categoryIds: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 2 }),
        brandId: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
        quantity: fc.integer({ min: 1, max: 50 }),
        listPence: fc.integer({ min: 1, max: 500_000 }),
        vatRate: fc.constantFrom(0, 5, 20),
      }),
      { minLength: 1, maxLength: 12 },
    );
    const appliesTo = fc.record({
      product_ids: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 2 }),
      category_ids: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 1 }),
      brand_ids: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 1 }),
    });
    const promotion = fc.oneof(
      fc.record({ kind: fc.constant("percent" as const), value: fc.integer({ min: 1, max: 10_000 }), appliesTo, minSpendPence: fc.integer({ min: 0, max: 100_000 }) }),
      fc.record({ kind: fc.constant("amount" as const), value: fc.integer({ min: 1, max: 2_000_000 }), appliesTo, minSpendPence: fc.integer({ min: 0, max: 100_000 }) }),
      fc.record({ kind: fc.constant("free_delivery" as const), value: fc.constant(0), appliesTo, minSpendPence: fc.integer({ min: 0, max: 100_000 }) }),
      fc.record({
        kind: fc.constant("multi_buy" as const),
        code: fc.constant(null),
        multiBuy: fc.constantFrom("free" as const, "percent" as const, "price" as const),
        buy: fc.integer({ min: 2, max: 5 }),
        value: fc.integer({ min: 1, max: 5_000 }),
        appliesTo,
      }),
    );
    fc.assert(
      fc.property(lines, fc.array(promotion, { maxLength: 4 }), fc.boolean(), (basket, promos, trade) => {
        const rules = promos.map((p, i) => rule({ id: i + 1, ...p, value: p.kind === "multi_buy" && p.multiBuy === "free" ? Math.min(p.value, p.buy - 1) : p.value }));
        const priced = priceLines(basket, trade ? { discountBasisPoints: 500, trade } : RETAIL, rules);
        const add = (pick: (l: (typeof priced.lines)[number]) => number) => priced.lines.reduce((n, l) => n + pick(l), 0);
        expect(priced.grossPence).toBe(add((l) => l.grossPence));
        expect(priced.discountPence).toBe(add((l) => l.discountPence));
        expect(priced.netPence).toBe(add((l) => l.netPence));
        expect(priced.vatPence).toBe(add((l) => l.vatPence));
        expect(priced.discountPence).toBe(priced.applied.reduce((n, a) => n + a.amount, 0));
        priced.lines.forEach((l, i) => {
          expect(l.discountPence).toBeGreaterThanOrEqual(0);
          expect(l.netPence).toBeGreaterThanOrEqual(0);
          expect(l.netPence).toBe(l.grossPence - l.discountPence);
          // Half-up to the penny on the line's own net.
          expect(l.vatPence).toBe(Math.floor((l.netPence * basket[i]!.vatRate + 50) / 100));
        });
      }),
      { numRuns: 300 },
    );
  });
});
