import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { TestBrowser } from "../../test/browser.ts";
import { type TestShop, createTestShop } from "../../test/app.ts";
import { createStaffService, REAUTH_REQUIRED, STAFF_INVALID_CREDENTIALS, TOTP_NEEDED, TOTP_REQUIRED_IN_PRODUCTION, TOTP_WRONG } from "./service.ts";
import { STAFF_IDLE_MS, resolveStaffSession, issueStaffSession } from "./sessions.ts";
import { currentTotp } from "./totp.ts";
import { staffRecoveryCodes } from "./schema.ts";
import { mailOutbox } from "../mail/schema.ts";

const PASSWORD = "demo-password-2026";
const OWNER = DEMO_STAFF[0]!.email;
let shop: TestShop;
let ip = 1;
/** Each test its own client address, so the per-address sign-in limit stays out of the way. */
const browser = () => new TestBrowser(shop.app, `198.51.100.${ip++}`);

async function owner(): Promise<TestBrowser> {
  const b = browser();
  await b.staffSignIn(OWNER, PASSWORD);
  return b;
}

/** A new member with a password, signed in, in a fresh browser; made through the invite and set-up link. */
async function newMember(by: TestBrowser, role: string, name = `Member ${ip}`) {
  await by.post("/api/admin/auth/reauthenticate", { password: PASSWORD });
  const email = `${name.toLowerCase().replaceAll(" ", ".")}@staff.example.com`;
  const invited = await by.post("/api/admin/staff", { email, name, role });
  expect(invited.statusCode).toBe(201);
  const token = new URL(invited.json().setup_url).pathname.split("/").pop()!;
  const b = browser();
  const done = await b.post(`/api/admin/setup/${token}`, { password: "a long staff password", password_confirmation: "a long staff password" });
  expect(done.statusCode).toBe(200);
  return { browser: b, id: invited.json().staff.id as number, email };
}

beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => {
  await shop.close();
});

