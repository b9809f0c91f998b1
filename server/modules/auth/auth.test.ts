import { desc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { DEMO_CUSTOMER } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { mailOutbox } from "../mail/schema.ts";
import { accessTokens, passwordResetTokens, users } from "./schema.ts";
import { sha256 } from "./tokens.ts";

const shop = testShopForFile({ shop: { now: () => clock } });
let clock = Date.now();

beforeEach(() => {
  clock += 3_600_000; // every test starts outside the previous one's rate-limit windows
});

let counter = 0;
function newUser(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    firstname: "Alex",
    lastname: "Morgan",
    email: `alex.${counter}.${Date.now()}@example.co.uk`,
    password: "a long enough secret",
    password_confirmation: "a long enough secret",
    ...overrides,
  };
}

async function registered(browser = new TestBrowser(shop().app)) {
  const body = newUser();
  await browser.csrf();
  const res = await browser.post("/api/auth/register", body);
  expect(res.statusCode).toBe(201);
  return { browser, body, json: res.json() as { user: { id: number; email: string }; token: string; max_age: number } };
}

async function latestMailTo(email: string) {
  const [mail] = await shop().database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.id)).limit(1);
  return mail;
}

describe("GET /sanctum/csrf-cookie", () => {
  it("answers 204 and sets a script-readable XSRF-TOKEN cookie", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/sanctum/csrf-cookie" });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    const cookie = res.cookies.find((c) => c.name === "XSRF-TOKEN");
    // A nonce and its signature (HMAC-SHA256) over the session it is bound to: none here.
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{43}$/);
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.secure).toBeFalsy();
  });
});

