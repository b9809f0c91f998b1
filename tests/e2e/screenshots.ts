// Screenshots of the main screens at phone and desktop sizes, for a human to
// look at. Not part of the suite. Start a shop first, then:
//   BASE_URL=http://127.0.0.1:3000 node tests/e2e/screenshots.ts [outDir]
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const baseURL = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const outDir = process.argv[2] ?? "/tmp/shots";
const executablePath = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(Boolean);

const screens = [
  { name: "home", path: "/" },
  { name: "category", path: "/category/power-tools/cordless-drills" },
  { name: "not-found", path: "/no-such-page/here" },
  { name: "basket", path: "/basket" },
  { name: "login", path: "/auth/login" },
];
const sizes = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];

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
      const file = path.join(outDir, `${screen.name}-${size.name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
    }
    if (size.width < 768) {
      await page.goto("/", { waitUntil: "networkidle" });
      await page.locator("summary", { hasText: "Menu" }).click();
      const file = path.join(outDir, `menu-open-${size.name}.png`);
      await page.screenshot({ path: file });
      console.log(file);
    }
    await context.close();
  }
} finally {
  await browser.close();
}
