// Equipment hire in the browser: the listing, an item with its rates, calendar
// and live quote, the hire basket (changes, refusals, optimistic removal) and
// the whole journey to a hire request, its email and the account list.
import type { Page } from "@playwright/test";
import { newUser, openPage, waitForEmailTo } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { londonDay } from "./dates.ts";

// The browser logs every refused request as a console error: the 422s these
// journeys ask for on purpose, and the 500 one of them makes up.
test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (422|500)/] });

/** Picks dates and a quantity on a hire item's page and waits for the live quote. */
async function chooseDates(page: Page, start: string, end: string, quantity = 1): Promise<void> {
  // Hydrated first (its "Get a price" button is for the page without scripts): a date typed before is lost when React hydrates the field.
  await expect(page.getByRole("button", { name: "Get a price" })).toHaveCount(0);
  await page.getByLabel("Start date").fill(start);
  await page.getByLabel("Return date").fill(end);
  await page.getByLabel("Quantity").fill(String(quantity));
  await expect(page.getByTestId("hire-quote")).toContainText(`Your quote: ${quantity} ×`);
}

async function addToHireRequest(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Add to hire request" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added to your hire request." })).toBeVisible();
}

test("browse hire: categories with counts, a category, search, an honest empty state, and an item's rates, deposit and calendar", async ({ page }) => {
  test.slow();
  await openPage(page, "/hire");
  await expect(page.getByRole("heading", { level: 1, name: "Equipment hire" })).toBeVisible();
  const categories = page.getByRole("navigation", { name: "Hire categories" });
  await expect(categories.getByRole("link", { name: "Compaction (3)" })).toBeVisible();

  await categories.getByRole("link", { name: /^Compaction/ }).click();
  await expect(page).toHaveURL(/\/hire\?category=compaction$/);
  await expect(page.getByRole("heading", { level: 1, name: "Compaction hire" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "3 hire items in Compaction" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Plate Compactor Petrol" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Cement Mixer 110V" })).toHaveCount(0);

  await page.getByLabel("Search hire equipment").fill("mixer");
  await page.getByRole("main").getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=mixer/);
  await expect(page.getByText("No hire equipment matches “mixer” in Compaction.")).toBeVisible();
  await page.getByRole("link", { name: /^All hire/ }).click();
  await expect(page).toHaveURL(/\/hire\?q=mixer$/);
  await expect(page.getByRole("link", { name: "Cement Mixer 110V" })).toBeVisible();

  await openPage(page, "/hire?category=compaction");
  await page.getByRole("link", { name: "Plate Compactor Petrol" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Plate Compactor Petrol" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Compaction" })).toHaveAttribute("href", "/hire?category=compaction");

  const rates = page.getByRole("table", { name: "Hire rates per unit" });
  await expect(rates.getByRole("row", { name: /^Day per day £35\.00 £42\.00$/ })).toBeVisible();
  await expect(rates.getByRole("row", { name: /^Weekend .* £52\.00 £62\.40$/ })).toBeVisible();
  await expect(rates.getByRole("row", { name: /^Week 7 days £70\.00 £84\.00$/ })).toBeVisible();
  await expect(rates.getByRole("row", { name: /^Deposit per unit, refundable £100\.00 no VAT$/ })).toBeVisible();
  await expect(page.getByRole("row", { name: "Engine Honda GX160" })).toBeVisible();

  const calendar = page.getByRole("table", { name: "Units free each day for the next four weeks" });
  await expect(calendar.getByRole("columnheader")).toHaveCount(7);
  await expect(calendar.getByRole("cell", { name: /: (\d of 4 free|fully booked)$/ })).toHaveCount(28);
  await expect(page.getByLabel("Start date")).toHaveAttribute("min", londonDay(0));
});

