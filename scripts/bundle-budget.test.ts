// Issue 8's bundle budget: the first-load JavaScript of every page type is at
// most 150 KB gzipped, measured on the production build, which Vitest's global
// setup brings up to date first (scripts/vitest-build.ts): the figures are
// always those of the code under test.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BACK_OFFICE_BUDGET_BYTES, FIRST_LOAD_BUDGET_BYTES, type PageWeight, budgetFor, clientDir, firstLoadWeights, loadsWholeManifest } from "./bundle-budget.ts";

let weights: PageWeight[];

beforeAll(() => {
  weights = firstLoadWeights();
});

describe("first-load JavaScript", () => {
  it("is measured for every page type, with the shared entry and root in each", () => {
    const urls = weights.map((w) => w.url);
    for (const url of ["/", "/product/:slug", "/category/*", "/basket", "/checkout", "/hire/:slug", "/compare", "/account"]) expect(urls).toContain(url);
    const home = weights.find((w) => w.url === "/")!;
    expect(home.files.some((f) => f.includes("entry.client"))).toBe(true);
    expect(home.files.some((f) => /\/root-[\w-]+\.js$/.test(f))).toBe(true);
  });

  it("counts the route manifest as pages load it: lazily, their own routes' entries inline, never the whole file", () => {
    expect(loadsWholeManifest()).toBe(false);
    expect(weights.every((w) => !w.files.some((f) => /\/manifest-[\w-]+\.js$/.test(f)))).toBe(true);
  });

  it(`is at most ${FIRST_LOAD_BUDGET_BYTES / 1000} KB gzipped on every storefront page type, ${BACK_OFFICE_BUDGET_BYTES / 1000} KB on the back office's`, () => {
    expect(weights.some((w) => w.url.startsWith("/admin/") && budgetFor(w.url) === BACK_OFFICE_BUDGET_BYTES)).toBe(true);
    expect(budgetFor("/admin-tools")).toBe(FIRST_LOAD_BUDGET_BYTES);
    const over = weights.filter((w) => w.gzipBytes > budgetFor(w.url)).map((w) => `${w.url} (${w.route}): ${(w.gzipBytes / 1000).toFixed(1)} KB`);
    expect(over, "pages over the budget; `node scripts/bundle-budget.ts` lists every page").toEqual([]);
  });
});

describe("the back office's JavaScript", () => {
  // ADR 0029: it loads only under /admin. A back-office chunk takes its modules'
  // dependencies with it (vite.config.ts), so a form importing a module the
  // storefront shares once sent every storefront page to it.
  it("is loaded by no storefront page", () => {
    const storefront = weights.filter((w) => !w.url.startsWith("/admin"));
    expect(storefront.length).toBeGreaterThan(20);
    const offenders = storefront.filter((w) => w.files.some((f) => /\/admin[\w-]*-[\w-]+\.js$/.test(f))).map((w) => `${w.url}: ${w.files.filter((f) => /\/admin/.test(f)).join(", ")}`);
    expect(offenders).toEqual([]);
  });

  // ADR 0066: the storefront's frame is its own layout route, and the modules the back office
  // shares with the storefront are in the core chunk; one more shared module left in the shell
  // brings the whole shell (the header, basket and search) to every back-office screen.
  it("loads none of the storefront's shell, which every storefront page loads", () => {
    const shell = (w: PageWeight) => w.files.some((f) => /\/shell-[\w-]+\.js$/.test(f));
    expect(shell(weights.find((w) => w.url === "/")!)).toBe(true);
    const backOffice = weights.filter((w) => w.url === "/admin" || w.url.startsWith("/admin/"));
    expect(backOffice.length).toBeGreaterThan(20);
    expect(backOffice.filter(shell).map((w) => w.url), "add the shared module to the core group in vite.config.ts").toEqual([]);
  });

  it("is loaded by the back office's pages", () => {
    const admin = weights.find((w) => w.url === "/admin")!;
    expect(admin.files.some((f) => /\/admin-[\w-]+\.js$/.test(f))).toBe(true);
  });
});

describe("first-load work", () => {
  // A browser's first currency formatter loads ICU's currency data: 50–120 ms of
  // main thread on this machine, on every page's first load. Prices are written
  // by app/lib/money.ts instead; this keeps Intl.NumberFormat out of every page.
  it("builds no Intl number formatter on any page", () => {
    const offenders = [...new Set(weights.flatMap((w) => w.files))].filter((f) => readFileSync(path.join(clientDir, f), "utf8").includes("Intl.NumberFormat"));
    expect(offenders).toEqual([]);
  });
});
