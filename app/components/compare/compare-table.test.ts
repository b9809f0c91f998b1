import { describe, expect, it } from "vitest";
import { allEqual, compareRows, type ComparedProduct } from "./compare-table.tsx";

const drill = (id: number, price: number, attributes: [string, string][]): ComparedProduct => ({
  id,
  slug: `drill-${id}`,
  name: `Drill ${id}`,
  sku: `D-${id}`,
  price,
  price_ex_vat: price / 1.2,
  stock: id === 2 ? 0 : 5,
  in_stock: id !== 2,
  manufacturer: { name: "Makita" },
  image: null,
  attributes: attributes.map(([name, value]) => ({ name, value })),
});

describe("compare rows", () => {
  const products = [
    drill(1, 120, [["Voltage", "18V"], ["Chuck size", "13mm"]]),
    drill(2, 96, [["Voltage", "18V"]]),
  ];
  const rows = compareRows(products, ["Chuck size", "Voltage"]);

  it("shows prices with and without VAT, stock and brand, then one row per attribute name", () => {
    expect(rows.map((r) => r.label)).toEqual(["Price inc VAT", "Price ex VAT", "Stock", "Brand", "Chuck size", "Voltage"]);
    expect(rows[0]!.values).toEqual(["£120.00", "£96.00"]);
    expect(rows[2]!.values).toEqual(["In stock (5)", "Out of stock"]);
  });

  it("puts a dash where a product does not state an attribute", () => {
    expect(rows.find((r) => r.label === "Chuck size")!.values).toEqual(["13mm", "—"]);
  });

  it("finds the rows whose values are all the same", () => {
    expect(rows.filter((r) => allEqual(r.values)).map((r) => r.label)).toEqual(["Brand", "Voltage"]);
  });
});
