// The account area in the browser (issue 3): overview, details, password, addresses, newsletter.
import { accountLink, addAddressByApi, fillByLabel, newUser, openPage, PASSWORD, registerByApi, registerThroughForm, resetLinkFrom, signInThroughForm, waitForEmailTo } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

// Chromium logs every 4xx answer of fetch() as a console error; these tests expect some.
test.use({ allowedConsoleErrors: [/the server responded with a status of 422/] });

test.describe("overview", () => {
  test("greets the customer and links to every part of the account", async ({ page }) => {
    const user = await registerByApi(page.request, newUser("Olive"));
    await openPage(page, "/account");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
    await expect(page.getByText(`Hello, Olive. You are signed in as ${user.email}.`)).toBeVisible();
    const nav = page.getByRole("main").getByRole("navigation", { name: "Your account" });
    for (const [name, href] of [
      ["Orders", "/account/orders/history"],
      ["Quotes", "/account/quotes"],
      ["Quick order", "/trade/quick-order"],
      ["Wishlist", "/account/wishlist"],
      ["Addresses", "/account/addresses"],
      ["Your details", "/account/manage"],
      ["Password", "/account/password"],
      ["Newsletter", "/account/newsletter"],
    ] as const) {
      await expect(nav.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", href);
    }
    await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  });
});

test.describe("your details", () => {
  test("the name and phone are saved and the header follows", async ({ page }) => {
    await registerByApi(page.request, newUser("Ada"));
    await openPage(page, "/account/manage");
    await expect(page.getByLabel("First name")).toHaveValue("Ada");
    await expect(page.getByLabel("First name")).toHaveAttribute("autocomplete", "given-name");
    await page.getByLabel("First name").fill("Adelaide");
    await page.getByLabel("Phone number").fill("020 7946 0000");
    // The current password is asked for only when the email changes.
    await expect(page.getByLabel("Current password")).toHaveCount(0);
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(page.getByRole("status")).toHaveText("Your details have been saved.");
    await expect(accountLink(page, "Adelaide")).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("First name")).toHaveValue("Adelaide");
    await expect(page.getByLabel("Phone number")).toHaveValue("020 7946 0000");
  });

  test("changing the email needs the current password", async ({ page }) => {
    const user = await registerByApi(page.request, newUser("Eli"));
    await openPage(page, "/account/manage");
    const changed = newUser().email;
    await page.getByLabel("Email address").fill(changed);
    const current = page.getByLabel("Current password");
    await expect(current).toBeVisible();
    await expect(current).toHaveAttribute("autocomplete", "current-password");

    await current.fill("not-my-password");
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(current).toHaveAttribute("aria-invalid", "true");
    await expect(current).toBeFocused();
    await expect(page.getByLabel("Email address")).toHaveValue(changed);

    await current.fill(user.password);
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(page.getByRole("status")).toHaveText("Your details have been saved.");
    await expect(page.getByLabel("Current password")).toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel("Email address")).toHaveValue(changed);
  });
});

test.describe("password", () => {
  test("a wrong current password is refused beside the field; the right one changes it", async ({ page, browser }) => {
    const user = await registerByApi(page.request, newUser("Pat"));
    await openPage(page, "/account/password");
    const next = `${PASSWORD}-changed`;
    await page.getByLabel("Current password").fill("wrong-password-1");
    await page.getByLabel("New password", { exact: true }).fill(next);
    await page.getByLabel("Confirm new password").fill(next);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Current password").fill(user.password);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status")).toContainText("Your password has been changed.");
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");

    // This browser stays signed in; a fresh one signs in with the new password.
    await page.reload();
    await expect(page).toHaveURL("/account/password");
    const other = await browser.newPage();
    try {
      await openPage(other, "/auth/login");
      await signInThroughForm(other, { email: user.email, password: next });
      await expect(other).toHaveURL("/");
      await expect(accountLink(other, "Pat")).toBeVisible();
    } finally {
      await other.close();
    }
  });
});

