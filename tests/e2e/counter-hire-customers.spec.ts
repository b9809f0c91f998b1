// The counter (issue 34) in a real browser against the production build: the
// hire desk books a walk-in's hire from a free cell of the planner, priced by
// the rate card with the deposit before booking, and the hire then shows on
// the planner; a sales member finds a customer and edits their name, phone
// and staff note. axe over each screen the issue changed.
import { newUser, openPage, registerByApi } from "./auth-helpers.ts";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { londonDay } from "./dates.ts";
import { staffPage } from "./staff-helpers.ts";

test("the hire desk books a walk-in's hire from a free planner cell", async ({ browser }) => {
  test.slow();
  const desk = await staffPage(browser, "hire@staff.example.com");
  const from = londonDay(60);

  await test.step("the hire desk offers a new hire", async () => {
    await openPage(desk, "/admin/hire");
    await expect(desk.getByRole("link", { name: "New hire" })).toBeVisible();
    await expectAccessible(desk, "/admin/hire");
  });

  let cellName = "";
  await test.step("a free cell of the planner starts the booking for that unit and day", async () => {
    await openPage(desk, `/admin/hire/planner?from=${from}&days=7&q=${encodeURIComponent("Carpet Cleaner")}`);
    await expectAccessible(desk, "/admin/hire/planner");
    const cell = desk.getByRole("link", { name: /^Book .+ from / }).first();
    cellName = (await cell.getAttribute("aria-label"))!;
    // The keyboard's way in: focus the cell, press Enter.
    await cell.focus();
    await desk.keyboard.press("Enter");
    await expect(desk.getByRole("heading", { level: 1, name: "New hire" })).toBeVisible();
    await expect(desk.getByLabel("Starts on")).toHaveValue(from);
    await expect(desk.getByLabel("Hire item")).toHaveValue("carpet-cleaner");
    await expect(desk.getByLabel("Unit")).not.toHaveValue("");
    await expect(desk.getByRole("definition").filter({ hasText: "£" }).first()).toBeVisible();
    await expect(desk.getByText("Refundable deposit")).toBeVisible();
    await expectAccessible(desk, "/admin/hire/bookings/new");
  });

  let number = "";
  await test.step("a walk-in's name and phone, and the hire is booked", async () => {
    await desk.getByRole("button", { name: "Book hire" }).click();
    // Nothing typed yet: the name and phone are asked for, by name.
    await expect(desk.getByTestId("result-banner")).toContainText("The hire was not booked");
    await expect(desk.getByText("Enter the customer's name.")).toBeVisible();
    await desk.getByLabel("Walk-in's name").fill("Wendy Walkin");
    await desk.getByLabel("Phone").fill("07700 900777");
    await desk.getByRole("button", { name: "Book hire" }).click();
    const banner = desk.getByTestId("result-banner");
    await expect(banner).toContainText(/Booked HR-\d{6}: unit /);
    number = /HR-\d{6}/.exec((await banner.textContent())!)![0];
    await expectAccessible(desk, "booked");
  });

  await test.step("the same cell is now taken: booking it again names the clash", async () => {
    await openPage(desk, `/admin/hire/planner?from=${from}&days=7&q=${encodeURIComponent("Carpet Cleaner")}`);
    await expect(desk.getByRole("link", { name: cellName })).toHaveCount(0);
    await expect(desk.getByRole("link", { name: new RegExp(number) }).first()).toBeVisible();
    await desk.getByRole("link", { name: new RegExp(number) }).first().click();
    await expect(desk.getByRole("heading", { level: 1 })).toContainText(number);
    await expect(desk.getByText("Wendy Walkin").first()).toBeVisible();
  });
});

test("a sales member finds a customer and edits their name, phone and staff note", async ({ browser, request }) => {
  // A customer of this test's own: the demo customer's name is what other journeys expect to find.
  const customer = await registerByApi(request, { ...newUser("Sam"), lastname: "Carter" });
  const sales = await staffPage(browser, "sales@staff.example.com");
  await openPage(sales, "/admin/customers");
  await expectAccessible(sales, "/admin/customers");
  await sales.getByRole("searchbox", { name: "Search" }).fill(customer.email);
  await sales.getByRole("button", { name: "Search" }).click();
  await sales.getByRole("row").filter({ hasText: customer.email }).getByRole("link", { name: "Sam Carter" }).click();
  await expect(sales.getByRole("heading", { level: 1, name: "Sam Carter" })).toBeVisible();
  await expect(sales.getByRole("link", { name: "Start an order" })).toHaveAttribute("href", /\/admin\/orders\/new\?customer_id=\d+$/);
  await expectAccessible(sales, "/admin/customers/:id");

  const edit = sales.getByRole("region", { name: "Edit details" });
  await edit.getByLabel("Phone").fill("not a phone");
  await edit.getByRole("button", { name: "Save details" }).click();
  await expect(sales.getByText("Enter a valid phone number.")).toBeVisible();

  await edit.getByLabel("First name").fill("Samantha");
  await edit.getByLabel("Phone").fill("01482 222333");
  await edit.getByLabel("Staff note").fill("Collects on Fridays; call first.");
  await edit.getByRole("button", { name: "Save details" }).click();
  await expect(sales.getByTestId("result-banner").or(sales.getByRole("status").filter({ hasText: "saved" })).first()).toContainText("The customer's details are saved.");
  await expect(sales.getByRole("heading", { level: 1, name: "Samantha Carter" })).toBeVisible();
  const details = sales.getByRole("region", { name: "Details", exact: true });
  await expect(details).toContainText("01482 222333");
  await expect(details).toContainText("Collects on Fridays; call first.");

  await sales.getByRole("link", { name: "Start a quote" }).click();
  await expect(sales.getByLabel("Customer's email")).toHaveValue(customer.email);
  await expectAccessible(sales, "/admin/quotes/new?customer_id");
});
