// The customers desk's API over HTTP, signed in as the demo staff, with real
// customers signed in on the storefront beside it: the paths, the shapes, the
// refusals, and what a block does to a customer's next request and sign-in.
// The search's rules are proven at service level in admin.test.ts.
import { and, asc, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { apiOperations } from "../../test/openapi.ts";
import { auditLog } from "../audit/schema.ts";
import { ACCOUNT_BLOCKED, RECOVERY_SENT } from "../auth/service.ts";
import { mailOutbox } from "../mail/schema.ts";
import type { StaffRole } from "../staff/permissions.ts";

const PASSWORD = "demo-password-2026";
const CUSTOMER_PASSWORD = "a sturdy customer password";
const shop = testShopForFile();
let ip = 1;
let n = 1;
const as = {} as Record<StaffRole | "guest" | "customer", TestBrowser>;
const browser = () => new TestBrowser(shop().app, `198.51.102.${ip++}`);

/** A customer who registered on the storefront and is signed in there. */
async function newCustomer(firstname = "Carla") {
  const b = browser();
  await b.csrf();
  const email = `customer.${n++}.${Date.now()}@desk.example.com`;
  const res = await b.register(firstname, "Desk", email, CUSTOMER_PASSWORD);
  expect(res.statusCode, res.body).toBe(201);
  return { browser: b, email, id: res.json().user.id as number, token: res.json().token as string };
}

const signIn = async (b: TestBrowser, email: string, password = CUSTOMER_PASSWORD) => {
  await b.csrf();
  return b.post("/api/auth/login", { email, password });
};
const mailTo = (to: string) => shop().database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id));
const auditOf = (id: number) =>
  shop().database.db.select().from(auditLog).where(and(eq(auditLog.entity, "customer"), eq(auditLog.entityId, String(id)))).orderBy(asc(auditLog.id));

beforeAll(async () => {
  for (const member of DEMO_STAFF) {
    const b = browser();
    await b.staffSignIn(member.email, PASSWORD);
    as[member.role] = b;
  }
  as.guest = browser();
  as.customer = browser();
  await as.customer.signIn("customer@example.com", PASSWORD);
}, 120_000);

