// The plain rules of units: the coverage calculator's arithmetic and how a
// quantity is printed in the unit it is sold in.
import { describe, expect, it } from "vitest";
import { pricePerCoverage, quantityIn, unitsToCover } from "./units.ts";

describe("unitsToCover", () => {
  it("rounds up to whole units, with the waste on top", () => {
    // 12.5 m² of tiles at 1.44 m² a pack: 8.68 packs, so 9; with 10% waste 13.75 m², 9.55, so 10.
    expect(unitsToCover(12.5, 1.44)).toBe(9);
    expect(unitsToCover(12.5, 1.44, 10)).toBe(10);
    expect(unitsToCover(20, 2.5)).toBe(8);
    expect(unitsToCover(20.01, 2.5)).toBe(9);
  });

  it("takes an exact fit as exact, whatever the floating point says", () => {
    // 12.96 / 1.44 is 9.000000000000002 in binary floating point.
    expect(12.96 / 1.44).toBeGreaterThan(9);
    expect(unitsToCover(12.96, 1.44)).toBe(9);
    expect(unitsToCover(4.8, 2.4)).toBe(2);
  });

  it("never answers below one unit, even for nothing, a negative or a nonsense figure", () => {
    expect(unitsToCover(0.01, 1.44)).toBe(1);
    expect(unitsToCover(0, 1.44)).toBe(1);
    expect(unitsToCover(-5, 1.44)).toBe(1);
    expect(unitsToCover(Number.NaN, 1.44)).toBe(1);
    expect(unitsToCover(10, 0)).toBe(1);
    expect(unitsToCover(10, 1, -50)).toBe(10);
  });

  it("prices a coverage unit from a unit's price, half-up to the penny", () => {
    // £18.99 a pack of 1.44 m²: £13.1875 → £13.19 per m².
    expect(pricePerCoverage(1899, 1.44)).toBe(1319);
    expect(pricePerCoverage(1000, 3)).toBe(333);
  });
});

describe("quantityIn", () => {
  it("prints a quantity in the unit it is sold in, plural where English has one", () => {
    expect([quantityIn(3, "each"), quantityIn(12, "m"), quantityIn(9, "m2"), quantityIn(1, "pack"), quantityIn(3, "pack"), quantityIn(2, "kg"), quantityIn(1, "tonne"), quantityIn(2, "tonne"), quantityIn(1, "litre"), quantityIn(5, "litre")]).toEqual([
      "3",
      "12 m",
      "9 m²",
      "1 pack",
      "3 packs",
      "2 kg",
      "1 tonne",
      "2 tonnes",
      "1 litre",
      "5 litres",
    ]);
    expect(quantityIn(4, "furlong")).toBe("4");
  });
});
