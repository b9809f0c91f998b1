// The plain rules of variants: barcodes' check digits, the combinations the
// options editor makes, their generated SKUs and how a line is named.
import { describe, expect, it } from "vitest";
import { combinations, validGtin, variantSku } from "./variant-rules.ts";
import { lineName, optionsLabel } from "./variant-names.ts";

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
