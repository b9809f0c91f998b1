// The orders desk's API over HTTP, signed in as the demo staff: the paths,
// the shapes, the refusals and the headers. The rules themselves are proven
// at service level in admin.test.ts and transitions.test.ts.
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { apiOperations } from "../../test/openapi.ts";
import { readPdf } from "../../test/pdf.ts";
import { products } from "../catalog/schema.ts";
import { orders } from "./schema.ts";
import type { StaffRole } from "../staff/permissions.ts";
import { staffBrowsers } from "../../test/staff-browsers.ts";

const PASSWORD = "demo-password-2026";
const shop = testShopForFile();
let ip = 1;
const as = {} as Record<StaffRole | "guest" | "customer", TestBrowser>;

/** A guest's order by bank transfer, delivered: awaiting payment. */
async function placeOrder(): Promise<string> {
  const b = new TestBrowser(shop().app, `198.51.101.${ip++}`);
  await b.csrf();
  const [p] = await shop().database.db
    .update(products)
    .set({ stock: 50 })
    .where(eq(products.id, sql`(select id from products order by id offset ${ip} limit 1)`))
    .returning({ id: products.id });
  expect((await b.post("/api/basket", { product_id: p!.id, quantity: 2 })).statusCode).toBe(200);
  const placed = await b.post("/api/checkout", { email: "desk.routes@example.com", phone: "07700 900555", delivery_method: "standard", delivery_address: { name: "Rita Route", line_1: "1 High Street", town: "Leeds", postcode: "ls1 1ab" }, payment_method: "bank_transfer" });
  expect(placed.statusCode, placed.body).toBe(201);
  return placed.json().order_number as string;
}

beforeAll(async () => {
  Object.assign(as, await staffBrowsers(shop().app, () => `198.51.100.${ip++}`));
  as.customer = new TestBrowser(shop().app, `198.51.100.${ip++}`);
  await as.customer.signIn("customer@example.com", PASSWORD);
}, 120_000);