describe("staff sign-in", () => {
  it("signs the demo owner in with a cookie of the back office's own, and no-store answers", async () => {
    const b = browser();
    const res = await b.post("/api/admin/auth/login", { email: OWNER, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().staff).toMatchObject({ email: OWNER, role: "owner" });
    expect(res.json().token).toMatch(/^\d+\|/);
    const cookies = res.headers["set-cookie"] as string[];
    const session = cookies.filter((c) => c.startsWith("tc_admin="));
    expect(session.map((c) => /Path=([^;]+)/.exec(c)![1]).sort()).toEqual(["/admin", "/admin.data", "/api/admin"]);
    for (const c of session) expect(c).toMatch(/HttpOnly; SameSite=Strict/);
    const me = await b.get("/api/admin/auth/me");
    expect(me.statusCode).toBe(200);
    expect(me.headers["cache-control"]).toBe("no-store");
    expect(me.json().permissions).toContain("staff.manage");
  });

  it("answers a wrong password and an unknown email alike, and keeps customers out", async () => {
    const wrong = await browser().post("/api/admin/auth/login", { email: OWNER, password: "not the password" });
    const unknown = await browser().post("/api/admin/auth/login", { email: "nobody@staff.example.com", password: PASSWORD });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual({ message: STAFF_INVALID_CREDENTIALS });
    expect(unknown.json()).toEqual(wrong.json());
    // A customer with the same password, their session cookie or their bearer token is not staff.
    const customer = browser();
    await customer.signIn("customer@example.com", PASSWORD);
    expect((await customer.get("/api/admin/auth/me")).statusCode).toBe(401);
    const token = (await browser().post("/api/auth/login", { email: "customer@example.com", password: PASSWORD })).json().token as string;
    expect((await shop.app.inject({ url: "/api/admin/audit", headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    expect((await browser().post("/api/admin/auth/login", { email: "customer@example.com", password: PASSWORD })).statusCode).toBe(401);
  });

  it("slows guesses at an account from unknown browsers, never locks its member out of a browser they use, and tells them", async () => {
    const { email } = await newMember(await owner(), "sales", "Guessed Member");
    // The member's own browser: signed in from before, so it carries their device cookie.
    const own = browser();
    await own.staffSignIn(email, "a long staff password");
    expect(own.cookies.get("tc_admin_device")).toMatch(/^[\w-]+\.[\w-]+$/);
    await own.post("/api/admin/auth/logout");

    // Five wrong passwords from five addresses, none of which the member has used.
    for (let i = 0; i < 5; i++) expect((await browser().post("/api/admin/auth/login", { email, password: `wrong guess ${i}` })).statusCode).toBe(401);
    const stranger = await browser().post("/api/admin/auth/login", { email, password: "a long staff password" });
    expect(stranger.statusCode).toBe(429);
    expect(Number(stranger.headers["retry-after"])).toBeGreaterThan(0);

    // The member signs in from their own browser all the same, with the right password.
    expect((await own.post("/api/admin/auth/login", { email, password: "a long staff password" })).statusCode).toBe(200);

    // And is told, once, with where the last guess came from.
    const told = await shop.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(told.map((m) => m.subject)).toEqual(["Someone is trying to sign in to your back office account"]);
    expect(told[0]!.text).toContain("5 wrong passwords or codes");
    expect(told[0]!.text).toMatch(/from the address 198\.51\.100\.\d+/);
  });

  it("gives a known browser five tries of its own, and trusts its cookie for its own account only", async () => {
    const { email } = await newMember(await owner(), "warehouse", "Known Browser");
    const own = browser();
    await own.staffSignIn(email, "a long staff password");
    // The member's cookie says nothing for another account: there it is one more unknown browser.
    const other = await newMember(await owner(), "warehouse", "Other Account");
    for (let i = 0; i < 5; i++) expect((await own.post("/api/admin/auth/login", { email: other.email, password: `wrong ${i}` })).statusCode).toBe(401);
    expect((await browser().post("/api/admin/auth/login", { email: other.email, password: "a long staff password" })).statusCode).toBe(429);
    // A forged cookie (another signature) is no better.
    const forger = browser();
    forger.cookies.set("tc_admin_device", `${own.cookies.get("tc_admin_device")!.split(".")[0]}.forged`);
    expect((await forger.post("/api/admin/auth/login", { email: other.email, password: "a long staff password" })).statusCode).toBe(429);

    // Guesses from the known browser itself are limited too, and only there.
    for (let i = 0; i < 5; i++) expect((await own.post("/api/admin/auth/login", { email, password: `wrong ${i}` })).statusCode).toBe(401);
    expect((await own.post("/api/admin/auth/login", { email, password: "a long staff password" })).statusCode).toBe(429);
    expect((await browser().post("/api/admin/auth/login", { email, password: "a long staff password" })).statusCode).toBe(200);
  });

  it("locks an address after 20 failures across accounts, and counts no successful sign-in", async () => {
    const b = browser();
    for (let i = 0; i < 25; i++) await b.staffSignIn(OWNER, PASSWORD);
    for (let i = 0; i < 20; i++) expect((await b.post("/api/admin/auth/login", { email: `guess${i}@staff.example.com`, password: "wrong password" })).statusCode).toBe(401);
    const locked = await b.post("/api/admin/auth/login", { email: OWNER, password: PASSWORD });
    expect(locked.statusCode).toBe(429);
    // Another address is not held up.
    expect((await browser().post("/api/admin/auth/login", { email: OWNER, password: PASSWORD })).statusCode).toBe(200);
  });

  it("refuses cookie-borne API writes without the admin CSRF token, and cross-site form posts", async () => {
    const b = await owner();
    const forged = await b.request("POST", "/api/admin/auth/reauthenticate", { password: PASSWORD }, { csrf: false });
    expect(forged.statusCode).toBe(419);
    const crossSite = await b.request("POST", "/api/admin/auth/reauthenticate", { password: PASSWORD }, { headers: { origin: "https://evil.example" } });
    expect(crossSite.statusCode).toBe(403);
    // The token is bound to the session: a pair the attacker chose, or another member's session's token, is refused.
    const session = b.cookies.get("tc_admin")!;
    const withPair = (token: string) =>
      shop.app.inject({ method: "POST", url: "/api/admin/auth/reauthenticate", payload: { password: PASSWORD }, headers: { cookie: `tc_admin=${session}; tc_admin_csrf=${encodeURIComponent(token)}`, "x-admin-csrf": token } });
    expect((await withPair("attacker-chosen")).statusCode).toBe(419);
    const other = await owner();
    expect((await withPair(decodeURIComponent(other.cookies.get("tc_admin_csrf")!))).statusCode).toBe(419);
    expect((await withPair(decodeURIComponent(b.cookies.get("tc_admin_csrf")!))).statusCode).toBe(204);
    // A bearer client has no cookie to forge and needs no token.
    const { token } = (await browser().post("/api/admin/auth/login", { email: OWNER, password: PASSWORD })).json() as { token: string };
    const withBearer = await shop.app.inject({ method: "POST", url: "/api/admin/auth/reauthenticate", payload: { password: PASSWORD }, headers: { authorization: `Bearer ${token}` } });
    expect(withBearer.statusCode).toBe(204);
  });

  it("signs out: the session no longer opens anything", async () => {
    const b = await owner();
    expect((await b.post("/api/admin/auth/logout")).statusCode).toBe(204);
    expect((await b.get("/api/admin/auth/me")).statusCode).toBe(401);
  });
});

describe("staff sessions end after 20 idle minutes or 8 hours", () => {
  it("resolves a session while it is used, and not after 20 minutes idle", async () => {
    const start = new Date();
    const { token } = await issueStaffSession(shop.database.db, 2, start);
    expect(await resolveStaffSession(shop.database.db, token, new Date(start.getTime() + STAFF_IDLE_MS - 60_000))).not.toBeNull();
    // Used at 19 minutes: the idle clock starts again there.
    expect(await resolveStaffSession(shop.database.db, token, new Date(start.getTime() + 2 * STAFF_IDLE_MS - 120_000))).not.toBeNull();
    expect(await resolveStaffSession(shop.database.db, token, new Date(start.getTime() + 3 * STAFF_IDLE_MS))).toBeNull();
  });

  it("ends at 8 hours however busy", async () => {
    const start = new Date();
    const { token } = await issueStaffSession(shop.database.db, 2, start);
    for (let minutes = 10; minutes < 8 * 60; minutes += 10) {
      expect(await resolveStaffSession(shop.database.db, token, new Date(start.getTime() + minutes * 60_000))).not.toBeNull();
    }
    expect(await resolveStaffSession(shop.database.db, token, new Date(start.getTime() + 8 * 3_600_000 + 1_000))).toBeNull();
  });
});

describe("two-factor sign-in", () => {
  it("enrols an authenticator, then asks for its code, never takes one twice, and takes each recovery code once", async () => {
    const by = await owner();
    const { browser: member, email } = await newMember(by, "sales", "Totp Enrolled");
    const started = await member.post("/api/admin/auth/totp");
    expect(started.statusCode).toBe(200);
    const { secret, uri, qr_svg } = started.json() as { secret: string; uri: string; qr_svg: string };
    expect(uri).toContain("otpauth://totp/");
    expect(qr_svg).toContain("<svg");
    expect((await member.post("/api/admin/auth/totp/confirm", { code: "000000" })).statusCode).toBe(422);
    const confirmed = await member.post("/api/admin/auth/totp/confirm", { code: await currentTotp(secret) });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const noCode = await browser().post("/api/admin/auth/login", { email, password: "a long staff password" });
    expect(noCode.statusCode).toBe(422);
    expect(noCode.json().errors.totp).toEqual([TOTP_NEEDED]);
    const badCode = await browser().post("/api/admin/auth/login", { email, password: "a long staff password", totp: "123456" });
    expect(badCode.json().errors?.totp ?? []).toEqual([TOTP_WRONG]);
    // The code the enrolment used is spent: a later sign-in needs the next step's code, or a recovery code.
    const recovery = await browser().post("/api/admin/auth/login", { email, password: "a long staff password", totp: codes[0] });
    expect(recovery.statusCode).toBe(200);
    expect((await browser().post("/api/admin/auth/login", { email, password: "a long staff password", totp: codes[0] })).statusCode).toBe(422);
    // Stored hashed: no plain code is in the table.
    const stored = await shop.database.db.select({ hash: staffRecoveryCodes.codeHash }).from(staffRecoveryCodes);
    expect(stored.length).toBeGreaterThanOrEqual(10);
    for (const code of codes) expect(stored.map((r) => r.hash)).not.toContain(code);
  });

  it("is required in production: a member without an authenticator cannot sign in", async () => {
    const production = createStaffService(shop.database.db, { appName: "Test", publicUrl: "http://shop.test", requireTotp: true });
    await expect(production.login({ email: OWNER, password: PASSWORD })).rejects.toMatchObject({ errors: { totp: [TOTP_REQUIRED_IN_PRODUCTION] } });
  });
});

describe("managing staff", () => {
  it("asks for the password again before inviting, and audits the invite and the set-up", async () => {
    const b = await owner();
    const early = await b.post("/api/admin/staff", { email: "early@staff.example.com", name: "Early", role: "sales" });
    // Signed in just now counts as asked; a session older than 5 minutes is asked again.
    expect(early.statusCode).toBe(201);
    await shop.database.db.execute(sql`update staff_sessions set reauthenticated_at = now() - interval '6 minutes'`);
    const stale = await b.post("/api/admin/staff", { email: "stale@staff.example.com", name: "Stale", role: "sales" });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().message).toBe(REAUTH_REQUIRED);
    expect((await b.post("/api/admin/auth/reauthenticate", { password: "wrong" })).statusCode).toBe(422);
    expect((await b.post("/api/admin/auth/reauthenticate", { password: PASSWORD })).statusCode).toBe(204);
    expect((await b.post("/api/admin/staff", { email: "stale@staff.example.com", name: "Stale", role: "sales" })).statusCode).toBe(201);
    const audit = await b.get(`/api/admin/audit?entity=staff&entity_id=${early.json().staff.id}`);
    expect(audit.json().data.map((e: { action: string }) => e.action)).toEqual(["staff.invited"]);
    expect(audit.json().data[0].staff.name).toContain(OWNER);
  });

  it("counts wrong passwords asked again against the account's limit", async () => {
    const b = await owner();
    const m = await newMember(b, "manager", "Guessed At");
    for (let i = 0; i < 5; i++) expect((await m.browser.post("/api/admin/auth/reauthenticate", { password: "a wrong guess" })).statusCode).toBe(422);
    const locked = await m.browser.post("/api/admin/auth/reauthenticate", { password: "a long staff password" });
    expect(locked.statusCode).toBe(429);
    // API tokens never ask: they cannot manage staff at all, even to list them.
    const token = (await b.post("/api/admin/tokens", { name: "Owner's till", role: "owner" })).json().token as string;
    expect((await shop.app.inject({ url: "/api/admin/staff", headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(403);
  });

  it("lets only owners manage staff", async () => {
    const manager = browser();
    await manager.staffSignIn("manager@staff.example.com", PASSWORD);
    expect((await manager.get("/api/admin/staff")).statusCode).toBe(403);
    expect((await manager.post("/api/admin/staff", { email: "x@staff.example.com", name: "X", role: "owner" })).statusCode).toBe(403);
  });

  it("never demotes or removes the last owner", async () => {
    const b = await owner();
    const ownerId = (await b.get("/api/admin/auth/me")).json().staff.id as number;
    const demote = await b.patch(`/api/admin/staff/${ownerId}`, { role: "manager" });
    expect(demote.statusCode).toBe(409);
    expect((await b.delete(`/api/admin/staff/${ownerId}`)).statusCode).toBe(409);
  });

  it("keeps one owner when two owners demote each other at the same moment", async () => {
    for (let round = 0; round < 3; round++) {
      const first = await owner();
      const second = await newMember(first, "owner", `Second Owner ${round}`);
      const firstId = (await first.get("/api/admin/auth/me")).json().staff.id as number;
      const [x, y] = await Promise.all([first.patch(`/api/admin/staff/${second.id}`, { role: "sales" }), second.browser.patch(`/api/admin/staff/${firstId}`, { role: "sales" })]);
      // The loser is refused: by the guard (409), by its new role (403), or because the winner's change
      // already ended its session (401).
      const codes = [x.statusCode, y.statusCode].sort();
      expect(codes[0]).toBe(200);
      expect([401, 403, 409]).toContain(codes[1]);
      const owners = await createStaffService(shop.database.db, { appName: "T", publicUrl: "http://t", requireTotp: false }).ownerCount();
      expect(owners).toBe(1);
      // Put the demo owner back for the next round.
      if (x.statusCode !== 200) {
        await second.browser.patch(`/api/admin/staff/${firstId}`, { role: "owner" });
        await first.staffSignIn(OWNER, PASSWORD);
        await first.patch(`/api/admin/staff/${second.id}`, { role: "sales" });
      }
    }
  });

  it("signs a removed member out at once", async () => {
    const b = await owner();
    const m = await newMember(b, "warehouse", "Removed Soon");
    expect((await m.browser.get("/api/admin/auth/me")).statusCode).toBe(200);
    expect((await b.delete(`/api/admin/staff/${m.id}`)).statusCode).toBe(200);
    expect((await m.browser.get("/api/admin/auth/me")).statusCode).toBe(401);
  });
});

describe("staff API tokens", () => {
  it("are shown once, act with their role, are audited, and stop when revoked", async () => {
    const b = await owner();
    const made = await b.post("/api/admin/tokens", { name: "EPOS till 1", role: "accounts" });
    expect(made.statusCode).toBe(201);
    const token = made.json().token as string;
    expect(token.startsWith("tca_")).toBe(true);
    const listed = await b.get("/api/admin/tokens");
    expect(JSON.stringify(listed.json())).not.toContain(token.split("|")[1]);
    const asToken = (url: string) => shop.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
    const me = await asToken("/api/admin/auth/me");
    // Its own role and that role's label, not its creator's ("Owner").
    expect(me.json()).toMatchObject({ via: "token", staff: { role: "accounts", role_label: "Accounts" } });
    // accounts may not read the audit log, whoever made the token.
    expect((await asToken("/api/admin/audit")).statusCode).toBe(403);
    expect((await b.delete(`/api/admin/tokens/${made.json().id}`)).statusCode).toBe(200);
    expect((await asToken("/api/admin/auth/me")).statusCode).toBe(401);
    const audit = (await b.get(`/api/admin/audit?entity=api_token&entity_id=${made.json().id}`)).json().data.map((e: { action: string }) => e.action);
    expect(audit).toEqual(["token.revoked", "token.created"]);
  });
});

describe("the audit log", () => {
  it("cannot be changed or emptied", async () => {
    const b = await owner();
    await b.post("/api/admin/tokens", { name: "Audited", role: "sales" });
    await expect(shop.database.db.execute(sql`update audit_log set action = 'x'`)).rejects.toThrow();
    await expect(shop.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(shop.database.db.execute(sql`truncate audit_log`)).rejects.toThrow();
  });
});

describe("saved filters", () => {
  it("are each member's own: saved by name (again replaces), listed, deleted only by their owner, audited", async () => {
    const sales = browser();
    await sales.staffSignIn("sales@staff.example.com", PASSWORD);
    const saved = await sales.post("/api/admin/presets", { screen: "orders", name: "To chase", query: "?status=awaiting_payment&cursor=abc" });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({ name: "To chase", query: "status=awaiting_payment" });
    const again = await sales.post("/api/admin/presets", { screen: "orders", name: "To chase", query: "status=awaiting_payment&trade=yes" });
    expect(again.json().id).toBe(saved.json().id);
    expect((await sales.get("/api/admin/presets?screen=orders")).json().data).toEqual([{ id: saved.json().id, name: "To chase", query: "status=awaiting_payment&trade=yes" }]);
    const other = await owner();
    expect((await other.get("/api/admin/presets?screen=orders")).json().data).toEqual([]);
    expect((await other.delete(`/api/admin/presets/${saved.json().id}`)).statusCode).toBe(404);
    expect((await sales.delete(`/api/admin/presets/${saved.json().id}`)).statusCode).toBe(200);
    expect((await sales.get("/api/admin/presets?screen=orders")).json().data).toEqual([]);
    const audit = (await other.get(`/api/admin/audit?entity=filter_preset&entity_id=${saved.json().id}`)).json().data.map((e: { action: string }) => e.action);
    expect(audit).toEqual(["preset.deleted", "preset.saved", "preset.saved"]);
    expect((await browser().get("/api/admin/presets?screen=orders")).statusCode).toBe(401);
  });
});
