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

describe("compare rows with variants", () => {
  const stud: ComparedProduct = {
    ...drill(3, 4.19, [["Grade", "C16"]]),
    name: "CLS stud",
    sku: "CLS",
    stock: 239,
    variants: [
      { id: 31, sku: "CLS", options: { Length: "2.4 m" }, price: 4.19, price_ex_vat: 3.49, stock: 140, in_stock: true },
      { id: 32, sku: "CLS-30M", options: { Length: "3.0 m" }, price: 5.24, price_ex_vat: 4.37, stock: 0, in_stock: false },
      { id: 33, sku: "CLS-48M", options: { Length: "4.8 m" }, price: 8.38, price_ex_vat: 6.98, stock: 99, in_stock: true },
    ],
  };
  const plain = drill(4, 12, [["Grade", "C24"]]);
  const value = (rows: ReturnType<typeof compareRows>, label: string) => rows.find((r) => r.label === label)!.values;

  it("shows a product's range when no variant is chosen, with how many are in stock", () => {
    const rows = compareRows([stud, plain], ["Grade"]);
    expect(rows.map((r) => r.label)).toEqual(["Variant", "Price inc VAT", "Price ex VAT", "Stock", "Brand", "Grade"]);
    expect(value(rows, "Variant")).toEqual(["Any of 3", "—"]);
    expect(value(rows, "Price inc VAT")).toEqual(["£4.19 – £8.38", "£12.00"]);
    expect(value(rows, "Price ex VAT")).toEqual(["£3.49 – £6.98", "£10.00"]);
    expect(value(rows, "Stock")).toEqual(["2 of 3 in stock", "In stock (5)"]);
  });

  it("shows the chosen variant's own figures, and the range again for a SKU that is not one of its variants", () => {
    const rows = compareRows([stud, plain], ["Grade"], new Map([[3, "CLS-30M"]]));
    expect(value(rows, "Variant")).toEqual(["3.0 m", "—"]);
    expect(value(rows, "Price inc VAT")).toEqual(["£5.24", "£12.00"]);
    expect(value(rows, "Stock")).toEqual(["Out of stock", "In stock (5)"]);
    expect(value(compareRows([stud], [], new Map([[3, "NOPE"]])), "Price inc VAT")).toEqual(["£4.19 – £8.38"]);
  });

  it("has no variant row when no product has several", () => {
    expect(compareRows([plain], []).map((r) => r.label)).not.toContain("Variant");
  });
});
