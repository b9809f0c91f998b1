// The catalogue in the browser (issue 4): browsing a nested category, filters,
// sort and pages held in the address, search with a typo and did-you-mean,
// the product page with its prices, specification and structured data, brands,
// and the 404 for an unknown product. The fixture fails any test whose page
// logs an error or breaks the Content Security Policy.
import type { Locator, Page } from "@playwright/test";
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

const gbp = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2 });

/** "1–9 of 9 products" → 9; "No products" → 0. */
async function resultTotal(page: Page): Promise<number> {
  const text = (await page.getByTestId("result-count").textContent()) ?? "";
  const match = /of ([\d,]+) products?/.exec(text);
  return match ? Number(match[1]!.replace(/,/g, "")) : 0;
}

async function pricesOf(cards: Locator): Promise<number[]> {
  const texts = await cards.getByTestId("price-inc-vat").allTextContents();
  return texts.map((t) => Number(t.replace(/[£,]/g, "")));
}

function cards(page: Page): Locator {
  return page.getByRole("main").getByTestId("product-card");
}

async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((b) => JSON.parse(b) as Record<string, unknown>);
}

test.describe("browsing", () => {
  test("Power Tools → Cordless Drills → Combi Drills by links, with breadcrumbs and structured data", async ({ page }) => {
    await openPage(page, "/");
    await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Power Tools" }).click();
    await expect(page).toHaveURL("/category/power-tools");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Power Tools");

    await page.getByRole("navigation", { name: "Within Power Tools" }).getByRole("link", { name: "Cordless Drills" }).click();
    await expect(page).toHaveURL("/category/power-tools/cordless-drills");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cordless Drills");

    await page.getByRole("navigation", { name: "Within Cordless Drills" }).getByRole("link", { name: "Combi Drills" }).click();
    await expect(page).toHaveURL("/category/power-tools/cordless-drills/combi-drills");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Combi Drills");
    await expect(page).toHaveTitle(/^Combi Drills \| /);

    const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.getByRole("link", { name: "Cordless Drills" })).toHaveAttribute("href", "/category/power-tools/cordless-drills");
    await expect(breadcrumb.locator("[aria-current=page]")).toHaveText("Combi Drills");
    const total = await resultTotal(page);
    expect(total).toBeGreaterThan(0);
    await expect(cards(page)).toHaveCount(Math.min(total, 24));

    // Head: a canonical address, Open Graph and a BreadcrumbList.
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/category\/power-tools\/cordless-drills\/combi-drills$/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Combi Drills");
    const [breadcrumbs] = (await jsonLd(page)).filter((d) => d["@type"] === "BreadcrumbList");
    const items = (breadcrumbs as { itemListElement: { name: string; position: number }[] }).itemListElement;
    expect(items.map((i) => i.name)).toEqual(["Home", "Categories", "Power Tools", "Cordless Drills", "Combi Drills"]);
  });

  test("/category lists the whole tree", async ({ page }) => {
    await openPage(page, "/category");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 2, name: "Power Tools" })).toBeVisible();
    await expect(main.getByRole("link", { name: "Combi Drills" })).toHaveAttribute("href", "/category/power-tools/cordless-drills/combi-drills");
  });
});

