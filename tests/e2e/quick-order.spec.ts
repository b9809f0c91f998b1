// The quick-order pad (issue 32): a signed-in customer pastes lines of SKU and
// quantity (one of them bad), checks them, sees the error beside the bad one,
// adds the good ones in one step and finds them in the basket; axe over the
// screen with a refused line on it.
import { newUser, openPage, registerByApi } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

interface Listed {
  id: number;
  name: string;
  sku: string;
  stock: number;
}

test("a customer pastes lines, sees the bad one's error beside it, adds the rest and finds them in the basket", async ({ page }) => {
  await registerByApi(page.request, newUser("Quinn"));
  const { items } = (await (await page.request.get("/api/products", { params: { in_stock: 1, per_page: 48, sort: "name" } })).json()) as { items: Listed[] };
  // Products no other spec of the run orders by the handful.
  const [first, second] = items.filter((p) => p.stock >= 10 && p.stock < 900).slice(6, 8) as [Listed, Listed];

  await openPage(page, "/trade/quick-order");
  await expect(page.getByRole("heading", { level: 1, name: "Quick order" })).toBeVisible();
  // As a spreadsheet's two columns paste them, with a heading, a bad SKU and a SKU in lower case.
  await page.getByLabel("SKUs and quantities").fill(`SKU\tQty\n${first.sku}\t2\nNOT-A-SKU-42\t1\n${second.sku.toLowerCase()}, 3`);
  await page.getByRole("button", { name: "Check lines" }).click();

  await expect(page.getByRole("heading", { name: "2 lines can be added; 1 line needs fixing." })).toBeFocused();
  const lines = page.getByTestId("quick-order-line");
  await expect(lines).toHaveCount(3);
  const bad = page.getByRole("listitem", { name: "Line 3: NOT-A-SKU-42" });
  await expect(bad).toHaveAccessibleDescription("Error: We have no product with the SKU “NOT-A-SKU-42”.");
  await expect(page.getByRole("listitem", { name: `Line 2: ${first.name}` })).toContainText("Ready to add.");
  await expectAccessible(page, "/trade/quick-order with a refused line");

  await page.getByRole("button", { name: "Add 2 lines to basket" }).click();
  const added = page.getByTestId("quick-order-added");
  await expect(added).toContainText(`2 × ${first.name}`);
  await expect(added).toContainText(`3 × ${second.name}`);
  await expect(page.getByTestId("quick-order-status")).toHaveText("Added 2 lines to your basket. No line can be added; 1 line needs fixing.");
  // The refused line stays in the box, checked again, to fix.
  await expect(page.getByLabel("SKUs and quantities")).toHaveValue("NOT-A-SKU-42\t1");
  await expect(page.getByRole("listitem", { name: "Line 1: NOT-A-SKU-42" })).toContainText("We have no product with the SKU");

  await added.getByRole("link", { name: "View your basket" }).click();
  await expect(page.getByRole("article", { name: first.name }).getByLabel("Quantity")).toHaveValue("2");
  await expect(page.getByRole("article", { name: second.name }).getByLabel("Quantity")).toHaveValue("3");
});
