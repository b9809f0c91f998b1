// Screenshots of the catalogue screens at phone and desktop sizes, for a human
// to look at. Not part of the suite. Start a shop first, then:
//   BASE_URL=http://127.0.0.1:3000 node tests/e2e/catalogue-screenshots.ts [outDir]
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Page, chromium } from "@playwright/test";

const baseURL = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const outDir = process.argv[2] ?? "/tmp/shots-catalogue";
const executablePath = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(Boolean);

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
const sizes = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];

/** Tall pages again in viewport-sized parts, easier to look at closely (SEGMENTS=1). */
async function segments(page: Page, prefix: string, width: number): Promise<void> {
  mkdirSync(path.dirname(prefix), { recursive: true });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = width < 768 ? 900 : 1000;
  for (let y = 0, n = 1; y < height; y += step, n++) {
    await page.screenshot({ path: `${prefix}-${n}.png`, fullPage: true, clip: { x: 0, y, width, height: Math.min(step, height - y) } });
  }
}

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  for (const size of sizes) {
    const context = await browser.newContext({ baseURL, viewport: { width: size.width, height: size.height }, hasTouch: size.width < 768 });
    const page = await context.newPage();
    for (const screen of screens) {
      await page.goto(screen.path, { waitUntil: "networkidle" });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) console.warn(`${screen.name} at ${size.name}: ${overflow}px of horizontal scrolling`);
      const file = path.join(outDir, `${screen.name}-${size.name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      if (process.env.SEGMENTS) await segments(page, path.join(outDir, "parts", `${screen.name}-${size.name}`), size.width);
    }
    if (size.width < 768) {
      await page.goto("/category/power-tools?manufacturer=1", { waitUntil: "networkidle" });
      await page.getByTestId("filters").locator("summary").first().click();
      const file = path.join(outDir, `filters-open-${size.name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
    }
    await context.close();
  }
} finally {
  await browser.close();
}