test.describe("filters, sort and pages live in the address", () => {
  test("a brand and then a specification narrow the list; a reload keeps them; a chip takes one off", async ({ page }) => {
    await openPage(page, "/category/power-tools/cordless-drills");
    const all = await resultTotal(page);
    expect(all).toBeGreaterThan(4);

    const filters = page.getByRole("complementary", { name: "Filters" });
    await filters.getByRole("checkbox", { name: /^DeWalt/ }).check();
    await expect(page).toHaveURL(/[?&]manufacturer=\d+$/);
    await expect.poll(() => resultTotal(page)).toBeLessThan(all);
    const dewalt = await resultTotal(page);
    for (const brand of await cards(page).getByText("DeWalt", { exact: true }).all()) await expect(brand).toBeVisible();
    await expect(cards(page)).toHaveCount(dewalt);

    await filters.getByRole("group", { name: "Voltage" }).getByRole("checkbox", { name: /^18V/ }).check();
    await expect(page).toHaveURL(/manufacturer=\d+&attr=Voltage%3A18V$/);
    await expect.poll(() => resultTotal(page)).toBeLessThan(dewalt);
    const narrowed = await resultTotal(page);
    expect(narrowed).toBeGreaterThan(0);

    // The address alone gives the same page.
    await page.reload();
    await expect(filters.getByRole("checkbox", { name: /^DeWalt/ })).toBeChecked();
    await expect(filters.getByRole("checkbox", { name: /^18V/ })).toBeChecked();
    expect(await resultTotal(page)).toBe(narrowed);

    await page.getByRole("link", { name: "Remove filter Voltage: 18V" }).click();
    await expect(page).toHaveURL(/[?&]manufacturer=\d+$/);
    await expect.poll(() => resultTotal(page)).toBe(dewalt);
    await expect(filters.getByRole("checkbox", { name: /^18V/ })).not.toBeChecked();
  });

  test("a price range with nothing in it offers to clear the filters", async ({ page }) => {
    await openPage(page, "/category/power-tools/cordless-drills");
    const filters = page.getByRole("complementary", { name: "Filters" });
    await filters.getByLabel("Min (£)").fill("5000");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL("/category/power-tools/cordless-drills?price_min=5000");
    await expect(page.getByText("No products match these filters.")).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Clear all filters" }).first().click();
    await expect(page).toHaveURL("/category/power-tools/cordless-drills");
    await expect.poll(() => resultTotal(page)).toBeGreaterThan(0);
    await expect(filters.getByLabel("Min (£)")).toHaveValue("");
  });

  test("sort by price, low to high", async ({ page }) => {
    await openPage(page, "/category/power-tools");
    await page.getByLabel("Sort by").selectOption({ label: "Price: low to high" });
    await expect(page).toHaveURL("/category/power-tools?sort=price_asc");
    await expect(page.getByLabel("Sort by")).toHaveValue("price_asc");
    await expect.poll(async () => {
      const prices = await pricesOf(cards(page));
      return prices.length > 1 && prices.every((p, i) => i === 0 || prices[i - 1]! <= p);
    }).toBe(true);
    const prices = await pricesOf(cards(page));
    expect(prices[0]).toBeLessThan(prices[prices.length - 1]!);
  });

  test("a sort and a filter chosen while the scripts are still loading are carried out once they run", async ({ page }) => {
    let release!: () => void;
    const scriptsMayLoad = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await scriptsMayLoad;
      await route.continue();
    });
    await page.goto("/category/power-tools", { waitUntil: "commit" });
    await page.getByLabel("Sort by").selectOption({ label: "Price: low to high" });
    await page.getByTestId("filters").getByRole("checkbox", { name: /^In stock only/ }).check();
    await expect(page).toHaveURL("/category/power-tools");
    release();
    await expect(page).toHaveURL("/category/power-tools?in_stock=1&sort=price_asc");
    await expect(page.getByLabel("Sort by")).toHaveValue("price_asc");
    await expect(page.getByTestId("filters").getByRole("checkbox", { name: /^In stock only/ })).toBeChecked();
  });

  test("/products pages forwards and back by links", async ({ page }) => {
    await openPage(page, "/products");
    const total = await resultTotal(page);
    expect(total).toBeGreaterThan(24);
    const pages = page.getByRole("navigation", { name: "Result pages" });
    const first = await cards(page).first().getByRole("heading").textContent();

    await expect(pages.getByRole("link", { name: "Next" })).toHaveAttribute("rel", "next");
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL("/products?page=2");
    await expect(page.getByTestId("result-count")).toHaveText(`25–48 of ${total} products`);
    await expect(pages.locator("[aria-current=page]")).toHaveText("Page 2");
    await expect(cards(page).first().getByRole("heading")).not.toHaveText(first!);

    const last = Math.ceil(total / 24);
    await pages.getByRole("link", { name: `Page ${last}`, exact: true }).click();
    await expect(page).toHaveURL(`/products?page=${last}`);
    await expect(cards(page)).toHaveCount(total - (last - 1) * 24);
    await expect(pages.getByRole("link", { name: "Next" })).toHaveCount(0);

    await pages.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(`/products?page=${last - 1}`);
  });

  test("an address the page cannot use is shown honestly, not as an error", async ({ page }) => {
    const response = await page.goto("/products?sort=cheapest&page=abc&price_min=lots");
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId("listing-problems")).toContainText("the sort order");
    await expect(cards(page).first()).toBeVisible();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the filter form is a plain GET form", async ({ page }) => {
      await page.goto("/category/power-tools/cordless-drills");
      const all = await resultTotal(page);
      const filters = page.getByRole("complementary", { name: "Filters" });
      await filters.getByRole("checkbox", { name: /^Makita/ }).check();
      await filters.getByRole("checkbox", { name: /^In stock only/ }).check();
      await filters.getByRole("button", { name: "Apply filters" }).click();
      await expect(page).toHaveURL(/\?in_stock=1&price_min=&price_max=&manufacturer=\d+&sort=relevance$/);
      expect(await resultTotal(page)).toBeLessThan(all);
      await expect(filters.getByRole("checkbox", { name: /^Makita/ })).toBeChecked();
    });
  });
});

