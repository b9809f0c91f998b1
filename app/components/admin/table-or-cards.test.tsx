// The table that becomes cards on a phone, from column definitions.
import { describe, expect, it } from "vitest";
import { renderAt } from "./render-for-test.tsx";
import { type DataColumn, DataTable } from "./table-or-cards.tsx";

type Line = { sku: string; name: string; stock: number };
const columns: (DataColumn<Line> | false)[] = [
  { label: "Product", head: true, cell: (l) => l.name },
  { label: "SKU", cell: (l) => <span className="font-mono">{l.sku}</span> },
  false,
  { label: "Stock", numeric: true, cell: (l) => l.stock },
];

describe("DataTable", () => {
  const html = renderAt(
    "/admin/stock",
    <DataTable caption="Stock by product" columns={columns} rows={[{ sku: "D-1", name: "Drill", stock: 4 }, { sku: "S-2", name: "Saw", stock: 0 }]} rowKey={(l) => l.sku} rowProps={(l) => ({ className: l.stock === 0 ? "bg-stone-100" : undefined, "data-testid": "stock-row" })} />,
  );

  it("has a caption and a header row of the columns it shows", () => {
    expect(html).toContain('<caption class="sr-only">Stock by product</caption>');
    expect(html.match(/<th scope="col"/g)).toHaveLength(3);
  });

  it("names each card's cell by its column, the row's own name as a row header", () => {
    expect(html).toMatch(/<th scope="row" class="[^"]*" data-label="Product">Drill<\/th>/);
    expect(html).toMatch(/<td class="[^"]*" data-label="SKU"><span class="font-mono">D-1<\/span><\/td>/);
    expect(html.match(/data-label="Stock"/g)).toHaveLength(2);
  });

  it("aligns a numeric column right on a desktop, and takes each row's own classes", () => {
    expect(html).toMatch(/<td class="[^"]*lg:text-right[^"]*" data-label="Stock">4<\/td>/);
    expect(html).toMatch(/<tr class="[^"]*bg-stone-100"[^>]*data-testid="stock-row"/);
  });
});

describe("DataTable's totals", () => {
  it("ends with a row of totals named by its first cell, each under its column", () => {
    const html = renderAt("/admin/trade/aged-debt", <DataTable columns={columns} rows={[{ sku: "D-1", name: "Drill", stock: 4 }]} rowKey={(l) => l.sku} totals={{ Product: "Total", Stock: 4 }} />);
    expect(html).toMatch(/<tfoot[^>]*><tr[^>]*><th scope="row" class="[^"]*" data-label="">Total<\/th><td class="[^"]*" data-label="SKU"><\/td><td class="[^"]*lg:text-right[^"]*" data-label="Stock">4<\/td><\/tr><\/tfoot>/);
  });
});

describe("DataTable's frame", () => {
  it("gives the table a test id, a caption shown when asked, and each cell its row's place", () => {
    const html = renderAt(
      "/admin/stock",
      <DataTable
        caption={<>Stock of <span className="font-mono">D-1</span></>}
        captionClassName="font-semibold"
        testId="stock-levels"
        columns={[{ label: "Row", cell: (l: Line, i) => `Row ${i + 1}: ${l.name}` }]}
        rows={[{ sku: "D-1", name: "Drill", stock: 4 }, { sku: "D-1", name: "Drill again", stock: 1 }]}
        rowKey={(_, i) => i}
      />,
    );
    expect(html).toContain('<table class="w-full text-left text-sm max-lg:block" data-testid="stock-levels">');
    expect(html).toContain('<caption class="font-semibold">Stock of <span class="font-mono">D-1</span></caption>');
    expect(html).toContain(">Row 2: Drill again</td>");
  });
});

describe("DataTable's empty state", () => {
  it("stands in for the table when there are no rows, and only then", () => {
    const empty = <p>No stock to show.</p>;
    const none = renderAt("/admin/stock", <DataTable columns={columns} rows={[]} rowKey={(l) => l.sku} empty={empty} />);
    expect(none).toBe("<p>No stock to show.</p>");
    const some = renderAt("/admin/stock", <DataTable columns={columns} rows={[{ sku: "D-1", name: "Drill", stock: 4 }]} rowKey={(l) => l.sku} empty={empty} />);
    expect(some).toContain("<table");
    expect(some).not.toContain("No stock to show.");
  });
});
