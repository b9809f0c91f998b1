// Steps of the checkout form that more than one journey takes.
import { expect, type Page } from "@playwright/test";

/**
 * Looks the address up by its postcode, chooses the first one offered, and
 * checks that it filled the town and the normalised postcode.
 */
export async function chooseAddressByPostcode(page: Page, typed: string, expected: { town: string; postcode: string }): Promise<void> {
  await page.getByLabel("Find your address by postcode").fill(typed);
  await page.getByRole("button", { name: "Find address" }).click();
  const choose = page.getByLabel("Choose your address");
  await expect(choose).toBeVisible();
  await choose.selectOption({ index: 1 });
  await expect(page.getByLabel("Town or city")).toHaveValue(expected.town);
  await expect(page.getByLabel("Postcode", { exact: true })).toHaveValue(expected.postcode);
}

/** Opens checkout and chooses click & collect and pay on account, with a billing address typed in. */
export async function collectOnAccount(page: Page, checkoutUrl = "/checkout"): Promise<void> {
  await page.goto(checkoutUrl);
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Address line 1").fill("4 Slate Row");
  await page.getByLabel("Town or city").fill("Leeds");
  await page.getByLabel("Postcode", { exact: true }).fill("LS1 1AA");
  await page.getByLabel("Postcode", { exact: true }).blur();
  await page.getByRole("radio", { name: /Click & collect/ }).check();
  await page.getByRole("radio", { name: /Pay on account/ }).check();
}
