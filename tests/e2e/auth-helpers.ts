// Helpers for the sign-in and account journeys: fresh users through the API,
// waiting for the page's scripts, and reading the emails the shop writes to disk.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";

export const PASSWORD = "Plenty-of-Bricks-2026";

export interface TestUser {
  firstname: string;
  lastname: string;
  email: string;
  password: string;
}

let counter = 0;

/** A user nobody else in the run uses (tests run in parallel against one server). */
export function newUser(firstname = "Ada"): TestUser {
  counter += 1;
  const tag = `${Date.now().toString(36)}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
  return { firstname, lastname: "Builder", email: `e2e-${tag}@example.com`, password: PASSWORD };
}

/** A cookie-authenticated write needs the request-forgery token, as the browser client sends it. */
export async function csrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  await request.get("/sanctum/csrf-cookie");
  const { cookies } = await request.storageState();
  const token = cookies.find((c) => c.name === "XSRF-TOKEN")?.value;
  expect(token, "the API set the XSRF-TOKEN cookie").toBeTruthy();
  return { "X-XSRF-TOKEN": decodeURIComponent(token!) };
}

/**
 * Registers through the API. With `page.request` the page's browser context is
 * signed in as well (they share cookies); with the `request` fixture it is not.
 */
export async function registerByApi(request: APIRequestContext, user: TestUser = newUser()): Promise<TestUser> {
  const response = await request.post("/api/auth/register", {
    headers: await csrfHeaders(request),
    data: { firstname: user.firstname, lastname: user.lastname, email: user.email, password: user.password, password_confirmation: user.password },
  });
  expect(response.status(), await response.text()).toBe(201);
  return user;
}

/** Adds an address through the API for a context that is signed in. */
export async function addAddressByApi(request: APIRequestContext, address: Record<string, unknown>): Promise<void> {
  const response = await request.post("/api/account/addresses", { headers: await csrfHeaders(request), data: address });
  expect(response.status(), await response.text()).toBe(201);
}

/** Opens a page and waits until its scripts have taken over (forms are sent by them). */
export async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
}

/** Types each value into the field its label names, in order, within `scope`: a page or one form's region. */
export async function fillByLabel(scope: Page | Locator, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) await scope.getByLabel(label).fill(value);
}

export async function signInThroughForm(page: Page, user: Pick<TestUser, "email" | "password">, options: { remember?: boolean } = {}): Promise<void> {
  await page.getByLabel("Email address").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  if (options.remember) await page.getByLabel("Remember me").check();
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Fills the registration form (on /auth/register) and sends it. */
export async function registerThroughForm(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel("First name").fill(user.firstname);
  await page.getByLabel("Last name").fill(user.lastname);
  await page.getByLabel("Email address").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Confirm password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** The header's account link names the signed-in user. */
export function accountLink(page: Page, firstname: string) {
  return page.getByRole("banner").getByRole("link", { name: `Your account: ${firstname}` });
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Every readable form of an .eml: raw, quoted-printable decoded, and base64 parts decoded. */
function readableEmail(raw: string): string {
  // Decoded first: a raw quoted-printable line break would cut a link short.
  const parts = [decodeQuotedPrintable(raw)];
  for (const block of raw.split(/\r?\n\r?\n/)) {
    const compact = block.replace(/\s+/g, "");
    if (compact.length > 40 && /^[A-Za-z0-9+/=]+$/.test(compact)) parts.push(Buffer.from(compact, "base64").toString("utf8"));
  }
  parts.push(raw);
  return parts.join("\n");
}

/**
 * The newest email to `to` that the shop wrote under DATA_DIR/mail (SMTP_URL is
 * unset in the browser tests): the suite's shared server's unless a spec's own
 * `dataDir` is given. Mail leaves through an outbox, so this waits for it.
 */
export async function waitForEmailTo(to: string, timeoutMs = 10_000, dataDir = process.env.E2E_DATA_DIR): Promise<string> {
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the suite through playwright.config.ts.");
  const dir = path.join(dataDir, "mail");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
    } catch {
      // Not written yet.
    }
    const matching = files
      .map((f) => path.join(dir, f))
      .map((file) => ({ file, mtime: statSync(file).mtimeMs, text: readableEmail(readFileSync(file, "utf8")) }))
      // Addressed to them (the To header), not one that only mentions them, such as the shop's copy of an order.
      .filter((m) => (/^To:\s*(.+)$/im.exec(m.text)?.[1] ?? "").toLowerCase().includes(to.toLowerCase()))
      .sort((a, b) => b.mtime - a.mtime);
    if (matching[0]) return matching[0].text;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No email to ${to} appeared in ${dir} within ${timeoutMs} ms.`);
}

/** The path and query of the reset link in an email (its host is PUBLIC_URL, not the test server). */
export function resetLinkFrom(email: string): string {
  const match = /https?:\/\/[^\s"'<>]+\/auth\/recovery\?[^\s"'<>]+/.exec(email);
  if (!match) throw new Error(`No reset link in the email:\n${email.slice(0, 2000)}`);
  const url = new URL(match[0].replace(/&amp;/g, "&"));
  return `${url.pathname}${url.search}`;
}
