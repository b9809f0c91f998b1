// Sign-in, registration, sign-out and password recovery in the browser (issue 3).
import { accountLink, newUser, openPage, PASSWORD, registerByApi, resetLinkFrom, signInThroughForm, waitForEmailTo } from "./auth-helpers.ts";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// Chromium logs every 4xx answer of fetch() as a console error; these tests expect some.
// One pattern: Playwright would read a second array element as fixture options.
const expectedRefusals = [/the server responded with a status of (422|429)/];

test.describe("registration", () => {
  test("a new customer registers and lands signed in on their account", async ({ page }) => {
    const user = newUser("Grace");
    await openPage(page, "/auth/register");
    await page.getByLabel("First name").fill(user.firstname);
    await page.getByLabel("Last name").fill(user.lastname);
    await page.getByLabel("Email address").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription("8 to 128 characters");
    await page.getByLabel("Confirm password").fill(user.password);
    await page.getByLabel("Email me offers and news").check();
    await page.getByRole("button", { name: "Create account" }).click();

    await expect(page).toHaveURL("/account");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
    await expect(page.getByText(`Hello, ${user.firstname}.`)).toBeVisible();
    await expect(accountLink(page, user.firstname)).toHaveAttribute("href", "/account");

    // The newsletter choice made on the form was kept.
    await page.getByRole("link", { name: "Newsletter" }).first().click();
    await expect(page.getByLabel("Send me the newsletter")).toBeChecked();
  });

  test.describe("refusals", () => {
    test.use({ allowedConsoleErrors: expectedRefusals });

    test("the server's messages appear beside each field and the input is kept", async ({ page, request }) => {
      const taken = await registerByApi(request);
      await openPage(page, "/auth/register");
      await page.getByLabel("First name").fill("Ada");
      await page.getByLabel("Last name").fill("Builder");
      await page.getByLabel("Email address").fill(taken.email);
      // Long enough for the browser, but among the most common passwords.
      await page.getByLabel("Password", { exact: true }).fill("password");
      await page.getByLabel("Confirm password").fill("something-else");
      await page.getByRole("button", { name: "Create account" }).click();

      const password = page.getByLabel("Password", { exact: true });
      await expect(password).toHaveAttribute("aria-invalid", "true");
      await expect(password).toHaveAccessibleDescription(/8 to 128 characters.*too common/);
      await expect(page.getByLabel("Confirm password")).toHaveAccessibleDescription(/does not match/);
      await expect(page.getByLabel("First name")).not.toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("First name")).toHaveValue("Ada");
      await expect(page.getByLabel("Email address")).toHaveValue(taken.email);
      // Focus goes to the first field in error.
      await expect(page.locator("[aria-invalid=true]").first()).toBeFocused();
      await expect(page).toHaveURL("/auth/register");
    });
  });
});

