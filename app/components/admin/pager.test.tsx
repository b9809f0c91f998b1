// The keyset pager: the first page and the next, keeping the list's filters.
import { describe, expect, it } from "vitest";
import { KeysetPager } from "./pager.tsx";
import { renderAt } from "./render-for-test.tsx";

describe("KeysetPager", () => {
  it("links the next page with its cursor and the first page without, each keeping the filters", () => {
    const search = new URLSearchParams("status=paid&q=drill&cursor=80");
    const html = renderAt("/admin/orders?status=paid&q=drill&cursor=80", <KeysetPager search={search} cursor="80" nextCursor="40" />);
    expect(html).toMatch(/<nav aria-label="Pages"/);
    expect(html).toMatch(/<a [^>]*href="\/admin\/orders\?status=paid&amp;q=drill"[^>]*>First page<\/a>/);
    expect(html).toMatch(/<a [^>]*href="\/admin\/orders\?status=paid&amp;q=drill&amp;cursor=40"[^>]*>Next page<\/a>/);
  });

  it("shows only the next page on the first page, and nothing when the list fits one", () => {
    const first = renderAt("/admin/orders", <KeysetPager search={new URLSearchParams()} cursor={undefined} nextCursor="40" />);
    expect(first).not.toContain("First page");
    expect(first).toContain("Next page");
    expect(renderAt("/admin/orders", <KeysetPager search={new URLSearchParams()} cursor={undefined} nextCursor={null} />)).toBe("");
  });
});
