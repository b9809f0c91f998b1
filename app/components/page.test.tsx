// The storefront's page parts: a section's heading with its link to the whole list.
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { SectionHead } from "./page.tsx";

describe("SectionHead", () => {
  it("names the section in a heading with its id, the link to the whole list beside it, each with its own classes", () => {
    const Stub = createRoutesStub([{ path: "/", Component: () => <SectionHead id="featured-heading" title="Featured products" to="/products" link="All products" titleClassName="text-xl font-bold" linkClassName="link text-sm" /> }]);
    expect(renderToStaticMarkup(<Stub initialEntries={["/"]} />)).toBe(
      '<div class="flex flex-wrap items-baseline justify-between gap-2"><h2 id="featured-heading" class="text-xl font-bold">Featured products</h2><a class="link text-sm" href="/products" data-discover="true">All products</a></div>',
    );
  });
});
