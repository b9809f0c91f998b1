// Hire depots in the browser (issue 30): a visitor chooses a depot on a hire
// item's page and sees its own units there, requests the hire with delivery
// to a site, priced by the distance band from the depot before it is sent,
// and is refused delivery past the last band. axe over both pages.
import { newUser, openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { londonDay } from "./dates.ts";
import { expectAccessible } from "./axe.ts";

test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 422/] });

test("choose a depot, see its availability, and request a hire delivered for the band's price", async ({ page }) => {
  test.slow();
  await openPage(page, "/hire/heavy-duty-breaker-110v");
  const depot = page.getByLabel("Hire depot", { exact: true });
  await expect(depot).toHaveValue("leeds");
  await expect(page.getByTestId("depot-availability")).toContainText("At Leeds, Canal Wharf: 5 units.");

  await depot.selectOption("harrogate");
  await expect(page).toHaveURL(/depot=harrogate/);
  await expect(page.getByTestId("depot-availability")).toContainText("At Harrogate hire depot: 1 unit.");
  await expect(page.getByRole("table", { name: "Units free each day for the next four weeks" }).getByRole("cell", { name: /: (1 of 1 free|fully booked)$/ })).toHaveCount(28);

  await page.getByLabel("Start date").fill(londonDay(12));
  await page.getByLabel("Return date").fill(londonDay(14));
  await page.getByLabel("Quantity").fill("1");
  await expect(page.getByTestId("hire-quote")).toContainText("free at Harrogate hire depot for those dates");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Add to hire request" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added to your hire request." })).toBeVisible();

  await openPage(page, "/hire-basket");
  await expect(page.getByLabel("Hire depot", { exact: true })).toHaveValue("harrogate");
  await page.getByLabel("Your name").fill("Dana Depot");
  await page.getByLabel("Email address").fill(newUser("Dana").email);
  await page.getByLabel("Phone").fill("07700 900987");
  await page.getByLabel("Address line 1", { exact: true }).fill("Plot 9, Station Road");
  await page.getByLabel("Town or city").fill("London");
  const postcode = page.getByLabel("Postcode", { exact: true });
  const price = page.getByTestId("hire-delivery-price");

  // Too far from Harrogate: said before sending, and refused by field if sent.
  await postcode.fill("SW1A 1AA");
  await expect(price).toContainText("we deliver up to 50 miles");
  // York is within 25 miles of Harrogate: £45 + VAT.
  await postcode.fill("YO31 7UL");
  await page.getByLabel("Town or city").fill("York");
  await expect(price).toContainText("Delivery and collection: £45.00 + VAT £9.00 = £54.00");
  await expectAccessible(page);

  const sent = page.waitForRequest((r) => r.url().endsWith("/api/hire-requests") && r.method() === "POST");
  await page.getByRole("button", { name: "Send hire request" }).click();
  expect((await sent).postDataJSON()).toMatchObject({ depot: "harrogate", fulfilment: "delivery", postcode: "YO31 7UL" });
  await expect(page.getByTestId("hire-request-number")).toHaveText(/^HR-\d{6}$/);
});
