// The picker's rules: which variant a value leads to and how it is marked.
import { describe, expect, it } from "vitest";
import { type PickerVariant, stateNote, stateOf, variantBySku } from "./variants.ts";

const v = (id: number, Size: string, Colour: string, stock: number): PickerVariant => ({ id, sku: `P-${id}`, options: { Size, Colour }, stock, in_stock: stock > 0 });
// 2.5 L in White and Grey; 5 L in White only, out of stock.
const paint = [v(1, "2.5 L", "White", 4), v(2, "2.5 L", "Grey", 9), v(3, "5 L", "White", 0)];

describe("the variant picker's rules", () => {
  it("finds a variant by SKU in any case", () => {
    expect(variantBySku(paint, "p-2")?.id).toBe(2);
    expect(variantBySku(paint, "P-9")).toBeNull();
    expect(variantBySku(paint, null)).toBeNull();
  });

  it("marks the chosen value, an available one, and one out of stock", () => {
    const chosen = paint[0]!;
    expect(stateOf(paint, chosen, "Size", "2.5 L")).toEqual({ kind: "chosen", variant: chosen });
    expect(stateOf(paint, chosen, "Colour", "Grey")).toEqual({ kind: "available", variant: paint[1] });
    const five = stateOf(paint, chosen, "Size", "5 L");
    expect(five).toEqual({ kind: "out_of_stock", variant: paint[2] });
    expect(stateNote(five, chosen)).toBe("out of stock");
  });

  it("says when a value is not made with the others chosen, and leads to the nearest variant that has it", () => {
    const grey = paint[1]!;
    const five = stateOf(paint, grey, "Size", "5 L");
    expect(five).toEqual({ kind: "other_combination", variant: paint[2], changes: ["Colour"] });
    expect(stateNote(five, grey)).toBe("not made in Grey");
    expect(stateOf(paint, grey, "Colour", "Black")).toEqual({ kind: "none" });
  });

  it("with nothing chosen, leads each value to its first variant in stock", () => {
    expect(stateOf(paint, null, "Size", "2.5 L")).toEqual({ kind: "available", variant: paint[0] });
    expect(stateOf(paint, null, "Colour", "White")).toEqual({ kind: "available", variant: paint[0] });
  });
});
