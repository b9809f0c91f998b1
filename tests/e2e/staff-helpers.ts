// Staff in the browser: the demo members' password, signing in through the
// back office's screen, and opening an order from the orders desk.
import type { Browser, Page } from "@playwright/test";
import { openPage } from "./auth-helpers.ts";
import { expect } from "./fixtures.ts";

export const PASSWORD = "demo-password-2026";

/** A member of staff in a browser of their own, signed in through the sign-in screen. */
export async function staffPage(browser: Browser, email: string, password = PASSWORD): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openPage(page, "/admin/login");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  return page;
}

/** From the orders list, by searching for the number, to the order's page. */
export async function openOrder(page: Page, number: string): Promise<void> {
  await openPage(page, "/admin/orders");
  await page.getByLabel("Search").fill(number);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
}
