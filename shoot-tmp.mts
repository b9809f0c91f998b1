import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:4311";
const paths = process.argv.slice(2);
const sizes = [{ name: "phone", width: 390, height: 844 }, { name: "desktop", width: 1366, height: 900 }, { name: "tablet", width: 820, height: 1180 }];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
for (const size of sizes) {
  const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
  page.on("console", (m) => { if (m.type() === "error") console.log("console error", m.text()); });
  for (const [i, p] of paths.entries()) {
    await page.goto(base + p, { waitUntil: "networkidle" });
    await page.screenshot({ path: `/tmp/shots/${i}-${size.name}.png`, fullPage: true });
  }
  await page.close();
}
await browser.close();
