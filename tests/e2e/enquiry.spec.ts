// Enquiries in the browser (issue 4): the contact form; and the page of the
// design consultation (now booked in a showroom: showroom.spec.ts) without scripts.
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe("contact form", () => {
  test.use({ allowedConsoleErrors: [/status of 422/] });

  test("a too-short message is refused beside its field and the input is kept", async ({ page }) => {
    await openPage(page, "/contact");
    await page.getByLabel("Your name").fill("Pat Mason");
    await page.getByLabel("Email address").fill("pat@example.com");
    await page.getByLabel("Your message").fill("Hi");
    await page.getByRole("button", { name: "Send message" }).click();
    const message = page.getByLabel("Your message");
    await expect(message).toHaveAccessibleDescription(/Tell us a little more/);
    await expect(message).toHaveAttribute("aria-invalid", "true");
    await expect(message).toBeFocused();
    await expect(page.getByLabel("Your name")).toHaveValue("Pat Mason");
    await expect(message).toHaveValue("Hi");
  });

  test("a message is sent and the form cleared", async ({ page }) => {
    await openPage(page, "/contact");
    await page.getByLabel("Your name").fill("Pat Mason");
    await page.getByLabel("Email address").fill("pat@example.com");
    await page.getByLabel("Phone number").fill("020 7946 0000");
    await page.getByLabel("Your message").fill("Do you deliver sharp sand to Leeds on Saturdays?");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Thank you." })).toBeVisible();
    await expect(page.getByLabel("Your message")).toHaveValue("");
  });
});

test("without scripts the consultation booking says how to book by phone", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/kitchens-and-bathrooms");
  await expect(page.getByRole("link", { name: "Book a design consultation" }).first()).toHaveAttribute("href", "#book");
  await expect(page.locator("#book")).toContainText("Or call the showroom on 01904 496 000 to book.");
  await context.close();
});
