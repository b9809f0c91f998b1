// The products and stock of the counter (issue 34) in a real browser against
// the production build: a manager creates a product with a photo chosen on
// the form itself, a description formatted in the rich-text editor and a
// subcategory found with the category search, published in one go; then the
// warehouse receives a delivery of two products through the scanner field.
// axe runs over each changed screen.
import sharp from "sharp";
import { openPage } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { PASSWORD, staffPage } from "./staff-helpers.ts";

async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#d9c7a3"/><rect x="250" y="180" width="300" height="240" rx="30" fill="#1f5f8b"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

test("a manager creates a product with its photo, a formatted description and a subcategory; the warehouse scans a delivery in", async ({ browser, page }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const sku = `CTR-${stamp}`;
  const name = `Vanta Combi Drill ${stamp}`;
  const desk = await staffPage(browser, "manager@staff.example.com");

  await test.step("the new-product form: category search, rich text and a photo, accessible", async () => {
    await openPage(desk, "/admin/products/new");
    await expect(desk.getByRole("toolbar", { name: "Description: formatting" })).toBeVisible();
    await expectAccessible(desk, "/admin/products/new");
    await desk.getByLabel("Name", { exact: true }).fill(name);
    await desk.getByLabel("SKU", { exact: true }).fill(sku);
    await desk.getByLabel("Price ex VAT (£)", { exact: true }).fill("99.00");
    await desk.getByLabel("Shown on the shop").selectOption("published");
    await desk.getByLabel("Bin location").fill("A3-B2-S1");

    const editor = desk.getByRole("textbox", { name: "Description", exact: true });
    await editor.click();
    await desk.keyboard.type("Brushless and ");
    await desk.getByRole("button", { name: "Bold" }).click();
    await desk.keyboard.type("light");
    await desk.getByRole("button", { name: "Bold" }).click();
    await desk.keyboard.press("Enter");
    await desk.getByRole("button", { name: "Bulleted list" }).click();
    await desk.keyboard.type("Two batteries");
    await expect(desk.getByRole("button", { name: "Bulleted list" })).toHaveAttribute("aria-pressed", "true");

    await desk.getByLabel("Find a category").fill("combi");
    const tree = desk.getByTestId("category-tree");
    await expect(tree.getByRole("checkbox", { name: /Combi Drills/ })).toBeVisible();
    // Its parents stay in view, the rest go.
    await expect(tree.getByRole("checkbox", { name: /^Cordless Drills/ })).toBeVisible();
    await expect(tree.getByRole("checkbox", { name: /^Power Tools/ })).toBeVisible();
    await expect(tree.getByRole("checkbox", { name: /Drill Drivers/ })).toBeHidden();
    await tree.getByRole("checkbox", { name: /Combi Drills/ }).check();
    await expect(desk.getByTestId("chosen-categories")).toContainText("Power Tools › Cordless Drills › Combi Drills");

    await desk.getByLabel("Photo 1", { exact: true }).setInputFiles({ name: "vanta.jpg", mimeType: "image/jpeg", buffer: await photo() });
    await desk.getByLabel("Photo 1: what it shows (alt text)").fill(`${name}, with its battery`);
    await desk.getByRole("button", { name: "Create the product" }).click();
    await expect(desk.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(desk.getByTestId("result-banner")).toHaveText(/Product created with its photo and on the shop now\./);
    await expect(desk.getByTestId("result-banner")).not.toContainText("publish");
    await expect(desk.getByRole("link", { name: "Photos (1)" })).toBeVisible();
    await expect(desk.getByLabel("Bin location")).toHaveValue("A3-B2-S1");
    await expectAccessible(desk, "/admin/products/:sku");
  });

  await test.step("the storefront shows it with its photo, formatted description and category", async () => {
    await openPage(page, `/product/${name.toLowerCase().replaceAll(" ", "-")}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page.getByTestId("description").locator("strong")).toHaveText("light");
    await expect(page.getByTestId("description").locator("ul li")).toHaveText("Two batteries");
    await expect(page.getByRole("img", { name: `${name}, with its battery` }).first()).toBeVisible();
  });

  const warehouse = await staffPage(browser, "warehouse@staff.example.com");
  await test.step("two products scanned in, one of them twice, and booked in one go", async () => {
    await openPage(warehouse, "/admin/stock");
    await expectAccessible(warehouse, "/admin/stock");
    const scan = warehouse.getByLabel("Scan or type a barcode or SKU, then Enter");
    await scan.fill(sku);
    await scan.press("Enter");
    await expect(warehouse.getByRole("status").filter({ hasText: `${name} added` })).toBeVisible();
    await expect(scan).toBeFocused();
    await expect(scan).toHaveValue("");
    await scan.fill(sku.toLowerCase());
    await scan.press("Enter");
    await expect(warehouse.getByLabel("Row 1 quantity")).toHaveValue("2");
    await scan.fill("BOS-1017");
    await scan.press("Enter");
    await expect(warehouse.getByLabel("Row 2 product")).toHaveValue("BOS-1017");
    await expect(warehouse.getByTestId("desk-row-product").nth(1)).toContainText(/Bosch .* in stock at /);
    await expect(scan).toBeFocused();

    // A row by lookup: typing part of a name offers the product with its stock.
    await warehouse.getByLabel("Row 3 product").fill("vanta combi");
    await expect(warehouse.getByRole("option", { name: new RegExp(name) })).toBeVisible();
    await expect(warehouse.getByRole("option", { name: new RegExp(name) })).toContainText("0 in stock at");
    await warehouse.getByLabel("Row 3 product").press("Escape");
    await warehouse.getByLabel("Row 3 product").fill("");

    await warehouse.getByLabel("Delivery note or purchase order").fill("DN-COUNTER");
    await warehouse.getByRole("button", { name: "Book the delivery in" }).click();
    const banner = warehouse.getByTestId("result-banner");
    await expect(banner).toContainText("Delivery received: 2 products booked in.");
    await expect(banner).toContainText(new RegExp(`${sku} ${name}( at [^:]+)?: 0 → 2`));
    await expect(banner).toContainText("BOS-1017");
    await expectAccessible(warehouse, "/admin/stock after booking");
  });

  await test.step("a row the books do not know is refused by its row, and nothing is booked", async () => {
    await warehouse.getByLabel("Row 1 product").fill("NO-SUCH-SKU");
    await warehouse.getByLabel("Row 1 quantity").fill("3");
    await warehouse.getByRole("button", { name: "Add row" }).click();
    await warehouse.getByLabel("Row 6 product").fill(sku);
    await warehouse.getByLabel("Row 6 quantity").fill("1");
    await warehouse.getByRole("button", { name: "Book the delivery in" }).click();
    await expect(warehouse.getByTestId("result-banner")).toContainText("Nothing was recorded");
    await expect(warehouse.getByText("Row 1: no product has the SKU NO-SUCH-SKU.")).toBeVisible();
    await expect(warehouse.getByLabel("Row 6 product")).toHaveValue(sku);
    await expectAccessible(warehouse, "/admin/stock refused");
  });
});

test("without scripts the description is a textarea and the stock desk has plain rows", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await openPage(page, "/admin/login");
  await page.getByLabel("Email address").fill("manager@staff.example.com");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  await openPage(page, "/admin/products/new");
  await expect(page.getByRole("toolbar")).toHaveCount(0);
  await expect(page.getByLabel("Description", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Find a category")).toHaveCount(0);
  await expect(page.getByTestId("category-tree").getByRole("checkbox", { name: /Combi Drills/ })).toBeVisible();

  await openPage(page, "/admin/stock");
  await expect(page.getByLabel("Scan or type a barcode or SKU, then Enter")).toHaveCount(0);
  await expect(page.getByTestId("desk-row")).toHaveCount(5);
  await page.getByLabel("Row 1 product").fill("BOS-1017");
  await page.getByLabel("Row 1 quantity").fill("1");
  await page.getByRole("button", { name: "Book the delivery in" }).click();
  await expect(page.getByTestId("result-banner")).toContainText("Delivery received: 1 product booked in.");
  await context.close();
});
