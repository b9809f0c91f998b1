// For the kit's tests: a component's server-rendered markup inside a router
// at an address, as a screen renders it (links and forms need a router).
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";

export function renderAt(url: string, element: ReactElement): string {
  const path = new URL(url, "http://shop.test").pathname;
  const Stub = createRoutesStub([{ path, Component: () => element }]);
  return renderToStaticMarkup(<Stub initialEntries={[url]} />);
}

/** The opening tags named `name` in markup, each as its attributes (in any order React writes them). */
export function tags(html: string, name: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${name}((?:\\s+[\\w:-]+(?:="[^"]*")?)*)\\s*/?>`, "g"))].map((m) => Object.fromEntries([...(m[1] ?? "").matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!, a[2] ?? ""])));
}
