// The category chips above a product listing.
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { CategoryChips } from "./listing.tsx";

describe("CategoryChips", () => {
  it("links each category as a chip, in a navigation region named for the listing", () => {
    const categories = [
      { path: "tools", name: "Tools" },
      { path: "tools/drills", name: "Drills" },
    ];
    const Stub = createRoutesStub([{ path: "/products", Component: () => <CategoryChips label="Shop by category" categories={categories} /> }]);
    const html = renderToStaticMarkup(<Stub initialEntries={["/products"]} />);
    expect(html).toMatch(/^<nav aria-label="Shop by category" class="mb-6"><ul class="flex flex-wrap gap-2"><li>/);
    expect(html).toMatch(/<a class="inline-flex min-h-11 items-center rounded-full[^"]*" href="\/category\/tools\/drills"[^>]*>Drills<\/a>/);
    expect(html.match(/<li>/g)).toHaveLength(2);
  });
});