test.describe("search", () => {
  test("“makta dril” finds Makita drills", async ({ page }) => {
    await openPage(page, "/");
    const box = page.getByRole("banner").getByRole("searchbox").first();
    await box.fill("makta dril");
    await box.press("Enter");
    await expect(page).toHaveURL("/search?q=makta+dril");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search results for “makta dril”");
    const names = await cards(page).getByRole("heading").allTextContents();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toContain("Makita");
    expect(names.some((n) => /drill/i.test(n))).toBe(true);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, follow");
  });

  test("no results offers a did-you-mean that searches again", async ({ page }) => {
    await openPage(page, "/search?q=hammmer+drillz+qqq");
    await expect(page.getByText("No products found for “hammmer drillz qqq”.")).toBeVisible();
    const suggestion = page.getByTestId("did-you-mean").getByRole("link");
    const words = (await suggestion.textContent())!;
    expect(words.length).toBeGreaterThan(0);
    await suggestion.click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Search results for “${words}”`);
    await expect.poll(() => resultTotal(page)).toBeGreaterThan(0);
  });

  test("an empty search says what to do", async ({ page }) => {
    await openPage(page, "/search?q=++");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search");
    await expect(page.getByText("What are you looking for?")).toBeVisible();
  });
});

test.describe("product page", () => {
  test("shows prices inc and ex VAT, stock, the specification, the gallery and JSON-LD that parses", async ({ page, request }) => {
    // A combi drill that still shows its two drawn pictures (the demo start gives some products a real photo instead).
    const listed = (await (await request.get("/api/products", { params: { category: "power-tools/cordless-drills/combi-drills", per_page: 48 } })).json()) as { items: { slug: string; image: { src: string } | null }[] };
    const slug = listed.items.find((p) => p.image?.src.endsWith("/1.svg"))!.slug;
    const product = ((await (await request.get(`/api/products/${slug}`)).json()) as {
      data: { name: string; sku: string; price: number; price_ex_vat: number; was_price: number | null; in_stock: boolean; attributes: { name: string; value: string }[] };
    }).data;

    await openPage(page, `/product/${slug}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(product.name);
    await expect(page).toHaveTitle(`${product.name} (${product.sku}) | Tradecounter`);
    await expect(main.getByTestId("price-inc-vat").first()).toHaveText(gbp.format(product.price));
    await expect(main.getByTestId("price-ex-vat").first()).toHaveText(`ex VAT ${gbp.format(product.price_ex_vat)}`);
    if (product.was_price) await expect(main.getByTestId("was-price").first()).toHaveText(`Was ${gbp.format(product.was_price)}`);
    await expect(main.getByTestId("stock-status").first()).toContainText(product.in_stock ? "In stock" : "Out of stock");
    await expect(main.getByTestId("product-sku")).toHaveText(product.sku);
    await expect(main.getByTestId("product-brand")).toHaveAttribute("href", /^\/manufacturer\/\d+$/);

    const spec = main.getByRole("table");
    for (const a of product.attributes) {
      await expect(spec.getByRole("row", { name: new RegExp(`^${a.name}`) }).getByRole("cell")).toHaveText(a.value);
    }
    await expect(main.getByTestId("description").locator("li").first()).toBeVisible();

    const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.getByRole("link", { name: "Combi Drills" })).toHaveAttribute("href", "/category/power-tools/cordless-drills/combi-drills");

    const data = await jsonLd(page);
    const item = data.find((d) => d["@type"] === "Product") as { name: string; sku: string; offers: { price: string; priceCurrency: string; availability: string } };
    expect(item.name).toBe(product.name);
    expect(item.sku).toBe(product.sku);
    expect(item.offers.priceCurrency).toBe("GBP");
    expect(Number(item.offers.price)).toBe(product.price);
    expect(item.offers.availability).toBe(product.in_stock ? "https://schema.org/InStock" : "https://schema.org/OutOfStock");
    expect(data.some((d) => d["@type"] === "BreadcrumbList")).toBe(true);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "product");

    // The second picture by its thumbnail; the address says which.
    const mainImage = page.getByTestId("gallery-main");
    await expect(mainImage).toHaveAttribute("src", `/images/products/${slug}/1.svg`);
    await page.getByRole("link", { name: "Show picture 2 of 2" }).click();
    await expect(page).toHaveURL(`/product/${slug}?image=2`);
    await expect(mainImage).toHaveAttribute("src", `/images/products/${slug}/2.svg`);

    // Related products lead to their own pages.
    const related = page.getByRole("region", { name: "Related products" }).getByTestId("product-card");
    await expect(related.first()).toBeVisible();
  });

  test("a 0% or 5% VAT product says so", async ({ page, request }) => {
    const found = (await (await request.get("/api/search?q=grab+rail")).json()) as { items: { slug: string; vat_rate: number }[] };
    const reduced = found.items.find((i) => i.vat_rate === 5);
    test.skip(!reduced, "the demo shop has no 5% product matching “grab rail”");
    await openPage(page, `/product/${reduced!.slug}`);
    await expect(page.getByRole("main").getByText("Reduced VAT rate (5%)").first()).toBeVisible();
  });

  test.describe("unknown product", () => {
    test.use({ allowedConsoleErrors: [/^console error: Failed to load resource: the server responded with a status of 404 \(Not Found\)$/] });

    test("answers with the 404 page", async ({ page }) => {
      const response = await page.goto("/product/no-such-product");
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle("Error 404 | Tradecounter");
      await expect(page.getByTestId("error-message")).toHaveText("Page Not Found: /product/no-such-product");
    });

    test("an unknown brand answers 404 too", async ({ page }) => {
      const response = await page.goto("/manufacturer/999999");
      expect(response?.status()).toBe(404);
      await expect(page.getByTestId("error-message")).toHaveText("Page Not Found: /manufacturer/999999");
    });
  });
});

