// The header row of a small table in a form or a panel.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HeadRow } from "./head-row.tsx";

describe("HeadRow", () => {
  it("names each column in a column header with its own classes, in order", () => {
    const html = renderToStaticMarkup(
      <table>
        <thead>
          <HeadRow className="text-left" cells={[["SKU", "pb-1 font-semibold"], [<span key="n">Count</span>, "w-32 pb-1 pl-2"], ["Note"]]} />
        </thead>
      </table>,
    );
    expect(html).toBe('<table><thead><tr class="text-left"><th scope="col" class="pb-1 font-semibold">SKU</th><th scope="col" class="w-32 pb-1 pl-2"><span>Count</span></th><th scope="col">Note</th></tr></thead></table>');
  });
});
