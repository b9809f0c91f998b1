// The branches screens in the back office (issue 30): a manager adds a branch
// with its weekly hours, is shown each refused field beside it with nothing
// typed lost, changes a dated closure into other hours, and sees both on the
// branch's public page; then closes the branch, which leaves the shop's pages
// (so the other specs still count the demo's four). axe over the screens.
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";
import { expectAccessible } from "./axe.ts";


// Chromium logs the refused save's 422 as a console error.
test.use({ allowedConsoleErrors: [/the server responded with a status of 422/] });

/** A London date this many days from now, as YYYY-MM-DD. */
const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toLocaleDateString("en-CA", { timeZone: "Europe/London" });

test("a manager adds a branch with its hours, changes a closure to other hours, and sees both on its page", async ({ browser }) => {
  const page = await staffPage(browser, "manager@staff.example.com");
  const slug = `wakefield-${Date.now().toString(36)}`;
  const date = daysAhead(12);

  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Branches" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Branches");
  const leeds = page.getByTestId("branch-row").filter({ hasText: "Leeds" });
  await expect(leeds).toContainText("Default");
  await expectAccessible(page);

  await page.getByRole("link", { name: "Add a branch" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add a branch");
  await page.getByLabel("Name", { exact: true }).fill("Wakefield, Kirkgate");
  await page.getByLabel("Web address").fill(slug);
  await page.getByLabel("Address line 1").fill("12 Kirkgate");
  await page.getByLabel("Town", { exact: true }).fill("Wakefield");
  await page.getByLabel("Postcode").fill("nowhere");
  await page.getByLabel("Phone (optional)").fill("01924 000111");
  await page.getByRole("checkbox", { name: "Hire depot" }).check();
  const monday = page.getByRole("group", { name: "Monday" });
  await monday.getByLabel("Closes").fill("06:00");
  const sunday = page.getByRole("group", { name: "Sunday" });
  await sunday.getByRole("checkbox", { name: "Open" }).check();
  await sunday.getByLabel("Opens").fill("10:00");
  await sunday.getByLabel("Closes").fill("14:00");
  await page.getByRole("button", { name: "Add a date" }).click();
  const first = page.getByRole("group", { name: "Date 1" });
  await first.getByLabel("Date", { exact: true }).fill(date);
  await first.getByLabel("Note (optional)").fill("Stocktake");
  await page.getByRole("button", { name: "Add the branch" }).click();

  // Refused: each error beside its field, everything typed still there.
  await expect(page.getByRole("alert")).toContainText("The branch was not added. Correct the fields marked below.");
  await expect(page.getByText("Enter a full UK postcode, such as LS11 5PS.")).toBeVisible();
  await expect(page.getByLabel("Postcode")).toHaveAttribute("aria-invalid", "true");
  await expect(monday).toContainText("Closing must be after opening.");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Wakefield, Kirkgate");
  await expect(sunday.getByLabel("Opens")).toHaveValue("10:00");
  await expect(page.getByRole("checkbox", { name: "Hire depot" })).toBeChecked();
  await expect(page.getByRole("group", { name: "Date 1" }).getByLabel("Note (optional)")).toHaveValue("Stocktake");
  await expectAccessible(page);

  await page.getByLabel("Postcode").fill("WF1 1UA");
  await monday.getByLabel("Closes").fill("17:00");
  await page.getByRole("button", { name: "Add the branch" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/branches/${slug}\\?added=1$`));
  await expect(page.getByRole("status").filter({ hasText: "Added Wakefield, Kirkgate." })).toBeVisible();

  // The closure becomes a morning's other hours.
  const row = page.getByRole("group", { name: "Date 1" });
  await expect(row.getByLabel("Date", { exact: true })).toHaveValue(date);
  await row.getByLabel("That day").selectOption({ label: "Other hours" });
  await row.getByLabel("Opens (other hours)").fill("09:00");
  await row.getByLabel("Closes (other hours)").fill("12:00");
  await row.getByLabel("Note (optional)").fill("Stocktake afternoon");
  await page.getByRole("button", { name: "Save the branch" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/branches/${slug}\\?saved=1$`));
  await expect(page.getByRole("status").filter({ hasText: "Saved Wakefield, Kirkgate." })).toBeVisible();
  await expect(page.getByRole("group", { name: "Date 1" }).getByLabel("Opens (other hours)")).toHaveValue("09:00");
  await expectAccessible(page);

  // The branch's public page.
  await page.getByRole("link", { name: "See its page on the shop" }).click();
  await expect(page).toHaveURL(new RegExp(`/branches/${slug}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Wakefield, Kirkgate");
  await expect(page.getByRole("row", { name: /Sunday/ })).toContainText("10:00 to 14:00");
  await expect(page.getByRole("row", { name: /Monday/ })).toContainText("07:30 to 17:00");
  await expect(page.getByRole("listitem").filter({ hasText: "Stocktake afternoon" })).toContainText("09:00 to 12:00");

  // Closed, it leaves the shop's pages.
  await openPage(page, `/admin/branches/${slug}`);
  await page.getByRole("checkbox", { name: "Yes, close Wakefield, Kirkgate" }).check();
  await page.getByRole("button", { name: "Close the branch" }).click();
  await expect(page.getByRole("status")).toContainText("Wakefield, Kirkgate is closed");
  await expect(page.getByRole("button", { name: "Reopen Wakefield, Kirkgate" })).toBeVisible();
  expect((await page.request.get(`/branches/${slug}`)).status()).toBe(404);
  await page.context().close();
});

test("the branches screens are only for those who manage branches", async ({ browser }) => {
  const page = await staffPage(browser, "warehouse@staff.example.com");
  await expect(page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Branches" })).toHaveCount(0);
  expect((await page.request.get("/admin/branches")).status()).toBe(403);
  await page.context().close();
});
