import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../../test/app.ts";
import { TestBrowser } from "../../../test/browser.ts";
import { sha256 } from "../../auth/tokens.ts";
import { mailOutbox } from "../../mail/schema.ts";
import { tradeInvitations } from "./invitations-schema.ts";
import { tradeMembers } from "../schema.ts";
import { ACTORS, type Actor, tradeFixtures } from "../test-fixtures.ts";

const shop = testShopForFile();

const { freshEmail, signedUp, join, company, guest } = tradeFixtures(shop);

async function lastMailTo(email: string) {
  const [mail] = await shop().database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.id)).limit(1);
  return mail;
}

function tokenIn(text: string): string {
  const match = /token=([^\s"&<>)]+)/.exec(text);
  if (!match) throw new Error(`no invitation link in: ${text}`);
  return decodeURIComponent(match[1]!);
}

describe("authorisation matrix over the company users routes", () => {
  let a: Awaited<ReturnType<typeof company>>;
  let other: Awaited<ReturnType<typeof company>>;
  let as: Record<Actor, TestBrowser>;
  let invitationId: number;
  beforeAll(async () => {
    a = await company();
    other = await company();
    as = { guest: await guest(), customer: (await signedUp()).browser, owner: a.owner.browser, admin: a.admin.browser, buyer: a.buyer.browser, accounts: a.accounts.browser, "other owner": other.owner.browser };
    const invited = await a.owner.browser.post("/api/trade/users/invite", { email: freshEmail("invitee"), role: "buyer" });
    expect(invited.statusCode).toBe(201);
    invitationId = invited.json().data.id;
  });

  const expectations: Record<string, Record<Actor, number>> = {
    list: { guest: 401, customer: 404, owner: 200, admin: 200, buyer: 404, accounts: 404, "other owner": 200 },
    invite: { guest: 401, customer: 404, owner: 201, admin: 201, buyer: 404, accounts: 404, "other owner": 201 },
    "change a buyer's role": { guest: 401, customer: 404, owner: 200, admin: 200, buyer: 404, accounts: 404, "other owner": 404 },
    "remove a buyer": { guest: 401, customer: 404, owner: 204, admin: 204, buyer: 404, accounts: 404, "other owner": 404 },
    "resend an invitation": { guest: 401, customer: 404, owner: 200, admin: 200, buyer: 404, accounts: 404, "other owner": 404 },
    "revoke an invitation": { guest: 401, customer: 404, owner: 204, admin: 204, buyer: 404, accounts: 404, "other owner": 404 },
  };

  it.each(ACTORS)("GET /api/trade/users as %s", async (actor) => {
    const res = await as[actor].get("/api/trade/users");
    expect(res.statusCode).toBe(expectations.list![actor]);
    if (res.statusCode === 200) {
      const emails = (res.json().data as { email: string }[]).map((u) => u.email);
      const own = actor === "other owner" ? other : a;
      expect(emails.sort()).toEqual([own.owner.email, own.admin.email, own.buyer.email, own.accounts.email].sort());
      expect(res.headers["cache-control"]).toBe("private, no-store");
    }
  });

  it.each(ACTORS)("POST /api/trade/users/invite as %s", async (actor) => {
    const res = await as[actor].post("/api/trade/users/invite", { email: freshEmail("matrix"), role: "buyer" });
    expect(res.statusCode).toBe(expectations.invite![actor]);
  });

  it.each(ACTORS)("PUT /api/trade/users/{id} as %s", async (actor) => {
    const res = await as[actor].put(`/api/trade/users/${a.buyer.id}`, { role: "buyer" });
    expect(res.statusCode).toBe(expectations["change a buyer's role"]![actor]);
    if (res.statusCode === 200) expect(res.json().data).toMatchObject({ id: a.buyer.id, email: a.buyer.email, role: "buyer", status: "active" });
  });

  it.each(ACTORS)("DELETE /api/trade/users/{id} as %s", async (actor) => {
    const target = await signedUp();
    await join(target, a.accountId, "buyer");
    const res = await as[actor].delete(`/api/trade/users/${target.id}`);
    expect(res.statusCode).toBe(expectations["remove a buyer"]![actor]);
    const [still] = await shop().database.db.select().from(tradeMembers).where(eq(tradeMembers.userId, target.id));
    expect(Boolean(still)).toBe(res.statusCode !== 204);
  });

  it.each(ACTORS)("POST /api/trade/invitations/{id}/resend as %s", async (actor) => {
    const res = await as[actor].post(`/api/trade/invitations/${invitationId}/resend`);
    expect(res.statusCode).toBe(expectations["resend an invitation"]![actor]);
  });

  it.each(ACTORS)("DELETE /api/trade/invitations/{id} as %s", async (actor) => {
    const invited = await a.owner.browser.post("/api/trade/users/invite", { email: freshEmail("revoke"), role: "accounts" });
    const res = await as[actor].delete(`/api/trade/invitations/${invited.json().data.id}`);
    expect(res.statusCode).toBe(expectations["revoke an invitation"]![actor]);
  });

  it("answers 404 for another company's user ids and unknown ids, 422 for a bad role", async () => {
    expect((await a.owner.browser.put(`/api/trade/users/${other.buyer.id}`, { role: "accounts" })).statusCode).toBe(404);
    expect((await a.owner.browser.delete(`/api/trade/users/${other.buyer.id}`)).statusCode).toBe(404);
    expect((await a.owner.browser.put("/api/trade/users/999999999", { role: "buyer" })).statusCode).toBe(404);
    const bad = await a.owner.browser.put(`/api/trade/users/${a.buyer.id}`, { role: "boss" });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.role).toEqual(["Choose owner, admin, buyer or accounts."]);
  });

  it("lets an admin manage users but never change, remove or invite an owner", async () => {
    const put = await a.admin.browser.put(`/api/trade/users/${a.owner.id}`, { role: "buyer" });
    expect(put.statusCode).toBe(403);
    expect((await a.admin.browser.delete(`/api/trade/users/${a.owner.id}`)).statusCode).toBe(403);
    expect((await a.admin.browser.put(`/api/trade/users/${a.accounts.id}`, { role: "owner" })).statusCode).toBe(403);
    expect((await a.admin.browser.post("/api/trade/users/invite", { email: freshEmail("boss"), role: "owner" })).statusCode).toBe(403);
    const promoted = await a.owner.browser.put(`/api/trade/users/${a.accounts.id}`, { role: "admin" });
    expect(promoted.json().data.role).toBe("admin");
    await a.owner.browser.put(`/api/trade/users/${a.accounts.id}`, { role: "accounts" });
  });

  it("is documented in the OpenAPI document", async () => {
    const doc = (await shop().app.inject({ method: "GET", url: "/api/openapi.json" })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(doc.paths["/api/trade/users"]?.get).toBeDefined();
    expect(doc.paths["/api/trade/users/invite"]?.post).toBeDefined();
    expect(doc.paths["/api/trade/users/{id}"]?.put).toBeDefined();
    expect(doc.paths["/api/trade/users/{id}"]?.delete).toBeDefined();
    expect(doc.paths["/api/trade/invitations/accept"]?.post).toBeDefined();
  });
});

describe("invitations", () => {
  it("emails a single-use link, stores only its hash, and the invitee accepts by registering with that email", async () => {
    const a = await company();
    const email = freshEmail("newbuyer");
    const res = await a.owner.browser.post("/api/trade/users/invite", { email, role: "buyer" });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ email, role: "buyer", status: "pending" });
    const days = (Date.parse(data.expires_at) - Date.parse(data.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(7, 2);
    const mail = await lastMailTo(email);
    expect(mail!.subject).toMatch(/^Invitation to join Fitters/);
    const token = tokenIn(mail!.text);
    const [stored] = await shop().database.db.select().from(tradeInvitations).where(eq(tradeInvitations.id, data.id));
    expect(stored!.tokenHash).toBe(sha256(token.split("|")[1]!));
    expect(stored!.tokenHash).not.toContain(token.split("|")[1]!);

    const listed = (await a.admin.browser.get("/api/trade/users")).json();
    expect(listed.invitations.map((i: { email: string }) => i.email)).toContain(email);

    // Not signed in: 401. Signed in with another email: refused.
    const guest = new TestBrowser(shop().app);
    await guest.csrf();
    expect((await guest.post("/api/trade/invitations/accept", { token })).statusCode).toBe(401);
    const stranger = await signedUp();
    const mismatch = await stranger.browser.post("/api/trade/invitations/accept", { token });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().message).toBe("This invitation was sent to a different email address. Sign in with that address to accept it.");

    const invitee = await signedUp("invitee", email.toUpperCase());
    const accepted = await invitee.browser.post("/api/trade/invitations/accept", { token });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toEqual({ trade_account_id: a.accountId, role: "buyer" });
    expect((await invitee.browser.get("/api/trade/dashboard")).json().data).toMatchObject({ id: a.accountId, role: "buyer" });
    const users = (await a.owner.browser.get("/api/trade/users")).json();
    expect(users.data.map((u: { id: number }) => u.id)).toContain(invitee.id);
    expect(users.invitations.map((i: { email: string }) => i.email)).not.toContain(email);

    // Single use.
    const again = await invitee.browser.post("/api/trade/invitations/accept", { token });
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe("This invitation has already been used.");
  });

  it("refuses an expired link, a wrong secret, a revoked link and a link replaced by a resend", async () => {
    const a = await company();
    const db = shop().database.db;
    const email = freshEmail("late");
    const invitee = await signedUp("invitee", email);
    const first = (await a.owner.browser.post("/api/trade/users/invite", { email, role: "accounts" })).json().data;
    const token = tokenIn((await lastMailTo(email))!.text);

    expect((await invitee.browser.post("/api/trade/invitations/accept", { token: `${first.id}|${"x".repeat(43)}` })).statusCode).toBe(404);
    expect((await invitee.browser.post("/api/trade/invitations/accept", { token: "nonsense" })).statusCode).toBe(404);

    await db.update(tradeInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(tradeInvitations.id, first.id));
    const expired = await invitee.browser.post("/api/trade/invitations/accept", { token });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe("This invitation has expired. Ask for a new one.");
    expect((await a.owner.browser.get("/api/trade/users")).json().invitations).toContainEqual(expect.objectContaining({ id: first.id, status: "expired" }));

    // A resend gives a fresh link and 7 more days; the old link stops working.
    const resent = await a.owner.browser.post(`/api/trade/invitations/${first.id}/resend`);
    expect(resent.json().data.status).toBe("pending");
    const fresh = tokenIn((await lastMailTo(email))!.text);
    expect(fresh).not.toBe(token);
    expect((await invitee.browser.post("/api/trade/invitations/accept", { token })).statusCode).toBe(404);

    // Revoked: the fresh link stops working too.
    expect((await a.owner.browser.delete(`/api/trade/invitations/${first.id}`)).statusCode).toBe(204);
    const revoked = await invitee.browser.post("/api/trade/invitations/accept", { token: fresh });
    expect(revoked.statusCode).toBe(410);
    expect(revoked.json().message).toBe("This invitation was withdrawn.");
    const [member] = await db.select().from(tradeMembers).where(eq(tradeMembers.userId, invitee.id));
    expect(member).toBeUndefined();
  });

  it("refuses an invitee who already belongs to another company, and inviting an existing user", async () => {
    const a = await company();
    const b = await company();
    await a.owner.browser.post("/api/trade/users/invite", { email: b.buyer.email, role: "buyer" });
    const token = tokenIn((await lastMailTo(b.buyer.email))!.text);
    const res = await b.buyer.browser.post("/api/trade/invitations/accept", { token });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("You already belong to a trade account.");
    const dup = await a.owner.browser.post("/api/trade/users/invite", { email: a.buyer.email, role: "admin" });
    expect(dup.statusCode).toBe(409);
  });
});

describe("single use at the same moment", () => {
  it("accepts one of two simultaneous acceptances of one link", async () => {
    const a = await company();
    const email = freshEmail("twice");
    const invitee = await signedUp("invitee", email);
    await a.owner.browser.post("/api/trade/users/invite", { email, role: "buyer" });
    const token = tokenIn((await lastMailTo(email))!.text);
    const [x, y] = await Promise.all([invitee.browser.post("/api/trade/invitations/accept", { token }), invitee.browser.post("/api/trade/invitations/accept", { token })]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 410]);
    const members = await shop().database.db.select().from(tradeMembers).where(eq(tradeMembers.userId, invitee.id));
    expect(members).toHaveLength(1);
  });
});