describe("registration", () => {
  it("creates the account, signs in with an HttpOnly session cookie and stores only the token's hash", async () => {
    const { browser, body, json } = await registered();
    expect(json.user).toMatchObject({ firstname: "Alex", lastname: "Morgan", name: "Alex Morgan", email: body.email, is_trade: false });
    expect(json.max_age).toBe(86_400);
    expect(json.token).toMatch(/^\d+\|[A-Za-z0-9_-]{43}$/);
    const cookie = browser.cookies.get("tc_session");
    expect(decodeURIComponent(cookie ?? "")).toBe(json.token);

    const [id, secret] = json.token.split("|");
    const [row] = await shop().database.db.select().from(accessTokens).where(eq(accessTokens.id, Number(id)));
    expect(row?.tokenHash).toBe(sha256(secret!));
    expect(JSON.stringify(row)).not.toContain(secret);

    const [user] = await shop().database.db.select().from(users).where(eq(users.id, json.user.id));
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    // A welcome email waits in the outbox.
    expect((await latestMailTo(body.email))?.subject).toContain("Welcome");
  });

  it("sets the session cookie HttpOnly, SameSite=Lax and without Max-Age", async () => {
    const browser = new TestBrowser(shop().app);
    await browser.csrf();
    const res = await browser.post("/api/auth/register", newUser());
    const cookie = res.cookies.find((c) => c.name === "tc_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie?.maxAge).toBeUndefined();
  });

  it.each([
    [{ password: "short", password_confirmation: "short" }, "password", "The password must be at least 8 characters."],
    [{ password: "x".repeat(129), password_confirmation: "x".repeat(129) }, "password", "The password must be at most 128 characters."],
    [{ password: "password", password_confirmation: "password" }, "password", "This password is too common. Choose one that is harder to guess."],
    [{ password: "iloveyou1", password_confirmation: "iloveyou1" }, "password", "This password is too common. Choose one that is harder to guess."],
    [{ password_confirmation: "something else" }, "password_confirmation", "The password confirmation does not match."],
    [{ email: "not-an-email" }, "email", "Enter a valid email address."],
    [{ firstname: "  " }, "firstname", "Enter your first name."],
  ])("refuses %j", async (overrides, field, message) => {
    const browser = new TestBrowser(shop().app);
    await browser.csrf();
    const res = await browser.post("/api/auth/register", newUser(overrides));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[field]).toContain(message);
  });

  it("accepts a long passphrase with no composition rules", async () => {
    const browser = new TestBrowser(shop().app);
    await browser.csrf();
    const res = await browser.post("/api/auth/register", newUser({ password: "correct horse battery staple", password_confirmation: "correct horse battery staple" }));
    expect(res.statusCode).toBe(201);
  });

  it("refuses an email that already has an account, whatever its case", async () => {
    const { body } = await registered();
    const browser = new TestBrowser(shop().app);
    await browser.csrf();
    const res = await browser.post("/api/auth/register", newUser({ email: body.email.toUpperCase() }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toMatch(/already exists/);
  });
});

describe("sign-in", () => {
  it("signs the demo customer in; remember gives 30 days and a persistent cookie", async () => {
    const browser = new TestBrowser(shop().app);
    await browser.csrf();
    const res = await browser.post("/api/auth/login", { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password, remember: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().max_age).toBe(2_592_000);
    expect(res.json().user.email).toBe(DEMO_CUSTOMER.email);
    const cookie = res.cookies.find((c) => c.name === "tc_session");
    expect(cookie?.maxAge).toBe(2_592_000);
    expect(cookie?.httpOnly).toBe(true);
  });

  it("gives the same answer for a wrong password and an unknown email", async () => {
    const { body } = await registered();
    const a = new TestBrowser(shop().app, "198.51.100.1");
    await a.csrf();
    const wrong = await a.post("/api/auth/login", { email: body.email, password: "not the password" });
    const unknown = await a.post("/api/auth/login", { email: `nobody.${Date.now()}@example.com`, password: "not the password" });
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json()).toEqual({
      message: "These credentials do not match our records.",
      errors: { email: ["These credentials do not match our records."] },
    });
  });

  it("accepts the email in any case", async () => {
    const { body } = await registered();
    const b = new TestBrowser(shop().app);
    await b.csrf();
    const res = await b.post("/api/auth/login", { email: body.email.toUpperCase(), password: body.password });
    expect(res.statusCode).toBe(200);
  });

  it("locks an email from one address after 5 failures in a minute, and only for the rest of that minute", async () => {
    const { body } = await registered();
    const attacker = new TestBrowser(shop().app, "192.0.2.66");
    await attacker.csrf();
    for (let i = 0; i < 5; i++) {
      expect((await attacker.post("/api/auth/login", { email: body.email, password: `guess ${i}` })).statusCode).toBe(422);
    }
    const locked = await attacker.post("/api/auth/login", { email: body.email, password: body.password });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(locked.headers["retry-after"])).toBeLessThanOrEqual(60);

    // The owner, from their own address, is not locked out.
    const owner = new TestBrowser(shop().app, "192.0.2.10");
    await owner.csrf();
    expect((await owner.post("/api/auth/login", { email: body.email, password: body.password })).statusCode).toBe(200);

    // After the minute the attacker's address may try again.
    clock += 61_000;
    expect((await attacker.post("/api/auth/login", { email: body.email, password: body.password })).statusCode).toBe(200);
  });

  it("replaces the browser's previous token", async () => {
    const { browser, body, json } = await registered();
    const res = await browser.post("/api/auth/login", { email: body.email, password: body.password });
    expect(res.statusCode).toBe(200);
    const oldId = Number(json.token.split("|")[0]);
    expect(await shop().database.db.select().from(accessTokens).where(eq(accessTokens.id, oldId))).toHaveLength(0);
    const old = await shop().app.inject({ method: "GET", url: "/api/user", headers: { authorization: `Bearer ${json.token}` } });
    expect(old.statusCode).toBe(204);
  });
});

describe("GET /api/user and sign-out", () => {
  it("answers 204 with an empty body when signed out", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/user" });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
  });

  it("answers the user by bearer token or by cookie", async () => {
    const { browser, json } = await registered();
    const byCookie = await browser.get("/api/user");
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.json().id).toBe(json.user.id);
    const byBearer = await shop().app.inject({ method: "GET", url: "/api/user", headers: { authorization: `Bearer ${json.token}` } });
    expect(byBearer.json().id).toBe(json.user.id);
  });

  it("ignores a forged or malformed token", async () => {
    const { json } = await registered();
    const [id] = json.token.split("|");
    for (const token of [`${id}|${"A".repeat(43)}`, "garbage", "0|x", `${id}`, `${"9".repeat(30)}|${"a".repeat(43)}`]) {
      const res = await shop().app.inject({ method: "GET", url: "/api/user", headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(204);
    }
  });

  it("refuses an expired token", async () => {
    const { json } = await registered();
    await shop().database.db
      .update(accessTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(accessTokens.id, Number(json.token.split("|")[0])));
    const res = await shop().app.inject({ method: "GET", url: "/api/user", headers: { authorization: `Bearer ${json.token}` } });
    expect(res.statusCode).toBe(204);
  });

  it("logout revokes the token and clears the cookie", async () => {
    const { browser, json } = await registered();
    const res = await browser.post("/api/auth/logout");
    expect(res.statusCode).toBe(204);
    expect(browser.cookies.has("tc_session")).toBe(false);
    expect((await browser.get("/api/user")).statusCode).toBe(204);
    const byBearer = await shop().app.inject({ method: "GET", url: "/api/user", headers: { authorization: `Bearer ${json.token}` } });
    expect(byBearer.statusCode).toBe(204);
  });
});

describe("CSRF", () => {
  it("refuses a cookie-authenticated write without the header, or with the wrong one", async () => {
    const { browser } = await registered();
    const without = await browser.request("PUT", "/api/account", { firstname: "A", lastname: "B" }, { csrf: false });
    expect(without.statusCode).toBe(419);
    expect(without.json()).toEqual({ message: "CSRF token mismatch." });
    const wrong = await browser.request("PUT", "/api/account", { firstname: "A", lastname: "B" }, { csrf: false, headers: { "x-xsrf-token": "nope" } });
    expect(wrong.statusCode).toBe(419);
    const right = await browser.request("PUT", "/api/account", { firstname: "A", lastname: "B" });
    expect(right.statusCode).toBe(200);
  });

  it("binds the token to the session: a pair the attacker chose, or their own session's token, is refused", async () => {
    const { browser } = await registered();
    const session = browser.cookies.get("tc_session")!;
    const put = (token: string) =>
      shop().app.inject({ method: "PUT", url: "/api/account", headers: { cookie: `tc_session=${session}; XSRF-TOKEN=${encodeURIComponent(token)}`, "x-xsrf-token": token }, payload: { firstname: "A", lastname: "B" } });
    // A cookie planted with the same value as the header (cookie tossing from a sibling subdomain).
    expect((await put("attacker-chosen")).statusCode).toBe(419);
    // A real token, but issued to the attacker's own session, or to a guest.
    const { browser: attacker } = await registered();
    expect((await put(decodeURIComponent(attacker.cookies.get("XSRF-TOKEN")!))).statusCode).toBe(419);
    const guest = new TestBrowser(shop().app);
    await guest.csrf();
    expect((await put(decodeURIComponent(guest.cookies.get("XSRF-TOKEN")!))).statusCode).toBe(419);
    // The victim's own, issued with their session at sign-in, is the one that works.
    expect((await put(decodeURIComponent(browser.cookies.get("XSRF-TOKEN")!))).statusCode).toBe(200);
  });

  it("gives a new token with each sign-in and sign-out, each bound to what the browser then holds", async () => {
    const { browser, body } = await registered();
    const signedIn = decodeURIComponent(browser.cookies.get("XSRF-TOKEN")!);
    expect((await browser.post("/api/auth/logout")).statusCode).toBe(204);
    const signedOut = decodeURIComponent(browser.cookies.get("XSRF-TOKEN")!);
    expect(signedOut).not.toBe(signedIn);
    // A guest's write (the basket) takes the guest's token, not the session's that ended.
    expect((await browser.request("POST", "/api/auth/login", { email: body.email, password: body.password }, { csrf: false, headers: { "x-xsrf-token": signedIn } })).statusCode).toBe(419);
    expect((await browser.post("/api/auth/login", { email: body.email, password: body.password })).statusCode).toBe(200);
    expect((await browser.put("/api/account", { firstname: "Again", lastname: "Signed" })).statusCode).toBe(200);
  });

  it("refuses a storefront write from another site's page, the token right or not: the API with 419, a screen's form with 403", async () => {
    const { browser } = await registered();
    const foreign = await browser.request("PUT", "/api/account", { firstname: "A", lastname: "B" }, { headers: { origin: "https://evil.example" } });
    expect(foreign.statusCode).toBe(419);
    const crossSite = await browser.request("PUT", "/api/account", { firstname: "A", lastname: "B" }, { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.statusCode).toBe(419);
    const form = await browser.request("POST", "/compare", "intent=clear", { headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" } });
    expect(form.statusCode).toBe(403);
    // From the shop's own pages, all is well.
    const own = await browser.request("PUT", "/api/account", { firstname: "A", lastname: "B" }, { headers: { origin: shop().config.publicUrl.replace(/\/+$/, ""), "sec-fetch-site": "same-origin" } });
    expect(own.statusCode).toBe(200);
  });

  it("refuses a sign-in posted with cookies but no token (login CSRF)", async () => {
    const browser = new TestBrowser(shop().app);
    browser.cookies.set("something", "1");
    const res = await browser.request("POST", "/api/auth/login", { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password });
    expect(res.statusCode).toBe(419);
  });

  it("refuses a cookie-less write from another site's page", async () => {
    const res = await shop().app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { origin: "https://evil.example" },
      payload: { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password },
    });
    expect(res.statusCode).toBe(419);
  });

  it("needs no CSRF header for a client that sends only a bearer token", async () => {
    const { json } = await registered();
    const res = await shop().app.inject({
      method: "PUT",
      url: "/api/account",
      headers: { authorization: `Bearer ${json.token}` },
      payload: { firstname: "Bearer", lastname: "Client" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe("Bearer Client");
  });
});

describe("password recovery", () => {
  async function recover(email: string, ip = "203.0.113.50") {
    const browser = new TestBrowser(shop().app, ip);
    await browser.csrf();
    return browser.post("/api/auth/recovery", { email });
  }

  function linkFrom(text: string): { token: string; email: string; url: URL } {
    const match = /(https?:\/\/\S+\/auth\/recovery\?\S+)/.exec(text);
    if (!match) throw new Error(`no recovery link in:\n${text}`);
    const url = new URL(match[1]!);
    return { token: url.searchParams.get("token")!, email: url.searchParams.get("email")!, url };
  }

  it("answers the same whether or not the address has an account, and emails only a real one", async () => {
    const { body } = await registered();
    const known = await recover(body.email, "203.0.113.51");
    const unknown = await recover(`ghost.${Date.now()}@example.com`, "203.0.113.52");
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ success: true, message: "If that address has an account, we have emailed a link to reset the password." });
    const mail = await latestMailTo(body.email);
    expect(mail?.subject).toBe("Reset your password");
    expect(linkFrom(mail!.text).url.pathname).toBe("/auth/recovery");
  });

  it("resets the password with the emailed link, once, and signs the user out everywhere", async () => {
    const { body, json } = await registered();
    await recover(body.email, "203.0.113.53");
    const { token, email } = linkFrom((await latestMailTo(body.email))!.text);
    // Only the hash is stored.
    const [stored] = await shop().database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, sha256(token)));
    expect(stored).toBeDefined();

    const browser = new TestBrowser(shop().app);
    await browser.csrf();
    expect((await browser.post("/api/auth/recovery/token", { email, token })).json()).toEqual({ success: true });
    const reset = await browser.post("/api/auth/reset-password", { email, token, password: "a brand new secret", password_confirmation: "a brand new secret" });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ success: true });

    // Every token of that user is revoked.
    const old = await shop().app.inject({ method: "GET", url: "/api/user", headers: { authorization: `Bearer ${json.token}` } });
    expect(old.statusCode).toBe(204);
    // The new password works, the old does not.
    expect((await browser.post("/api/auth/login", { email, password: "a brand new secret" })).statusCode).toBe(200);
    const other = new TestBrowser(shop().app, "203.0.113.99");
    await other.csrf();
    expect((await other.post("/api/auth/login", { email, password: body.password })).statusCode).toBe(422);

    // The link is single use.
    const again = await browser.post("/api/auth/reset-password", { email, token, password: "yet another secret", password_confirmation: "yet another secret" });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.token).toEqual(["This password reset link is invalid or has expired."]);
    expect((await browser.post("/api/auth/recovery/token", { email, token })).statusCode).toBe(422);
  });

  // Proves something only on PostgreSQL, where the resets really overlap (PGlite runs one query
  // at a time, so there it passes but proves less): TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/auth
  it("lets exactly one of 10 simultaneous resets with one link through", async () => {
    const { body } = await registered();
    await recover(body.email, "203.0.113.56");
    const { token, email } = linkFrom((await latestMailTo(body.email))!.text);
    const browsers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const browser = new TestBrowser(shop().app, `203.0.113.${120 + i}`);
        await browser.csrf();
        return browser;
      }),
    );
    const passwords = browsers.map((_, i) => `brand new secret number ${i}`);
    const results = await Promise.all(
      browsers.map((browser, i) => browser.post("/api/auth/reset-password", { email, token, password: passwords[i], password_confirmation: passwords[i] })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(9);
    for (const r of results.filter((x) => x.statusCode === 422)) expect(r.json().errors.token).toEqual(["This password reset link is invalid or has expired."]);
    // The password is the winner's, no other; one "password changed" email.
    const winner = statuses.indexOf(200);
    for (const [i, password] of passwords.entries()) {
      // Each from its own address, clear of the failed-login lock.
      const login = new TestBrowser(shop().app, `203.0.113.${140 + i}`);
      await login.csrf();
      expect((await login.post("/api/auth/login", { email, password })).statusCode).toBe(i === winner ? 200 : 422);
    }
    const mails = await shop().database.db.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mails.filter((m) => m.subject === "Your password was changed")).toHaveLength(1);
  });

  it("refuses an expired link, a link for another email and a made-up token", async () => {
    const { body } = await registered();
    await recover(body.email, "203.0.113.54");
    const { token, email } = linkFrom((await latestMailTo(body.email))!.text);
    const browser = new TestBrowser(shop().app);
    await browser.csrf();
    expect((await browser.post("/api/auth/recovery/token", { email: DEMO_CUSTOMER.email, token })).statusCode).toBe(422);
    expect((await browser.post("/api/auth/recovery/token", { email, token: "made-up" })).statusCode).toBe(422);
    await shop().database.db.update(passwordResetTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(passwordResetTokens.tokenHash, sha256(token)));
    const expired = await browser.post("/api/auth/reset-password", { email, token, password: "a brand new secret", password_confirmation: "a brand new secret" });
    expect(expired.statusCode).toBe(422);
  });

  it("expires the link after 60 minutes", async () => {
    const { body } = await registered();
    await recover(body.email, "203.0.113.55");
    const { token } = linkFrom((await latestMailTo(body.email))!.text);
    const [row] = await shop().database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, sha256(token)));
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(Math.round(minutes)).toBe(60);
  });

  it("is rate-limited per address", async () => {
    const { body } = await registered();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await recover(body.email, `203.0.113.${60 + i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe("token housekeeping", () => {
  it("prunes expired tokens and keeps live ones", async () => {
    const { pruneExpiredTokens } = await import("./tokens.ts");
    const live = await registered();
    const dead = await registered();
    const deadId = Number(dead.json.token.split("|")[0]);
    await shop().database.db.update(accessTokens).set({ expiresAt: sql`now() - interval '1 day'` }).where(eq(accessTokens.id, deadId));
    await pruneExpiredTokens(shop().database.db);
    expect(await shop().database.db.select().from(accessTokens).where(eq(accessTokens.id, deadId))).toHaveLength(0);
    expect((await live.browser.get("/api/user")).statusCode).toBe(200);
  });
});
