// Figures side by side: each a name over its value.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FactsRow } from "./facts-row.tsx";

describe("FactsRow", () => {
  it("lists each figure's name over its value, in the grid it is given", () => {
    const html = renderToStaticMarkup(<FactsRow className="mt-3 grid-cols-2 gap-2" items={[["Hire (ex VAT)", "£40.00"], ["VAT", "£8.00"]]} />);
    expect(html).toBe('<dl class="grid text-sm mt-3 grid-cols-2 gap-2"><div><dt class="text-stone-600">Hire (ex VAT)</dt><dd class="font-semibold">£40.00</dd></div><div><dt class="text-stone-600">VAT</dt><dd class="font-semibold">£8.00</dd></div></dl>');
  });
});
