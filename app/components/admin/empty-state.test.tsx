// The empty and error states of a list.
import { describe, expect, it } from "vitest";
import { EmptyState, ErrorState } from "./empty-state.tsx";
import { renderAt } from "./render-for-test.tsx";

describe("EmptyState", () => {
  it("says why the list is empty and offers the way out, as a status", () => {
    const html = renderAt("/admin/orders?status=paid", <EmptyState title="No orders match these filters" action={{ to: "?", label: "Show every order" }}>Try another status.</EmptyState>);
    expect(html).toContain('role="status"');
    expect(html).toContain("No orders match these filters");
    expect(html).toContain("Try another status.");
    expect(html).toMatch(/<a [^>]*href="\/admin\/orders"[^>]*>Show every order<\/a>/);
  });
});

describe("ErrorState", () => {
  it("is an alert with the message", () => {
    expect(renderAt("/admin/orders", <ErrorState message="The end date is before the start date." />)).toMatch(/role="alert"[^>]*>The end date is before the start date.<\/div>/);
  });

  it("is nothing without a message", () => {
    expect(renderAt("/admin/orders", <ErrorState message={null} />)).toBe("");
  });
});
