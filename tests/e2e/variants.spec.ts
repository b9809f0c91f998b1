// Variants and units in a real browser (issue 29): a customer picks a size
// and a colour of paint and sees the price, stock, SKU and address follow;
// works out tiles for 12.5 m² with the calculator, puts that many in the
// basket and checks out; a manager gives a new product two options and six
// variants and finds it on the storefront; compare shows a range or the
// chosen variant's figures. axe on the product page's picker.
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";
import { expectAccessible } from "./axe.ts";

const PAINT = "/product/trade-vinyl-matt-emulsion";
const TILES = "/product/porcelain-floor-tile-600-600-mm";

// The new product's page answers 404 while it is a draft, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 404/] });

test("a customer picks a size and a colour, uses the calculator for 12.5 m² of tiles, and checks out both", async ({ page }) => {
  test.slow();
  await test.step("paint: no choice yet, a price from the cheapest, and the basket asks for one", async () => {
    await openPage(page, PAINT);
    await expect(page.getByText("From", { exact: true })).toBeVisible();
    await expect(page.getByTestId("price-inc-vat").first()).toHaveText("£21.59");
    await expect(page.getByRole("button", { name: "Choose a size" })).toBeDisabled();
  });

  await test.step("5 L: the price and SKU change in place and the address follows", async () => {
    await page.getByRole("link", { name: "5 L", exact: true }).click();
    await expect(page).toHaveURL(/\?variant=TCL-EMUL-5L-BRILLIANTWHITE$/);
    await expect(page.getByTestId("product-sku")).toHaveText("TCL-EMUL-5L-BRILLIANTWHITE");
    await expect(page.getByTestId("price-inc-vat").first()).toHaveText("£35.99");
    await expect(page.getByRole("link", { name: "5 L (chosen)" })).toHaveAttribute("aria-current", "true");
  });

  await test.step("a colour sold out in 5 L says so; Soft Grey is chosen from the list", async () => {
    const colour = page.getByLabel("Colour");
    await expect(colour.locator("option", { hasText: "Charcoal" })).toHaveText("Charcoal (out of stock)");
    await colour.selectOption({ label: "Soft Grey" });
    await expect(page).toHaveURL(/\?variant=TCL-EMUL-5L-SOFTGREY$/);
    await expect(page.getByTestId("product-sku")).toHaveText("TCL-EMUL-5L-SOFTGREY");
    await expect(page.getByTestId("price-inc-vat").first()).toHaveText("£38.39");
    await expect(page.getByTestId("stock-status")).toContainText("In stock");
    // The variant's address is a page of its own, server-rendered with its own canonical.
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/product\/trade-vinyl-matt-emulsion\?variant=TCL-EMUL-5L-SOFTGREY$/);
    await page.getByRole("button", { name: "Add to basket" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText("Added 1 × Trade vinyl matt emulsion (5 L, Soft Grey) to your basket.");
  });

  await test.step("tiles: 12.5 m² with 10% for cuts is 10 packs, which go into the basket", async () => {
    await openPage(page, TILES);
    await expect(page.getByTestId("unit-price")).toHaveText("per pack · £22.91 per m² inc VAT");
    await page.getByRole("link", { name: "Grey", exact: true }).click();
    await expect(page).toHaveURL(/\?variant=TCL-PT6060$/);
    await page.getByLabel("Area (m²)").fill("12.5");
    await expect(page.getByLabel("Extra for cuts and waste (%)")).toHaveValue("10");
    await expect(page.getByTestId("coverage-result")).toHaveText("You need 10 packs (14.4 m²).");
    await page.getByRole("button", { name: "Use 10 packs" }).click();
    await expect(page.getByLabel("Quantity")).toHaveValue("10");
    await page.getByRole("button", { name: "Add to basket" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText("Added 10 packs of Porcelain floor tile 600 × 600 mm (Grey) to your basket.");
    await expect(page.getByTestId("basket-count")).toHaveText("11");
  });

  await test.step("the basket names each variant, and checkout takes them", async () => {
    await openPage(page, "/basket");
    const lines = page.getByTestId("basket-line");
    await expect(lines).toHaveCount(2);
    await expect(lines.filter({ hasText: "Trade vinyl matt emulsion" }).getByTestId("line-options")).toHaveText("Size: 5 L · Colour: Soft Grey");
    await expect(lines.filter({ hasText: "Porcelain floor tile" })).toContainText("per pack inc VAT");
    await openPage(page, "/checkout");
    await page.getByLabel("Email address").fill("variants-buyer@example.com");
    await page.getByLabel("Phone").fill("0113 496 0000");
    await page.getByLabel("Address line 1").fill("4 Timber Yard");
    await page.getByLabel("Town or city").fill("Leeds");
    await page.getByLabel("Postcode", { exact: true }).fill("LS1 4AP");
    await page.getByLabel("Postcode", { exact: true }).blur();
    await page.getByRole("radio", { name: /Click & collect/ }).check();
    await page.getByLabel("Name of the person collecting").fill("Vera Variant");
    await page.getByRole("radio", { name: /Bank transfer/ }).check();
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
    await expect(page.getByText("Trade vinyl matt emulsion (5 L, Soft Grey)")).toBeVisible();
    await expect(page.getByText("Porcelain floor tile 600 × 600 mm (Grey)")).toBeVisible();
  });
});

test("the product page with its picker passes axe, and a variant's address that does not exist is a 404", async ({ page }) => {
  await openPage(page, `${PAINT}?variant=TCL-EMUL-25L-MAGNOLIA`);
  await expect(page.getByTestId("variant-picker")).toBeVisible();
  await expectAccessible(page);
  const missing = await page.goto(`${PAINT}?variant=NO-SUCH-SKU`);
  expect(missing?.status()).toBe(404);
});

test("compare shows a product's price range, and a chosen variant's own figures", async ({ page }) => {
  await openPage(page, PAINT);
  await page.getByRole("button", { name: /Add Trade vinyl matt emulsion to compare/ }).click();
  await openPage(page, "/compare");
  const table = page.getByRole("region", { name: "Comparison table" });
  const price = table.getByRole("row", { name: /^Price inc VAT/ });
  await expect(price).toContainText(/£\d+\.\d\d – £\d+\.\d\d/);
  await expect(table.getByRole("row", { name: /^Variant/ })).toContainText("Any of 24");
  await table.getByRole("combobox", { name: "Variant of Trade vinyl matt emulsion" }).selectOption({ label: "5 L, Soft Grey" });
  await expect(page).toHaveURL(/[?&]v\d+=TCL-EMUL-5L-SOFTGREY/);
  await expect(price).not.toContainText("–");
  await expect(table).toContainText("SKU TCL-EMUL-5L-SOFTGREY");
  await expect(table.getByRole("row", { name: /^Variant/ })).toContainText("5 L, Soft Grey");
});

test("a manager gives a new product two options and six variants, and finds it on the storefront", async ({ browser, page }) => {
  test.slow();
  const stamp = Date.now().toString(36).toUpperCase();
  const sku = `VEST-${stamp}`;
  const name = `Hi-vis vest ${stamp}`;
  const desk = await staffPage(browser, "manager@staff.example.com");

  await test.step("create it, then its options: three sizes and two colours make six variants", async () => {
    await openPage(desk, "/admin/products/new");
    await desk.getByLabel("Name", { exact: true }).fill(name);
    await desk.getByLabel("SKU", { exact: true }).fill(sku);
    await desk.getByLabel("Price ex VAT (£)", { exact: true }).fill("4.99");
    await desk.getByLabel("Shown on the shop").selectOption("published");
    await desk.getByRole("checkbox", { name: "Hi-Vis" }).check();
    await desk.getByRole("button", { name: "Create the product" }).click();
    await expect(desk.getByRole("heading", { level: 1 })).toHaveText(name);
    await desk.getByRole("link", { name: "Options and variants (1)" }).click();
    await desk.getByLabel("Option 1 name").fill("Size");
    await desk.getByLabel("Its values, one per line").first().fill("M\nL\nXL");
    await desk.getByLabel("Option 2 name").fill("Colour");
    await desk.getByLabel("Its values, one per line").nth(1).fill("Yellow\nOrange");
    await desk.getByRole("button", { name: "Save options and make the variants" }).click();
    await expect(desk.getByTestId("result-banner")).toContainText("Options saved: 6 variants on sale. Made 5:");
    await expect(desk.getByTestId("variant-row")).toHaveCount(6);
  });

  await test.step("the XL orange one dearer and stocked, row by row", async () => {
    const row = desk.getByTestId("variant-row").filter({ hasText: "Size: XL, Colour: Orange" });
    await row.getByLabel("Price ex VAT of Size: XL, Colour: Orange", { exact: true }).fill("5.99");
    await row.getByLabel("Stock of Size: XL, Colour: Orange", { exact: true }).fill("8");
    await row.getByRole("button", { name: "Save Size: XL, Colour: Orange" }).click();
    await expect(desk.getByTestId("result-banner")).toHaveText(`${sku}-XL-ORANGE saved.`);
    const barcode = desk.getByTestId("variant-row").filter({ hasText: "Size: M, Colour: Orange" }).getByLabel("Barcode of Size: M, Colour: Orange");
    await barcode.fill("123");
    await desk.getByRole("button", { name: "Save Size: M, Colour: Orange" }).click();
    await expect(desk.getByTestId("result-banner")).toContainText("Nothing was saved");
    await expect(desk.getByText("That barcode is not a valid EAN or GTIN")).toBeVisible();
  });

  await test.step("on the storefront: one page, the picker, and the XL orange in stock at its price", async () => {
    await openPage(page, `/product/${name.toLowerCase().replaceAll(" ", "-")}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page.getByRole("group", { name: "Size" }).getByRole("link")).toHaveCount(3);
    await page.getByRole("link", { name: "XL", exact: true }).click();
    await page.getByRole("link", { name: /^Orange/ }).click();
    await expect(page).toHaveURL(new RegExp(`\\?variant=${sku}-XL-ORANGE$`));
    await expect(page.getByTestId("price-inc-vat").first()).toHaveText("£7.19");
    await expect(page.getByTestId("stock-status")).toContainText("In stock");
  });
});
