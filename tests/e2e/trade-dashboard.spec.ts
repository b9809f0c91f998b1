// The trade dashboard (issue 7) with the demo trade data: the owner sees the
// credit figures, the overdue amount with a way to pay, unpaid invoices by due
// date, recent orders and a year of spend as an SVG chart with a table beside
// it; a buyer sees their own orders and no invoices. The page is read with
// JavaScript off too: everything is in the server's HTML.
import type { APIRequestContext } from "@playwright/test";
import { csrfHeaders, openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

const PASSWORD = "demo-password-2026";

async function signIn(request: APIRequestContext, email: string) {
  const response = await request.post("/api/auth/login", { headers: await csrfHeaders(request), data: { email, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
}

interface Dashboard {
  credit: { limit: number; balance: number; available: number; overdue: number };
  unpaid_invoices: { id: number; number: string; overdue: boolean }[] | null;
  recent_orders: { number: string; placed_by_you: boolean }[];
  monthly_spend: { month: string; total: number }[];
}

const pounds = (n: number) => `£${n.toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test("the demo owner sees the credit figures, unpaid invoices, recent orders and a year of spend", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page.request, "trade@example.com");
  const d = (await (await page.request.get("/api/trade/dashboard")).json()).data as Dashboard;
  await openPage(page, "/trade/dashboard");
  await expect(page.getByTestId("trade-state")).toHaveText("Approved");
  await expect(page.getByTestId("trade-credit-limit")).toHaveText("£10,000.00");
  await expect(page.getByTestId("trade-balance")).toHaveText(pounds(d.credit.balance));
  await expect(page.getByTestId("trade-available")).toHaveText(pounds(d.credit.available));
  await expect(page.getByTestId("trade-overdue")).toHaveText(pounds(d.credit.overdue));
  await expect(page.getByTestId("trade-overdue")).toHaveClass(/text-red-800/);
  await expect(page.getByRole("navigation", { name: "Trade account" }).getByRole("link", { name: "Users" })).toHaveAttribute("href", "/trade/manage");

  // Unpaid invoices, oldest due first: the overdue one leads, and each opens.
  const unpaid = page.getByTestId("unpaid-invoices");
  const first = d.unpaid_invoices![0]!;
  await expect(unpaid.getByRole("row").nth(1)).toContainText(first.number);
  await expect(unpaid.getByRole("row").nth(1)).toContainText("Overdue");
  await expect(unpaid.getByRole("link", { name: first.number })).toHaveAttribute("href", `/trade/invoices/view/${first.id}`);
  await expect(page.getByRole("link", { name: "Pay invoices" })).toHaveAttribute("href", "/trade/invoices/pay");

  // Recent orders: only the owner's own open.
  const orders = page.getByTestId("recent-orders");
  await expect(orders.getByRole("row")).toHaveCount(d.recent_orders.length + 1);
  for (const o of d.recent_orders) await expect(orders.getByRole("link", { name: o.number })).toHaveCount(o.placed_by_you ? 1 : 0);

  // The chart: an SVG image with a title, twelve bars' months, and the same figures as a table.
  const chart = page.getByTestId("spend-chart");
  const svg = chart.getByRole("img", { name: /spend by month, last 12 months/ });
  await expect(svg).toBeVisible();
  await expect(svg.locator("text")).toContainText(["£0"]);
  expect(await svg.locator("rect").count()).toBe(d.monthly_spend.filter((m) => m.total > 0).length);
  await chart.getByText("Spend by month as a table").click();
  const table = chart.getByTestId("spend-table");
  await expect(table.getByRole("row")).toHaveCount(13);
  const last = d.monthly_spend.at(-1)!;
  await expect(table.getByRole("row").last()).toContainText(pounds(last.total));
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the chart and its table are in the server's HTML", async ({ page }) => {
    await signIn(page.request, "trade@example.com");
    await page.goto("/trade/dashboard");
    // The shared frame (ADR 0061) cannot be filled in without scripts: it links to the page rendered for this customer.
    await page.getByRole("link", { name: "Show your trade account" }).click();
    await expect(page).toHaveURL(/\/trade\/dashboard\?noscript$/);
    await expect(page.getByTestId("spend-chart").locator("svg[role=img] > title")).toHaveText(/spend by month/);
    await expect(page.getByTestId("spend-chart").locator("svg rect").first()).toBeVisible();
    // A <details> opens without scripts.
    await page.getByText("Spend by month as a table").click();
    await expect(page.getByTestId("spend-table").getByRole("row")).toHaveCount(13);
  });
});

test("a buyer sees their own orders and spend, and no invoices", async ({ page }) => {
  await signIn(page.request, "buyer@example.com");
  await openPage(page, "/trade/dashboard");
  await expect(page.getByRole("heading", { name: "Your recent orders" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Your spend/ })).toBeVisible();
  await expect(page.getByTestId("unpaid-invoices")).toHaveCount(0);
  // The quick order and quotes are theirs as everyone's, and the company's sites as every member's; neither invoices nor users.
  await expect(page.getByRole("navigation", { name: "Trade account" }).getByRole("link")).toHaveText(["Quick order", "Quotes", "Sites"]);
  const rows = page.getByTestId("recent-orders").getByRole("row");
  expect(await rows.count()).toBeGreaterThan(1);
  // Every order listed is theirs, so every one opens.
  await expect(page.getByTestId("recent-orders").getByRole("link")).toHaveCount((await rows.count()) - 1);
});
