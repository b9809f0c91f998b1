// A list's links, each its own item, and a category as a link to its page.
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { LinkItems, categoryLink } from "./link-items.tsx";

function render(element: ReactElement): string {
  const Stub = createRoutesStub([{ path: "/", Component: () => element }]);
  return renderToStaticMarkup(<Stub initialEntries={["/"]} />);
}

describe("LinkItems", () => {
  it("puts each link in its own item, with the classes it is given", () => {
    const html = render(
      <ul>
        <LinkItems links={[{ to: "/hire", label: "Hire" }, { to: "/trade/dashboard", label: "Trade" }]} className="block px-2" />
      </ul>,
    );
    expect(html).toBe('<ul><li><a class="block px-2" href="/hire" data-discover="true">Hire</a></li><li><a class="block px-2" href="/trade/dashboard" data-discover="true">Trade</a></li></ul>');
  });

  it("links a category to its page by its name, and adds what stands under a link inside its item", () => {
    const tree = [{ path: "tools", name: "Tools", children: [{ path: "tools/drills", name: "Drills" }] }, { path: "paint", name: "Paint", children: [] }];
    const html = render(
      <ul>
        <LinkItems links={tree.map(categoryLink)} className="link" after={(c) => (c.children.length ? <ul><LinkItems links={c.children.map(categoryLink)} className="sub" /></ul> : null)} />
      </ul>,
    );
    expect(html).toBe(
      '<ul><li><a class="link" href="/category/tools" data-discover="true">Tools</a><ul><li><a class="sub" href="/category/tools/drills" data-discover="true">Drills</a></li></ul></li><li><a class="link" href="/category/paint" data-discover="true">Paint</a></li></ul>',
    );
  });
});
