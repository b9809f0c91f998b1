// A keyset list's table, its empty state and its pager, together.
import { describe, expect, it } from "vitest";
import { KeysetList } from "./keyset-list.tsx";
import { renderAt } from "./render-for-test.tsx";

type Quote = { number: string };
const columns = [{ label: "Quote", head: true, cell: (q: Quote) => q.number }];
const empty = { title: "No quotes", action: { to: "?", label: "Show every quote" }, children: "Try another tab." };

describe("KeysetList", () => {
  it("shows this page's rows and the pager with the next page's cursor", () => {
    const html = renderAt("/admin/quotes?status=sent", <KeysetList caption="Quotes" rows={[{ number: "Q-1" }]} rowKey={(q) => q.number} columns={columns} empty={empty} cursor={undefined} nextCursor={41} />);
    expect(html).toContain('<caption class="sr-only">Quotes</caption>');
    expect(html).toMatch(/data-label="Quote">Q-1<\/th>/);
    expect(html).not.toContain("No quotes");
    expect(html).toMatch(/<a [^>]*href="\/admin\/quotes\?status=sent&amp;cursor=41"[^>]*>Next page<\/a>/);
  });

  it("says why when there are no rows, and offers the first page from a later one", () => {
    const html = renderAt("/admin/quotes?cursor=80", <KeysetList caption="Quotes" rows={[]} rowKey={(q: Quote) => q.number} columns={columns} empty={empty} cursor="80" nextCursor={null} />);
    expect(html).not.toContain("<table");
    expect(html).toContain('role="status"');
    expect(html).toContain("Try another tab.");
    expect(html).toMatch(/<a [^>]*href="\/admin\/quotes"[^>]*>First page<\/a>/);
  });

  it("shows nothing for no rows when the screen says why itself", () => {
    expect(renderAt("/admin/customers", <KeysetList rows={[]} rowKey={(q: Quote) => q.number} columns={columns} empty={null} cursor={undefined} nextCursor={null} />)).toBe("");
  });
});
