// The customers desk's service (server/modules/account/admin.ts), driven with
// StaffActor objects built here: the search and each thing it matches, keyset
// pages, a customer's page, and the three actions (reset link, block,
// unblock) with their permissions, their effect on the customer's sign-ins
// and their audit entry in the same transaction.
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { tableOutbox } from "../../test/outbox.ts";
import { auditLog } from "../audit/schema.ts";
import { accessTokens, passwordResetTokens, users } from "../auth/schema.ts";
import { ACCOUNT_BLOCKED, createAuthService, queueRecoveryLink } from "../auth/service.ts";
import { issueAccessToken, resolveAccessToken } from "../auth/tokens.ts";
import { mailOutbox } from "../mail/schema.ts";
import { orders } from "../orders/schema.ts";
import type { StaffActor } from "../staff/actor.ts";
import type { StaffRole } from "../staff/permissions.ts";
import { tradeAccounts, tradeMembers } from "../trade/schema.ts";
import { wishlistItems } from "../wishlist/schema.ts";
import { type AdminCustomerService, RECENT_ORDERS, createAdminCustomerService } from "./admin.ts";
import { addresses } from "./schema.ts";
import { staffMembers } from "../../test/staff-members.ts";
import { hammerAndLevel } from "../../test/products.ts";

let database: TestDatabase;
let db: Db;
let desk: AdminCustomerService;
const as = {} as Record<StaffRole, StaffActor>;

/** The outbox as the shop's mail service writes it: a row in the caller's transaction. */
const outbox = tableOutbox;
const shop = { mail: outbox, appName: "Tradecounter", publicUrl: "http://shop.test" };

// Four customers, oldest first: Priya (trade owner, two addresses, 22 orders, 2 saved products),
// Tom (one address, no orders), Ann (a pending trade buyer) and Zed (nothing at all).
const c = {} as Record<"priya" | "tom" | "ann" | "zed", number>;

async function customer(email: string, firstname: string, lastname: string, book: { postcode: string; isDefaultDelivery?: boolean }[] = []) {
  const [user] = await db.insert(users).values({ email, firstname, lastname, phone: "0113 496 0000", passwordHash: "x" }).returning({ id: users.id });
  if (book.length) await db.insert(addresses).values(book.map((a) => ({ userId: user!.id, firstname, lastname, line1: "1 High Street", town: "Leeds", postcode: a.postcode, isDefaultDelivery: a.isDefaultDelivery ?? false })));
  return user!.id;
}

async function company(name: string, state: "pending" | "approved", userId: number, role: "owner" | "buyer") {
  const [account] = await db
    .insert(tradeAccounts)
    .values({ companyName: name, companyType: "sole_trader", trade: "Joiner", line1: "1 Yard", town: "Leeds", postcode: "LS1 4AP", phone: "0113 496 0001", accountsEmail: "accounts@trade.example.com", expectedMonthlySpend: 100_000, requestedCreditLimit: 500_000, state })
    .returning({ id: tradeAccounts.id });
  await db.insert(tradeMembers).values({ tradeAccountId: account!.id, userId, role });
  return account!.id;
}

async function refusal(promise: Promise<unknown>): Promise<HttpError | ValidationError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError || error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