test("the live quote follows the dates, and the item is added to the hire request", async ({ page }) => {
  await openPage(page, "/hire/rotavator-5hp");
  await expect(page.getByText("Choose a start and return date to see the price.")).toBeVisible();
  // Four days is never a weekend hire, and the week rate (£90) is cheaper than 4 × £45.
  await chooseDates(page, londonDay(7), londonDay(11), 1);
  const quote = page.getByTestId("hire-quote");
  await expect(quote).toContainText("1 × 4 days");
  await expect(quote).toContainText("Hire cost (ex VAT)£90.00");
  await expect(quote).toContainText("VAT£18.00");
  await expect(quote).toContainText("Refundable deposit (no VAT)£100.00");
  await expect(quote).toContainText("Total£208.00");

  await page.getByLabel("Quantity").fill("2");
  await expect(quote).toContainText("Total£416.00");

  // A return before the start: the server's message beside the field.
  await page.getByLabel("Return date").fill(londonDay(5));
  await expect(page.getByText("The return date must not be before the start date.")).toBeVisible();
  await page.getByLabel("Return date").fill(londonDay(11));
  await expect(quote).toContainText("Total£416.00");

  await addToHireRequest(page);
  await expect(page.getByTestId("hire-basket-count")).toHaveText("2");
  await page.getByRole("link", { name: "View your hire request" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Rotavator 5hp" })).toBeVisible();
});

test("without scripts the item page prices the dates in its address", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/hire/rotavator-5hp?start_date=${londonDay(7)}&end_date=${londonDay(11)}&quantity=1`);
  await expect(page.getByTestId("hire-quote")).toContainText("Total£208.00");
  await expect(page.getByRole("button", { name: "Get a price" })).toBeVisible();
  await context.close();
});

test.describe("the hire basket", () => {
  test("a quantity past what is free is refused with the server's message; removal is optimistic and restored on refusal", async ({ page }) => {
    // Two item pages, the basket and five round trips: more than the default budget on a busy machine.
    test.slow();
    await openPage(page, "/hire/scissor-lift-8m-electric");
    await chooseDates(page, londonDay(20), londonDay(24), 1);
    await addToHireRequest(page);
    await openPage(page, "/hire/site-safe-vault");
    await chooseDates(page, londonDay(20), londonDay(24), 2);
    await addToHireRequest(page);

    await openPage(page, "/hire-basket");
    const lift = page.getByRole("article", { name: "Scissor Lift 8m Electric" });
    const vault = page.getByRole("article", { name: "Site Safe Vault" });
    await expect(lift).toBeVisible();
    await expect(vault).toBeVisible();
    await expect(page.getByTestId("hire-basket-count")).toHaveText("3");

    await lift.getByLabel("Quantity").fill("3");
    await lift.getByRole("button", { name: "Update" }).click();
    // Both lifts are at Leeds (the default depot); Harrogate has none to move (demo-hire.ts).
    await expect(lift.getByRole("alert")).toHaveText("Only 2 available at Leeds, Canal Wharf for those dates.");
    await expect(lift).toContainText("1 unit");

    await lift.getByLabel("Quantity").fill("2");
    await lift.getByRole("button", { name: "Update" }).click();
    await expect(lift).toContainText("2 units");
    await expect(lift.getByRole("alert")).toHaveCount(0);

    // The server refuses a removal: the line comes back in its place with the message.
    await page.route("**/api/hire-basket/*", (route) =>
      route.request().method() === "DELETE" ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Internal Server Error" }) }) : route.fallback(),
    );
    await vault.getByRole("button", { name: "Remove Site Safe Vault" }).click();
    await expect(vault.getByRole("alert")).toHaveText("Remove failed: Failed to remove hire item from request.");
    await expect(page.getByTestId("hire-line").nth(1)).toContainText("Site Safe Vault");
    await page.unroute("**/api/hire-basket/*");

    // Then it works: the line goes at once and stays gone.
    await vault.getByRole("button", { name: "Remove Site Safe Vault" }).click();
    await expect(vault).toHaveCount(0);
    await expect(page.getByTestId("hire-line")).toHaveCount(1);
    await expect(page.getByTestId("hire-basket-count")).toHaveText("2");
    await page.reload();
    await expect(page.getByRole("article", { name: "Scissor Lift 8m Electric" })).toBeVisible();
    await expect(page.getByRole("article", { name: "Site Safe Vault" })).toHaveCount(0);

    await page.getByRole("button", { name: "Clear" }).click();
    await expect(page.getByText("Your hire request is empty.")).toBeVisible();
    await expect(page.getByTestId("hire-basket-count")).toHaveText("0");
  });
});

test("the whole journey: dates on an item, the hire basket, the request, its number and its email", async ({ page }) => {
  test.slow();
  const email = newUser("Hana").email;
  await openPage(page, "/hire/cement-mixer-110v");
  await chooseDates(page, londonDay(3), londonDay(7), 2);
  await addToHireRequest(page);
  await page.getByRole("link", { name: "View your hire request" }).click();

  const line = page.getByRole("article", { name: "Cement Mixer 110V" });
  await expect(line).toContainText("4 days · 2 units");
  const totals = page.getByTestId("hire-totals");
  // 2 × £44 (the week rate beats 4 × £22), VAT £17.60, deposit 2 × £50.
  await expect(totals).toContainText("Hire (ex VAT)£88.00");
  await expect(totals).toContainText("VAT£17.60");
  await expect(totals).toContainText("Refundable deposit (no VAT)£100.00");
  await expect(totals).toContainText("Total to pay£205.60");

  await page.getByLabel("Your name").fill("Hana Builder");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Phone").fill("07700 900123");
  await page.getByLabel("Company").fill("Builder & Daughters Ltd");

  // The site address by the checkout's postcode lookup (a demo postcode), then edited by hand.
  const site = page.getByRole("group", { name: "Site address" });
  const find = site.getByLabel("Find your address by postcode");
  await find.fill("LS1 1A");
  // Suggestions arrive while typing, after a short pause.
  await expect(site.locator("datalist option[value='LS1 1AA']")).toHaveCount(1);
  await find.fill("LS1 1AA");
  await site.getByRole("button", { name: "Find address" }).click();
  const choose = site.getByLabel("Choose your address");
  await expect(choose).toBeVisible();
  await choose.selectOption({ index: 1 });
  const postcode = site.getByLabel("Postcode", { exact: true });
  await expect(site.getByLabel("Address line 1")).not.toHaveValue("");
  await expect(site.getByLabel("Town or city")).toHaveValue("Leeds");
  await expect(postcode).toHaveValue("LS1 1AA");
  const line1 = await site.getByLabel("Address line 1").inputValue();
  await site.getByLabel("Address line 2").fill("Plot 4, gate on Mill Lane");
  await postcode.fill("not a postcode");
  await page.getByRole("button", { name: "Send hire request" }).click();
  await expect(postcode).toHaveAttribute("aria-invalid", "true");
  await expect(site.getByLabel("Address line 1")).toHaveValue(line1);
  await postcode.fill("LS1 1AA");
  await page.getByLabel("Notes").fill("Gate code 1234.");
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/hire-requests") && r.method() === "POST");
  await page.getByRole("button", { name: "Send hire request" }).click();
  expect((await sent).postDataJSON()).toMatchObject({ fulfilment: "delivery", address_line1: line1, address_line2: "Plot 4, gate on Mill Lane", town: "Leeds", postcode: "LS1 1AA" });

  await expect(page.getByRole("heading", { name: "Hire request sent" })).toBeFocused();
  const number = (await page.getByTestId("hire-request-number").textContent())!;
  expect(number).toMatch(/^HR-\d{6}$/);
  await expect(page.getByText("We hold the equipment for you for 48 hours")).toBeVisible();
  await expect(page.getByTestId("hire-basket-count")).toHaveText("0");

  const mail = await waitForEmailTo(email);
  expect(mail).toContain(number);
  expect(mail).toContain("Cement Mixer 110V");
});

test("a signed-in customer's details are filled in, and the request appears in the account", async ({ page }) => {
  test.slow();
  await openPage(page, "/auth/login?redirect=/hire/generator-3-0kva");
  await page.getByLabel("Email address").fill("customer@example.com");
  await page.getByLabel("Password", { exact: true }).fill("demo-password-2026");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Generator 3.0kVA" })).toBeVisible();
  await page.waitForLoadState("networkidle");

  await chooseDates(page, londonDay(10), londonDay(12), 1);
  await addToHireRequest(page);
  await openPage(page, "/hire-basket");
  await expect(page.getByLabel("Your name")).toHaveValue("Sam Carter");
  await expect(page.getByLabel("Email address")).toHaveValue("customer@example.com");
  await page.getByLabel("Phone").fill("0113 496 0000");
  await page.getByLabel("Collection from the branch").check();
  await expect(page.getByLabel("Address line 1")).toHaveCount(0);
  await page.getByRole("button", { name: "Send hire request" }).click();
  const number = (await page.getByTestId("hire-request-number").textContent())!;

  await page.getByRole("link", { name: "Your hire requests" }).click();
  const request = page.getByRole("article", { name: number });
  await expect(request).toContainText("Awaiting confirmation");
  await expect(request).toContainText("1 × Generator 3.0kVA");
  await expect(request).toContainText("Collection from the branch");

  await openPage(page, "/account");
  await expect(page.getByRole("link", { name: /Hire requests/ })).toHaveAttribute("href", "/account/hire-requests");
});
