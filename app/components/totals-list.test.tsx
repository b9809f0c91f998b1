// A basket's, an order's or a quote's totals.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TOTAL_ROW, TotalsList } from "./totals-list.tsx";

describe("TotalsList", () => {
  it("lists each row's name with its amount at the right, the rows' own classes after the shared ones", () => {
    const html = renderToStaticMarkup(<TotalsList className="mt-3 grid gap-1.5" testId="order-totals" rows={[["VAT", "£8.00"], ["Total", "£48.00", TOTAL_ROW]]} />);
    expect(html).toBe(
      '<dl class="mt-3 grid gap-1.5" data-testid="order-totals"><div class="flex justify-between gap-4 "><dt>VAT</dt><dd class="text-right">£8.00</dd></div><div class="flex justify-between gap-4 mt-1 border-t border-stone-300 pt-2 text-lg font-bold"><dt>Total</dt><dd class="text-right">£48.00</dd></div></dl>',
    );
  });
});
