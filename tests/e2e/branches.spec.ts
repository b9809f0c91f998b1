// The branch finder in a real browser (issue 30): a visitor finds the nearest
// branch by postcode, is told plainly about a postcode nobody can place, opens
// the branch's page with its hours, directions and structured data, and is
// asked for their position only when they press the button. axe on both pages.
import { openPage, waitForEmailTo } from "./auth-helpers.ts";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";
import { expectAccessible } from "./axe.ts";


/** The demo's branches, each of which the list shows (branches-desk.spec.ts may add one meanwhile: the suite shares one shop). */
const DEMO_BRANCHES = ["Leeds, Canal Wharf", "York, Foss Islands", "Harrogate hire depot", "Manchester, Store Street"];

async function expectEveryDemoBranch(page: Page): Promise<void> {
  const cards = page.getByTestId("branch-card");
  for (const name of DEMO_BRANCHES) await expect(cards.filter({ hasText: name })).toHaveCount(1);
}

test("a visitor finds the nearest branch by postcode and opens its page", async ({ page }) => {
  await openPage(page, "/branches");
  await expect(page.getByRole("heading", { name: "Our branches" })).toBeVisible();
  await expectEveryDemoBranch(page);

  await page.getByLabel("Your postcode").fill("zz1 1zz");
  await page.getByRole("button", { name: "Find branches" }).click();
  await expect(page.getByText("We could not find ZZ1 1ZZ")).toBeVisible();
  await expect(page.getByLabel("Your postcode")).toHaveAttribute("aria-invalid", "true");
  // Every branch is still listed.
  await expectEveryDemoBranch(page);

  await page.getByLabel("Your postcode").fill("m1 1aa");
  await page.getByRole("button", { name: "Find branches" }).click();
  await expect(page).toHaveURL(/\/branches\?near=m1\+1aa/);
  await expect(page.getByRole("heading", { name: "Branches nearest M1 1AA" })).toBeVisible();
  const first = page.getByTestId("branch-card").first();
  await expect(first).toContainText("Manchester, Store Street");
  await expect(first).toContainText(/\d(\.\d)? miles? away/);

  await first.getByRole("link", { name: "Manchester, Store Street" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Manchester, Store Street" })).toBeVisible();
  await expect(page.getByRole("row", { name: /Monday 07:00 to 17:00/ })).toBeVisible();
  await expect(page.getByRole("row", { name: /Sunday Closed/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /Directions to Manchester, Store Street on OpenStreetMap/ })).toHaveAttribute("href", /openstreetmap\.org\/directions\?route=%3B53\.479%2C-2\.229/);
  const jsonLd = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t) as { "@type": string; address?: { postalCode: string } });
  expect(jsonLd.find((d) => d["@type"] === "HardwareStore")?.address?.postalCode).toBe("M1 2WD");
});

test("the browser's position is used only when asked, and a refusal is explained", async ({ browser }) => {
  const context = await browser.newContext({ geolocation: { latitude: 53.96, longitude: -1.08 } });
  const page = await context.newPage();
  await openPage(page, "/branches");
  await context.grantPermissions(["geolocation"], { origin: new URL(page.url()).origin });
  await expect(page).toHaveURL(/\/branches$/);
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByRole("heading", { name: "Branches nearest you" })).toBeVisible();
  await expect(page.getByTestId("branch-card").first()).toContainText("York, Foss Islands");
  await context.close();

  const refused = await browser.newContext({ permissions: [] });
  const other = await refused.newPage();
  await openPage(other, "/branches");
  await other.getByRole("button", { name: "Use my location" }).click();
  await expect(other.getByRole("alert")).toContainText("We could not get your location");
  await refused.close();
});

