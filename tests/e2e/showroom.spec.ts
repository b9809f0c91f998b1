// Showroom appointments in a real browser (issue 30): on a phone-sized screen
// a visitor books a design consultation at York by keyboard-friendly radio
// groups, sees the confirmation with what happens next, opens the link in the
// email (which carries the calendar invite), and cancels from it; the
// showroom's day list in the back office shows the booking, then its
// cancellation. axe over the booking section, the appointment page and the
// back office's list.
import { openPage, waitForEmailTo } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";
import { expectAccessible } from "./axe.ts";

/** The calendar invite attached to an email, decoded from its base64 part. */
function inviteIn(email: string): string {
  const body = /Content-Type: text\/calendar[^]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/i.exec(email)?.[1];
  expect(body, "the email carries a calendar invite").toBeTruthy();
  return Buffer.from(body!.replace(/\s+/g, ""), "base64").toString("utf8");
}

test("a visitor books a consultation, cancels it from the email's link, and the showroom's list shows both", async ({ page, browser }) => {
  const email = `showroom-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  await page.setViewportSize({ width: 390, height: 844 });
  await openPage(page, "/kitchens-and-bathrooms");
  await page.getByRole("link", { name: "Book a design consultation" }).click();
  await expect(page).toHaveURL(/#book$/);
  const booking = page.getByRole("region", { name: "Book a design consultation" });
  await expect(booking).toContainText("York, Foss Islands");

  // The first free day is chosen; a time is chosen from the keyboard (arrow keys move within a radio group).
  const days = booking.getByRole("group", { name: "Day", exact: true });
  await expect(days.getByRole("radio").first()).toBeChecked();
  const date = await days.locator("input:checked").inputValue();
  const times = booking.getByRole("group", { name: /^Time (on|today|tomorrow)/ });
  const first = times.getByRole("radio").first();
  await first.focus();
  await page.keyboard.press("Space");
  await expect(first).toBeChecked();
  const start = await first.inputValue();
  const time = start.slice(11, 16);

  await booking.getByRole("radio", { name: "A bathroom" }).check();
  await booking.getByLabel("Your name").fill("Kit Chen");
  await booking.getByLabel("Email address").fill(email);
  await booking.getByLabel("Phone number").fill("07700 900777");
  await booking.getByLabel("Notes (optional)").fill("An en-suite under the eaves.");
  await expectAccessible(page, "the booking form");
  await booking.getByRole("button", { name: "Book the consultation" }).click();

  const done = booking.getByRole("heading", { name: "Your consultation is booked" });
  await expect(done).toBeFocused();
  await expect(booking).toContainText(`at ${time}`);
  await expect(booking).toContainText("What happens next");
  await expect(booking).toContainText(`We have emailed a confirmation to ${email}`);
  await expectAccessible(page, "the confirmation");

  // The email: the invite attached, and the link to the appointment.
  const mail = await waitForEmailTo(email);
  const invite = inviteIn(mail);
  expect(invite).toMatch(/^BEGIN:VCALENDAR\r\n/);
  expect(invite).toContain("\r\nMETHOD:REQUEST\r\n");
  const link = /https?:\/\/[^\s"'<>]+\/appointments\/[A-Za-z0-9_-]{43}/.exec(mail)?.[0];
  expect(link, "the email links to the appointment").toBeTruthy();
  const path = new URL(link!).pathname;

  await openPage(page, path);
  await expect(page.getByRole("heading", { level: 1, name: "Your design consultation" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Booked" })).toBeVisible();
  await expect(page.getByText(`at ${time}`)).toBeVisible();
  await expect(page.getByRole("group", { name: "Day", exact: true })).toBeVisible();
  await expectAccessible(page, "the appointment page");

  // The showroom's day in the back office.
  const staff = await staffPage(browser, "sales@staff.example.com");
  await staff.getByRole("navigation").getByRole("link", { name: "Showroom appointments" }).first().click();
  await expect(staff.getByRole("heading", { level: 1, name: "Showroom appointments" })).toBeVisible();
  await staff.getByRole("combobox", { name: /^Showroom/ }).selectOption("york");
  await staff.getByLabel("Day", { exact: true }).fill(date);
  await staff.getByRole("button", { name: "Show" }).click();
  const row = staff.getByRole("row", { name: new RegExp(`Kit Chen`) });
  await expect(row).toContainText(email);
  await expect(row).toContainText("Booked");
  await expectAccessible(staff, "the showroom's day");

  // Cancelled from the link, after a confirmation.
  await page.getByRole("button", { name: "Cancel my appointment" }).click();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your appointment is cancelled" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Cancelled" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel my appointment" })).toHaveCount(0);
  await expect.poll(async () => inviteIn(await waitForEmailTo(email)).includes("\r\nMETHOD:CANCEL\r\n")).toBe(true);

  await staff.reload();
  await expect(staff.getByRole("row", { name: /Kit Chen/ })).toContainText("Cancelled by the customer");
  await staff.context().close();
});
