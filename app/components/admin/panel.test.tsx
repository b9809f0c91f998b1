// A titled box: its heading names the section; with `empty`, the line said when its list has nothing.
import { describe, expect, it } from "vitest";
import { Panel } from "./panel.tsx";
import { renderAt } from "./render-for-test.tsx";

describe("Panel", () => {
  it("is a section named by its heading, with its content", () => {
    const html = renderAt("/admin/x", <Panel id="payments-heading" title="Payments" empty={false}><ul><li>PAY-1</li></ul></Panel>);
    expect(html).toMatch(/<section aria-labelledby="payments-heading"[^>]*><h2 id="payments-heading"[^>]*>Payments<\/h2><ul><li>PAY-1<\/li><\/ul><\/section>/);
  });

  it("says its empty line instead of the content when given one", () => {
    const html = renderAt("/admin/x", <Panel id="payments-heading" title="Payments" empty="No payments yet."><ul /></Panel>);
    expect(html).toContain('<p class="text-sm text-stone-600">No payments yet.</p>');
    expect(html).not.toContain("<ul");
  });
});