test("a visitor makes the nearest branch theirs, sees its stock on a product page, and collects from it", async ({ page, browser }) => {
  test.slow();
  // Staff book two of a product in at York, which has none of the demo's stock.
  const staff = await staffPage(browser, "warehouse@staff.example.com");
  // A product with one variant, in stock at Leeds: the first by name.
  const listed = (await (await staff.request.get("/api/admin/products?limit=10&stock=in_stock")).json()).data as { sku: string; slug: string; name: string }[];
  const single = await Promise.all(listed.map(async (p) => ((await (await staff.request.get(`/api/products/${p.slug}`)).json()).data.variants as unknown[]).length === 1));
  const product = listed.find((_, i) => single[i]);
  const token = (await staff.context().cookies()).find((c) => c.name === "tc_admin_csrf")!.value;
  const york = ((await (await staff.request.get("/api/branches")).json()).data as { id: number; slug: string }[]).find((b) => b.slug === "york")!;
  // York's stock of it before (another test may have booked some in there).
  const levels = async () => ((await (await staff.request.get(`/api/admin/stock/levels?sku=${encodeURIComponent(product!.sku)}`)).json()).data as { branch: { slug: string }; stock: number }[]).find((l) => l.branch.slug === "york")!.stock;
  const atYork = (await levels()) + 2;
  const received = await staff.request.post("/api/admin/stock/deliveries", { headers: { "X-Admin-CSRF": decodeURIComponent(token) }, data: { branch_id: york.id, reference: "E2E-YORK", lines: [{ sku: product!.sku, quantity: 2 }] } });
  expect(received.status(), await received.text()).toBe(200);
  await staff.context().close();

  // The nearest branch to a York postcode, made theirs.
  await openPage(page, "/branches?near=YO31%201AA");
  const nearest = page.getByTestId("branch-card").first();
  await expect(nearest).toContainText("York, Foss Islands");
  await nearest.getByRole("button", { name: "Make this my branch" }).click();
  await expect(nearest.getByRole("button", { name: "Your branch" })).toHaveAttribute("aria-pressed", "true");

  // The product page (shared and cached) shows the stock at York after it loads.
  await openPage(page, `/product/${product!.slug}`);
  const stock = page.getByTestId("branch-stock");
  await expect(stock).toContainText(new RegExp(`^${atYork} at York, Foss Islands: collect (today|tomorrow|\\w+day) from \\d\\d:\\d\\d`));

  // Collected from York: checkout starts from their branch, and York's stock is what the order takes.
  const buy = page.getByRole("form", { name: `Add ${product!.name} to basket` });
  await buy.getByRole("button", { name: "Add to basket" }).click();
  await expect(buy.getByRole("status")).toContainText("to your basket");
  await openPage(page, "/checkout");
  await page.getByLabel("Email address").fill("york-collector@example.com");
  await page.getByRole("radio", { name: /Click & collect/ }).check();
  await page.getByLabel("Name of the person collecting").fill("Yves York");
  await expect(page.getByRole("combobox", { name: "Collect from" })).toHaveValue(String(york.id));
  const billing = page.getByRole("group", { name: "Billing address" });
  await billing.getByLabel("Address line 1").fill("4 Foss Yard");
  await billing.getByLabel("Town or city").fill("York");
  await billing.getByLabel("Postcode", { exact: true }).fill("YO31 7UL");
  await page.getByRole("radio", { name: /Pay on collection/ }).check();
  // When this basket is ready at York, said before the order is placed.
  await expect(page.getByTestId("collect-ready")).toContainText(/Ready to collect (today|tomorrow|\w+day) from \d\d:\d\d\./);
  const placed = page.waitForRequest((r) => r.url().endsWith("/api/checkout") && r.method() === "POST");
  await page.getByRole("button", { name: "Place order" }).click();
  const request = await placed;
  expect((request.postDataJSON() as { branch_id?: number }).branch_id).toBe(york.id);
  const number = ((await (await request.response())!.json()) as { order_number: string }).order_number;
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await openPage(page, `/product/${product!.slug}`);
  await expect(page.getByTestId("branch-stock")).toContainText(`${atYork - 1} at York, Foss Islands`);

  // York's warehouse picks it and makes it ready: the customer is emailed a collection code.
  const desk = await staffPage(browser, "warehouse@staff.example.com");
  await openPage(desk, `/admin/orders?branch=${york.id}`);
  await expect(desk.getByRole("link", { name: number })).toBeVisible();
  await openPage(desk, `/admin/orders/${number}`);
  await desk.getByRole("button", { name: "Start picking" }).click();
  await desk.getByRole("button", { name: "Ready for collection" }).click();
  await expect(desk.getByRole("status").or(desk.getByRole("alert")).first()).toContainText("ready for collection");
  let email = "";
  await expect(async () => {
    email = await waitForEmailTo("york-collector@example.com", 2_000);
    expect(email).toContain("Your collection code:");
  }).toPass({ timeout: 15_000 });
  const code = /Your collection code: (\d{6})/.exec(email)![1]!;
  expect(email).toContain("York, Foss Islands");
  // The wrong code is refused beside the box; the right one hands it over.
  const collect = desk.getByLabel("Collection code");
  await collect.fill(code === "000000" ? "111111" : "000000");
  await desk.getByRole("button", { name: "Mark as collected" }).click();
  await expect(desk.getByText(`That is not the collection code for ${number}`).first()).toBeVisible();
  await desk.getByLabel("Collection code").fill(code);
  await desk.getByRole("button", { name: "Mark as collected" }).click();
  await expect(desk.getByRole("status").or(desk.getByRole("alert")).first()).toContainText("completed");
  await desk.context().close();
});

test("the finder and a branch's page pass axe", async ({ page }) => {
  for (const path of ["/branches?near=LS1%201AA", "/branches/york"]) {
    await openPage(page, path);
    await expectAccessible(page, path);
  }
});
