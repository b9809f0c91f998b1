// The promotions desk in a real browser (issue 32): a manager makes a code,
// whose first save is refused beside its field with nothing typed lost, saves
// it, tries a basket on it and pauses it; sales see the list without the New
// button and the form read-only. axe over the list and the form.
import type { BrowserContext } from "@playwright/test";
import { openPage } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { PASSWORD } from "./staff-helpers.ts";

// The refused first save answers 422, which the browser logs.
test.use({ allowedConsoleErrors: [/the server responded with a status of 422/] });

async function signIn(context: BrowserContext, email: string): Promise<void> {
  const login = await context.request.post("/api/admin/auth/login", { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
}

test("a manager makes a code after a refused save, tries a basket and pauses it; sales only read", async ({ page: manager, browser }) => {
  await signIn(manager.context(), "manager@staff.example.com");
  const listed = await manager.context().request.get("/api/admin/products", { params: { status: "published" } });
  const sku = ((await listed.json()) as { data: { sku: string }[] }).data[0]!.sku;
  const code = `E2E${Date.now().toString(36).toUpperCase()}`;

  await openPage(manager, "/admin");
  await manager.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Promotions" }).click();
  await expect(manager.getByRole("heading", { level: 1 })).toHaveText("Promotions");
  await manager.getByRole("link", { name: "New promotion" }).click();
  await expectAccessible(manager, "the new promotion form");

  // A multi-buy asks for its group and no code; back to a percentage.
  await manager.getByRole("radio", { name: /^Multi-buy/ }).check();
  await expect(manager.getByLabel("Code", { exact: true })).toHaveCount(0);
  await expect(manager.getByLabel("Group size")).toBeVisible();
  await manager.getByRole("radio", { name: /^Percentage off/ }).check();

  await manager.getByLabel("Code", { exact: true }).fill(code.toLowerCase());
  await manager.getByLabel("Name", { exact: true }).fill("E2E spring offer");
  await manager.getByLabel("Percent off").fill("150");
  await manager.getByLabel("Uses in all").fill("50");
  await manager.getByLabel("Products (SKUs)").fill(sku);
  await manager.getByRole("button", { name: "Create the promotion" }).click();

  // Refused: the message beside the field, described by it; nothing typed lost.
  const value = manager.getByLabel("Percent off");
  await expect(value).toHaveAttribute("aria-invalid", "true");
  await expect(manager.getByText("A percentage above 0 and at most 100, to two decimals.")).toBeVisible();
  await expect(manager.getByLabel("Code", { exact: true })).toHaveValue(code.toLowerCase());
  await expect(manager.getByLabel("Name", { exact: true })).toHaveValue("E2E spring offer");
  await expect(manager.getByLabel("Uses in all")).toHaveValue("50");
  await expect(manager.getByLabel("Products (SKUs)")).toHaveValue(sku);

  await value.fill("10");
  await manager.getByRole("button", { name: "Create the promotion" }).click();
  await expect(manager.getByRole("status").filter({ hasText: "Created. It is running now." })).toBeVisible();
  await expect(manager.getByRole("heading", { level: 1 })).toHaveText("E2E spring offer");

  // A basket of two: 10% off, said where it appears.
  await manager.getByLabel("Lines").fill(`${sku} 2`);
  await manager.getByRole("button", { name: "Show what it gets" }).click();
  await expect(manager.getByTestId("preview-result")).toContainText("It gives this basket");
  await expect(manager.getByTestId("preview-result")).toContainText("off (ex VAT) (10% off)");

  await manager.getByRole("button", { name: "Pause" }).click();
  await expect(manager.getByRole("status").filter({ hasText: "Paused. It is paused" })).toBeVisible();
  await expect(manager.getByRole("button", { name: "Resume" })).toBeVisible();

  // Sales: the list (the paused tab), no New button; the form read-only.
  const salesContext = await browser.newContext();
  await signIn(salesContext, "sales@staff.example.com");
  const sales = await salesContext.newPage();
  await openPage(sales, "/admin/promotions?status=paused");
  await expect(sales.getByRole("link", { name: "E2E spring offer" }).first()).toBeVisible();
  await expect(sales.getByRole("link", { name: "New promotion" })).toHaveCount(0);
  await expectAccessible(sales, "the promotions list");
  await sales.getByRole("link", { name: "E2E spring offer" }).first().click();
  await expect(sales.getByLabel("Code", { exact: true })).toBeDisabled();
  await expect(sales.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await expect(sales.getByRole("button", { name: "Resume" })).toHaveCount(0);
  await salesContext.close();
});