test.describe("sign-in", () => {
  test("the demo customer signs in", async ({ page }) => {
    await openPage(page, "/auth/login");
    await signInThroughForm(page, { email: "customer@example.com", password: "demo-password-2026" });
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("banner").getByRole("link", { name: /^Your account: / })).toBeVisible();
  });

  test("with Remember me the sign-in cookie lasts 30 days", async ({ page, request, context }) => {
    const user = await registerByApi(request, newUser("Remy"));
    await openPage(page, "/auth/login");
    await signInThroughForm(page, user, { remember: true });
    await expect(page).toHaveURL("/");
    await expect(accountLink(page, "Remy")).toBeVisible();

    const session = (await context.cookies()).find((c) => c.httpOnly && c.name !== "XSRF-TOKEN");
    expect(session, "an HttpOnly sign-in cookie").toBeTruthy();
    const days = (session!.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30.01);
  });

  test("without Remember me the sign-in cookie ends with the browser session", async ({ page, request, context }) => {
    const user = await registerByApi(request, newUser("Sasha"));
    await openPage(page, "/account/login");
    await signInThroughForm(page, user);
    await expect(page).toHaveURL("/");
    await expect(accountLink(page, "Sasha")).toBeVisible();
    const session = (await context.cookies()).find((c) => c.httpOnly && c.name !== "XSRF-TOKEN");
    expect(session, "an HttpOnly sign-in cookie").toBeTruthy();
    expect(session!.expires).toBe(-1);
  });

  test("the sign-in page links to registration and recovery, carrying the redirect", async ({ page }) => {
    await openPage(page, "/auth/login?redirect=%2Faccount%2Faddresses");
    await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/auth/register?redirect=%2Faccount%2Faddresses");
    await page.getByRole("link", { name: "Forgotten your password?" }).click();
    await expect(page).toHaveURL("/auth/recovery");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset your password");
  });

  test.describe("refusals", () => {
    test.use({ allowedConsoleErrors: expectedRefusals });

    test("a wrong password shows the server's message beside the field and keeps the email", async ({ page, request }) => {
      const user = await registerByApi(request);
      await openPage(page, "/auth/login");
      await signInThroughForm(page, { email: user.email, password: "not-the-password" });
      const email = page.getByLabel("Email address");
      await expect(email).toHaveAttribute("aria-invalid", "true");
      await expect(email).toHaveAccessibleDescription("Error: These credentials do not match our records.");
      await expect(email).toHaveValue(user.email);
      await expect(email).toBeFocused();
      await expect(page).toHaveURL("/auth/login");
      await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
    });

    test("after five failures the server's throttling message shows in the alert", async ({ page, request }) => {
      const user = await registerByApi(request);
      await openPage(page, "/auth/login");
      for (let i = 0; i < 5; i++) {
        await signInThroughForm(page, { email: user.email, password: `wrong-${i}` });
        await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
        await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
      }
      await signInThroughForm(page, { email: user.email, password: user.password });
      await expect(page.getByRole("alert").filter({ hasText: /Too many/ })).toContainText(/Please try again in \d+ seconds\./);
      await expect(page).toHaveURL("/auth/login");
    });
  });
});

test.describe("redirects after sign-in", () => {
  test("?redirect is honoured", async ({ page, request }) => {
    const user = await registerByApi(request, newUser("Rosa"));
    await openPage(page, "/auth/login?redirect=%2Faccount%2Faddresses");
    await signInThroughForm(page, user);
    await expect(page).toHaveURL("/account/addresses");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your addresses");
    await expect(accountLink(page, "Rosa")).toBeVisible();
  });

  for (const target of ["//evil.example", "https://evil.example", "javascript:alert(1)", "/\\evil.example"]) {
    test(`a redirect to ${target} falls back to /`, async ({ page, request }) => {
      const user = await registerByApi(request);
      await openPage(page, `/auth/login?${new URLSearchParams({ redirect: target })}`);
      await signInThroughForm(page, user);
      await expect(page).toHaveURL("/");
      await expect(accountLink(page, user.firstname)).toBeVisible();
    });
  }

  test("a guest wanting an account page is sent to sign in, then brought back", async ({ page, request }) => {
    const user = await registerByApi(request);
    await page.goto("/account/manage");
    await expect(page).toHaveURL("/auth/login?redirect=%2Faccount%2Fmanage");
    await page.waitForLoadState("networkidle");
    await signInThroughForm(page, user);
    await expect(page).toHaveURL("/account/manage");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your details");
  });

  test("the query of the wanted page survives the trip through sign-in", async ({ page }) => {
    await page.goto("/account/addresses?from=checkout");
    await expect(page).toHaveURL("/auth/login?redirect=%2Faccount%2Faddresses%3Ffrom%3Dcheckout");
  });
});

test.describe("guest-only pages for a signed-in user", () => {
  test("/auth/login sends them to ?redirect, or to / for a foreign target", async ({ page }) => {
    await registerByApi(page.request);
    await page.goto("/auth/login?redirect=/account/addresses");
    await expect(page).toHaveURL("/account/addresses");
    await page.goto("/auth/login?redirect=//evil.example");
    await expect(page).toHaveURL("/");
    await page.goto("/auth/register");
    await expect(page).toHaveURL("/");
    await page.goto("/account/login?redirect=%2Faccount");
    await expect(page).toHaveURL("/account");
    await page.goto("/auth/recovery?redirect=https://evil.example/");
    await expect(page).toHaveURL("/");
  });

  test("a signed-in page is never cached", async ({ page }) => {
    await registerByApi(page.request);
    const response = await page.request.get("/account");
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("private, no-store");
  });
});

/** Signs out from the header's account menu: home, with the header a guest's. */
async function signOutFromHeader(page: Page, firstname: string) {
  await page.getByRole("banner").getByLabel("Account menu").click();
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(accountLink(page, firstname)).toHaveCount(0);
}

