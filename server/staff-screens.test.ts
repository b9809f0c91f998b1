// The staff screens (issue 18) on the production build, driven as a browser
// without scripts drives them: pages requested and forms posted to the
// routes' actions. The rules themselves (roles, the last owner, the password
// window) are proven at service level in modules/staff/staff.test.ts; this
// proves the screens guard them and show them: who may open and post, the
// password asked again in the same post, the one-time link and token.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { staff, staffApiTokens } from "./modules/staff/schema.ts";
import { testShopForFile } from "./test/app.ts";
import { TestBrowser } from "./test/browser.ts";
import { textOf } from "./test/page-text.ts";
import { staffBrowser } from "./test/staff-browsers.ts";

const PASSWORD = "demo-password-2026";
const LAST_OWNER = "The shop must keep at least one owner. Make someone else an owner first.";
const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let owner: TestBrowser;
let manager: TestBrowser;
let guest: TestBrowser;

beforeAll(async () => {
  owner = await staffBrowser(shop().app, "198.51.100.21", "owner@example.com");
  manager = await staffBrowser(shop().app, "198.51.100.22", "manager@staff.example.com");
  guest = new TestBrowser(shop().app, "198.51.100.23");
}, 240_000);

/** A form post to a screen, as a browser without scripts sends it. */
function postForm(b: TestBrowser, url: string, form: [string, string][] | Record<string, string>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(Array.isArray(form) ? form : Object.entries(form)).toString();
  return b.request("POST", url, body, { headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
}

/** The hidden fields of the password prompt: the pending action it will send again. */
function promptFields(res: LightMyRequestResponse): [string, string][] {
  const prompt = /data-testid="reauth-prompt"[\s\S]*?<\/section>/.exec(res.body);
  expect(prompt, "the password prompt").toBeTruthy();
  return [...prompt![0].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]);
}

const staleSession = () => shop().database.db.execute(sql`update staff_sessions set reauthenticated_at = now() - interval '6 minutes'`);
const roleOf = async (email: string) => (await shop().database.db.select({ role: staff.role }).from(staff).where(eq(staff.email, email)))[0]?.role;
const idOf = async (email: string) => (await shop().database.db.select({ id: staff.id }).from(staff).where(eq(staff.email, email)))[0]!.id;

describe("the staff screens", () => {
  it("signs in on the screen as on the API: the browser is remembered, and signs in while strangers are paused", async () => {
    const own = new TestBrowser(shop().app, "198.51.100.24");
    const signedIn = await postForm(own, "/admin/login", { email: "hire@staff.example.com", password: PASSWORD });
    expect(signedIn.statusCode, signedIn.body.slice(0, 200)).toBe(302);
    const set = ([] as string[]).concat(signedIn.headers["set-cookie"] ?? []).filter((c) => c.startsWith("tc_admin_device="));
    expect(set.map((c) => /Path=([^;]+)/.exec(c)![1])).toEqual(["/admin/login", "/admin/login.data", "/api/admin/auth/login"]);
    expect(set.every((c) => c.includes("HttpOnly") && c.includes("SameSite=Strict") && /Max-Age=31536000/.test(c))).toBe(true);
    for (let i = 0; i < 5; i++) {
      const wrong = await postForm(new TestBrowser(shop().app, `198.51.100.${30 + i}`), "/admin/login", { email: "hire@staff.example.com", password: `wrong ${i}` });
      expect(wrong.statusCode).toBe(401);
    }
    const stranger = await postForm(new TestBrowser(shop().app, "198.51.100.40"), "/admin/login", { email: "hire@staff.example.com", password: PASSWORD });
    expect(stranger.statusCode).toBe(429);
    expect(textOf(stranger)).toMatch(/Too many attempts\. Please try again in \d+ seconds\./);
    expect((await postForm(own, "/admin/login", { email: "hire@staff.example.com", password: PASSWORD })).statusCode).toBe(302);
  });

  it("refuses a manager both screens and their actions (a direct POST too), and sends a guest to sign in", async () => {
    const tokensBefore = (await shop().database.db.select({ id: staffApiTokens.id }).from(staffApiTokens)).length;
    for (const url of ["/admin/staff", "/admin/staff/tokens"]) {
      const page = await manager.get(url);
      expect(page.statusCode, url).toBe(403);
      expect(textOf(page)).toContain("Your role does not allow this page.");
      expect(page.body).not.toContain("sales@staff.example.com");
      expect((await manager.get(`${url}.data`)).statusCode, `${url}.data`).toBe(403);
      const toSignIn = await guest.get(url);
      expect(toSignIn.statusCode, url).toBe(302);
      expect(toSignIn.headers.location).toBe(`/admin/login?${new URLSearchParams({ redirect: url })}`);
    }
    const invite = await postForm(manager, "/admin/staff", { intent: "invite", name: "Mallory Manager", email: "mallory@staff.example.com", role: "owner" });
    expect(invite.statusCode).toBe(403);
    expect(await roleOf("mallory@staff.example.com")).toBeUndefined();
    const promote = await postForm(manager, "/admin/staff", { intent: "role", id: String(await idOf("manager@staff.example.com")), role: "owner" });
    expect(promote.statusCode).toBe(403);
    expect(await roleOf("manager@staff.example.com")).toBe("manager");
    const token = await postForm(manager, "/admin/staff/tokens", { intent: "create", name: "Manager's own", role: "owner" });
    expect(token.statusCode).toBe(403);
    expect(token.body).not.toContain("tca_");
    expect((await shop().database.db.select({ id: staffApiTokens.id }).from(staffApiTokens)).length).toBe(tokensBefore);
    // The same with the API's own door: the service refuses too.
    expect((await manager.post("/api/admin/staff", { name: "Mallory", email: "mallory@staff.example.com", role: "owner" })).statusCode).toBe(403);
  });

  it("refuses a post from another site", async () => {
    const res = await postForm(owner, "/admin/staff", { intent: "invite", name: "Eve Evil", email: "eve@staff.example.com", role: "owner" }, { origin: "https://evil.example" });
    expect(res.statusCode).toBe(403);
    expect(await roleOf("eve@staff.example.com")).toBeUndefined();
  });

  it("lets the owner invite with a fresh sign-in (no prompt) and shows the set-up link once, valid 24 hours", async () => {
    const page = await owner.get("/admin/staff");
    expect(page.statusCode).toBe(200);
    expect(textOf(page)).toContain("Sita Sales");
    const res = await postForm(owner, "/admin/staff", { intent: "invite", name: "Nia Newcomer", email: "Nia.Newcomer@staff.example.com", role: "warehouse" });
    expect(res.statusCode, textOf(res).slice(0, 400)).toBe(200);
    expect(res.body).not.toContain('data-testid="reauth-prompt"');
    const text = textOf(res);
    expect(text).toContain("Nia Newcomer is invited, in the warehouse.");
    expect(text).toContain("valid 24 hours");
    const link = /data-testid="setup-link-value"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*data-testid="setup-link-value"/.exec(res.body);
    const url = link?.[1] ?? link?.[2];
    expect(url).toMatch(/\/admin\/setup\/[\w-]{20,}$/);
    expect(await roleOf("nia.newcomer@staff.example.com")).toBe("warehouse");
    // The list shows her as invited; the link is not on the page any more.
    const after = await owner.get("/admin/staff");
    expect(textOf(after)).toContain("nia.newcomer@staff.example.com");
    expect(after.body).not.toContain(url!);
    // A second invitation for the same address: the field's message, and what was typed kept.
    const again = await postForm(owner, "/admin/staff", { intent: "invite", name: "Nia Again", email: "nia.newcomer@staff.example.com", role: "sales" });
    expect(again.statusCode).toBe(422);
    expect(textOf(again)).toContain("A member of staff already has this email address.");
    expect(again.body).toContain('value="Nia Again"');
  });

  it("asks for the password when the last check is over 5 minutes old, refuses a wrong one, and then does the pending change in the same post", async () => {
    await staleSession();
    const sita = await idOf("sales@staff.example.com");
    const first = await postForm(owner, "/admin/staff", { intent: "role", id: String(sita), role: "manager" });
    expect(first.statusCode).toBe(403);
    expect(textOf(first)).toContain("Confirm your password to continue");
    expect(textOf(first)).toContain("Change Sita Sales's role to Manager");
    const pending = promptFields(first);
    expect(pending).toEqual(expect.arrayContaining([["intent", "role"], ["id", String(sita)], ["role", "manager"]]));
    expect(await roleOf("sales@staff.example.com")).toBe("sales");

    const wrong = await postForm(owner, "/admin/staff", [...pending, ["reauth_password", "not-my-password"]]);
    expect(wrong.statusCode).toBe(422);
    expect(textOf(wrong)).toContain("That password is not right.");
    expect(promptFields(wrong)).toEqual(pending);
    expect(await roleOf("sales@staff.example.com")).toBe("sales");

    const right = await postForm(owner, "/admin/staff", [...promptFields(wrong), ["reauth_password", PASSWORD]]);
    expect(right.statusCode, textOf(right).slice(0, 400)).toBe(200);
    expect(textOf(right)).toContain("Sita Sales is now a manager.");
    expect(await roleOf("sales@staff.example.com")).toBe("manager");
    // Within the 5 minutes now: the next change needs no prompt.
    const back = await postForm(owner, "/admin/staff", { intent: "role", id: String(sita), role: "sales" });
    expect(textOf(back)).toContain("Sita Sales is now in sales.");
    const limit = await postForm(owner, "/admin/staff", { intent: "refund_limit", id: String(sita), refund_limit: "£1,250.50" });
    expect(textOf(limit)).toContain("Sita Sales can now refund up to £1,250.50.");
    const bad = await postForm(owner, "/admin/staff", { intent: "refund_limit", id: String(sita), refund_limit: "-3" });
    expect(bad.statusCode).toBe(422);
    expect(textOf(bad)).toContain("The refund limit cannot be negative.");
  });

  it("keeps the last owner: demoting or removing themselves shows the 409 where it belongs", async () => {
    const olivia = await idOf("owner@example.com");
    const demote = await postForm(owner, "/admin/staff", { intent: "role", id: String(olivia), role: "manager" });
    expect(demote.statusCode).toBe(409);
    const text = textOf(demote);
    expect(text).toContain(LAST_OWNER);
    // In the banner and beside the role select of her own row.
    expect(demote.body).toMatch(new RegExp(`id="member-${olivia}-role-error"[^>]*>[\\s\\S]{0,80}${LAST_OWNER.slice(0, 30)}`));
    expect(await roleOf("owner@example.com")).toBe("owner");
    const remove = await postForm(owner, "/admin/staff", { intent: "remove", id: String(olivia) });
    expect(remove.statusCode).toBe(409);
    expect(textOf(remove)).toContain(LAST_OWNER);
    expect((await owner.get("/admin/staff")).statusCode).toBe(200);
  });

  it("removes a member: signed out, listed last and greyed; a new set-up link says it resets the authenticator", async () => {
    const wes = await idOf("warehouse@staff.example.com");
    const reset = await postForm(owner, "/admin/staff", { intent: "setup_link", id: String(wes) });
    expect(reset.statusCode).toBe(200);
    expect(textOf(reset)).toContain("their authenticator app was reset");
    expect(reset.body).toContain('data-testid="setup-link-value"');
    const nia = await idOf("nia.newcomer@staff.example.com");
    const removed = await postForm(owner, "/admin/staff", { intent: "remove", id: String(nia) });
    expect(removed.statusCode).toBe(200);
    expect(textOf(removed)).toContain("Nia Newcomer has been removed");
    const rows = [...(await owner.get("/admin/staff")).body.matchAll(/<tr id="member-(\d+)" class="([^"]*)"/g)];
    expect(rows.at(-1)![1]).toBe(String(nia));
    expect(rows.at(-1)![2]).toContain("text-stone-500");
  });

  it("shows a new API token once (asking for the password first when it is due), then only its name; revokes it", async () => {
    await staleSession();
    const first = await postForm(owner, "/admin/staff/tokens", { intent: "create", name: "Stock sync", role: "warehouse" });
    expect(first.statusCode).toBe(403);
    expect(textOf(first)).toContain("Create the API token “Stock sync” with the Warehouse role");
    expect(first.body).not.toContain("tca_");
    const made = await postForm(owner, "/admin/staff/tokens", [...promptFields(first), ["reauth_password", PASSWORD]]);
    expect(made.statusCode, textOf(made).slice(0, 400)).toBe(200);
    expect(textOf(made)).toContain("it will not be shown again");
    const token = /tca_\d+\|[\w-]+/.exec(made.body)?.[0];
    expect(token).toBeTruthy();
    // Stored hashed: the secret is nowhere in the table.
    const [row] = await shop().database.db.select().from(staffApiTokens).where(and(eq(staffApiTokens.name, "Stock sync"), isNull(staffApiTokens.revokedAt)));
    expect(JSON.stringify(row)).not.toContain(token!.split("|")[1]);
    // It works, with its own role.
    const me = await shop().app.inject({ method: "GET", url: "/api/admin/auth/me", headers: { authorization: `Bearer ${token}` } });
    expect(me.json()).toMatchObject({ via: "token", staff: { role: "warehouse" } });

    const list = await owner.get("/admin/staff/tokens");
    expect(textOf(list)).toContain("Stock sync");
    expect(textOf(list)).toContain("Olivia Owner");
    expect(list.body).not.toContain(token!);
    expect(list.body).not.toContain("tca_");

    const revoked = await postForm(owner, "/admin/staff/tokens", { intent: "revoke", id: String(row!.id) });
    expect(revoked.statusCode).toBe(200);
    expect(textOf(revoked)).toContain("API token “Stock sync” is revoked");
    expect((await shop().app.inject({ method: "GET", url: "/api/admin/auth/me", headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    const blank = await postForm(owner, "/admin/staff/tokens", { intent: "create", name: " ", role: "" });
    expect(blank.statusCode).toBe(422);
    expect(textOf(blank)).toContain("Name the token (what will use it).");
    expect(textOf(blank)).toContain("Choose a role.");
  });
});
