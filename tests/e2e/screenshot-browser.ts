// What the screenshot scripts share: the shop's address, the two sizes, and a
// headless Chromium from the system opened once for all of them.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Page, chromium } from "@playwright/test";

export interface ScreenSize {
  name: string;
  width: number;
  height: number;
}

export const SIZES: ScreenSize[] = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];

/**
 * Opens Chromium, then a page per size on BASE_URL (a touch screen below 768px)
 * for `shoot`, and closes everything afterwards, also when `shoot` throws.
 */
export async function withScreenshotPages(outDir: string, shoot: (page: Page, size: ScreenSize) => Promise<void>, sizes: ScreenSize[] = SIZES): Promise<void> {
  const baseURL = process.env.BASE_URL ?? "http://127.0.0.1:3000";
  const executablePath = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(Boolean);
  mkdirSync(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    for (const size of sizes) {
      const context = await browser.newContext({ baseURL, viewport: { width: size.width, height: size.height }, hasTouch: size.width < 768 });
      try {
        await shoot(await context.newPage(), size);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
}

/**
 * Parts below the fold render only when scrolled near (`render-when-near`); a
 * capture of the whole page wants them all drawn.
 */
export async function renderWholePage(page: Page): Promise<void> {
  await page.addStyleTag({ content: ".render-when-near { content-visibility: visible !important; }" });
}

/** Saves a screenshot as `{outDir}/{name}.png` and prints its path. */
export async function saveScreenshot(page: Page, outDir: string, name: string, fullPage = true): Promise<void> {
  const file = path.join(outDir, `${name}.png`);
  if (fullPage) await renderWholePage(page);
  await page.screenshot({ path: file, fullPage });
  console.log(file);
}
