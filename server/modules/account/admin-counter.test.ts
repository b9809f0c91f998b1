// The customers desk at the counter (issue 34), over HTTP as the demo staff:
// guest buyers found by email, name, phone, postcode and company with their
// kind, spend and last order, their page by email; the list sorted by spend
// and last order with keyset pages; a registered customer's details, staff
// note and address book edited, each change audited before and after, an
// email another customer has refused by name; the roles without
// customers.edit refused.
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestBrowser } from "../../test/browser.ts";
import { auditLog } from "../audit/schema.ts";
import { users } from "../auth/schema.ts";
import { orderAddresses, orders } from "../orders/schema.ts";
import { tradeAccounts, tradeMembers } from "../trade/schema.ts";
import { staffTestShop } from "../../test/staff-browsers.ts";

let seq = 1;
const { as, shop } = staffTestShop("198.51.130");
const db = () => shop().database.db;

/** An order placed as `email` (a guest's when no user), with its delivery address. */
async function order(email: string, values: { userId?: number; name?: string; phone?: string; total: number; status?: string; postcode?: string; company?: string; at: string }) {
  const [row] = await db()
    .insert(orders)
    .values({
      number: `TC-8${String(seq++).padStart(5, "0")}`,
      userId: values.userId ?? null,
      email,
      phone: values.phone ?? "",
      customerName: values.name ?? "",
      status: values.status ?? "paid",
      deliveryMethod: "standard",
      deliveryName: "Standard delivery",
      subtotal: values.total,
      vat: 0,
      delivery: 0,
      total: values.total,
      paymentMethod: "card",
      createdAt: new Date(values.at),
    })
    .returning({ id: orders.id, number: orders.number });
  await db().insert(orderAddresses).values({ orderId: row!.id, kind: "delivery", name: values.name ?? "", company: values.company ?? "", line1: "1 Quay", town: "Hull", postcode: values.postcode ?? "HU1 1AA" });
  return row!.number;
}

async function customer(email: string, firstname: string, lastname: string, phone = "") {
  const [u] = await db().insert(users).values({ email, firstname, lastname, phone, passwordHash: "x" }).returning({ id: users.id });
  return u!.id;
}

