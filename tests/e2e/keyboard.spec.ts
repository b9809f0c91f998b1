// The keyboard alone (issue 8): the skip link, a search, a product, the
// basket and a guest checkout with the postcode lookup, with no mouse at all.
// Every stop on the way must show where focus is, and after each move to
// another page focus lands on its heading and its title is announced.
import type { Locator, Page } from "@playwright/test";
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, checking at each stop
 * that the focused element is drawn with a visible indicator. Fails after
 * `max` presses: a control the keyboard cannot reach.
 */
async function tabTo(page: Page, target: Locator, options: { max?: number; backwards?: boolean } = {}): Promise<void> {
  await expect(target).toBeVisible();
  const handle = await target.elementHandle();
  for (let i = 0; i < (options.max ?? 120); i++) {
    await page.keyboard.press(options.backwards ? "Shift+Tab" : "Tab");
    const stop = await page.evaluate((el) => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || active === document.body) return { there: false, visible: true, what: "body" };
      const style = getComputedStyle(active);
      const visible = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
      return { there: active === el, visible, what: `${active.tagName.toLowerCase()} ${active.getAttribute("aria-label") ?? active.textContent?.trim().slice(0, 40) ?? ""}` };
    }, handle);
    expect(stop.visible, `focus is visible on ${stop.what}`).toBe(true);
    if (stop.there) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Into a group of radios by Tab, then along it with the arrow keys (as a keyboard user does) until `name` is checked. */
async function chooseRadio(page: Page, group: Locator, name: RegExp): Promise<void> {
  await tabTo(page, group.getByRole("radio").first());
  const target = group.getByRole("radio", { name });
  for (let i = 0; i < 8 && !(await target.isChecked()); i++) await page.keyboard.press("ArrowDown");
  await expect(target).toBeChecked();
}

/** After a move to another page: focus on its main heading, and its title in the live region. */
async function arrivedAt(page: Page, heading: string | RegExp): Promise<void> {
  const h1 = page.getByRole("main").getByRole("heading", { level: 1 });
  await expect(h1).toHaveText(heading);
  await expect(h1).toBeFocused();
  await expect(page.getByTestId("route-announcer")).toHaveText(await page.title());
}

test("search → product → basket → guest checkout with the keyboard alone", async ({ page }) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage(page, "/");

  // The first stop is the skip link, and it leads into the main content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();

  // Back up into the header's search, and search.
  await tabTo(page, page.getByRole("searchbox", { name: "Search products" }).first(), { backwards: true });
  await page.keyboard.type("drill");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=drill/);
  await arrivedAt(page, /drill/i);

  // The first result in stock.
  const { items } = (await (await page.request.get("/api/products", { params: { q: "drill", in_stock: 1, per_page: 24 } })).json()) as { items: { name: string; slug: string; stock: number }[] };
  const product = items.find((p) => p.stock >= 3 && p.stock < 900)!;
  expect(product, "a drill with stock").toBeDefined();
  await tabTo(page, page.getByRole("main").getByTestId("product-card").getByRole("link", { name: product.name, exact: true }), { max: 400 });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/product/${product.slug}`);
  await arrivedAt(page, product.name);

  // Two of it into the basket.
  const form = page.getByRole("form", { name: `Add ${product.name} to basket` });
  await tabTo(page, form.getByLabel("Quantity"));
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("2");
  await tabTo(page, form.getByRole("button", { name: "Add to basket" }));
  await page.keyboard.press("Enter");
  await expect(form.getByRole("status")).toHaveText(`Added 2 × ${product.name} to your basket. View basket`);
  await tabTo(page, form.getByRole("link", { name: "View basket" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/basket");
  await arrivedAt(page, "Your basket");
  await expect(page.getByRole("article", { name: product.name }).getByLabel("Quantity")).toHaveValue("2");

  // Checkout.
  await tabTo(page, page.getByRole("main").getByRole("link", { name: "Checkout", exact: true }));
  await page.keyboard.press("Enter");
  await arrivedAt(page, "Checkout");
  await tabTo(page, page.getByLabel("Email address"));
  await page.keyboard.type(`keys.${Date.now()}@example.co.uk`);
  await tabTo(page, page.getByLabel("Phone"));
  await page.keyboard.type("0113 496 0002");
  await tabTo(page, page.getByLabel("Full name"));
  await page.keyboard.type("Kit Keys");
  await tabTo(page, page.getByLabel("Find your address by postcode"));
  await page.keyboard.type("ls1 1aa");
  await tabTo(page, page.getByRole("button", { name: "Find address" }));
  await page.keyboard.press("Enter");
  const choose = page.getByLabel("Choose your address");
  await tabTo(page, choose);
  await page.keyboard.press("ArrowDown");
  await expect(page.getByLabel("Town or city")).toHaveValue("Leeds");
  await expect(page.getByLabel("Postcode", { exact: true })).toHaveValue("LS1 1AA");
  await chooseRadio(page, page.getByRole("group", { name: "Delivery method" }), /Standard delivery/);
  await chooseRadio(page, page.getByRole("group", { name: "Payment" }), /Bank transfer/);
  await tabTo(page, page.getByRole("button", { name: "Place order" }));
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeFocused();
  await expect(page.getByText(product.name)).toBeVisible();
});

test("a change of filters keeps focus on the filter; a move to another page takes it to the new heading", async ({ page }) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage(page, "/category/power-tools/cordless-drills");
  const inStock = page.getByRole("checkbox", { name: /In stock/ });
  await tabTo(page, inStock, { max: 200 });
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/in_stock=1/);
  await expect(inStock).toBeFocused();
  await expect(page.getByTestId("route-announcer")).toHaveText("");

  await tabTo(page, page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Hand Tools" }), { backwards: true, max: 200 });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/category\/hand-tools$/);
  await arrivedAt(page, "Hand Tools");
});
