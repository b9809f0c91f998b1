// Stock per branch on the stock desk (issue 30): the warehouse books a delivery
// in at York, sees the SKU's stock by branch, and finds the movement under
// York's filter; a count asking more of a branch than it holds is refused by
// row, naming the branch. axe over the desk with its results.
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";
import { expectAccessible } from "./axe.ts";


// Chromium logs the refused adjustment's 422 as a console error.
test.use({ allowedConsoleErrors: [/the server responded with a status of 422/] });

test("the warehouse books a delivery in at York and sees the SKU's stock by branch", async ({ browser }) => {
  const page = await staffPage(browser, "warehouse@staff.example.com");
  const products = await (await page.request.get("/api/admin/products?limit=1")).json();
  const sku: string = products.data[0].sku;

  // York's stock of it before (another test may have booked some in there).
  const levels = (await (await page.request.get(`/api/admin/stock/levels?sku=${encodeURIComponent(sku)}`)).json()).data as { branch: { slug: string }; stock: number }[];
  const before = levels.find((l) => l.branch.slug === "york")!.stock;
  const after = before + 4;

  await openPage(page, "/admin/stock");
  // The desk's one form (issue 34), in its first mode: receive a delivery.
  const receive = page.getByRole("form", { name: "Book stock in, count or adjust" });
  await expect(receive.getByRole("radio", { name: "Receive a delivery" })).toBeChecked();
  await receive.getByRole("combobox", { name: "Branch", exact: true }).selectOption({ label: "York, Foss Islands" });
  await receive.getByLabel("Delivery note or purchase order").fill("PO-YORK-7");
  await receive.getByLabel("Row 1 product").fill(sku);
  await receive.getByLabel("Row 1 quantity").fill("4");
  await receive.getByRole("button", { name: "Book the delivery in" }).click();
  await expect(page.getByRole("status").or(page.getByRole("alert")).first()).toContainText(`${sku}`);
  await expect(page.getByText(`at York, Foss Islands: ${before} → ${after}`)).toBeVisible();

  // The SKU's levels by branch, and its movements at York.
  await page.getByRole("search", { name: "Filter movements" }).getByLabel("SKU").fill(sku);
  await page.getByRole("search", { name: "Filter movements" }).getByRole("combobox", { name: "Branch", exact: true }).selectOption({ label: "York, Foss Islands" });
  await page.getByRole("button", { name: "Show" }).click();
  const table = page.getByTestId("stock-levels");
  await expect(table.getByRole("row", { name: /York, Foss Islands/ }).getByRole("cell").first()).toHaveText(String(after));
  const movement = page.getByRole("table", { name: "Stock movements, newest first" }).getByRole("row").nth(1);
  await expect(movement).toContainText("Delivery PO-YORK-7");
  await expect(movement).toContainText("York, Foss Islands");

  // Taking one more than York holds is refused on its row, naming the branch.
  const adjust = page.getByRole("form", { name: "Book stock in, count or adjust" });
  await adjust.getByRole("radio", { name: "Adjust or return" }).check();
  await adjust.getByRole("combobox", { name: "Branch", exact: true }).selectOption({ label: "York, Foss Islands" });
  await adjust.getByLabel("Reason").fill("Damaged in the yard");
  await adjust.getByLabel("Row 1 product").fill(sku);
  await adjust.getByLabel("Row 1 change (+/−)").fill(String(-(after + 1)));
  await adjust.getByRole("button", { name: "Record the change" }).click();
  await expect(page.getByText(`Row 1: ${sku} has ${after} at York, Foss Islands; taking ${after + 1} would leave less than none.`)).toBeVisible();
  await expect(table.getByRole("row", { name: /York, Foss Islands/ }).getByRole("cell").first()).toHaveText(String(after));

  await expectAccessible(page);
  await page.context().close();
});

test("a transfer is asked for, sent from Leeds and booked in at York with one short", async ({ browser }) => {
  const page = await staffPage(browser, "warehouse@staff.example.com");
  const products = await (await page.request.get("/api/admin/products?limit=3")).json();
  const sku: string = products.data[2].sku;

  await openPage(page, "/admin/stock");
  await page.getByRole("link", { name: "Transfers between branches" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Transfers");
  const ask = page.getByRole("form", { name: "Ask for a transfer" });
  await ask.getByRole("combobox", { name: "From", exact: true }).selectOption({ label: "Leeds, Canal Wharf" });
  await ask.getByRole("combobox", { name: "To", exact: true }).selectOption({ label: "York, Foss Islands" });
  await ask.getByLabel("Row 1 SKU").fill(sku);
  await ask.getByLabel("Row 1 quantity").fill("3");
  await ask.getByRole("button", { name: "Ask for the transfer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Transfer TR-\d{6}$/);
  await expect(page.getByTestId("transfer-state")).toHaveText("Requested");

  await page.getByRole("button", { name: "Send from Leeds, Canal Wharf" }).click();
  await expect(page.getByText("Sent from Leeds, Canal Wharf: it is in transit to York, Foss Islands.")).toBeVisible();
  await expect(page.getByTestId("transfer-state")).toHaveText("In transit");

  await page.getByLabel(`Arrived: ${sku}`).fill("2");
  await page.getByRole("button", { name: "Book in at York, Foss Islands" }).click();
  await expect(page.getByText("Booked in at York, Foss Islands, 1 short: recorded on the transfer.")).toBeVisible();
  await expect(page.getByTestId("transfer-state")).toHaveText("Received");
  await expect(page.getByRole("row", { name: new RegExp(sku) })).toContainText("1");

  await expectAccessible(page);
  await openPage(page, "/admin/stock/transfers?state=received");
  await expect(page.getByRole("table", { name: "Transfers, newest first" }).getByRole("row").nth(1)).toContainText("Leeds, Canal Wharf → York, Foss Islands");
  await expectAccessible(page);
  await page.context().close();
});
