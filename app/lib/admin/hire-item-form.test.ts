import { describe, expect, it } from "vitest";
import { EMPTY_HIRE_ITEM, hireItemInputFrom, hireItemValuesFrom } from "./hire-item-form.ts";

function form(entries: [string, string][]): FormData {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
}

describe("the hire item form", () => {
  it("reads the fields as the API names them: a blank slug left out, a blank SKU as none, specification rows paired and blanks dropped", () => {
    const input = hireItemInputFrom(
      form([
        ["name", "Mixer"],
        ["slug", ""],
        ["day_rate", "12.50"],
        ["hire_category_id", "3"],
        ["product_sku", " "],
        ["specifications_shown", "1"],
        ["specification_name", "Drum"],
        ["specification_value", "130 l"],
        ["specification_name", ""],
        ["specification_value", ""],
      ]),
    );
    expect(input).toEqual({ name: "Mixer", day_rate: "12.50", hire_category_id: "3", product_sku: null, specifications: [{ name: "Drum", value: "130 l" }] });
    expect(hireItemInputFrom(form([["hire_category_id", ""]])).hire_category_id).toBe("not chosen");
  });

  it("gives back what was typed after a refusal, and the item's own values for what was not sent", () => {
    const base = { ...EMPTY_HIRE_ITEM, name: "Old", week_rate: "70.00", product_sku: "SKU-1" };
    const values = hireItemValuesFrom({ name: "New", day_rate: "-3", hire_category_id: "not chosen", product_sku: null }, base);
    expect(values).toMatchObject({ name: "New", day_rate: "-3", week_rate: "70.00", hire_category_id: null, product_sku: "" });
  });
});
