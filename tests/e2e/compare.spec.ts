// The compare list in the browser (issue 4): add from the cards of a category
// listing and from the product page, the short messages of section 5 that go
// after 3 seconds, the 4-product limit, and the /compare table rendered from
// the `compare` cookie.
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

interface Compared {
  id: number;
  name: string;
  attributes: { name: string; value: string }[];
}

async function productsByIds(request: APIRequestContext, ids: number[]): Promise<Compared[]> {
  const response = await request.get(`/api/compare?product_ids=${ids.join(",")}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: Compared[] }).data;
}

async function setCompareCookie(context: BrowserContext, page: Page, ids: number[]): Promise<void> {
  const url = new URL(page.url() === "about:blank" ? test.info().project.use.baseURL! : page.url());
  await context.addCookies([{ name: "compare", value: ids.join(","), domain: url.hostname, path: "/", sameSite: "Lax" }]);
}

const messages = (page: Page) => page.getByTestId("compare-messages");
const headerLink = (page: Page) => page.getByRole("banner").getByTestId("compare-link");

/** A short message shown at its level, the header's count beside it, then gone after about 3 seconds. */
async function expectPassingMessage(page: Page, text: string, level: "info" | "warning", count: string): Promise<void> {
  const message = messages(page).getByText(text);
  await expect(message).toBeVisible();
  await expect(messages(page).locator("[data-level]")).toHaveAttribute("data-level", level);
  await expect(headerLink(page)).toHaveText(count);
  await expect(message).toBeHidden({ timeout: 5000 });
}

const CATEGORY = "/category/power-tools/cordless-drills";

test("adds from a category listing's cards, refuses a listed product and a fifth, and each message goes after about 3 seconds", async ({ page, context }) => {
  // Three messages are each watched until they go: about 10 seconds of waiting.
  test.slow();
  await openPage(page, CATEGORY);
  const cards = page.getByRole("main").getByTestId("product-card");
  const names = await cards.getByRole("heading", { level: 3 }).allTextContents();
  expect(names.length, "a listing of more than 4 products").toBeGreaterThan(4);
  // Every card offers compare and the heart, named after its product.
  await expect(cards.getByTestId("compare-button")).toHaveCount(names.length);
  await expect(cards.getByTestId("wishlist-button")).toHaveCount(names.length);
  await expect(headerLink(page)).toHaveCount(0);

  await page.getByRole("button", { name: `Add ${names[0]} to compare` }).click();
  await expect(messages(page)).toHaveText("Added to compare.");
  await expect(headerLink(page)).toHaveText("Compare (1)");
  await expect(page.getByRole("button", { name: `Remove ${names[0]} from compare` })).toBeVisible();
  await expect(messages(page).getByText("Added to compare.")).toBeHidden({ timeout: 5000 });

  // Another tab added the second product meanwhile; this page still offers to add it.
  const cookie = (await context.cookies()).find((c) => c.name === "compare")!;
  expect(cookie.httpOnly).toBe(false);
  expect(cookie.sameSite).toBe("Lax");
  expect(cookie.expires).toBeGreaterThan(Date.now() / 1000 + 300 * 24 * 3600);
  const first = cookie.value.split(",").map(Number)[0]!;
  const second = (await page.getByRole("button", { name: `Add ${names[1]} to compare` }).getAttribute("data-product-id")) ?? "";
  await setCompareCookie(context, page, [first, Number(second)]);
  await page.getByRole("button", { name: `Add ${names[1]} to compare` }).click();
  await expectPassingMessage(page, "Product is already in the comparison list.", "info", "Compare (2)");

  await page.getByRole("button", { name: `Add ${names[2]} to compare` }).click();
  await page.getByRole("button", { name: `Add ${names[3]} to compare` }).click();
  await expect(headerLink(page)).toHaveText("Compare (4)");
  await page.getByRole("button", { name: `Add ${names[4]} to compare` }).click();
  await expectPassingMessage(page, "You can only compare up to 4 products.", "warning", "Compare (4)");

  // The list reaches /compare through the cookie, rendered by the server.
  await headerLink(page).click();
  await expect(page).toHaveURL("/compare");
  const table = page.getByRole("table");
  for (const name of names.slice(0, 4)) await expect(table.getByRole("columnheader", { name })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: names[4]! })).toHaveCount(0);
});

test("the product page adds to compare and takes it off again; the listing knows; a fifth is refused there too", async ({ page, context, request }) => {
  const response = await request.get("/api/products", { params: { category: CATEGORY.replace("/category/", ""), per_page: 6 } });
  const { items } = (await response.json()) as { items: { id: number; name: string; slug: string }[] };
  const [product, ...others] = items;
  expect(others.length).toBeGreaterThanOrEqual(4);

  await openPage(page, `/product/${product!.slug}`);
  const actions = page.getByRole("main").getByTestId("product-actions").first();
  await actions.getByRole("button", { name: `Add ${product!.name} to compare`, exact: true }).click();
  await expect(messages(page)).toHaveText("Added to compare.");
  await expect(headerLink(page)).toHaveText("Compare (1)");
  await expect(actions.getByRole("button", { name: `Remove ${product!.name} from compare`, exact: true })).toBeVisible();

  // Back on the listing, its card says it is being compared.
  const category = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link").last();
  const categoryPath = (await category.getAttribute("href"))!;
  await category.click();
  await expect(page).toHaveURL(categoryPath);
  await expect(page.getByRole("main").getByTestId("product-card").getByRole("button", { name: `Remove ${product!.name} from compare`, exact: true })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(`/product/${product!.slug}`);
  await actions.getByRole("button", { name: `Remove ${product!.name} from compare`, exact: true }).click();
  await expect(messages(page)).toHaveText("Removed from compare.");
  await expect(headerLink(page)).toHaveCount(0);

  // Four others were listed in another tab: this product is one too many.
  await setCompareCookie(context, page, others.slice(0, 4).map((o) => o.id));
  await actions.getByRole("button", { name: `Add ${product!.name} to compare`, exact: true }).click();
  await expect(messages(page)).toHaveText("You can only compare up to 4 products.");
  await expect(messages(page).locator("[data-level]")).toHaveAttribute("data-level", "warning");
  await expect(headerLink(page)).toHaveText("Compare (4)");
  await expect(messages(page).getByText("You can only compare up to 4 products.")).toBeHidden({ timeout: 5000 });
});

test("the server renders /compare from the cookie; remove, clear and show only differences", async ({ page, context, request }) => {
  // Two 12V drills and an insulation board: a shared Voltage, attributes the board lacks.
  const products = await productsByIds(request, [1, 3, 153]);
  expect(products).toHaveLength(3);
  await setCompareCookie(context, page, [1, 3, 153]);

  // Without scripts: the HTML alone holds the table.
  const html = await (await page.request.get("/compare")).text();
  for (const p of products) expect(html).toContain(p.name.replace(/&/g, "&amp;"));

  await openPage(page, "/compare");
  await expect(headerLink(page)).toHaveText("Compare (3)");
  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveCount(3);
  for (const label of ["Price inc VAT", "Price ex VAT", "Stock", "Voltage", "Chuck size"]) {
    await expect(table.getByRole("rowheader", { name: label, exact: true })).toBeVisible();
  }
  // The board has no chuck: a dash, read out as "Not stated".
  const chuck = table.getByRole("row", { name: /^Chuck size/ });
  await expect(chuck.getByRole("cell").nth(2)).toHaveText("—Not stated");

  // The board has no Voltage, so the row differs until the board is removed; then both drills say 12V.
  await page.getByRole("button", { name: `Remove ${products[2]!.name} from compare` }).click();
  await expect(messages(page)).toHaveText("Removed from compare.");
  await expect(table.getByRole("columnheader")).toHaveCount(2);
  await expect(headerLink(page)).toHaveText("Compare (2)");
  await expect(table.getByRole("rowheader", { name: "Voltage", exact: true })).toBeVisible();
  await page.getByLabel("Show only differences").check();
  await expect(table.getByRole("rowheader", { name: "Voltage", exact: true })).toHaveCount(0);
  await expect(table.getByRole("rowheader", { name: "Price inc VAT", exact: true })).toBeVisible();
  await page.getByLabel("Show only differences").uncheck();
  await expect(table.getByRole("rowheader", { name: "Voltage", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Clear all" }).click();
  await expect(messages(page)).toHaveText("Comparison list cleared.");
  await expect(page.getByText("You have no products to compare.")).toBeVisible();
  await expect(headerLink(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("You have no products to compare.")).toBeVisible();
});

test.describe("fetch failures", () => {
  test.use({ allowedConsoleErrors: [/status of 500|net::ERR_FAILED/] });

  for (const [answer, message] of [
    ["error", "Failed to fetch compared products."],
    ["network", "An error occurred while fetching product details for comparison."],
  ] as const) {
    test(`a product added in another tab that cannot be fetched (${answer}) says so`, async ({ page, context }) => {
      await setCompareCookie(context, page, [1]);
      await openPage(page, "/compare");
      await expect(page.getByRole("table").getByRole("columnheader")).toHaveCount(1);
      await page.route("**/api/compare?**", (route) => (answer === "error" ? route.fulfill({ status: 500, json: { message: "Server Error" } }) : route.abort()));
      await setCompareCookie(context, page, [1, 2]);
      // Coming back to the tab reads the cookie again.
      await page.evaluate(() => window.dispatchEvent(new Event("focus")));
      await expect(page.getByRole("alert")).toHaveText(message);
    });
  }
});

test("without scripts, remove and clear still work through the page's form", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  await context.addCookies([{ name: "compare", value: "1,3", domain: new URL(baseURL!).hostname, path: "/", sameSite: "Lax" }]);
  const page = await context.newPage();
  await page.goto("/compare");
  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveCount(2);
  const first = (await table.getByRole("columnheader").first().getByRole("link").textContent())!;
  await page.getByRole("button", { name: `Remove ${first} from compare` }).click();
  await expect(page).toHaveURL("/compare");
  await expect(table.getByRole("columnheader")).toHaveCount(1);
  await expect(table.getByRole("columnheader", { name: first })).toHaveCount(0);
  await page.getByRole("button", { name: "Clear all" }).click();
  await expect(page.getByText("You have no products to compare.")).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === "compare")).toBeUndefined();
  await context.close();
});
