// Sites at checkout in a real browser (issue 32): paying on account, a buyer
// of a company with sites chooses the one the order is for; its address
// becomes the delivery address, its PO rule is said beside the PO box and a
// reference that breaks it is refused there; the order names the site, and
// the order history reads one site at a time. The company is the journey's own.
import { csrfHeaders, openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { approvedTradeOwner } from "./trade-helpers.ts";

// The refused PO reference is a 422, which the browser logs.
test.use({ allowedConsoleErrors: [/status of 422/] });

test("an order on account names the company's site, delivered there under its PO rule", async ({ page, browser }) => {
  test.slow();
  await approvedTradeOwner(page, browser);
  const headers = await csrfHeaders(page.request);
  for (const site of [
    { name: "Mill Lane extension", line1: "14 Mill Lane", town: "Leeds", postcode: "LS6 3AA" },
    { name: "Kirkstall Road flats", line1: "Plot 2, Kirkstall Road", town: "Leeds", postcode: "LS4 2AA", contact_name: "Dan Price", po_prefix: "KR-" },
  ]) {
    const made = await page.request.post("/api/trade/sites", { headers, data: site });
    expect(made.status(), await made.text()).toBe(201);
  }
  const { items } = (await (await page.request.get("/api/products", { params: { in_stock: 1, per_page: 24 } })).json()) as { items: { id: number; stock: number }[] };
  const product = items.find((p) => p.stock >= 10 && p.stock < 900)!;
  expect((await page.request.post("/api/basket", { headers, data: { product_id: product.id, quantity: 1 } })).status()).toBe(200);

  await openPage(page, "/checkout");
  await page.getByRole("radio", { name: /Pay on account/ }).check();
  const site = page.getByLabel("Site", { exact: true });
  await site.selectOption({ label: "Kirkstall Road flats (LS4 2AA)" });
  // Its address is now the delivery address, and its rule is said.
  await expect(page.getByLabel("Address line 1")).toHaveValue("Plot 2, Kirkstall Road");
  await expect(page.getByLabel("Postcode", { exact: true })).toHaveValue("LS4 2AA");
  await expect(page.getByTestId("site-choice")).toContainText("Contact: Dan Price");
  await page.getByRole("radio", { name: /Standard delivery/ }).check();
  const po = page.getByLabel("Purchase-order reference");
  await expect(po).toHaveAccessibleDescription("Orders for this site need a purchase-order reference starting KR-.");
  await po.fill("PO-1");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(po).toHaveAttribute("aria-invalid", "true");
  await expect(po).toHaveAccessibleDescription(/Purchase-order references for Kirkstall Road flats start with KR-\./);

  await po.fill("KR-1001");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/checkout\/thank-you\?order=TC-\d+/);
  await expect(page.getByTestId("order-site")).toHaveText("Kirkstall Road flats");
  const number = /TC-\d+/.exec(page.url())![0];

  // The history, for that site and for the other.
  await openPage(page, "/account/orders/history");
  await page.getByLabel("Site", { exact: true }).selectOption({ label: "Kirkstall Road flats" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/site=\d+/);
  await expect(page.getByTestId("order-row")).toHaveCount(1);
  await expect(page.getByTestId("order-row")).toContainText(`Order ${number}`);
  await page.getByLabel("Site", { exact: true }).selectOption({ label: "Mill Lane extension" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText("You have no orders for Mill Lane extension.")).toBeVisible();
});
