// The plain rules of units and variants: the coverage calculator's arithmetic,
// barcodes' check digits, and the combinations the options editor makes.
import { describe, expect, it } from "vitest";
import { pricePerCoverage, quantityIn, unitsToCover } from "./units.ts";
import { combinations, validGtin, variantSku } from "../variants/variant-rules.ts";
import { lineName, optionsLabel } from "../variants/variant-names.ts";

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

describe("validGtin", () => {
  it("takes EAN-8, UPC-A, EAN-13 and GTIN-14 codes with the right check digit", () => {
    for (const code of ["96385074", "036000291452", "5012345678900", "4006381333931", "10012345678902"]) expect(validGtin(code), code).toBe(true);
  });

  it("refuses a wrong check digit, a wrong length and anything not digits", () => {
    for (const code of ["5012345678901", "4006381333932", "123", "50123456789001234", "50123456789OO", ""]) expect(validGtin(code), code).toBe(false);
  });
});

describe("combinations and generated SKUs", () => {
  it("makes every combination of the options' values in the picker's order", () => {
    expect(combinations([{ name: "Size", values: ["2.5 L", "5 L"] }, { name: "Colour", values: ["White", "Grey", "Black"] }])).toEqual([
      { Size: "2.5 L", Colour: "White" },
      { Size: "2.5 L", Colour: "Grey" },
      { Size: "2.5 L", Colour: "Black" },
      { Size: "5 L", Colour: "White" },
      { Size: "5 L", Colour: "Grey" },
      { Size: "5 L", Colour: "Black" },
    ]);
    expect(combinations([])).toEqual([{}]);
  });

  it("names a generated variant by the product's SKU and its values' letters and digits, at most 64 characters", () => {
    expect(variantSku("CLS-38X63", { Length: "3.0 m" })).toBe("CLS-38X63-30M");
    expect(variantSku("PAINT", { Size: "2.5 L", Colour: "Brilliant White" })).toBe("PAINT-25L-BRILLIANTWHITE");
    expect(variantSku("X".repeat(60), { Length: "4.8 m" })).toHaveLength(64);
  });

  it("names a line by its product and its option values", () => {
    expect(lineName("CLS stud 38 × 63 mm", { Length: "3.0 m" })).toBe("CLS stud 38 × 63 mm (3.0 m)");
    expect(lineName("Claw hammer", {})).toBe("Claw hammer");
    expect(optionsLabel({ Size: "5 L", Colour: "Grey" })).toBe("5 L, Grey");
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