test.describe("brands", () => {
  test("/manufacturer lists brands with counts; a brand's page lists its products", async ({ page }) => {
    await openPage(page, "/manufacturer");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Brands");
    const brands = page.getByTestId("brand-grid").getByRole("link");
    expect(await brands.count()).toBeGreaterThanOrEqual(20);
    const makita = brands.filter({ has: page.getByRole("heading", { name: "Makita", exact: true }) });
    await expect(makita.locator("img")).toHaveAttribute("src", "/images/brands/makita.svg");
    const count = Number(/(\d+) products?/.exec((await makita.textContent()) ?? "")![1]);
    expect(count).toBeGreaterThan(0);

    await makita.click();
    await expect(page).toHaveURL(/\/manufacturer\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Makita");
    expect(await resultTotal(page)).toBe(count);
    const shownBrands = await cards(page).getByTestId("card-brand").allTextContents();
    expect(shownBrands.length).toBe(Math.min(count, 24));
    for (const b of shownBrands) expect(b).toBe("Makita");
    // The brand is the page: no brand filter to widen it.
    await expect(page.getByRole("complementary", { name: "Filters" }).getByRole("group", { name: "Brand" })).toHaveCount(0);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  for (const path of ["/", "/products", "/category/power-tools/cordless-drills?manufacturer=1", "/search?q=makta+dril", "/product/milwaukee-12v-brushless-combi-drill", "/manufacturer", "/manufacturer/1"]) {
    test(`${path} does not scroll sideways`, async ({ page }) => {
      await openPage(page, path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
    });
  }

  test("the filters sit in a disclosure that opens and filters", async ({ page }) => {
    await openPage(page, "/category/power-tools/cordless-drills");
    const all = await resultTotal(page);
    const brand = page.getByRole("checkbox", { name: /^Bosch/ });
    await expect(brand).toBeHidden();
    await page.getByTestId("filters").locator("summary").first().click();
    await expect(brand).toBeVisible();
    await brand.check();
    await expect(page).toHaveURL(/manufacturer=\d+$/);
    await expect.poll(() => resultTotal(page)).toBeLessThan(all);
    // The disclosure stays open for the next choice.
    await expect(brand).toBeChecked();
    await expect(brand).toBeVisible();
  });
});