const ids = (page: { data: { id: number | null }[] }) => page.data.map((r) => r.id);
const search = async (q: string) => ids(await desk.list(as.owner, { q }));
const auditOf = (id: number) => db.select().from(auditLog).where(and(eq(auditLog.entity, "customer"), eq(auditLog.entityId, String(id)))).orderBy(asc(auditLog.id));
const mailTo = (to: string) => db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(asc(mailOutbox.id));
const tokensOf = (id: number) => db.select().from(accessTokens).where(eq(accessTokens.userId, id));
const userOf = async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0]!;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  desk = createAdminCustomerService(db, shop);
  Object.assign(as, await staffMembers(db, "customers.example.com"));
  c.priya = await customer("priya@shahbuild.example.com", "Priya", "Shah", [{ postcode: "LS1 4AP", isDefaultDelivery: true }, { postcode: "M1 1AE" }]);
  c.tom = await customer("Tom.Baker@example.com", "Tom", "Baker", [{ postcode: "SW1A 1AA" }]);
  c.ann = await customer("ann@example.org", "Ann", "Thomas", [{ postcode: "LS11 5PS" }]);
  c.zed = await customer("zed@example.net", "Zed", "Zero");
  await company("Shah Building Services Ltd", "approved", c.priya, "owner");
  await company("Northern Joinery", "pending", c.ann, "buyer");
  const made = await hammerAndLevel(db, ["CUS-A", "CUS-B"], [10, 5]);
  await db.insert(wishlistItems).values(made.map((productId) => ({ userId: c.priya, productId })));
  for (let i = 1; i <= 22; i++) {
    await db.insert(orders).values({
      number: `TC-9${String(i).padStart(5, "0")}`,
      userId: c.priya,
      email: "priya@shahbuild.example.com",
      status: i === 22 ? "paid" : "completed",
      deliveryMethod: "standard",
      deliveryName: "Standard delivery",
      subtotal: 1000 * i,
      vat: 200 * i,
      delivery: 0,
      total: 1200 * i,
      paymentMethod: "bank_transfer",
      createdAt: new Date(Date.UTC(2025, 0, i, 10)),
    });
  }
}, 60_000);
afterAll(() => database?.destroy());