describe("the orders desk's API", () => {
  it("lists orders newest first with a keyset cursor, no-store, and refuses who may not see them", async () => {
    const number = await placeOrder();
    const res = await as.owner.get("/api/admin/orders?status=&limit=2");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const page = res.json();
    expect(page.data[0]).toMatchObject({ number, status: "awaiting_payment", name: "Rita Route", postcode: "LS1 1AB", email: "desk.routes@example.com", total: expect.any(Number) });
    expect(page.data).toHaveLength(2);
    const next = (await as.owner.get(`/api/admin/orders?limit=2&cursor=${page.next_cursor}`)).json();
    expect(next.data.map((o: { number: string }) => o.number)).not.toContain(number);
    expect((await as.owner.get(`/api/admin/orders?q=${number}`)).json().data.map((o: { number: string }) => o.number)).toEqual([number]);
    const warehouse = (await as.warehouse.get(`/api/admin/orders?q=${number}`)).json().data[0];
    expect(warehouse).not.toHaveProperty("email");
    expect(warehouse).not.toHaveProperty("total");
    expect((await as.owner.get("/api/admin/orders?status=lost")).statusCode).toBe(422);
    expect((await as.owner.get("/api/admin/orders?from=2026-02-30")).statusCode).toBe(422);
    expect((await as.owner.get("/api/admin/orders?cursor=@@")).statusCode).toBe(422);
    expect((await as.guest.get("/api/admin/orders")).statusCode).toBe(401);
    expect((await as.customer.get("/api/admin/orders")).statusCode).toBe(401);
    expect((await as.hire.get("/api/admin/orders")).statusCode).toBe(403);
  });

  it("counts per status for the tabs", async () => {
    const res = await as.sales.get("/api/admin/orders/counts?status=paid&trade=no");
    expect(res.statusCode).toBe(200);
    const counts = res.json().data;
    expect(Object.keys(counts).sort()).toEqual(["awaiting_payment", "cancelled", "completed", "dispatched", "paid", "processing", "ready_for_collection"]);
    expect(counts.awaiting_payment).toBeGreaterThan(0);
  });

  it("exports the filtered list as a CSV attachment, for a role with orders.export", async () => {
    const number = await placeOrder();
    const res = await as.accounts.get(`/api/admin/orders/export.csv?q=${number}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers["cache-control"]).toBe("no-store");
    const lines = res.body.replace(/^\uFEFF/, "").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Order,Placed \(London\),Status,/);
    expect(lines[1]).toMatch(new RegExp(`^${number},`));
    expect((await as.warehouse.get("/api/admin/orders/export.csv")).statusCode).toBe(403);
    expect((await as.guest.get("/api/admin/orders/export.csv")).statusCode).toBe(401);
  });

  it("shows an order, redacted for the warehouse; 404 for none", async () => {
    const number = await placeOrder();
    const res = await as.owner.get(`/api/admin/orders/${number}`);
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json();
    expect(order).toMatchObject({ number, status: "awaiting_payment", totals: { total: expect.any(Number) }, customer: { email: "desk.routes@example.com", guest: true } });
    expect(order.lines[0]).toMatchObject({ quantity: 2, unit_price: expect.any(Number) });
    expect(order.history).toEqual([expect.objectContaining({ kind: "status", status: "awaiting_payment", staff: null })]);
    expect(order.actions.map((a: { to: string }) => a.to)).toEqual(["paid", "cancelled"]);
    const picked = (await as.warehouse.get(`/api/admin/orders/${number}`)).json();
    expect(picked).not.toHaveProperty("totals");
    expect(picked).not.toHaveProperty("customer");
    expect(JSON.stringify(picked)).not.toContain("desk.routes@example.com");
    expect(JSON.stringify(picked)).not.toContain("07700 900555");
    expect((await as.owner.get("/api/admin/orders/TC-999999")).statusCode).toBe(404);
    expect((await as.owner.get("/api/admin/orders/nonsense")).statusCode).toBe(422);
  });

  it("moves an order on, refusing an illegal move (409), a missing field (422), a stale screen (409) and a role without the permission (403)", async () => {
    const number = await placeOrder();
    const url = `/api/admin/orders/${number}/transitions`;
    expect((await as.warehouse.post(url, { to: "paid" })).statusCode).toBe(403);
    const paid = await as.accounts.post(url, { to: "paid", expected_status: "awaiting_payment" });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.headers["cache-control"]).toBe("no-store");
    expect(paid.json()).toMatchObject({ status: "paid", history: [{ status: "awaiting_payment" }, { status: "paid", staff: { name: "Ada Accounts" } }] });
    const illegal = await as.owner.post(url, { to: "dispatched", carrier: "DPD", tracking_number: "1" });
    expect(illegal.statusCode).toBe(409);
    expect(illegal.json()).toEqual({ message: `Order ${number} is paid; it cannot move to dispatched.` });
    const stale = await as.sales.post(url, { to: "cancelled", note: "Rang to cancel", expected_status: "awaiting_payment" });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(`Order ${number} changed while you were looking: it is now paid.`);
    expect((await as.warehouse.post(url, { to: "processing" })).statusCode).toBe(200);
    const missing = await as.warehouse.post(url, { to: "dispatched", carrier: "Evri" });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ tracking_number: ["Enter the tracking number."] });
    const sent = await as.warehouse.post(url, { to: "dispatched", carrier: "Evri", tracking_number: "H01ABC" });
    expect(sent.json()).toMatchObject({ status: "dispatched", tracking_url: "https://www.evri.com/track/parcel/H01ABC" });
    expect(sent.json()).not.toHaveProperty("totals");
    expect((await as.owner.post(url, { to: "teleported" })).statusCode).toBe(422);
    // A cookie-borne write without the back office's CSRF token is refused.
    expect((await as.owner.request("POST", url, { to: "completed" }, { csrf: false })).statusCode).toBe(419);
  });

  it("adds a note to the timeline", async () => {
    const number = await placeOrder();
    const res = await as.warehouse.post(`/api/admin/orders/${number}/notes`, { note: "Left a card." });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().history.at(-1)).toMatchObject({ kind: "note", note: "Left a card.", staff: { name: "Wes Warehouse" } });
    expect((await as.warehouse.post(`/api/admin/orders/${number}/notes`, { note: "" })).statusCode).toBe(422);
    expect((await as.hire.post(`/api/admin/orders/${number}/notes`, { note: "Hi" })).statusCode).toBe(403);
  });

  it("prints the picking list, the delivery note and the batch list for those who pick, without prices", async () => {
    const number = await placeOrder();
    expect((await as.owner.post(`/api/admin/orders/${number}/transitions`, { to: "paid" })).statusCode).toBe(200);
    const single = await as.warehouse.get(`/api/admin/orders/${number}/picking-list.pdf`);
    expect(single.statusCode).toBe(200);
    expect(single.headers["content-type"]).toBe("application/pdf");
    expect(single.headers["cache-control"]).toBe("no-store");
    const picking = await readPdf(single.rawPayload);
    expect(picking.text).toContain(number);
    expect(picking.text).toContain("1 High Street");
    expect(picking.text).not.toContain("£");
    const note = await readPdf((await as.sales.get(`/api/admin/orders/${number}/delivery-note.pdf`)).rawPayload);
    expect(note.text).toContain(number);
    // The batch holds every order awaiting dispatch (paid or being picked), and no other.
    const batch = await readPdf((await as.warehouse.get("/api/admin/orders/picking-list.pdf")).rawPayload);
    expect(batch.text).toContain(number);
    const awaiting = await shop().database.db.select({ number: orders.number }).from(orders).where(inArray(orders.status, ["paid", "processing"]));
    for (const row of awaiting) expect(batch.text).toContain(row.number);
    const other = await placeOrder();
    expect(batch.text).not.toContain(other);
    // Accounts and the hire desk do not pick; nobody prints an order that is not there.
    expect((await as.accounts.get(`/api/admin/orders/${number}/picking-list.pdf`)).statusCode).toBe(403);
    expect((await as.hire.get("/api/admin/orders/picking-list.pdf")).statusCode).toBe(403);
    expect((await as.guest.get("/api/admin/orders/picking-list.pdf")).statusCode).toBe(401);
    expect((await as.owner.get("/api/admin/orders/TC-999999/delivery-note.pdf")).statusCode).toBe(404);
  });

  it("moves several chosen orders at once, each on its own, and says which were refused and why", async () => {
    const [a, b] = [await placeOrder(), await placeOrder()];
    expect((await as.sales.post(`/api/admin/orders/${b}/transitions`, { to: "paid" })).statusCode).toBe(200);
    const res = await as.accounts.post("/api/admin/orders/bulk-transitions", { numbers: [a, b], to: "paid" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ to: "paid", moved: [a], refused: [{ number: b, message: `Order ${b} is already paid.` }] });
    // Picking needs orders.fulfil, which accounts does not hold: refused per order, nothing moved.
    const picking = (await as.accounts.post("/api/admin/orders/bulk-transitions", { numbers: [a, b], to: "processing" })).json();
    expect(picking.moved).toEqual([]);
    expect(picking.refused.map((r: { message: string }) => r.message)).toEqual(["Your role does not allow this.", "Your role does not allow this."]);
    expect((await as.warehouse.post("/api/admin/orders/bulk-transitions", { numbers: [a, b], to: "processing" })).json().moved).toEqual([a, b]);
    expect((await as.owner.post("/api/admin/orders/bulk-transitions", { numbers: [a], to: "dispatched" })).statusCode).toBe(422);
    expect((await as.hire.post("/api/admin/orders/bulk-transitions", { numbers: [a], to: "completed" })).statusCode).toBe(403);
    // Only the chosen orders go on the batch picking list.
    const chosen = await readPdf((await as.warehouse.get(`/api/admin/orders/picking-list.pdf?number=${a}`)).rawPayload);
    expect(chosen.text).toContain(a);
    expect(chosen.text).not.toContain(b);
  });

  it("documents every route under the tag admin: orders", async () => {
    const ops = (await apiOperations(shop().app)).filter((op) => op.path.startsWith("/api/admin/orders")).map((op) => `${op.method} ${op.path}`);
    expect(ops.sort()).toEqual([
      "DELETE /api/admin/orders/drafts/{id}",
      "GET /api/admin/orders",
      "GET /api/admin/orders/counts",
      "GET /api/admin/orders/drafts",
      "GET /api/admin/orders/drafts/{id}",
      "GET /api/admin/orders/export.csv",
      "GET /api/admin/orders/lookup/customers",
      "GET /api/admin/orders/lookup/products",
      "GET /api/admin/orders/picking-list.pdf",
      "GET /api/admin/orders/{number}",
      "GET /api/admin/orders/{number}/delivery-note.pdf",
      "GET /api/admin/orders/{number}/payment",
      "GET /api/admin/orders/{number}/picking-list.pdf",
      "POST /api/admin/orders",
      "POST /api/admin/orders/bulk-transitions",
      "POST /api/admin/orders/drafts",
      "POST /api/admin/orders/{number}/notes",
      "POST /api/admin/orders/{number}/refunds",
      "POST /api/admin/orders/{number}/transitions",
      "PUT /api/admin/orders/drafts/{id}",
    ]);
    const doc = (await shop().app.inject({ url: "/api/openapi.json" })).json();
    expect(doc.paths["/api/admin/orders"].get.tags).toEqual(["admin: orders"]);
  });
});

describe("names on orders (issue 34)", () => {
  async function basket() {
    const b = new TestBrowser(shop().app, `198.51.101.${ip++}`);
    await b.csrf();
    const [p] = await shop().database.db
      .update(products)
      .set({ stock: 50, binLocation: "B-07" })
      .where(eq(products.id, sql`(select id from products order by id offset ${ip} limit 1)`))
      .returning({ id: products.id });
    expect((await b.post("/api/basket", { product_id: p!.id, quantity: 1 })).statusCode).toBe(200);
    return b;
  }
  const address = { line_1: "2 Named Row", town: "Leeds", postcode: "ls1 1ab" };

  it("checkout refuses a delivery without the recipient's name and a collection without the collector's, naming the field", async () => {
    const b = await basket();
    const delivery = await b.post("/api/checkout", { email: "nameless@example.com", delivery_method: "standard", delivery_address: address, payment_method: "bank_transfer" });
    expect(delivery.statusCode).toBe(422);
    expect(delivery.json().errors["delivery_address.name"]).toEqual(["Enter the name of the person the order is for."]);
    const blank = await b.post("/api/checkout", { email: "nameless@example.com", delivery_method: "standard", delivery_address: { ...address, name: "   " }, payment_method: "bank_transfer" });
    expect(blank.json().errors["delivery_address.name"]).toBeDefined();
    const collect = await b.post("/api/checkout", { email: "nameless@example.com", delivery_method: "collect", billing_address: address, payment_method: "pay_on_collection" });
    expect(collect.statusCode).toBe(422);
    expect(collect.json().errors.collector_name).toEqual(["Enter the name of the person collecting the order."]);
    // Nothing was written: the basket is still there to check out.
    expect((await b.get("/api/basket")).json().cart.items).toHaveLength(1);
  });

  it("shows the recipient and company on the desk and the picking list with the phone, PO and bin; a collector's name on a collection", async () => {
    const b = await basket();
    const placed = await b.post("/api/checkout", {
      email: "named@example.com",
      phone: "07700 900123",
      delivery_method: "standard",
      delivery_address: { ...address, name: "Nadia Named", company: "Named Joinery Ltd" },
      payment_method: "bank_transfer",
      po_reference: "PO-NAMED-1",
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const number = placed.json().order_number as string;
    expect((await as.owner.get(`/api/admin/orders?q=Nadia`)).json().data.map((o: { number: string; name: string }) => [o.number, o.name])).toEqual([[number, "Nadia Named"]]);
    const detail = (await as.owner.get(`/api/admin/orders/${number}`)).json();
    expect(detail.customer.name).toBe("Nadia Named");
    expect(detail.addresses.delivery).toMatchObject({ name: "Nadia Named", company: "Named Joinery Ltd" });
    const picking = await readPdf((await as.warehouse.get(`/api/admin/orders/${number}/picking-list.pdf`)).rawPayload);
    for (const text of ["Nadia Named", "Named Joinery Ltd", "Phone: 07700 900123", "PO: PO-NAMED-1", "B-07"]) expect(picking.text).toContain(text);

    const c = await basket();
    const collected = await c.post("/api/checkout", { email: "collector@example.com", delivery_method: "collect", collector_name: "Colin Collector", billing_address: address, payment_method: "pay_on_collection" });
    expect(collected.statusCode, collected.body).toBe(201);
    const collectedNumber = collected.json().order_number as string;
    expect((await as.warehouse.get(`/api/admin/orders?q=Colin`)).json().data[0]).toMatchObject({ number: collectedNumber, name: "Colin Collector" });
    const slip = await readPdf((await as.warehouse.get(`/api/admin/orders/${collectedNumber}/picking-list.pdf`)).rawPayload);
    expect(slip.text).toContain("Collected by Colin Collector");
    // The customer's own view of the order names the collector too.
    const own = (await c.get(`/api/checkout/orders/${collectedNumber}?${new URL(collected.json().redirect, "http://x").searchParams.toString().replace(/^order=[^&]*&/, "")}`)).json().data;
    expect(own.customer_name).toBe("Colin Collector");
  });

  it("shows an order from before names were asked under its email, never a dash", async () => {
    const number = await placeOrder();
    await shop().database.db.execute(sql`update orders set customer_name = '' where number = ${number}`);
    await shop().database.db.execute(sql`update order_addresses set name = '' where order_id = (select id from orders where number = ${number})`);
    expect((await as.owner.get(`/api/admin/orders?q=${number}`)).json().data[0].name).toBe("desk.routes@example.com");
    expect((await as.owner.get(`/api/admin/orders/${number}`)).json().customer.name).toBe("desk.routes@example.com");
    const picking = await readPdf((await as.warehouse.get(`/api/admin/orders/${number}/picking-list.pdf`)).rawPayload);
    expect(picking.text).toContain("desk.routes@example.com");
  });
});