test.describe("addresses", () => {
  test("add, edit, set defaults and delete", async ({ page }) => {
    test.setTimeout(45_000);
    await registerByApi(page.request, newUser("Ida"));
    await openPage(page, "/account/addresses");
    await expect(page.getByText("You have no saved addresses.")).toBeVisible();

    // Add: a bad postcode is refused beside the field, the rest of the input is kept.
    await page.getByRole("button", { name: "Add a new address" }).click();
    const form = page.getByRole("region", { name: "Add a new address" });
    await fillByLabel(form, { "First name": "Ida", "Last name": "Builder", "Address line 1": "10 Downing Street", "Town or city": "London", Postcode: "NOT A POSTCODE" });
    await form.getByRole("button", { name: "Add address" }).click();
    const postcode = form.getByLabel("Postcode");
    await expect(postcode).toHaveAttribute("aria-invalid", "true");
    await expect(postcode).toHaveAccessibleDescription("Error: Enter a valid UK postcode.");
    await expect(postcode).toBeFocused();
    await expect(form.getByLabel("Address line 1")).toHaveValue("10 Downing Street");

    // The server normalises the postcode.
    await postcode.fill("sw1a2aa");
    await form.getByRole("button", { name: "Add address" }).click();
    await expect(page.getByRole("status")).toHaveText("The address has been added.");
    const saved = page.getByRole("list", { name: "Saved addresses" }).getByRole("listitem");
    await expect(saved).toHaveCount(1);
    await expect(saved.first()).toContainText("SW1A 2AA");
    // The first address becomes both defaults.
    await expect(saved.first().getByText("Default delivery", { exact: true })).toBeVisible();
    await expect(saved.first().getByText("Default billing", { exact: true })).toBeVisible();

    // Edit.
    await saved.first().getByRole("button", { name: /^Edit/ }).click();
    const edit = page.getByRole("region", { name: "Edit address" });
    await expect(edit.getByLabel("Postcode")).toHaveValue("SW1A 2AA");
    await edit.getByLabel("Address line 2").fill("Westminster");
    await edit.getByRole("button", { name: "Save address" }).click();
    await expect(page.getByRole("status")).toHaveText("The address has been updated.");
    await expect(saved.first()).toContainText("Westminster");

    // A second address, then the defaults.
    await addAddressByApi(page.request, { firstname: "Ida", lastname: "Builder", line1: "1 Canal Wharf", town: "Leeds", postcode: "LS11 5PS" });
    await page.reload();
    await page.waitForLoadState("networkidle");
    await expect(saved).toHaveCount(2);
    const leeds = saved.filter({ hasText: "LS11 5PS" });
    const london = saved.filter({ hasText: "SW1A 2AA" });
    await expect(leeds.getByText(/^Default/)).toHaveCount(0);
    await leeds.getByRole("button", { name: "Make default delivery address" }).click();
    await expect(page.getByRole("status")).toHaveText("Default delivery address changed.");
    await expect(leeds.getByText("Default delivery", { exact: true })).toBeVisible();
    await expect(london.getByText("Default delivery", { exact: true })).toHaveCount(0);
    await expect(london.getByText("Default billing", { exact: true })).toBeVisible();
    await leeds.getByRole("button", { name: "Make default billing address" }).click();
    await expect(page.getByRole("status")).toHaveText("Default billing address changed.");
    await expect(leeds.getByText("Default billing", { exact: true })).toBeVisible();
    await expect(london.getByText(/^Default/)).toHaveCount(0);
    await london.getByRole("button", { name: "Make default delivery address" }).click();
    await expect(london.getByText("Default delivery", { exact: true })).toBeVisible();
    await expect(leeds.getByText("Default delivery", { exact: true })).toHaveCount(0);
    await expect(leeds.getByText("Default billing", { exact: true })).toBeVisible();

    // Delete asks first; Cancel keeps it.
    await leeds.getByRole("button", { name: /^Delete/ }).click();
    await expect(leeds.getByText("Delete this address?")).toBeVisible();
    await expect(leeds.getByRole("button", { name: "Yes, delete" })).toBeFocused();
    await leeds.getByRole("button", { name: "Cancel" }).click();
    await expect(leeds.getByRole("button", { name: /^Delete/ })).toBeFocused();
    await expect(saved).toHaveCount(2);
    await leeds.getByRole("button", { name: /^Delete/ }).click();
    await leeds.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByRole("status")).toHaveText("The address has been deleted.");
    await expect(saved).toHaveCount(1);
    await expect(saved.first()).toContainText("SW1A 2AA");

    await page.reload();
    await expect(saved).toHaveCount(1);
  });

  test("the address form uses the browser's address autofill", async ({ page }) => {
    await registerByApi(page.request);
    await openPage(page, "/account/addresses");
    await page.getByRole("button", { name: "Add a new address" }).click();
    const form = page.getByRole("region", { name: "Add a new address" });
    await expect(form.getByRole("heading", { name: "Add a new address" })).toBeFocused();
    for (const [label, autocomplete] of [
      ["First name", "given-name"],
      ["Last name", "family-name"],
      ["Address line 1", "address-line1"],
      ["Address line 2", "address-line2"],
      ["Town or city", "address-level2"],
      ["Postcode", "postal-code"],
      ["Phone number", "tel"],
    ] as const) {
      await expect(form.getByLabel(label)).toHaveAttribute("autocomplete", autocomplete);
    }
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect(form).toHaveCount(0);
    await expect(page.getByText("You have no saved addresses.")).toBeVisible();
  });
});

