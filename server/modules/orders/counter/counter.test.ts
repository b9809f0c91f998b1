// Orders taken by staff (issue 34) over HTTP, signed in as the demo staff:
// each way of paying, the role's price limit and its reason, stock and credit
// refused as at checkout, walk-ins, the pickers and drafts. The race for the
// last unit proves something only on PostgreSQL:
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/orders/counter
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "../../../test/browser.ts";
import { oneVariantProduct } from "../../../test/products.ts";
import { auditLog } from "../../audit/schema.ts";
import { productVariants } from "../../catalog/schema.ts";
import { mailOutbox } from "../../mail/schema.ts";
import { staff } from "../../staff/schema.ts";
import { stockMovements } from "../../stock/schema.ts";
import { tradeInvoices } from "../../trade/invoices/invoice-schema.ts";
import { tradeAccounts } from "../../trade/schema.ts";
import { tradeFixtures } from "../../trade/test-fixtures.ts";
import { orderDrafts, orders } from "../schema.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";

let nth = 40;
const { as, shop } = staffTestShop("198.51.110");
const fixtures = tradeFixtures(shop);

/** A product with this stock at £10.00 ex VAT (20% VAT): its SKU. */
const stocked = async (stock: number) => (await oneVariantProduct(shop().database.db, (nth += 1), stock, 1000)).sku;
const walkIn = { name: "Wendy Walkin", phone: "07700 900123" };
const collect = { delivery_method: "collect" } as const;
const orderRow = async (number: string) => (await shop().database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
const staffId = async (email: string) => (await shop().database.db.select({ id: staff.id }).from(staff).where(eq(staff.email, email)))[0]!.id;

describe("an order taken at the counter", () => {
  it("sells to a walk-in paid at the counter: paid at once with its reference, on the desk, the ledger and the audit log", async () => {
    const sku = await stocked(5);
    const res = await as.sales.post("/api/admin/orders", { customer: walkIn, lines: [{ sku, quantity: 2 }], ...collect, payment: "paid_at_counter", payment_reference: "TERM-88812" });
    expect(res.statusCode, res.body).toBe(201);
    const { number, status } = res.json().data;
    expect(status).toBe("paid");
    const row = await orderRow(number);
    expect(row).toMatchObject({ customerName: "Wendy Walkin", phone: "07700 900123", email: "", paymentMethod: "paid_at_counter", paymentReference: "TERM-88812", paidAmount: 2400, total: 2400, createdByStaffId: await staffId("sales@staff.example.com") });
    expect(row.paidOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const moved = await shop().database.db.select({ change: stockMovements.change, kind: stockMovements.kind }).from(stockMovements).where(eq(stockMovements.orderId, row.id));
    expect(moved).toEqual([{ change: -2, kind: "sold" }]);
    const desk = (await as.owner.get(`/api/admin/orders?q=${number}`)).json().data;
    expect(desk.map((o: { number: string }) => o.number)).toEqual([number]);
    const [audit] = await shop().database.db.select().from(auditLog).where(and(eq(auditLog.entityId, number), eq(auditLog.action, "order.created_by_staff")));
    expect(audit?.after).toMatchObject({ customer: "Wendy Walkin", walk_in: true, payment: "paid_at_counter", payment_reference: "TERM-88812" });
    // No email to send a walk-in's confirmation to; the shop still hears of it.
    const mails = await shop().database.db.select({ to: mailOutbox.to }).from(mailOutbox).where(sql`${mailOutbox.subject} like ${`%${number}`}`);
    expect(mails.map((m) => m.to)).toEqual([shop().config.shopEmail]);
  });

  it("asks for the reference of a payment taken at the counter, and for whom the order is", async () => {
    const sku = await stocked(5);
    const noRef = await as.sales.post("/api/admin/orders", { customer: walkIn, lines: [{ sku, quantity: 1 }], ...collect, payment: "paid_at_counter" });
    expect(noRef.statusCode).toBe(422);
    expect(noRef.json().errors.payment_reference).toEqual(["Enter the card terminal's or cash receipt's reference."]);
    const nobody = await as.sales.post("/api/admin/orders", { lines: [{ sku, quantity: 1 }], ...collect, payment: "pay_on_collection" });
    expect(nobody.statusCode).toBe(422);
    expect(nobody.json().errors.customer).toEqual(["Choose a customer, or enter the walk-in customer's name."]);
    const unknown = await as.sales.post("/api/admin/orders", { customer: walkIn, lines: [{ sku: "NO-SUCH-SKU", quantity: 1 }], ...collect, payment: "pay_on_collection" });
    expect(unknown.json().errors["lines.0.sku"]).toEqual(["No product has the SKU NO-SUCH-SKU."]);
  });

  it("takes pay on collection for a collection only, as checkout does", async () => {
    const sku = await stocked(5);
    const delivered = await as.sales.post("/api/admin/orders", { customer: walkIn, lines: [{ sku, quantity: 1 }], delivery_method: "standard", delivery_address: { line_1: "1 High Street", town: "Leeds", postcode: "LS1 1AB" }, payment: "pay_on_collection" });
    expect(delivered.statusCode).toBe(422);
    expect(delivered.json().errors.payment_method).toEqual(["Pay on collection is for click & collect orders."]);
    const collected = await as.sales.post("/api/admin/orders", { customer: walkIn, lines: [{ sku, quantity: 1 }], ...collect, payment: "pay_on_collection" });
    expect(collected.statusCode, collected.body).toBe(201);
    expect(collected.json().data.status).toBe("awaiting_payment");
  });

  it("emails a registered customer a card payment link that opens the order's payment page; a forged link opens nothing", async () => {
    const sku = await stocked(5);
    const person = await fixtures.signedUp("Carla");
    const res = await as.sales.post("/api/admin/orders", {
      customer_id: person.id,
      lines: [{ sku, quantity: 1 }],
      delivery_method: "standard",
      delivery_address: { name: "Site Office", company: "Carla Builds", line_1: "1 High Street", town: "Leeds", postcode: "LS1 1AB" },
      payment: "card_link",
    });
    expect(res.statusCode, res.body).toBe(201);
    const { number, status } = res.json().data;
    expect(status).toBe("awaiting_payment");
    // A delivery is addressed to its recipient.
    expect((await orderRow(number)).customerName).toBe("Site Office");
    const sent = await shop().database.db.select({ to: mailOutbox.to, subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(sql`${mailOutbox.subject} like ${`%${number}`}`);
    const mail = sent.find((m) => m.subject === `Your order ${number}`);
    expect(mail?.to).toBe(person.email.toLowerCase());
    const link = mail!.text.match(/\/api\/payments\/order\/\S+?signature=[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeDefined();
    const customer = new TestBrowser(shop().app, "198.51.111.1");
    const opened = await customer.get(link!);
    expect(opened.statusCode, opened.body).toBe(303);
    expect(opened.headers.location).not.toContain("/checkout");
    // The same link again: the page still open, not a second one.
    expect((await customer.get(link!)).headers.location).toBe(opened.headers.location);
    // A signature changed in its first character (to one it is not: an "x" kept it as it was one run in 64).
    expect((await customer.get(link!.replace(/signature=(.)/, (_, first: string) => `signature=${first === "x" ? "y" : "x"}`))).statusCode).toBe(404);
  });

  it("needs the customer's email for a card payment link", async () => {
    const res = await as.sales.post("/api/admin/orders", { customer: walkIn, lines: [{ sku: await stocked(5), quantity: 1 }], ...collect, payment: "card_link" });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors["customer.email"]).toEqual(["A card payment link is emailed: enter the customer's email."]);
  });

  it("charges a trade member's account within credit, and refuses beyond it as checkout does", async () => {
    const company = await fixtures.company("Counter Fitters Ltd");
    const sku = await stocked(10);
    const res = await as.sales.post("/api/admin/orders", { customer_id: company.buyer.id, lines: [{ sku, quantity: 2 }], ...collect, payment: "on_account", po_reference: "PO-77" });
    expect(res.statusCode, res.body).toBe(201);
    const { number, status } = res.json().data;
    expect(status).toBe("processing");
    const row = await orderRow(number);
    expect(row.tradeAccountId).toBe(company.accountId);
    expect(await shop().database.db.select({ total: tradeInvoices.total }).from(tradeInvoices).where(eq(tradeInvoices.orderId, row.id))).toEqual([{ total: row.total }]);
    await shop().database.db.update(tradeAccounts).set({ creditLimit: sql`${tradeAccounts.balance} + 100` }).where(eq(tradeAccounts.id, company.accountId));
    const over = await as.sales.post("/api/admin/orders", { customer_id: company.buyer.id, lines: [{ sku, quantity: 1 }], ...collect, payment: "on_account" });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.payment_method[0]).toMatch(/is more than your available credit \(£1\.00\)/);
    const walkInOnAccount = await as.sales.post("/api/admin/orders", { customer: walkIn, lines: [{ sku, quantity: 1 }], ...collect, payment: "on_account" });
    expect(walkInOnAccount.json().errors.payment).toEqual(["On account is for a member of an approved trade account: choose the customer."]);
    const notTrade = await as.sales.post("/api/admin/orders", { customer_id: (await fixtures.signedUp("Nora")).id, lines: [{ sku, quantity: 1 }], ...collect, payment: "on_account" });
    expect(notTrade.json().errors.payment_method).toEqual(["Pay on account is for members of an approved trade account who buy for it."]);
  });

  it("refuses more than the stock, whole, as checkout does", async () => {
    const sku = await stocked(1);
    const res = await as.sales.post("/api/admin/orders", { customer: walkIn, lines: [{ sku, quantity: 3 }], ...collect, payment: "pay_on_collection" });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.items).toEqual([expect.stringMatching(/: only 1 left in stock\.$/)]);
  });

  it("lowers a price only with a reason and within the role's limit, and audits it", async () => {
    const sku = await stocked(20);
    const line = (price: number, reason?: string) => ({ customer: walkIn, lines: [{ sku, quantity: 1, unit_price_ex_vat: price, ...(reason ? { reason } : {}) }], ...collect, payment: "pay_on_collection" });
    const noReason = await as.sales.post("/api/admin/orders", line(9.5));
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors["lines.0.reason"]).toEqual(["Say why the price is changed."]);
    const within = await as.sales.post("/api/admin/orders", line(9.5, "Scuffed box"));
    expect(within.statusCode, within.body).toBe(201);
    const number = within.json().data.number;
    expect((await orderRow(number)).subtotal).toBe(950);
    const [audit] = await shop().database.db.select().from(auditLog).where(and(eq(auditLog.entityId, number), eq(auditLog.action, "order.price_changed")));
    expect(audit?.before).toEqual({ line: null, unit_price_ex_vat: 10, percent_off: null, reason: null });
    expect(audit?.after).toEqual({ line: expect.stringContaining(`(${sku})`), unit_price_ex_vat: 9.5, percent_off: 5, reason: "Scuffed box" });
    const beyond = await as.sales.post("/api/admin/orders", line(8, "Regular"));
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().message).toMatch(/^Your role may take at most 10% off a price; .* is 20% off\. Ask a manager\.$/);
    expect((await as.owner.post("/api/admin/orders", line(5, "Display model"))).statusCode).toBe(201);
    const above = await as.owner.post("/api/admin/orders", line(12, "More"));
    expect(above.json().errors["lines.0.unit_price_ex_vat"]).toEqual(["The price cannot be above the customer's price: leave it blank to sell at that price."]);
  });

  it("is for roles that take orders", async () => {
    const body = { customer: walkIn, lines: [{ sku: await stocked(5), quantity: 1 }], ...collect, payment: "pay_on_collection" };
    expect((await as.warehouse.post("/api/admin/orders", body)).statusCode).toBe(403);
    expect((await as.hire.post("/api/admin/orders", body)).statusCode).toBe(403);
    expect((await as.accounts.get("/api/admin/orders/drafts")).statusCode).toBe(403);
    expect((await new TestBrowser(shop().app, "198.51.111.9").post("/api/admin/orders", body)).statusCode).toBe(401);
  });
});

describe("the counter's pickers", () => {
  it("finds accounts, trade members and guest buyers; and products by SKU with their stock per branch", async () => {
    const company = await fixtures.company("Pickers Plumbing Ltd");
    const byCompany = (await as.sales.get("/api/admin/orders/lookup/customers?q=Pickers%20Plumb")).json().data;
    expect(byCompany).toContainEqual(expect.objectContaining({ kind: "trade", customer_id: company.buyer.id, company: "Pickers Plumbing Ltd", available_credit: 10000 }));
    // A guest who bought before.
    const guest = new TestBrowser(shop().app, "198.51.111.20");
    await guest.csrf();
    const sku = await stocked(5);
    const [p] = await shop().database.db.select({ id: productVariants.productId }).from(productVariants).where(eq(productVariants.sku, sku));
    expect((await guest.post("/api/basket", { product_id: p!.id, quantity: 1 })).statusCode).toBe(200);
    const placed = await guest.post("/api/checkout", { email: "gary.guest@example.net", phone: "0113 496 0555", delivery_method: "standard", delivery_address: { name: "Gary Guest", line_1: "2 High Street", town: "Leeds", postcode: "ls2 7aa" }, payment_method: "bank_transfer" });
    expect(placed.statusCode, placed.body).toBe(201);
    for (const q of ["gary.guest", "LS2 7AA", "4960555"]) {
      const found = (await as.sales.get(`/api/admin/orders/lookup/customers?q=${encodeURIComponent(q)}`)).json().data;
      expect(found, q).toContainEqual(expect.objectContaining({ kind: "guest", customer_id: null, email: "gary.guest@example.net", postcode: "LS2 7AA" }));
    }
    const products = (await as.sales.get(`/api/admin/orders/lookup/products?q=${sku}`)).json().data;
    expect(products[0]).toMatchObject({ sku, price_ex_vat: 10, price: 12, total_stock: 4 });
    expect(products[0].stock[0]).toMatchObject({ branch: expect.any(String), stock: 4 });
    expect((await as.sales.get("/api/admin/orders/lookup/products?q=a")).statusCode).toBe(422);
  });
});

describe("drafts", () => {
  it("saves, lists, reopens, saves again, finishes and deletes a draft", async () => {
    const sku = await stocked(5);
    const payload = { customer: walkIn, lines: [{ sku, quantity: 1 }], delivery_method: "collect" };
    const made = await as.sales.post("/api/admin/orders/drafts", { label: "Wendy's fixings", payload });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id;
    expect((await as.manager.get("/api/admin/orders/drafts")).json().data[0]).toMatchObject({ id, label: "Wendy's fixings", staff_name: "Sita Sales" });
    expect((await as.sales.get(`/api/admin/orders/drafts/${id}`)).json().data.payload).toEqual(payload);
    const again = await as.sales.put(`/api/admin/orders/drafts/${id}`, { label: "Wendy", payload: { ...payload, payment: "pay_on_collection" } });
    expect(again.json().data).toMatchObject({ label: "Wendy", payload: { payment: "pay_on_collection" } });
    const placed = await as.sales.post("/api/admin/orders", { ...payload, payment: "pay_on_collection", draft_id: id });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(await shop().database.db.select().from(orderDrafts).where(eq(orderDrafts.id, id))).toEqual([]);
    expect((await as.sales.get(`/api/admin/orders/drafts/${id}`)).statusCode).toBe(404);
    const other = (await as.sales.post("/api/admin/orders/drafts", { payload })).json().data.id;
    expect((await as.sales.delete(`/api/admin/orders/drafts/${other}`)).statusCode).toBe(204);
    expect((await as.sales.delete(`/api/admin/orders/drafts/${other}`)).statusCode).toBe(404);
    const actions = await shop().database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entity, "order_draft")).orderBy(desc(auditLog.id)).limit(4);
    expect(actions.map((a) => a.action)).toEqual(["order_draft.deleted", "order_draft.created", "order_draft.updated", "order_draft.created"]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two members selling the last unit at once (PostgreSQL)", () => {
  it("makes one order and refuses the other, the stock never below zero", async () => {
    const sku = await stocked(1);
    const before = (await shop().database.db.select({ id: sql<number>`coalesce(max(${orders.id}), 0)` }).from(orders))[0]!.id;
    const body = { customer: walkIn, lines: [{ sku, quantity: 1 }], ...collect, payment: "paid_at_counter", payment_reference: "CASH-1" };
    const results = await Promise.all([as.sales.post("/api/admin/orders", body), as.manager.post("/api/admin/orders", body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.statusCode === 422)!.json().errors.items).toEqual([expect.stringMatching(/ is out of stock\.$/)]);
    const made = await shop().database.db.select({ id: orders.id }).from(orders).where(and(gt(orders.id, before), eq(orders.paymentReference, "CASH-1")));
    expect(made).toHaveLength(1);
  });
});
