// The status tabs with their counts.
import { describe, expect, it } from "vitest";
import { renderAt } from "./render-for-test.tsx";
import { StatusTabs, countedTabs } from "./status-tabs.tsx";

describe("StatusTabs", () => {
  const tabs = countedTabs(["paid", "cancelled"] as const, { paid: "Paid", cancelled: "Cancelled" }, { paid: 3 });

  it("counts every tab, All the sum", () => {
    expect(tabs).toEqual([["", "All", 3], ["paid", "Paid", 3], ["cancelled", "Cancelled", 0]]);
  });

  it("links each tab keeping the other filters, from the first page, the current one marked", () => {
    const html = renderAt("/admin/orders?q=drill&status=paid&cursor=40", <StatusTabs label="Orders by status" tabs={tabs} current="paid" search={new URLSearchParams("q=drill&status=paid&cursor=40")} />);
    expect(html).toMatch(/<nav aria-label="Orders by status"/);
    expect(html).toMatch(/<a [^>]*href="\/admin\/orders\?q=drill"[^>]*>All <span[^>]*>3<\/span><\/a>/);
    expect(html).toMatch(/<a aria-current="page"[^>]*href="\/admin\/orders\?q=drill&amp;status=paid"[^>]*>Paid <span[^>]*>3<\/span>/);
    expect(html).toMatch(/href="\/admin\/orders\?q=drill&amp;status=cancelled"[^>]*>Cancelled <span[^>]*>0<\/span>/);
  });

  it("filters by another parameter when told", () => {
    const html = renderAt("/admin/hire/desk", <StatusTabs label="Units" tabs={[["out", "Out"]]} current="" search={new URLSearchParams()} param="view" />);
    expect(html).toContain('href="/admin/hire/desk?view=out"');
  });
});
