// Company users (issue 7): the demo trade owner invites a buyer on /trade/manage/invite,
// the invitee follows the emailed link, registers with that email, accepts and
// lands on the trade dashboard as a buyer; the owner then sees them listed.
import { csrfHeaders, newUser, openPage, registerThroughForm, waitForEmailTo } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

const OWNER = { email: "trade@example.com", password: "demo-password-2026" };

test("invite a buyer → the invitee registers with that email and accepts → listed as a buyer", async ({ page, browser }) => {
  const signedIn = await page.request.post("/api/auth/login", { headers: await csrfHeaders(page.request), data: OWNER });
  expect(signedIn.status(), await signedIn.text()).toBe(200);

  const invitee = newUser("Bea");
  await openPage(page, "/trade/manage");
  await page.getByRole("link", { name: "Invite a user" }).first().click();
  await expect(page).toHaveURL(/\/trade\/manage\/invite$/);
  await page.getByLabel("Email address").fill(invitee.email);
  await page.getByLabel("Role").selectOption("buyer");
  await page.getByRole("button", { name: "Send the invitation" }).click();
  await expect(page).toHaveURL(/\/trade\/manage$/);
  await expect(page.getByTestId("trade-users").getByRole("row", { name: new RegExp(invitee.email.replace(/[.]/g, "\\.")) })).toContainText("Invited");

  const email = await waitForEmailTo(invitee.email);
  const match = /https?:\/\/[^\s"'<>]+\/trade\/invitation\?token=[^\s"'<>]+/.exec(email);
  expect(match, "the invitation email carries a link").toBeTruthy();
  const link = new URL(match![0].replace(/&amp;/g, "&"));

  // The invitee, in their own browser: the link asks them to sign in; they register instead.
  const context = await browser.newContext();
  const theirs = await context.newPage();
  try {
    await openPage(theirs, `${link.pathname}${link.search}`);
    await expect(theirs).toHaveURL(/\/auth\/login\?redirect=/);
    const back = new URL(theirs.url()).searchParams.get("redirect")!;
    await openPage(theirs, `/auth/register?${new URLSearchParams({ redirect: back })}`);
    await registerThroughForm(theirs, invitee);
    await expect(theirs).toHaveURL(/\/trade\/invitation\?token=/);
    await theirs.waitForLoadState("networkidle");
    await theirs.getByRole("button", { name: "Accept the invitation" }).click();
    await expect(theirs).toHaveURL(/\/trade\/dashboard$/);
    await expect(theirs.getByRole("main")).toContainText(/Your role\s*buyer/i);
    // A buyer does not manage users.
    const manage = await theirs.request.get("/api/trade/users");
    expect(manage.status()).toBe(404);
  } finally {
    await context.close();
  }

  // The owner sees them, changes their role, then removes them.
  await openPage(page, "/trade/manage");
  const name = `${invitee.firstname} ${invitee.lastname}`;
  await page.getByTestId("trade-users").getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Role").selectOption("accounts");
  await page.getByRole("button", { name: "Change the role" }).click();
  await expect(page.getByRole("status")).toHaveText("The role is changed.");
  await expect(page.getByTestId("trade-user-role")).toHaveText("Accounts");
  await page.getByRole("button", { name: "Remove from the company" }).click();
  await expect(page).toHaveURL(/\/trade\/manage$/);
  await expect(page.getByTestId("trade-users").getByRole("link", { name })).toHaveCount(0);
});

test("an invitation can be resent and revoked from /trade/manage", async ({ page }) => {
  const signedIn = await page.request.post("/api/auth/login", { headers: await csrfHeaders(page.request), data: OWNER });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  const invitee = newUser("Cal");
  const sent = await page.request.post("/api/trade/users/invite", { headers: await csrfHeaders(page.request), data: { email: invitee.email, role: "accounts" } });
  expect(sent.status(), await sent.text()).toBe(201);
  await openPage(page, "/trade/manage");
  await page.getByRole("button", { name: `Resend the invitation to ${invitee.email}` }).click();
  await expect(page.getByRole("status")).toContainText("The invitation is sent again");
  await page.getByRole("button", { name: `Revoke the invitation to ${invitee.email}` }).click();
  await expect(page.getByRole("status")).toHaveText("The invitation is revoked.");
  await expect(page.getByTestId("trade-users")).not.toContainText(invitee.email);
});
