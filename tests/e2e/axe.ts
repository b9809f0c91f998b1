// axe-core over the page as it stands, against WCAG 2.2 AA: each violation
// named with its rule and where it is, so a failure says what to fix.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { AxeResults } from "axe-core";
import { expect } from "./fixtures.ts";

export const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * axe's WCAG 2.2 AA rules over the page. In the page itself (legacy mode: the
 * shop has no frames to run it across), and only the violations gathered node
 * by node: the default sends every passing node's details out of the page and
 * into a second one, which took 25 of the hire planner's 27 seconds (7,800
 * elements) and a third of a small page's.
 */
function wcagScan(page: Page): Promise<AxeResults> {
  // options() replaces the whole options object, the tags' runOnly with it: so it comes first.
  return new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).withTags(WCAG_22_AA).setLegacyMode(true).analyze();
}

export async function expectAccessible(page: Page, where = page.url()): Promise<void> {
  const { violations } = await wcagScan(page);
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(" | ")}`);
  expect(found, `axe on ${where}`).toEqual([]);
}
