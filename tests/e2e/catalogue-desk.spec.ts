// The catalogue desk (issue 20) in a real browser against the production
// build: a manager creates a product, gives it two photos (JPEGs made here with
// sharp, put through the real upload pipeline), describes them, publishes it,
// and finds it on the storefront with its photos and in search; then changes
// its price and web address and sees the storefront follow at once.
import sharp from "sharp";
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";

/** A small photo-like JPEG: a gradient with a block of colour, `hue` apart. */
async function photo(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 60% 85%)"/><stop offset="1" stop-color="hsl(${hue} 50% 35%)"/></linearGradient></defs><rect width="800" height="600" fill="url(#g)"/><rect x="250" y="180" width="300" height="240" rx="30" fill="hsl(${(hue + 180) % 360} 70% 45%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

// The draft's product page answers 404, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 404/] });

test("a manager adds a product with two photos, publishes it, and changes its price and address", async ({ browser, page }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const sku = `E2E-${stamp}`;
  const name = `Zephyr Cordless Planer ${stamp}`;
  const desk = await staffPage(browser, "manager@staff.example.com");

  await test.step("create it as a draft, with the inc-VAT price shown as it will appear", async () => {
    await openPage(desk, "/admin/products");
    await desk.getByRole("link", { name: "Add a product" }).click();
    await desk.getByLabel("Name", { exact: true }).fill(name);
    await desk.getByLabel("SKU", { exact: true }).fill(sku);
    await desk.getByLabel("Price ex VAT (£)", { exact: true }).fill("49.99");
    await expect(desk.getByTestId("price-inc-vat")).toHaveText("£59.99");
    await desk.getByLabel("Opening stock").fill("12");
    await desk.getByRole("checkbox", { name: "Sanders" }).check();
    await desk.getByLabel("Attribute 1 name").fill("Voltage");
    await desk.getByLabel("Attribute 1 value").fill("18V");
    await desk.getByRole("button", { name: "Create the product" }).click();
    await expect(desk.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(desk.getByTestId("result-banner")).toContainText("Product created as a draft");
  });

  const slug = name.toLowerCase().replaceAll(" ", "-");
  await test.step("a draft is nowhere on the storefront", async () => {
    const answer = await page.goto(`/product/${slug}`);
    expect(answer?.status()).toBe(404);
  });

  await test.step("two photos uploaded and described", async () => {
    await desk.getByRole("link", { name: "Photos (0)" }).click();
    await desk.getByLabel("Drop photos here, or choose them").setInputFiles([
      { name: "planer-front.jpg", mimeType: "image/jpeg", buffer: await photo(20) },
      { name: "planer-side.jpg", mimeType: "image/jpeg", buffer: await photo(200) },
    ]);
    await desk.getByRole("button", { name: "Upload" }).click();
    await expect(desk.getByTestId("photo-list").getByRole("listitem")).toHaveCount(2);
    for (const [i, alt] of [`${name}, front`, `${name}, from the side`].entries()) {
      const item = desk.getByTestId("photo-list").getByRole("listitem").nth(i);
      await item.getByLabel("Alt text").fill(alt);
      await item.getByRole("button", { name: "Save alt text" }).click();
      await expect(desk.getByTestId("result-banner")).toBeVisible();
      await expect(desk.getByTestId("photo-list").getByRole("listitem").nth(i).getByLabel("Alt text")).toHaveValue(alt);
    }
  });

  await test.step("published, it is on the storefront with its photos, and search finds it", async () => {
    await desk.getByRole("link", { name: sku }).click();
    await desk.getByLabel("Shown on the shop").selectOption("published");
    await desk.getByRole("button", { name: "Save changes" }).click();
    await expect(desk.getByTestId("result-banner")).toHaveText("Saved. It is on the shop now.");

    await openPage(page, `/product/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    const main = page.getByTestId("gallery").locator("picture").first();
    await expect(main.locator('source[type="image/avif"]')).toHaveAttribute("srcset", /\/media\/.+\.avif \d+w/);
    await expect(main.locator("img")).toHaveAttribute("alt", `${name}, front`);
    await expect(page.getByRole("link", { name: /Show picture 2 of 2/ })).toBeVisible();
    // The photo really loads, from the hashed and immutable URL.
    const src = await main.locator("img").getAttribute("src");
    const image = await page.request.get(src!);
    expect(image.status()).toBe(200);
    expect(image.headers()["cache-control"]).toContain("immutable");

    await openPage(page, `/search?q=${encodeURIComponent(`zephyr planer ${stamp}`)}`);
    await expect(page.getByRole("link", { name }).first()).toBeVisible();
  });

  await test.step("a new price shows on the next page; an old address redirects to the new one", async () => {
    await desk.getByLabel("Price ex VAT (£)", { exact: true }).fill("39.99");
    await expect(desk.getByTestId("price-inc-vat")).toHaveText("£47.99");
    await desk.getByLabel("Web address", { exact: true }).fill(`${slug}-mk2`);
    // The banner reads as it did after publishing: wait for this save's answer, not for the banner.
    const saved = desk.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(`/admin/products/${sku}`));
    await desk.getByRole("button", { name: "Save changes" }).click();
    expect((await saved).ok()).toBe(true);
    await expect(desk.getByTestId("result-banner")).toHaveText("Saved. It is on the shop now.");

    await openPage(page, `/product/${slug}`);
    await expect(page).toHaveURL(new RegExp(`/product/${slug}-mk2$`));
    await expect(page.getByTestId("price").first()).toContainText("£47.99");
  });

  await test.step("a refused save keeps what was typed and names the field", async () => {
    await desk.getByLabel("Price ex VAT (£)", { exact: true }).fill("-5");
    await desk.getByRole("button", { name: "Save changes" }).click();
    await expect(desk.getByTestId("result-banner")).toContainText("Nothing was saved");
    await expect(desk.getByText("The price cannot be negative.")).toBeVisible();
    await expect(desk.getByLabel("Price ex VAT (£)", { exact: true })).toHaveValue("-5");
  });
});

test("a manager imports a CSV with one bad row, reads the report, imports the valid rows and sees the import finish", async ({ browser, page }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const listed = await page.request.get("/api/products", { params: { per_page: 1, sort: "name" } });
  const existing = ((await listed.json()) as { items: { sku: string; slug: string; price_ex_vat: number }[] }).items[0]!;
  const newPrice = (existing.price_ex_vat + 1.11).toFixed(2);
  const csv = [
    "sku,name,price_ex_vat,vat_rate,stock",
    `CSV-${stamp}-1,Imported Trowel ${stamp},12.50,20,7`,
    `CSV-${stamp}-2,Imported Float ${stamp},8.25,20,3`,
    `${existing.sku},,${newPrice},,`,
    `CSV-${stamp}-3,Imported Hawk ${stamp},-3,20,1`,
  ].join("\r\n");
  const desk = await staffPage(browser, "manager@staff.example.com");

  await test.step("the dry run reports the refused row by row and column, and nothing changes", async () => {
    await openPage(desk, "/admin/products");
    await desk.getByRole("link", { name: "Import CSV" }).click();
    await desk.getByLabel(/CSV file/).setInputFiles({ name: "catalogue.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await desk.getByRole("button", { name: "Check the file" }).click();
    const refused = desk.getByTestId("refused-rows");
    await expect(refused).toContainText("5");
    await expect(refused).toContainText("price_ex_vat");
    await expect(refused).toContainText("cannot be negative");
    await expect(desk.getByTestId("changed-rows")).toContainText(existing.sku);
    await expect(desk.getByRole("button", { name: "Import", exact: true })).toBeDisabled();
    const product = await page.request.get(`/api/products/${existing.slug}`);
    expect(((await product.json()) as { data: { price_ex_vat: number } }).data.price_ex_vat).toBe(existing.price_ex_vat);
  });

  await test.step("the valid rows imported, the bar full, the storefront's price changed", async () => {
    await desk.getByRole("button", { name: "Import the valid rows (3)" }).click();
    const bar = desk.getByRole("progressbar");
    await expect(bar).toHaveAttribute("aria-valuenow", "100");
    await expect(desk.getByTestId("import-progress")).toContainText("Imported");
    await expect(desk.getByTestId("result-banner")).toContainText("Imported 2 new and 1 changed products, leaving out 1 refused rows");
    const product = await page.request.get(`/api/products/${existing.slug}`);
    expect(((await product.json()) as { data: { price_ex_vat: number } }).data.price_ex_vat).toBe(Number(newPrice));
    await openPage(desk, `/admin/products?q=CSV-${stamp}&status=draft`);
    await expect(desk.getByRole("link", { name: `Imported Trowel ${stamp}` })).toBeVisible();
    await expect(desk.getByRole("link", { name: `Imported Hawk ${stamp}` })).toHaveCount(0);
  });
});
