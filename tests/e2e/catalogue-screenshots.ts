// Screenshots of the catalogue screens at phone and desktop sizes, for a human
// to look at. Not part of the suite. Start a shop first, then:
//   BASE_URL=http://127.0.0.1:3000 node tests/e2e/catalogue-screenshots.ts [outDir]
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { renderWholePage, saveScreenshot, withScreenshotPages } from "./screenshot-browser.ts";

const outDir = process.argv[2] ?? "/tmp/shots-catalogue";

const screens = [
  { name: "home", path: "/" },
  { name: "category", path: "/category/power-tools/cordless-drills" },
  { name: "category-filtered", path: "/category/power-tools?manufacturer=1&attr=Voltage%3A18V&sort=price_asc" },
  { name: "category-empty", path: "/category/power-tools?price_min=9000" },
  { name: "products-page-3", path: "/products?page=3" },
  { name: "search", path: "/search?q=makta+dril" },
  { name: "search-none", path: "/search?q=hammmer+drillz+qqq" },
  { name: "product", path: "/product/milwaukee-12v-brushless-combi-drill" },
  { name: "brands", path: "/manufacturer" },
  { name: "brand", path: "/manufacturer/1" },
];

/** Tall pages again in viewport-sized parts, easier to look at closely (SEGMENTS=1). */
async function segments(page: Page, prefix: string, width: number): Promise<void> {
  mkdirSync(path.dirname(prefix), { recursive: true });
  await renderWholePage(page);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = width < 768 ? 900 : 1000;
  for (let y = 0, n = 1; y < height; y += step, n++) {
    await page.screenshot({ path: `${prefix}-${n}.png`, fullPage: true, clip: { x: 0, y, width, height: Math.min(step, height - y) } });
  }
}

await withScreenshotPages(outDir, async (page, size) => {
  for (const screen of screens) {
    await page.goto(screen.path, { waitUntil: "networkidle" });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) console.warn(`${screen.name} at ${size.name}: ${overflow}px of horizontal scrolling`);
    await saveScreenshot(page, outDir, `${screen.name}-${size.name}`);
    if (process.env.SEGMENTS) await segments(page, path.join(outDir, "parts", `${screen.name}-${size.name}`), size.width);
  }
  if (size.width < 768) {
    await page.goto("/category/power-tools?manufacturer=1", { waitUntil: "networkidle" });
    await page.getByTestId("filters").locator("summary").first().click();
    await saveScreenshot(page, outDir, `filters-open-${size.name}`);
  }
});
