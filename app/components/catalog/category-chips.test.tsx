// The chips of categories above a listing: a named navigation region of links.
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { CategoryChips } from "./category-chips.tsx";

describe("CategoryChips", () => {
  it("links each category to its page in a navigation region named by its label", () => {
    const Stub = createRoutesStub([{ path: "/products", Component: () => <CategoryChips label="Shop by category" categories={[{ path: "tools", name: "Tools" }, { path: "tools/drills", name: "Drills" }]} /> }]);
    const html = renderToStaticMarkup(<Stub initialEntries={["/products"]} />);
    expect(html).toMatch(/^<nav aria-label="Shop by category" class="mb-6"><ul class="flex flex-wrap gap-2"><li><a [^>]*href="\/category\/tools"[^>]*>Tools<\/a><\/li><li><a [^>]*href="\/category\/tools\/drills"[^>]*>Drills<\/a><\/li><\/ul><\/nav>$/);
  });
});