describe("the customers desk's API", () => {
  it("searches customers with keyset pages, no-store, for the roles with customers.view only", async () => {
    const carla = await newCustomer("Carlotta");
    const res = await as.owner.get("/api/admin/customers?q=carlotta");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json()).toEqual({
      data: [{ kind: "registered", id: carla.id, name: "Carlotta Desk", email: carla.email, phone: "", postcode: null, company: null, orders: 0, total_spent: 0, last_order_at: null, blocked: false, created_at: expect.any(String) }],
      next_cursor: null,
    });
    // The demo trade owner, by her company's name.
    const trade = (await as.accounts.get("/api/admin/customers?q=Shah%20Building")).json().data;
    expect(trade.map((c: { email: string }) => c.email)).toContain("trade@example.com");
    expect(trade.find((c: { email: string }) => c.email === "trade@example.com")).toMatchObject({ company: "Shah Building Services Ltd", orders: expect.any(Number) });
    const first = (await as.sales.get("/api/admin/customers?limit=2")).json();
    expect(first.data).toHaveLength(2);
    const second = (await as.sales.get(`/api/admin/customers?limit=2&cursor=${first.next_cursor}`)).json();
    expect(second.data[0].id).toBeLessThan(first.data[1].id);
    expect((await as.manager.get("/api/admin/customers?q=")).statusCode).toBe(200);
    expect((await as.owner.get("/api/admin/customers?cursor=@@")).statusCode).toBe(422);
    expect((await as.owner.get(`/api/admin/customers?q=${"x".repeat(101)}`)).statusCode).toBe(422);
    expect((await as.guest.get("/api/admin/customers")).statusCode).toBe(401);
    // A customer's storefront sign-in means nothing in the back office.
    expect((await as.customer.get("/api/admin/customers")).statusCode).toBe(401);
    expect((await as.warehouse.get("/api/admin/customers")).statusCode).toBe(403);
    expect((await as.hire.get("/api/admin/customers")).statusCode).toBe(403);
  });

  it("shows a customer's page with their trade membership; 404 for none, 422 for a bad id, 403 without customers.view", async () => {
    const id = (await as.owner.get("/api/admin/customers?q=trade@example.com")).json().data[0].id as number;
    const res = await as.accounts.get(`/api/admin/customers/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, name: "Priya Shah", email: "trade@example.com", blocked: false, trade: { company_name: "Shah Building Services Ltd", role: "owner", state: "approved" } });
    expect(res.json().orders.length).toBeLessThanOrEqual(20);
    expect(res.json().order_count).toBeGreaterThanOrEqual(res.json().orders.length);
    expect((await as.owner.get("/api/admin/customers/999999")).statusCode).toBe(404);
    expect((await as.owner.get("/api/admin/customers/abc")).statusCode).toBe(422);
    expect((await as.warehouse.get(`/api/admin/customers/${id}`)).statusCode).toBe(403);
    expect((await as.hire.get(`/api/admin/customers/${id}`)).statusCode).toBe(403);
    expect((await as.guest.get(`/api/admin/customers/${id}`)).statusCode).toBe(401);
  });

  it("blocks a customer: every sign-in ends at once, sign-in is refused with the message; unblocking lets them back in", async () => {
    const carla = await newCustomer();
    const phone = browser();
    expect((await signIn(phone, carla.email)).statusCode).toBe(200);
    for (const b of [carla.browser, phone]) expect((await b.get("/api/user")).statusCode).toBe(200);
    const app = (token: string) => shop().app.inject({ url: "/api/user", headers: { authorization: `Bearer ${token}` } });
    expect((await app(carla.token)).statusCode).toBe(200);

    // Roles without customers.manage, and a post without the back office's CSRF token, change nothing.
    expect((await as.accounts.post(`/api/admin/customers/${carla.id}/block`, {})).statusCode).toBe(403);
    expect((await as.warehouse.post(`/api/admin/customers/${carla.id}/block`, {})).statusCode).toBe(403);
    expect((await as.sales.request("POST", `/api/admin/customers/${carla.id}/block`, {}, { csrf: false })).statusCode).toBe(419);
    expect((await carla.browser.get("/api/user")).statusCode).toBe(200);

    const blocked = await as.sales.post(`/api/admin/customers/${carla.id}/block`, { reason: "Card fraud reported by the bank" });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toMatchObject({ blocked: true, blocked_reason: "Card fraud reported by the bank", active_sessions: 0 });

    // Their next request, from either browser or the app's bearer token, is signed out; the stale cookie is dropped.
    for (const b of [carla.browser, phone]) {
      const next = await b.get("/api/user");
      expect(next.statusCode).toBe(204);
      expect(b.cookies.has("tc_session")).toBe(false);
    }
    expect((await app(carla.token)).statusCode).toBe(204);
    expect((await carla.browser.get("/api/account")).statusCode).toBe(401);

    // The right password is told plainly; a wrong one gets the usual answer, so a guesser learns nothing.
    const refused = await signIn(browser(), carla.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: ACCOUNT_BLOCKED });
    expect(refused.headers["set-cookie"]?.toString() ?? "").not.toContain("tc_session=");
    expect((await signIn(browser(), carla.email, "not the password")).statusCode).toBe(422);

    // No recovery email, with the same answer as for any address.
    const mails = (await mailTo(carla.email)).length;
    const recovery = await browser().post("/api/auth/recovery", { email: carla.email });
    expect(recovery.json()).toEqual({ success: true, message: RECOVERY_SENT });
    expect(await mailTo(carla.email)).toHaveLength(mails);
    expect((await as.owner.post(`/api/admin/customers/${carla.id}/password-reset`)).statusCode).toBe(409);
    expect((await as.owner.post(`/api/admin/customers/${carla.id}/block`, {})).statusCode).toBe(409);
    expect((await as.owner.get(`/api/admin/customers?q=${encodeURIComponent(carla.email)}`)).json().data[0].blocked).toBe(true);

    expect((await as.accounts.post(`/api/admin/customers/${carla.id}/unblock`)).statusCode).toBe(403);
    const unblocked = await as.sales.post(`/api/admin/customers/${carla.id}/unblock`);
    expect(unblocked.statusCode, unblocked.body).toBe(200);
    expect(unblocked.json()).toMatchObject({ blocked: false, blocked_reason: null });
    expect((await as.sales.post(`/api/admin/customers/${carla.id}/unblock`)).statusCode).toBe(409);
    const back = browser();
    expect((await signIn(back, carla.email)).statusCode).toBe(200);
    expect((await back.get("/api/user")).json()).toMatchObject({ id: carla.id });
    // The old sign-ins stay ended.
    expect((await app(carla.token)).statusCode).toBe(204);

    const entries = await auditOf(carla.id);
    expect(entries.map((e) => [e.action, e.staffName, e.via])).toEqual([
      ["customer.blocked", "Sita Sales <sales@staff.example.com>", "api"],
      ["customer.unblocked", "Sita Sales <sales@staff.example.com>", "api"],
    ]);
    expect(entries[0]!.after).toMatchObject({ reason: "Card fraud reported by the bank", sessions_ended: 2 });
  });

  it("emails the customer a working reset link, audited; accounts may not send one", async () => {
    const carla = await newCustomer();
    expect((await as.accounts.post(`/api/admin/customers/${carla.id}/password-reset`)).statusCode).toBe(403);
    expect((await as.hire.post(`/api/admin/customers/${carla.id}/password-reset`)).statusCode).toBe(403);
    const sent = await as.owner.post(`/api/admin/customers/${carla.id}/password-reset`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ sent_to: carla.email, expires_at: expect.any(String), expires_in_minutes: 60 });
    const minutes = (Date.parse(sent.json().expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);

    const [mail] = await mailTo(carla.email);
    expect(mail!.subject).toBe("Reset your password");
    const link = new URL(/http\S+\/auth\/recovery\?\S+/.exec(mail!.text)![0]);
    expect(link.origin).toBe(shop().config.publicUrl);
    const token = link.searchParams.get("token")!;
    const email = link.searchParams.get("email")!;
    // Followed as the storefront's recovery page does.
    const b = browser();
    await b.csrf();
    expect((await b.post("/api/auth/recovery/token", { email, token })).statusCode).toBe(200);
    const reset = await b.post("/api/auth/reset-password", { email, token, password: "a brand new password", password_confirmation: "a brand new password" });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await carla.browser.get("/api/user")).statusCode).toBe(204);
    expect((await signIn(browser(), carla.email, "a brand new password")).statusCode).toBe(200);

    const [entry] = await auditOf(carla.id);
    expect(entry).toMatchObject({ action: "customer.password_reset_sent", staffName: "Olivia Owner <owner@example.com>", after: { email: carla.email, expires_at: sent.json().expires_at } });
    expect((await as.owner.post("/api/admin/customers/999999/password-reset")).statusCode).toBe(404);
  });

  it("documents every route under the tag admin: customers", async () => {
    const ops = (await apiOperations(shop().app)).filter((op) => op.path.startsWith("/api/admin/customers")).map((op) => `${op.method} ${op.path}`);
    expect(ops.sort()).toEqual([
      "DELETE /api/admin/customers/{id}/addresses/{address}",
      "GET /api/admin/customers",
      "GET /api/admin/customers/guest",
      "GET /api/admin/customers/{id}",
      "PATCH /api/admin/customers/{id}",
      "POST /api/admin/customers/{id}/addresses",
      "POST /api/admin/customers/{id}/block",
      "POST /api/admin/customers/{id}/password-reset",
      "POST /api/admin/customers/{id}/unblock",
      "PUT /api/admin/customers/{id}/addresses/{address}",
    ]);
    const doc = (await shop().app.inject({ url: "/api/openapi.json" })).json();
    expect(doc.paths["/api/admin/customers"].get.tags).toEqual(["admin: customers"]);
    expect(doc.paths["/api/auth/login"].post.responses["403"]).toBeDefined();
  });
});