test.describe("newsletter", () => {
  test("the subscription and its topics are saved", async ({ page }) => {
    await registerByApi(page.request);
    await openPage(page, "/account/newsletter");
    const subscribed = page.getByLabel("Send me the newsletter");
    await expect(subscribed).not.toBeChecked();
    await subscribed.check();
    await page.getByLabel("Equipment hire").check();
    await page.getByLabel("Trade news").check();
    await page.getByRole("button", { name: "Save choices" }).click();
    await expect(page.getByRole("status")).toHaveText("Your newsletter choices have been saved.");

    await page.reload();
    await expect(subscribed).toBeChecked();
    await expect(page.getByLabel("Equipment hire")).toBeChecked();
    await expect(page.getByLabel("Trade news")).toBeChecked();
    await expect(page.getByLabel("Offers and discounts")).not.toBeChecked();
  });
});

test("the whole journey: register, sign out, recover by email, sign in with remember, edit profile and an address, sign out", async ({ page, context }) => {
  test.setTimeout(60_000);
  const user = newUser("Jo");
  await openPage(page, "/auth/register");
  await registerThroughForm(page, user);
  await expect(page).toHaveURL("/account");

  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();

  await page.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
  await page.getByRole("link", { name: "Forgotten your password?" }).click();
  await expect(page).toHaveURL("/auth/recovery");
  await page.getByLabel("Email address").fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toContainText("we have emailed a link");

  await openPage(page, resetLinkFrom(await waitForEmailTo(user.email)));
  const recovered = `${PASSWORD}-recovered`;
  await page.getByLabel("New password", { exact: true }).fill(recovered);
  await page.getByLabel("Confirm new password").fill(recovered);
  await page.getByRole("button", { name: "Save new password" }).click();
  await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).click();

  await expect(page).toHaveURL("/auth/login");
  await page.waitForLoadState("networkidle");
  await signInThroughForm(page, { email: user.email, password: recovered }, { remember: true });
  await expect(accountLink(page, "Jo")).toBeVisible();
  const session = (await context.cookies()).find((c) => c.httpOnly && c.name !== "XSRF-TOKEN");
  expect(session!.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);

  await accountLink(page, "Jo").click();
  await page.getByRole("main").getByRole("link", { name: /^Your details/ }).click();
  await page.getByLabel("Last name").fill("Carpenter");
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByRole("status")).toHaveText("Your details have been saved.");

  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Your account" }).click();
  await page.getByRole("main").getByRole("link", { name: /^Addresses/ }).click();
  await page.getByRole("button", { name: "Add a new address" }).click();
  const form = page.getByRole("region", { name: "Add a new address" });
  await fillByLabel(form, { "First name": "Jo", "Last name": "Carpenter", "Address line 1": "2 Mill Lane", "Town or city": "York", Postcode: "yo1 7hh" });
  await form.getByLabel("Use as my default delivery address").check();
  await form.getByRole("button", { name: "Add address" }).click();
  const card = page.getByRole("list", { name: "Saved addresses" }).getByRole("listitem");
  await expect(card).toContainText("YO1 7HH");
  await expect(card.getByText("Default delivery", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: /^Edit/ }).click();
  await page.getByRole("region", { name: "Edit address" }).getByLabel("Town or city").fill("York City");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(card).toContainText("York City");

  await page.getByRole("banner").getByLabel("Account menu").click();
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect(accountLink(page, "Jo")).toHaveCount(0);
});
