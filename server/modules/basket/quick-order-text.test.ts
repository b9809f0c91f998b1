import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { QUICK_ORDER_MAX_LINES, cellsOf, parseQuickOrder } from "./quick-order-text.ts";

/** The lines as [sku, quantity], when the text parsed. */
function pairs(text: string) {
  const result = parseQuickOrder(text);
  if (!result.ok) throw new Error(result.message);
  return result.lines.map((l) => [l.sku, l.quantity]);
}

describe("parseQuickOrder", () => {
  it("reads a spreadsheet's two columns pasted as they are (tab separated)", () => {
    expect(pairs("TCL-CLS3863-24\t12\nSCR-4X40\t3\n")).toEqual([
      ["TCL-CLS3863-24", 12],
      ["SCR-4X40", 3],
    ]);
  });

  it("reads commas, semicolons and spaces, one line to the next", () => {
    expect(pairs("A-1,2\nB-2;3\nC-3 4\nD-4    5\nE-5 , 6")).toEqual([
      ["A-1", 2],
      ["B-2", 3],
      ["C-3", 4],
      ["D-4", 5],
      ["E-5", 6],
    ]);
  });

  it("skips a first line of headings, and only the first", () => {
    const result = parseQuickOrder("SKU,Qty\nA-1,2\nSKU,Qty");
    expect(result).toMatchObject({ ok: true, header: true });
    expect(pairs("SKU,Qty\nA-1,2")).toEqual([["A-1", 2]]);
    expect(pairs("Product code\tQuantity\r\nA-1\t2")).toEqual([["A-1", 2]]);
    expect(pairs("sku\nA-1")).toEqual([["A-1", 1]]);
    // A heading later on is a line like any other, for the server to refuse as an unknown SKU.
    expect(pairs("A-1,2\nSKU,Qty")).toEqual([
      ["A-1", 2],
      ["SKU", "Qty"],
    ]);
    // A first line whose quantity is a number is a product, even when its SKU reads like a heading.
    expect(pairs("CODE 5")).toEqual([["CODE", 5]]);
  });

  it("ignores blank lines and keeps each line's own number in the text", () => {
    const result = parseQuickOrder("\n\nA-1 2\n   \n\t\nB-2 3\n");
    expect(result.ok && result.lines.map((l) => [l.row, l.sku, l.text])).toEqual([
      [3, "A-1", "A-1 2"],
      [6, "B-2", "B-2 3"],
    ]);
  });

  it("takes Windows and old Mac line endings, and a byte order mark", () => {
    expect(pairs("\ufeffA-1,2\r\nB-2,3\rC-3,4")).toEqual([
      ["A-1", 2],
      ["B-2", 3],
      ["C-3", 4],
    ]);
  });

  it("takes a missing quantity as 1", () => {
    expect(pairs("A-1\nB-2,\nC-3\t")).toEqual([
      ["A-1", 1],
      ["B-2", 1],
      ["C-3", 1],
    ]);
  });

  it("reads quoted CSV cells: commas and doubled quotes inside, spaces around", () => {
    expect(pairs('"A,1","2"\n"B ""X""", 3\n "C-3" ; "4"')).toEqual([
      ["A,1", 2],
      ['B "X"', 3],
      ["C-3", 4],
    ]);
    // A quote inside a cell is part of it; one left open runs to the end of its line only.
    expect(pairs('TILE-12",4\n"OPEN,5\nB-2,1')).toEqual([
      ['TILE-12"', 4],
      ["OPEN,5", 1],
      ["B-2", 1],
    ]);
  });

  it("splits quoted comma-separated lines as csv-parse does", () => {
    const lines = ['"A,1",2', '"B ""2""",3,extra', "C-3,4", '"",5', 'D,""'];
    for (const line of lines) expect(cellsOf(line), line).toEqual((parse(line, { relax_quotes: true, trim: true }) as string[][])[0]);
  });

  it("ignores columns past the second", () => {
    expect(pairs("A-1\t2\tCLS timber 2.4 m\nB-2,3,Screws")).toEqual([
      ["A-1", 2],
      ["B-2", 3],
    ]);
  });

  it("keeps a quantity that is not a whole number as typed, for the server to refuse by name", () => {
    expect(pairs("A-1,two\nB-2,1.5\nC-3,-1\nD-4,0\nE-5,1e3")).toEqual([
      ["A-1", "two"],
      ["B-2", "1.5"],
      ["C-3", "-1"],
      ["D-4", 0],
      ["E-5", "1e3"],
    ]);
  });

  it("keeps a line with a quantity and no SKU, for the server to ask for one", () => {
    expect(pairs(",5\nA-1,2")).toEqual([
      ["", 5],
      ["A-1", 2],
    ]);
    expect(pairs(",\n ; ")).toEqual([]);
  });

  it(`takes up to ${QUICK_ORDER_MAX_LINES} lines and refuses more with a message that says how many`, () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `SKU-${i},1`).join("\n");
    const most = parseQuickOrder(`SKU,Qty\n${lines(QUICK_ORDER_MAX_LINES)}\n\n`);
    expect(most.ok && most.lines).toHaveLength(QUICK_ORDER_MAX_LINES);
    const over = parseQuickOrder(lines(QUICK_ORDER_MAX_LINES + 234));
    expect(over).toEqual({
      ok: false,
      message: "That is 1,234 lines: a quick order takes at most 1,000 lines at a time. Add the first 1,000, then the rest.",
      lines: [],
    });
  });
});