describe("the customers desk's search", () => {
  it("lists every customer newest first, with their postcode, company, order count and blocked state", async () => {
    const page = await desk.list(as.owner);
    expect(ids(page)).toEqual([c.zed, c.ann, c.tom, c.priya]);
    expect(page.next_cursor).toBeNull();
    expect(page.data.find((r) => r.id === c.priya)).toEqual({
      kind: "trade",
      id: c.priya,
      name: "Priya Shah",
      email: "priya@shahbuild.example.com",
      phone: "0113 496 0000",
      postcode: "LS1 4AP",
      company: "Shah Building Services Ltd",
      orders: 22,
      // 1200 × (1 + … + 22) pence: every order paid for.
      total_spent: 3036,
      last_order_at: "2025-01-22T10:00:00.000Z",
      blocked: false,
      created_at: expect.any(String),
    });
    expect(page.data.find((r) => r.id === c.zed)).toMatchObject({ postcode: null, company: null, orders: 0 });
  });

  it("finds a customer by first name, last name or full name", async () => {
    expect(await search("priya")).toEqual([c.priya]);
    expect(await search("THOMAS")).toEqual([c.ann]);
    expect(await search("  priya   shah ")).toEqual([c.priya]);
    expect(await search("Tom Baker")).toEqual([c.tom]);
  });

  it("finds a customer by any part of the email, in any case", async () => {
    expect(await search("tom.baker@")).toEqual([c.tom]);
    expect(await search("@EXAMPLE.ORG")).toEqual([c.ann]);
    expect(await search("example")).toEqual([c.zed, c.ann, c.tom, c.priya]);
  });

  it("finds a customer by a postcode in their address book, typed any way, or its outward code, and shows that postcode", async () => {
    expect(await search("ls14ap")).toEqual([c.priya]);
    const other = await desk.list(as.owner, { q: "m1 1ae" });
    expect(other.data).toEqual([expect.objectContaining({ id: c.priya, postcode: "M1 1AE" })]);
    expect(await search("SW1A")).toEqual([c.tom]);
    // LS1 is not the start of LS11.
    expect(await search("LS1")).toEqual([c.priya]);
    expect(await search("LS11")).toEqual([c.ann]);
  });

  it("finds a trade customer by their company's name, and a customer by #number", async () => {
    expect(await search("northern joinery")).toEqual([c.ann]);
    expect(await search("Building Services")).toEqual([c.priya]);
    expect(await search(`#${c.tom}`)).toEqual([c.tom]);
  });

  it("reads % and _ as themselves, and finds nobody for nonsense", async () => {
    expect(await search("%")).toEqual([]);
    expect(await search("_")).toEqual([]);
    expect(await search("nobody at all")).toEqual([]);
  });

  it("pages with a keyset cursor, every customer once, and refuses a forged cursor", async () => {
    const first = await desk.list(as.owner, { limit: 3 });
    expect(ids(first)).toEqual([c.zed, c.ann, c.tom]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await desk.list(as.owner, { limit: 3, cursor: first.next_cursor! });
    expect(ids(second)).toEqual([c.priya]);
    expect(second.next_cursor).toBeNull();
    // The cursor carries the search's place, not the search: the filter is applied again.
    const shah = await desk.list(as.owner, { q: "example", limit: 2 });
    expect(ids(await desk.list(as.owner, { q: "example", limit: 2, cursor: shah.next_cursor! }))).toEqual([c.tom, c.priya]);
    const forged = await refusal(desk.list(as.owner, { cursor: "not-a-cursor" }));
    expect(forged).toBeInstanceOf(ValidationError);
    expect((forged as ValidationError).errors.cursor).toEqual(["This page link is out of date; start again from the first page."]);
  });

  it("is for roles with customers.view only", async () => {
    for (const role of ["owner", "manager", "sales", "accounts"] as const) expect((await desk.list(as[role])).data.length).toBe(4);
    for (const role of ["warehouse", "hire"] as const) expect((await refusal(desk.list(as[role]))).message).toBe("Your role does not allow this.");
  });
});

describe("a customer's page", () => {
  it("shows details, addresses, the last 20 orders with their count, wishlist size and trade membership", async () => {
    const page = await desk.detail(as.sales, c.priya);
    expect(page).toMatchObject({
      id: c.priya,
      name: "Priya Shah",
      email: "priya@shahbuild.example.com",
      phone: "0113 496 0000",
      blocked: false,
      blocked_at: null,
      blocked_reason: null,
      active_sessions: 0,
      order_count: 22,
      wishlist_count: 2,
      trade: { company_name: "Shah Building Services Ltd", role: "owner", role_label: "Owner", state: "approved", state_label: "Approved" },
    });
    expect(page.addresses.map((a) => [a.postcode, a.is_default_delivery])).toEqual([
      ["LS1 4AP", true],
      ["M1 1AE", false],
    ]);
    expect(page.orders).toHaveLength(RECENT_ORDERS);
    expect(page.orders[0]).toEqual({ number: "TC-900022", status: "paid", status_label: "Paid", created_at: "2025-01-22T10:00:00.000Z", total: 264 });
    expect(page.orders.at(-1)!.number).toBe("TC-900003");
  });

  it("shows a customer with nothing yet, and a pending trade buyer", async () => {
    expect(await desk.detail(as.accounts, c.zed)).toMatchObject({ addresses: [], orders: [], order_count: 0, wishlist_count: 0, trade: null });
    expect((await desk.detail(as.owner, c.ann)).trade).toMatchObject({ company_name: "Northern Joinery", role: "buyer", role_label: "Buyer", state: "pending", state_label: "Pending" });
  });

  it("refuses the warehouse and the hire desk, and answers 404 for no such customer", async () => {
    expect((await refusal(desk.detail(as.warehouse, c.priya))).statusCode).toBe(403);
    expect((await refusal(desk.detail(as.hire, c.priya))).statusCode).toBe(403);
    const none = await refusal(desk.detail(as.owner, 999_999));
    expect([none.statusCode, none.message]).toEqual([404, "No customer #999999."]);
  });
});

describe("sending a password reset link", () => {
  it("emails the storefront's own single-use link, valid 60 minutes, through the outbox, audited", async () => {
    const now = new Date();
    const sent = await desk.sendPasswordReset(as.sales, c.tom, now);
    expect(sent).toEqual({ sent_to: "Tom.Baker@example.com", expires_at: new Date(now.getTime() + 60 * 60_000).toISOString(), expires_in_minutes: 60 });
    const [mail] = await mailTo("Tom.Baker@example.com");
    expect(mail!.subject).toBe("Reset your password");
    const link = /http:\/\/shop\.test\/auth\/recovery\?token=[^\s"&]+&(amp;)?email=[^\s"<]+/.exec(mail!.text)![0];
    const url = new URL(link);
    expect(url.searchParams.get("email")).toBe("Tom.Baker@example.com");
    // The link works on the storefront: the auth service accepts it, once.
    const auth = createAuthService(db, shop);
    await auth.checkRecoveryToken("Tom.Baker@example.com", url.searchParams.get("token")!);
    const [token] = await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, c.tom));
    expect(token!.expiresAt.toISOString()).toBe(sent.expires_at);
    const [entry] = await auditOf(c.tom);
    expect(entry).toMatchObject({ action: "customer.password_reset_sent", staffId: as.sales.staffId, before: null, after: { email: "Tom.Baker@example.com", expires_at: sent.expires_at } });
    // A second link replaces the first.
    await desk.sendPasswordReset(as.owner, c.tom);
    expect(await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, c.tom))).toHaveLength(1);
    await expect(auth.checkRecoveryToken("Tom.Baker@example.com", url.searchParams.get("token")!)).rejects.toBeInstanceOf(ValidationError);
  });

  it("needs customers.manage: accounts may look but not send", async () => {
    const before = (await mailTo("ann@example.org")).length;
    for (const role of ["accounts", "warehouse", "hire"] as const) expect((await refusal(desk.sendPasswordReset(as[role], c.ann))).statusCode).toBe(403);
    expect(await mailTo("ann@example.org")).toHaveLength(before);
    expect((await refusal(desk.sendPasswordReset(as.owner, 999_999))).statusCode).toBe(404);
  });

  it("writes nothing when the audit entry cannot be written: one transaction", async () => {
    const ghost: StaffActor = { ...as.sales, staffId: 999_999 };
    await expect(desk.sendPasswordReset(ghost, c.zed)).rejects.toThrow();
    expect(await mailTo("zed@example.net")).toEqual([]);
    expect(await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, c.zed))).toEqual([]);
  });
});

