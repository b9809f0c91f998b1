import { describe, expect, it } from "vitest";
import { loadRedirectRules, parseRedirectRules, resolveRedirect } from "./redirects.ts";

const rules = parseRedirectRules({
  rules: [
    { from: "/old", match: "exact", to: "/new", status: 301 },
    { from: "/blog", match: "prefix", to: "/news", status: 308 },
    { from: "/away", to: "https://example.org/there", status: 302 },
  ],
});

describe("resolveRedirect", () => {
  it("matches an exact path and keeps the query string", () => {
    expect(resolveRedirect(rules, "/old")).toEqual({ location: "/new", status: 301 });
    expect(resolveRedirect(rules, "/old?x=1")).toEqual({ location: "/new?x=1", status: 301 });
    expect(resolveRedirect(rules, "/old/more")).toBeNull();
  });

  it("matches a prefix by whole segments and carries the rest over", () => {
    expect(resolveRedirect(rules, "/blog")).toEqual({ location: "/news", status: 308 });
    expect(resolveRedirect(rules, "/blog/2026/post?a=b")).toEqual({ location: "/news/2026/post?a=b", status: 308 });
    expect(resolveRedirect(rules, "/blogger")).toBeNull();
  });

  it("sends an external target off the site", () => {
    expect(resolveRedirect(rules, "/away")).toEqual({ location: "https://example.org/there", status: 302 });
  });

  it("leaves other paths alone", () => {
    expect(resolveRedirect(rules, "/")).toBeNull();
  });
});

describe("parseRedirectRules", () => {
  it.each([
    [{ from: "old", to: "/new", status: 301 }, "from"],
    [{ from: "/a", to: "//evil.example", status: 301 }, "to"],
    [{ from: "/a", to: "http://insecure.example", status: 301 }, "to"],
    [{ from: "/a", to: "javascript:alert(1)", status: 301 }, "to"],
    [{ from: "/a", to: "/b", status: 303 }, "status"],
    [{ from: "/a", to: "/a", status: 301 }, "itself"],
  ])("refuses %j", (rule, word) => {
    expect(() => parseRedirectRules({ rules: [rule] })).toThrow(word);
  });

  it("accepts the committed rules file", () => {
    const committed = loadRedirectRules(new URL("../../config/redirects.json", import.meta.url).pathname);
    expect(committed.length).toBeGreaterThan(0);
    expect(resolveRedirect(committed, "/kitchens")).toEqual({ location: "/kitchens-and-bathrooms", status: 301 });
  });
});
