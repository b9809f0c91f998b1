// The hire desk (issue 21) in a real browser against the production build: a
// customer requests a carpet cleaner for a day; the hire desk approves it,
// hands out the item's second unit, records the customer's phone call ending
// the hire, takes the unit back two days after the booked return with a
// cleaning charge, and settles; the customer sees the final charges.
import { newUser, openPage, registerThroughForm } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { londonDay } from "./dates.ts";
import { staffPage } from "./staff-helpers.ts";

test("a hire from request to final charges: approved, unit 2 handed out, off-hired by phone, back two days late with a cleaning charge", async ({ browser, page }) => {
  test.slow();
  const customer = newUser("Rhiannon");
  const start = londonDay(0);
  const end = londonDay(1);

  let number = "";
  await test.step("the customer requests a carpet cleaner for one day", async () => {
    await openPage(page, "/auth/register?redirect=/hire/carpet-cleaner");
    await registerThroughForm(page, customer);
    await expect(page.getByRole("heading", { level: 1, name: "Carpet Cleaner" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Start date").fill(start);
    await page.getByLabel("Return date").fill(end);
    await page.getByLabel("Quantity").fill("1");
    await expect(page.getByTestId("hire-quote")).toContainText("Your quote: 1 ×");
    await page.getByRole("button", { name: "Add to hire request" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Added to your hire request." })).toBeVisible();
    await openPage(page, "/hire-basket");
    await page.getByLabel("Phone").fill("07700 900456");
    await page.getByLabel("Collection from the branch").check();
    await page.getByRole("button", { name: "Send hire request" }).click();
    number = (await page.getByTestId("hire-request-number").textContent())!;
    expect(number).toMatch(/^HR-\d{6}$/);
  });

  const desk = await staffPage(browser, "hire@staff.example.com");
  await test.step("the desk finds it waiting and approves it", async () => {
    await openPage(desk, "/admin/hire");
    await desk.getByRole("link", { name: new RegExp(number) }).first().click();
    await expect(desk.getByRole("heading", { level: 1 })).toContainText(number);
    await desk.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(desk.getByTestId("result-banner")).toBeVisible();
    await expect(desk.getByRole("button", { name: "Hand over" })).toBeVisible();
  });

  let unit2 = "";
  await test.step("hands out the item's second unit, with its condition and the customer's ID", async () => {
    const select = desk.getByLabel("Unit (asset number)");
    const assets = (await select.locator("option").allTextContents()).map((t) => t.replace(/ \((booked|free)\)$/, ""));
    // The hire items' units are numbered in order: the second is the one after the lowest.
    const sorted = [...assets].sort((a, b) => Number(a.replace(/\D/g, "")) - Number(b.replace(/\D/g, "")));
    unit2 = sorted[1]!;
    await select.selectOption(unit2);
    await desk.getByLabel("Condition going out").fill("Clean, hoses intact, no marks.");
    await desk.getByLabel("Accessories (optional)").fill("Upholstery tool");
    await desk.getByRole("radio", { name: "Yes" }).check();
    await desk.getByLabel("ID seen (when checked)").fill("Driving licence");
    await desk.getByRole("button", { name: "Hand over" }).click();
    await expect(desk.getByTestId("result-banner")).toBeVisible();
    await expect(desk.getByText(`${unit2} · Out on hire`)).toBeVisible();
    // The hire agreement is a real PDF.
    const agreement = desk.getByRole("link", { name: /^HA-\d+ \(PDF\)$/ });
    const pdf = await desk.request.get((await agreement.getAttribute("href"))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
  });

  await test.step("the customer phones to end the hire on the booked return date: an off-hire reference", async () => {
    await desk.getByLabel("Off-hire date").fill(end);
    await desk.getByLabel("Note (optional)").first().fill("Called at 9:10, collect Friday.");
    await desk.getByRole("button", { name: "Record the off-hire" }).click();
    await expect(desk.getByTestId("result-banner")).toBeVisible();
    await expect(desk.getByText(/Off-hired from .*, reference OH-\d+/)).toBeVisible();
  });

  await test.step("the unit comes back two days after its return date, with a cleaning charge", async () => {
    await desk.getByLabel("Returned on (today if empty)").fill(londonDay(3));
    await desk.getByLabel("Condition coming back").fill("Dirty tank, otherwise fine.");
    const charge = desk.getByRole("group", { name: "Charges besides the hire (each with its reason)" });
    await charge.getByLabel("Kind").first().selectOption("cleaning");
    await charge.getByLabel("Reason (the customer sees it)").first().fill("Tank returned full of dirty water");
    await charge.getByLabel("£ ex VAT").first().fill("15");
    await desk.getByRole("button", { name: "Take the unit back" }).click();
    await expect(desk.getByTestId("result-banner")).toBeVisible();
    await expect(desk.getByText(new RegExp(`Returned ${londonDay(3)}`))).toBeVisible();
    await expect(desk.getByTestId("hire-due")).toBeVisible();
    await desk.getByRole("radio", { name: /As arranged/ }).check();
    await desk.getByRole("button", { name: "Settle the final charges" }).click();
    await expect(desk.getByTestId("result-banner")).toBeVisible();
  });

  await test.step("the customer sees the off-hire reference, the cleaning charge and the final charges", async () => {
    await openPage(page, "/account/hire-requests");
    const request = page.getByRole("article", { name: number });
    await expect(request).toContainText(`Unit ${unit2}`);
    await expect(request).toContainText(/reference OH-\d+/);
    const charges = request.getByTestId("hire-charges");
    await expect(charges).toContainText("Tank returned full of dirty water");
    await expect(request.getByTestId("hire-final-total")).toContainText("Final charges: £");
  });
});
