// Enquiries in the browser (issue 4): the contact form and the design
// consultation in a modal dialog on /kitchens-and-bathrooms.
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

test("the design consultation opens in a dialog, is sent, and Escape closes it", async ({ page }) => {
  await openPage(page, "/kitchens-and-bathrooms");
  await expect(page.getByRole("heading", { name: "Kitchens", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Bathrooms", exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Kitchens categories" }).getByRole("link").first()).toBeVisible();

  const opener = page.getByRole("link", { name: "Book a design consultation" }).first();
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Book a design consultation" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Your name").fill("Jo Fitter");
  await dialog.getByLabel("Email address").fill("jo@example.com");
  await dialog.getByLabel("Postcode").fill("LS1 4AP");
  await dialog.getByLabel("About your project").fill("A small galley kitchen, about 3 metres long, with a new sink and worktop.");
  await dialog.getByRole("button", { name: "Send request" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Thank you." })).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // Opened again, the form starts afresh.
  await opener.click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Thank you.")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("without scripts the button leads to the same form inline", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/kitchens-and-bathrooms");
  await expect(page.getByRole("link", { name: "Book a design consultation" }).first()).toHaveAttribute("href", "#design-consultation");
  const section = page.locator("#design-consultation");
  await expect(section.getByLabel("Postcode")).toBeVisible();
  await context.close();
});