describe("the last owner", () => {
  it("cannot be demoted or removed, by themselves or anyone", async () => {
    const a = await company();
    const demote = await a.owner.browser.put(`/api/trade/users/${a.owner.id}`, { role: "admin" });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe("An account always keeps at least one owner. Make someone else an owner first.");
    expect((await a.owner.browser.delete(`/api/trade/users/${a.owner.id}`)).statusCode).toBe(409);
    // With a second owner, one may step down.
    expect((await a.owner.browser.put(`/api/trade/users/${a.admin.id}`, { role: "owner" })).statusCode).toBe(200);
    expect((await a.owner.browser.put(`/api/trade/users/${a.owner.id}`, { role: "admin" })).statusCode).toBe(200);
    expect((await a.admin.browser.delete(`/api/trade/users/${a.admin.id}`)).statusCode).toBe(409);
  });

  it("survives two owners stepping down at the same moment: exactly one succeeds", async () => {
    for (let round = 0; round < 3; round += 1) {
      const a = await company();
      await a.owner.browser.put(`/api/trade/users/${a.admin.id}`, { role: "owner" });
      const [x, y] = await Promise.all([
        a.owner.browser.put(`/api/trade/users/${a.owner.id}`, { role: "admin" }),
        a.admin.browser.put(`/api/trade/users/${a.admin.id}`, { role: "buyer" }),
      ]);
      expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
      const owners = await shop().database.db.select().from(tradeMembers).where(and(eq(tradeMembers.tradeAccountId, a.accountId), eq(tradeMembers.role, "owner")));
      expect(owners).toHaveLength(1);
    }
  });

  it("survives two owners removing each other at the same moment", async () => {
    const a = await company();
    await a.owner.browser.put(`/api/trade/users/${a.admin.id}`, { role: "owner" });
    const [x, y] = await Promise.all([a.owner.browser.delete(`/api/trade/users/${a.admin.id}`), a.admin.browser.delete(`/api/trade/users/${a.owner.id}`)]);
    // One removal lands; the removed owner's own request then finds no right (404) or the guard (409).
    expect([x.statusCode, y.statusCode].filter((s) => s === 204)).toHaveLength(1);
    const owners = await shop().database.db.select().from(tradeMembers).where(and(eq(tradeMembers.tradeAccountId, a.accountId), eq(tradeMembers.role, "owner")));
    expect(owners).toHaveLength(1);
  });
});
