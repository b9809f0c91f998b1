// Temporary: screenshots of the back-office screens changed this session. Not committed.
import { saveScreenshot, withScreenshotPages } from "./screenshot-browser.ts";
const outDir = "/tmp/shots-admin";
await withScreenshotPages(outDir, async (page, size) => {
  const login = await page.request.post("/api/admin/auth/login", { data: { email: "owner@example.com", password: "demo-password-2026" } });
  if (login.status() !== 200) throw new Error(`login ${login.status()}`);
  const orders = (await (await page.request.get("/api/admin/orders?limit=1")).json()) as { data: { number: string }[] };
  const quotes = (await (await page.request.get("/api/admin/quotes?limit=1")).json()) as { data: { number: string }[] };
  const screens = [
    ["dashboard", "/admin"],
    ["order", `/admin/orders/${orders.data[0]!.number}`],
    ["order-new", "/admin/orders/new"],
    ["quote", `/admin/quotes/${quotes.data?.[0]?.number ?? ""}`],
    ["stock", "/admin/stock"],
    ["variants", "/admin/products/TCL-SAWN47100/variants"],
    ["planner", "/admin/hire/planner"],
  ];
  for (const [name, path] of screens) {
    await page.goto(path!, { waitUntil: "networkidle" });
    await saveScreenshot(page, outDir, `${name}-${size.name}`);
  }
}, [{ name: "phone", width: 390, height: 844 }, { name: "desktop", width: 1366, height: 900 }]);
