// Screenshots of the main screens at phone and desktop sizes, for a human to
// look at. Not part of the suite. Start a shop first, then:
//   BASE_URL=http://127.0.0.1:3000 node tests/e2e/screenshots.ts [outDir]
import { saveScreenshot, withScreenshotPages } from "./screenshot-browser.ts";

const outDir = process.argv[2] ?? "/tmp/shots";

const screens = [
  { name: "home", path: "/" },
  { name: "category", path: "/category/power-tools/cordless-drills" },
  { name: "not-found", path: "/no-such-page/here" },
  { name: "basket", path: "/basket" },
  { name: "login", path: "/auth/login" },
];

await withScreenshotPages(outDir, async (page, size) => {
  for (const screen of screens) {
    await page.goto(screen.path, { waitUntil: "networkidle" });
    await saveScreenshot(page, outDir, `${screen.name}-${size.name}`);
  }
  if (size.width < 768) {
    await page.goto("/", { waitUntil: "networkidle" });
    await page.locator("summary", { hasText: "Menu" }).click();
    await saveScreenshot(page, outDir, `menu-open-${size.name}`, false);
  }
});