describe("blocking and unblocking", () => {
  it("blocks in one step: every sign-in and reset link ends, the reason is audited and shown", async () => {
    const a = await issueAccessToken(db, c.ann, true);
    const b = await issueAccessToken(db, c.ann, false);
    await queueRecoveryLink(db, shop, { id: c.ann, email: "ann@example.org", firstname: "Ann" });
    expect((await desk.detail(as.owner, c.ann)).active_sessions).toBe(2);
    const page = await desk.block(as.sales, c.ann, "  Chargebacks on three orders  ");
    expect(page).toMatchObject({ blocked: true, blocked_at: expect.any(String), blocked_reason: "Chargebacks on three orders", active_sessions: 0 });
    expect(await tokensOf(c.ann)).toEqual([]);
    expect(await resolveAccessToken(db, a.token)).toBeNull();
    expect(await resolveAccessToken(db, b.token)).toBeNull();
    expect(await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, c.ann))).toEqual([]);
    const [entry] = await auditOf(c.ann);
    expect(entry).toMatchObject({ action: "customer.blocked", staffId: as.sales.staffId, before: { blocked_at: null }, after: { blocked_at: page.blocked_at, reason: "Chargebacks on three orders", sessions_ended: 2 } });
    expect((await desk.list(as.owner, { q: "ann@" })).data[0]).toMatchObject({ blocked: true });
    const again = await refusal(desk.block(as.owner, c.ann));
    expect([again.statusCode, again.message]).toEqual([409, `Customer #${c.ann} is already blocked.`]);
  });

  it("refuses a blocked customer everywhere: a token issued in a race, a recovery email, a reset link, staff's reset link", async () => {
    const raced = await issueAccessToken(db, c.ann, false);
    expect(await resolveAccessToken(db, raced.token)).toBeNull();
    const auth = createAuthService(db, shop);
    const before = (await mailTo("ann@example.org")).length;
    await auth.requestRecovery("ann@example.org");
    expect(await mailTo("ann@example.org")).toHaveLength(before);
    // A link that slipped out just before the block.
    const { url } = await queueRecoveryLink(db, shop, { id: c.ann, email: "ann@example.org", firstname: "Ann" });
    const token = new URL(url).searchParams.get("token")!;
    const refused = await refusal(auth.resetPassword("ann@example.org", token, "a new long password"));
    expect((refused as ValidationError).errors).toEqual({ token: [ACCOUNT_BLOCKED] });
    expect((await refusal(auth.checkRecoveryToken("ann@example.org", token))).message).toBe(ACCOUNT_BLOCKED);
    const staffLink = await refusal(desk.sendPasswordReset(as.owner, c.ann));
    expect([staffLink.statusCode, staffLink.message]).toEqual([409, "This customer is blocked: unblock them before sending a reset link."]);
  });

  it("unblocks, ending any sign-in issued in a race while blocked, audited", async () => {
    const raced = await issueAccessToken(db, c.ann, false);
    const page = await desk.unblock(as.manager, c.ann);
    expect(page).toMatchObject({ blocked: false, blocked_at: null, blocked_reason: null, active_sessions: 0 });
    expect(await resolveAccessToken(db, raced.token)).toBeNull();
    const fresh = await issueAccessToken(db, c.ann, false);
    expect((await resolveAccessToken(db, fresh.token))?.user.id).toBe(c.ann);
    const entries = await auditOf(c.ann);
    expect(entries.map((e) => e.action)).toEqual(["customer.blocked", "customer.unblocked"]);
    expect(entries[1]).toMatchObject({ staffId: as.manager.staffId, before: { blocked_at: (entries[0]!.after as { blocked_at: string }).blocked_at }, after: { blocked_at: null } });
    const again = await refusal(desk.unblock(as.owner, c.ann));
    expect([again.statusCode, again.message]).toEqual([409, `Customer #${c.ann} is not blocked.`]);
  });

  it("needs customers.manage, and a reason of at most 500 characters", async () => {
    for (const role of ["accounts", "warehouse", "hire"] as const) {
      expect((await refusal(desk.block(as[role], c.zed))).statusCode).toBe(403);
      expect((await refusal(desk.unblock(as[role], c.zed))).statusCode).toBe(403);
    }
    const long = await refusal(desk.block(as.owner, c.zed, "x".repeat(501)));
    expect((long as ValidationError).errors).toEqual({ reason: ["The reason may be at most 500 characters."] });
    expect((await refusal(desk.block(as.owner, 999_999))).statusCode).toBe(404);
    expect((await userOf(c.zed)).blockedAt).toBeNull();
  });

  it("blocks once when two members block at the same moment: the second waits for the row, then is refused", async () => {
    const both = await Promise.allSettled([desk.block(as.owner, c.tom, "first"), desk.block(as.sales, c.tom, "second")]);
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = both.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as HttpError).statusCode).toBe(409);
    expect((await auditOf(c.tom)).filter((e) => e.action === "customer.blocked")).toHaveLength(1);
    await desk.unblock(as.owner, c.tom);
  });

  it("changes nothing when the audit entry cannot be written: one transaction", async () => {
    const signedIn = await issueAccessToken(db, c.zed, false);
    const ghost: StaffActor = { ...as.owner, staffId: 999_999 };
    await expect(desk.block(ghost, c.zed, "test")).rejects.toThrow();
    expect((await userOf(c.zed)).blockedAt).toBeNull();
    expect((await resolveAccessToken(db, signedIn.token))?.user.id).toBe(c.zed);
    await desk.block(as.owner, c.zed);
    await expect(desk.unblock(ghost, c.zed)).rejects.toThrow();
    expect((await userOf(c.zed)).blockedAt).not.toBeNull();
    // Blocked without a reason: the entry has none.
    expect((await auditOf(c.zed))[0]!.after).toEqual({ blocked_at: expect.any(String), sessions_ended: 1 });
  });
});