test.describe("the session in the page", () => {
  test("on start the page asks the API once who is signed in", async ({ page }) => {
    const calls: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/user") calls.push(r.method());
    });
    await openPage(page, "/");
    // The check runs once the page has hydrated; then no second call follows.
    await expect.poll(() => calls).toEqual(["GET"]);
    await page.waitForTimeout(500);
    expect(calls).toEqual(["GET"]);
  });

  test("a page rendered for a guest catches up when the API names a user", async ({ page, request }) => {
    // The HTML says "guest" (say, restored from a cache) but the browser holds a sign-in cookie.
    const guestPage = await request.get("/about");
    await registerByApi(page.request, newUser("Tabitha"));
    await page.route("**/about", (route) => route.fulfill({ response: guestPage }));
    await page.goto("/about");
    await expect(accountLink(page, "Tabitha")).toBeVisible();
  });

  test("a signed-in customer's catalogue page is the visitor's, from the cache: the header names them once the page has asked", async ({ page, request }) => {
    await request.get("/delivery");
    const user = await registerByApi(page.request, newUser("Imogen"));
    const response = await page.goto("/delivery");
    expect(response?.headers()["x-cache"]).toBe("hit");
    expect(await response?.text()).not.toContain(user.email);
    await expect(accountLink(page, user.firstname)).toBeVisible();
    // Signing out on a shared page forgets the user the browser held.
    await signOutFromHeader(page, user.firstname);
  });

  test("signing out from the header menu clears the user everywhere and goes home", async ({ page }) => {
    const user = await registerByApi(page.request, newUser("Otto"));
    await openPage(page, "/account/addresses");
    await expect(accountLink(page, user.firstname)).toBeVisible();
    await signOutFromHeader(page, user.firstname);
    expect((await page.request.get("/api/user")).status()).toBe(204);
    await page.goto("/account");
    await expect(page).toHaveURL("/auth/login?redirect=%2Faccount");
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the header shows the first name and the Menu offers the account and Sign out", async ({ page }) => {
    await registerByApi(page.request, newUser("Maximilian"));
    await openPage(page, "/");
    const account = accountLink(page, "Maximilian");
    await expect(account).toBeVisible();
    await expect(account).toContainText("Maximilian");
    // Nothing in the header spills sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.locator("summary", { hasText: "Menu" }).tap();
    const menu = page.getByRole("navigation", { name: "Main" });
    await expect(menu.getByText("Signed in as Maximilian")).toBeVisible();
    await expect(menu.getByRole("link", { name: "Addresses" })).toHaveAttribute("href", "/account/addresses");
    await menu.getByRole("button", { name: "Sign out" }).tap();
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(account).toHaveCount(0);
  });
});

test.describe("password recovery", () => {
  test("the emailed link lets the customer choose a new password and sign in with it", async ({ page, request }) => {
    test.setTimeout(45_000);
    const user = await registerByApi(request, newUser("Rex"));
    await openPage(page, "/auth/recovery");
    await page.getByLabel("Email address").fill(user.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toContainText("If that address has an account, we have emailed a link to reset the password.");

    const link = resetLinkFrom(await waitForEmailTo(user.email));
    expect(link).toMatch(/^\/auth\/recovery\?/);
    await openPage(page, link);
    const newPassword = `${PASSWORD}-new`;
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password").fill(newPassword);
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page.getByRole("status")).toContainText("Your password has been changed.");

    await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL("/auth/login");
    await page.waitForLoadState("networkidle");
    await signInThroughForm(page, { email: user.email, password: newPassword });
    await expect(page).toHaveURL("/");
    await expect(accountLink(page, "Rex")).toBeVisible();
  });

  test.describe("refusals", () => {
    test.use({ allowedConsoleErrors: expectedRefusals });

    test("a link that does not hold says so and offers to send a new one", async ({ page }) => {
      await openPage(page, "/auth/recovery?token=not-a-real-token&email=nobody%40example.com");
      await expect(page.getByRole("alert").first()).toContainText("Ask for a new link below.");
      await expect(page.getByLabel("New password")).toHaveCount(0);
      await expect(page.getByLabel("Email address")).toHaveValue("nobody@example.com");
    });
  });

  test("the request answers the same for an address with no account", async ({ page }) => {
    await openPage(page, "/auth/recovery");
    await page.getByLabel("Email address").fill(newUser().email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toContainText("If that address has an account, we have emailed a link to reset the password.");
  });
});