const auditOf = (id: number) => db().select().from(auditLog).where(and(eq(auditLog.entity, "customer"), eq(auditLog.entityId, String(id)))).orderBy(asc(auditLog.id));
const list = async (query: string, who: TestBrowser = as.sales) => {
  const res = await who.get(`/api/admin/customers?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { kind: string; id: number | null; name: string; email: string; phone: string; postcode: string | null; company: string | null; orders: number; total_spent?: number; last_order_at: string | null }[]; next_cursor: string | null };
};

describe("guest buyers on the customers desk", () => {
  it("finds a guest by email, name, phone, postcode or company, one row per email with their spend and last order", async () => {
    await order("Gail.Guest@Quayside.example", { name: "Gail Guestworth", phone: "07700 900811", total: 2500, postcode: "HU1 3DX", company: "Quayside Fixings", at: "2026-03-01T10:00:00Z" });
    await order("gail.guest@quayside.example", { name: "Gail Guestworth", phone: "07700 900811", total: 1500, at: "2026-04-02T10:00:00Z" });
    // Cancelled and unpaid orders are not spent.
    await order("gail.guest@quayside.example", { name: "Gail Guestworth", total: 9900, status: "cancelled", at: "2026-04-03T10:00:00Z" });
    await order("gail.guest@quayside.example", { name: "Gail Guestworth", total: 4400, status: "awaiting_payment", at: "2026-04-04T10:00:00Z" });
    const gail = { kind: "guest", id: null, name: "Gail Guestworth", email: "gail.guest@quayside.example", phone: "", postcode: "HU1 1AA", company: null, orders: 4, total_spent: 40, last_order_at: "2026-04-04T10:00:00.000Z", blocked: false, created_at: null };
    for (const q of ["gail.guest@quayside", "GUESTWORTH", "07700900811", "0 7700 900 811", "HU1 3DX", "quayside fixings"]) {
      const found = await list(`q=${encodeURIComponent(q)}`);
      expect(found.data.filter((r) => r.kind === "guest"), q).toEqual([expect.objectContaining({ ...gail, phone: expect.any(String) })]);
    }
    expect((await list("q=nobody-of-that-name")).data).toEqual([]);
    // No price for the roles without orders.prices.
    const warehouseless = await as.hire.get("/api/admin/customers?q=gail");
    expect(warehouseless.statusCode).toBe(403);
  });

  it("marks registered and trade customers by kind, and an email with an account is never a guest", async () => {
    const rita = await customer("rita.registered@quayside.example", "Rita", "Registered", "07700 900812");
    const tom = await customer("tom.trade@quayside.example", "Tom", "Trader");
    const [account] = await db()
      .insert(tradeAccounts)
      .values({ companyName: "Quayside Trade Ltd", companyType: "sole_trader", trade: "Joiner", line1: "1 Yard", town: "Hull", postcode: "HU1 1AA", phone: "01482 000000", accountsEmail: "accounts@quayside.example", expectedMonthlySpend: 100_000, requestedCreditLimit: 500_000, state: "approved" })
      .returning({ id: tradeAccounts.id });
    await db().insert(tradeMembers).values({ tradeAccountId: account!.id, userId: tom, role: "owner" });
    // Rita ordered as a guest before she registered: her orders by that email are hers now.
    await order("rita.registered@quayside.example", { name: "Rita Registered", total: 1000, at: "2026-02-01T10:00:00Z" });
    const found = await list("q=quayside.example");
    const kinds = Object.fromEntries(found.data.map((r) => [r.email, r.kind]));
    expect(kinds["rita.registered@quayside.example"]).toBe("registered");
    expect(kinds["tom.trade@quayside.example"]).toBe("trade");
    expect(found.data.filter((r) => r.email === "rita.registered@quayside.example")).toHaveLength(1);
    expect((await list("q=900812")).data.map((r) => r.id)).toEqual([rita]);
  });

  it("shows a guest's page with their orders by email, and 404 for an email that placed none", async () => {
    const first = await order("hal.guest@quayside.example", { name: "Hal Guest", phone: "07700 900813", total: 1200, at: "2026-05-01T10:00:00Z" });
    const second = await order("HAL.guest@quayside.example", { name: "Hal Guest", phone: "07700 900813", total: 800, at: "2026-05-09T10:00:00Z" });
    const res = await as.sales.get("/api/admin/customers/guest?email=Hal.Guest@quayside.example");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: "guest", email: "hal.guest@quayside.example", name: "Hal Guest", phone: "07700 900813", order_count: 2, total_spent: 20, last_order_at: "2026-05-09T10:00:00.000Z", account_id: null });
    expect(res.json().orders.map((o: { number: string }) => o.number)).toEqual([second, first]);
    expect((await as.sales.get("/api/admin/customers/guest?email=never@quayside.example")).statusCode).toBe(404);
    expect((await as.warehouse.get("/api/admin/customers/guest?email=hal.guest@quayside.example")).statusCode).toBe(403);
  });

  it("sorts by spend and by last order, a keyset page at a time", async () => {
    const ids = [await customer("s1@sort.example", "Sia", "One"), await customer("s2@sort.example", "Sia", "Two"), await customer("s3@sort.example", "Sia", "Three")];
    await order("s1@sort.example", { userId: ids[0], total: 500_000, at: "2026-01-01T10:00:00Z" });
    await order("s2@sort.example", { userId: ids[1], total: 300_000, at: "2026-06-01T10:00:00Z" });
    const first = await list("sort=spent&limit=1&q=sia");
    expect(first.data[0]!.id).toBe(ids[0]);
    const second = await list(`sort=spent&limit=1&q=sia&cursor=${first.next_cursor}`);
    expect(second.data[0]!.id).toBe(ids[1]);
    const byLast = await list("sort=last_order&limit=2&q=sia");
    expect(byLast.data.map((r) => r.id)).toEqual([ids[1], ids[0]]);
    const rest = await list(`sort=last_order&limit=2&q=sia&cursor=${byLast.next_cursor}`);
    expect(rest.data.map((r) => r.id)).toEqual([ids[2]]);
    expect(rest.next_cursor).toBeNull();
    // A cursor of one order used with another is refused plainly.
    const mixed = await as.sales.get(`/api/admin/customers?sort=spent&cursor=${byLast.next_cursor}`);
    expect(mixed.statusCode).toBe(422);
    expect((await as.sales.get("/api/admin/customers?sort=cheapest")).statusCode).toBe(422);
  });
});

describe("editing a registered customer", () => {
  it("changes name, phone, email and the staff note, audited with what changed in plain words", async () => {
    const id = await customer("ed.edit@quayside.example", "Ed", "Edit", "07700 900814");
    const res = await as.sales.patch(`/api/admin/customers/${id}`, { firstname: "Edwin", lastname: "Edits", phone: "01482 111222", email: "edwin@quayside.example", staff_note: "Prefers a call before delivery." });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, name: "Edwin Edits", phone: "01482 111222", email: "edwin@quayside.example", staff_note: "Prefers a call before delivery.", kind: "registered", last_order_at: null });
    const [entry] = await auditOf(id);
    expect(entry).toMatchObject({
      action: "customer.updated",
      before: { name: "Ed Edit", phone: "07700 900814", email: "ed.edit@quayside.example", staff_note: "" },
      after: { name: "Edwin Edits", phone: "01482 111222", email: "edwin@quayside.example", staff_note: "Prefers a call before delivery." },
    });
    // Only what changed is recorded; nothing changed records nothing.
    await as.sales.patch(`/api/admin/customers/${id}`, { staff_note: "Prefers a call." });
    expect((await auditOf(id)).at(-1)).toMatchObject({ before: { staff_note: "Prefers a call before delivery." }, after: { staff_note: "Prefers a call." } });
    await as.sales.patch(`/api/admin/customers/${id}`, { firstname: "Edwin" });
    expect(await auditOf(id)).toHaveLength(2);
  });

  it("refuses an email another customer has, naming them, and bad fields with their messages", async () => {
    const taken = await customer("taken@quayside.example", "Tia", "Taken");
    const id = await customer("free@quayside.example", "Fay", "Free");
    const clash = await as.sales.patch(`/api/admin/customers/${id}`, { email: "TAKEN@quayside.example" });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors.email).toEqual([`Customer #${taken} (Tia Taken) already uses taken@quayside.example.`]);
    const bad = await as.sales.patch(`/api/admin/customers/${id}`, { firstname: "", phone: "call me", email: "nope", staff_note: "x".repeat(2001) });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["email", "firstname", "phone", "staff_note"]);
    expect(bad.json().errors.phone).toEqual(["Enter a valid phone number."]);
    expect(bad.json().errors.staff_note).toEqual(["The staff note may be at most 2000 characters."]);
    expect((await as.sales.patch("/api/admin/customers/2000000", { firstname: "Nobody" })).statusCode).toBe(404);
    expect(await auditOf(id)).toHaveLength(0);
  });

  it("adds, changes and removes an address, each audited as a line of address", async () => {
    const id = await customer("addy@quayside.example", "Addy", "Book");
    const address = { firstname: "Addy", lastname: "Book", line1: "4 Dock Street", town: "Hull", postcode: "hu1 2aa" };
    const added = await as.accounts.post(`/api/admin/customers/${id}/addresses`, address);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ postcode: "HU1 2AA", is_default_delivery: true });
    const changed = await as.accounts.put(`/api/admin/customers/${id}/addresses/${added.json().id}`, { ...address, line1: "6 Dock Street" });
    expect(changed.statusCode, changed.body).toBe(200);
    const badPostcode = await as.accounts.post(`/api/admin/customers/${id}/addresses`, { ...address, postcode: "nowhere" });
    expect(badPostcode.json().errors.postcode).toEqual(["Enter a valid UK postcode."]);
    expect((await as.accounts.delete(`/api/admin/customers/${id}/addresses/${added.json().id}`)).statusCode).toBe(204);
    const other = await customer("other.book@quayside.example", "Other", "Book");
    expect((await as.accounts.put(`/api/admin/customers/${other}/addresses/${added.json().id}`, address)).statusCode).toBe(404);
    expect((await auditOf(id)).map((a) => [a.action, a.before, a.after])).toEqual([
      ["customer.address_added", null, { address: "Addy Book, 4 Dock Street, Hull, HU1 2AA" }],
      ["customer.address_changed", { address: "Addy Book, 4 Dock Street, Hull, HU1 2AA" }, { address: "Addy Book, 6 Dock Street, Hull, HU1 2AA" }],
      ["customer.address_removed", { address: "Addy Book, 6 Dock Street, Hull, HU1 2AA" }, null],
    ]);
  });

  it("is for the roles with customers.edit", async () => {
    const id = await customer("perm@quayside.example", "Per", "Mission");
    for (const role of ["warehouse", "hire"] as const) {
      expect((await as[role].patch(`/api/admin/customers/${id}`, { firstname: "Nope" })).statusCode, role).toBe(403);
      expect((await as[role].post(`/api/admin/customers/${id}/addresses`, {})).statusCode, role).toBe(403);
    }
    for (const role of ["owner", "manager", "sales", "accounts"] as const) {
      expect((await as[role].patch(`/api/admin/customers/${id}`, { firstname: "Per" })).statusCode, role).toBe(200);
    }
  });
});
