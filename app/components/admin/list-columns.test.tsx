// The columns many back-office lists share: the row's link, its photo, the bulk action's box.
import { describe, expect, it } from "vitest";
import { photoColumn, linkColumn, useChooseColumn } from "./list-columns.tsx";
import { renderAt } from "./render-for-test.tsx";
import { DataTable } from "./table-or-cards.tsx";

type Item = { sku: string; name: string; photo: string | null };
const rows: Item[] = [
  { sku: "D-1", name: "Drill", photo: "/img/drill.webp" },
  { sku: "S-2", name: "Saw", photo: null },
];

describe("linkColumn", () => {
  it("names each row by a link to its own screen, as the row's header", () => {
    const html = renderAt("/admin/products", <DataTable columns={[linkColumn<Item>("Product", (i) => `/admin/products/${i.sku}`, (i) => i.name, { sort: "ascending", linkClassName: "min-w-0" })]} rows={rows} rowKey={(i) => i.sku} />);
    expect(html).toContain('<th scope="col" class="px-3 py-2 " aria-sort="ascending">Product</th>');
    expect(html).toMatch(/<th scope="row" class="[^"]*" data-label="Product"><a [^>]*href="\/admin\/products\/D-1"[^>]*>Drill<\/a><\/th>/);
    expect(html).toMatch(/<a class="link font-semibold min-w-0" [^>]*>Saw<\/a>/);
  });
});

describe("photoColumn", () => {
  it("shows each row's photo, a dashed square where there is none, and names the column for screen readers only", () => {
    const html = renderAt("/admin/hire/items", <DataTable columns={[photoColumn<Item>((i) => i.photo, { hideOnCards: true, noPhotoTitle: "No photo" })]} rows={rows} rowKey={(i) => i.sku} />);
    expect(html).toContain('<span class="sr-only">Photo</span>');
    expect(html).toMatch(/<img src="\/img\/drill.webp" alt="" width="40" height="40" loading="lazy"/);
    expect(html).toContain('<span class="block size-10 rounded border border-dashed border-stone-300" title="No photo"></span>');
    expect(html.match(/max-lg:hidden/g)).toHaveLength(2);
  });
});

describe("useChooseColumn", () => {
  function Chosen() {
    const choose = useChooseColumn<Item>({ name: "sku", value: (i) => i.sku, rowLabel: (i) => `Choose ${i.name}`, everyLabel: "Choose every product on this page" });
    return <DataTable tableRef={choose.tableRef} columns={[choose.column]} rows={rows} rowKey={(i) => i.sku} />;
  }

  it("gives each row a box posting its value, and the header a box for every row", () => {
    const html = renderAt("/admin/products", <Chosen />);
    expect(html).toContain('<input type="checkbox" aria-label="Choose every product on this page" class="size-4"/>');
    expect(html).toContain('<input type="checkbox" aria-label="Choose Saw" class="size-4" name="sku" value="S-2"/>');
  });
});
