// Promotions end to end through the API (issue 32): the desk makes them, the
// basket takes codes and shows multi-buys, checkout redeems them under the
// promotion's lock, and a cancelled order gives its use back. The use-limit
// race runs on PostgreSQL too (npm run test:db): thirty checkouts at once.
import { eq, gt, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser, freshBrowser } from "../../test/browser.ts";
import { oneVariantProduct } from "../../test/products.ts";
import { auditLog } from "../audit/schema.ts";
import { categories, productVariants } from "../catalog/schema.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { releasePromotions } from "./redeem.ts";
import { promotionRedemptions, promotions } from "./schema.ts";

const PASSWORD = "demo-password-2026";
const shop = testShopForFile();
let ip = 1;
const as = {} as Record<"manager" | "sales", TestBrowser>;

const guest = () => freshBrowser(shop().app, `198.51.120.${ip++ % 250}`);

let offset = 0;
/** A one-variant product with this stock: £10.00 ex VAT at 20%. */
const product = async (stock: number, pricePence = 1000) => (await oneVariantProduct(shop().database.db, ++offset, stock, pricePence)).id;

const collect = { email: "promo@example.co.uk", phone: "0113 496 0000", delivery_method: "collect", collector_name: "Test Collector", payment_method: "pay_on_collection" };

async function promotion(body: Record<string, unknown>) {
  const res = await as.manager.post("/api/admin/promotions", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; code: string | null };
}

beforeAll(async () => {
  for (const role of ["manager", "sales"] as const) {
    as[role] = new TestBrowser(shop().app, `198.51.121.${ip++}`);
    await as[role].staffSignIn(DEMO_STAFF.find((s) => s.role === role)!.email, PASSWORD);
  }
});
// The demo's own multi-buy (3 for 2 on gloves) is paused once its test has seen it, so the products these tests pick keep their prices.
const pauseDemoMultiBuys = () => shop().database.db.update(promotions).set({ status: "paused" }).where(sql`${promotions.code} is null`);

describe("the demo shop", () => {
  it("ships a welcome code, a trade code, free delivery and a 3 for 2 that applies by itself", async () => {
    const rows = await shop().database.db.select({ code: promotions.code, kind: promotions.kind, appliesTo: promotions.appliesTo }).from(promotions);
    expect(rows.map((r) => r.code)).toEqual(expect.arrayContaining(["WELCOME10", "TRADE5", "FREESHIP", null]));
    const multiBuy = rows.find((r) => r.code === null)!;
    expect(multiBuy.appliesTo.category_ids).toHaveLength(1);

    // Its badge is on the cards of its category's listing and on each product's page, and goes when it is paused.
    const [category] = await shop().database.db.select({ path: categories.path }).from(categories).where(eq(categories.id, multiBuy.appliesTo.category_ids[0]!));
    const visitor = await guest();
    const cards = (await visitor.get(`/api/products?category=${category!.path}`)).json().items;
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(card.offers).toEqual(["3 for 2 on work gloves"]);
    const productPage = async () => (await visitor.get(`/api/products/${cards[0].slug}`)).json().data;
    expect((await productPage()).offers).toEqual(["3 for 2 on work gloves"]);
    await pauseDemoMultiBuys();
    expect(await productPage()).not.toHaveProperty("offers");
  });
});

describe("the promotions desk", () => {
  it("makes codes and multi-buys in the units merchants type, refuses what cannot work, and audits each change", async () => {
    const made = await promotion({ code: "hello10", kind: "percent", value: 10 });
    expect((await as.manager.get(`/api/admin/promotions/${made.id}`)).json().data).toMatchObject({ code: "HELLO10", name: "10% off", value: 10, state: "running", uses: 0 });

    const refused = await as.manager.post("/api/admin/promotions", { code: "Hello10", kind: "percent", value: 150 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.value).toEqual(["A percentage above 0 and at most 100, to two decimals."]);
    const taken = await as.manager.post("/api/admin/promotions", { code: "Hello10", kind: "amount", value: 5 });
    expect(taken.json().errors.code[0]).toMatch(/already in use/);
    const multi = await as.manager.post("/api/admin/promotions", { code: "THREE", kind: "multi_buy", multi_buy: "free", buy: 3, value: 3 });
    expect(multi.json().errors).toMatchObject({ code: ["A multi-buy applies by itself, without a code."], value: ["Between 1 and 2 of the 3 free."] });
    expect((await as.manager.post("/api/admin/promotions", { kind: "amount", value: 5 })).json().errors.code[0]).toMatch(/Give the code/);
    const nowhere = await as.manager.post("/api/admin/promotions", { code: "NOWHERE", kind: "percent", value: 5, applies_to: { product_ids: [99999999] } });
    expect(nowhere.json().errors["applies_to.product_ids"]).toEqual(["No such product: 99999999."]);

    // Sales may read the desk but not change it.
    expect((await as.sales.get("/api/admin/promotions")).statusCode).toBe(200);
    expect((await as.sales.post("/api/admin/promotions", { code: "SALES", kind: "percent", value: 5 })).statusCode).toBe(403);
    expect((await as.sales.patch(`/api/admin/promotions/${made.id}`, { status: "paused" })).statusCode).toBe(403);

    const paused = await as.manager.patch(`/api/admin/promotions/${made.id}`, { status: "paused" });
    expect(paused.json().data).toMatchObject({ status: "paused", state: "paused", code: "HELLO10" });
    const ended = await as.manager.patch(`/api/admin/promotions/${made.id}`, { status: "ended" });
    expect(ended.json().data.state).toBe("ended");
    expect((await as.manager.patch(`/api/admin/promotions/${made.id}`, { status: "active" })).json().errors.status).toEqual(["This promotion has ended and cannot be changed: make a new one."]);
    const actions = await shop().database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, String(made.id)));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(["promotion.created", "promotion.paused", "promotion.ended"]));
  });
});

describe("codes in the basket", () => {
  it("takes a percentage off with VAT on the discounted lines, and says exactly why a code is refused", async () => {
    const p = await product(20);
    await promotion({ code: "TENOFF", kind: "percent", value: 10 });
    await promotion({ code: "LATER", kind: "percent", value: 10, starts_at: "2099-01-01T09:00:00Z" });
    await promotion({ code: "GONE", kind: "percent", value: 10, starts_at: "2020-01-01T00:00:00Z", ends_at: "2020-02-01T00:00:00Z" });
    await promotion({ code: "BIGSPEND", kind: "amount", value: 5, min_spend: 100 });
    const b = await guest();
    expect((await b.post("/api/basket/discount", { code: "TENOFF" })).json().errors.code).toEqual(["Add something to your basket before using a code."]);
    await b.post("/api/basket", { product_id: p, quantity: 3 });

    const refusals = {
      NOPE: "We do not recognise the code NOPE. Check it and try again.",
      later: "The code LATER starts on 1 January 2099.",
      GONE: "The code GONE expired on 1 February 2020.",
      BIGSPEND: "Spend £70.00 more (ex VAT) on qualifying items to use the code BIGSPEND.",
    };
    for (const [code, message] of Object.entries(refusals)) {
      const res = await b.post("/api/basket/discount", { code });
      expect(res.statusCode, code).toBe(422);
      expect(res.json()).toMatchObject({ success: false, errors: { code: [message] } });
      expect(res.json().cart.discounts).toEqual([]);
    }

    const applied = await b.post("/api/basket/discount", { code: "tenoff" });
    expect(applied.statusCode, applied.body).toBe(200);
    const cart = applied.json().cart;
    // £30.00 ex VAT, £3.00 off, VAT on £27.00.
    expect(cart).toMatchObject({ subtotal: 30, discount: 3, taxes: 5.4, total: 32.4, discounts: [{ code: "TENOFF", description: "10% off", amount: 3 }] });
    expect(cart.items[0]).toMatchObject({ line_total_ex_vat: 30, discount_ex_vat: 3, promotions: ["10% off"] });

    // One code at a time unless both stack.
    await promotion({ code: "FIVER", kind: "amount", value: 5 });
    expect((await b.post("/api/basket/discount", { code: "FIVER" })).json().errors.code).toEqual(["Only one code can be used on an order: remove TENOFF first."]);

    const removed = await b.delete("/api/basket/discount?code=TENOFF");
    expect(removed.json()).toMatchObject({ success: true, message: "Code TENOFF removed.", cart: { discount: 0, total: 36 } });
  });

  it("makes standard delivery free with a free-delivery code, surcharges aside", async () => {
    const p = await product(20);
    await promotion({ code: "SHIPFREE", kind: "free_delivery" });
    const b = await guest();
    await b.post("/api/basket", { product_id: p, quantity: 1 });
    expect((await b.get("/api/checkout/delivery-options?postcode=LS1%201AB")).json().data.delivery[0].price).toBe(6.95);
    expect((await b.post("/api/basket/discount", { code: "shipfree" })).json().cart.free_delivery_code).toBe("SHIPFREE");
    const standard = (await b.get("/api/checkout/delivery-options?postcode=LS1%201AB")).json().data.delivery[0];
    expect(standard).toMatchObject({ id: "standard", price: 0, notes: expect.arrayContaining(["Free with the code SHIPFREE."]) });
    const placed = await b.post("/api/checkout", { ...collect, delivery_method: "standard", payment_method: "bank_transfer", delivery_address: { name: "Test Recipient", line_1: "1 High Street", town: "Leeds", postcode: "LS1 1AB" } });
    expect(placed.statusCode, placed.body).toBe(201);
    const [o] = await shop().database.db.select().from(orders).where(eq(orders.number, placed.json().order_number));
    expect(o).toMatchObject({ delivery: 0, discount: 0, total: 1200 });
  });
});

describe("multi-buys", () => {
  it("3 for 2 applies by itself in the basket, and the order keeps each line's discount", async () => {
    const p = await product(30);
    const q = await product(30, 400);
    const m = await promotion({ kind: "multi_buy", multi_buy: "free", buy: 3, value: 1, name: "3 for 2 on these", applies_to: { product_ids: [p, q] } });
    const b = await guest();
    await b.post("/api/basket", { product_id: p, quantity: 2 });
    const cart = (await b.post("/api/basket", { product_id: q, quantity: 1 })).json().cart;
    expect(cart.discounts).toEqual([{ code: null, description: "3 for 2 on these", amount: 4 }]);
    const placed = await b.post("/api/checkout", collect);
    expect(placed.statusCode, placed.body).toBe(201);
    const [o] = await shop().database.db.select().from(orders).where(eq(orders.number, placed.json().order_number));
    const lines = await shop().database.db.select().from(orderLines).where(eq(orderLines.orderId, o!.id));
    expect(lines.map((l) => [l.unitPrice, l.quantity, l.discount, l.lineTotal, l.lineVat])).toEqual([
      [1000, 2, 0, 2000, 400],
      [400, 1, 400, 0, 0],
    ]);
    expect(o).toMatchObject({ subtotal: 2000, discount: 400, vat: 400, total: 2400 });
    const report = (await as.manager.get(`/api/admin/promotions/${m.id}`)).json();
    expect(report.report).toMatchObject({ orders: 1, discount_given: 4, sales: 24 });
    expect(report.data.uses).toBe(1);
  });
});

describe("use limits", () => {
  it("a customer's own limit counts their orders by email, and a cancelled order gives its use back", async () => {
    const p = await product(30);
    const once = await promotion({ code: "ONCEEACH", kind: "percent", value: 20, max_uses_per_customer: 1 });
    const first = await guest();
    await first.post("/api/basket", { product_id: p, quantity: 1 });
    await first.post("/api/basket/discount", { code: "ONCEEACH" });
    const placed = await first.post("/api/checkout", collect);
    expect(placed.statusCode, placed.body).toBe(201);

    const again = await guest();
    await again.post("/api/basket", { product_id: p, quantity: 1 });
    expect((await again.post("/api/basket/discount", { code: "ONCEEACH" })).statusCode).toBe(200);
    const refused = await again.post("/api/checkout", collect);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.code).toEqual(["You have already used the code ONCEEACH. Remove it from your basket to check out without it."]);

    // The desk cancels the first order: its use comes back, and the same email may use the code again.
    const cancelled = await as.manager.post(`/api/admin/orders/${placed.json().order_number}/transitions`, { to: "cancelled", note: "Customer rang to cancel." });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const [row] = await shop().database.db.select().from(promotions).where(eq(promotions.id, once.id));
    expect(row!.uses).toBe(0);
    const second = await again.post("/api/checkout", collect);
    expect(second.statusCode).toBe(201);

    // An order wholly returned gives its use back too (the returns desk calls this when refunding the last of it), once.
    const [o] = await shop().database.db.select({ id: orders.id }).from(orders).where(eq(orders.number, second.json().order_number));
    await releasePromotions(shop().database.db, o!.id);
    await releasePromotions(shop().database.db, o!.id);
    const [after] = await shop().database.db.select().from(promotions).where(eq(promotions.id, once.id));
    expect(after!.uses).toBe(0);
  });

  it("thirty checkouts at once with a code limited to five give exactly five discounted orders, and place nothing for the rest", async () => {
    const p = await product(200);
    const limited = await promotion({ code: "FIRSTFIVE", kind: "amount", value: 2, max_uses: 5 });
    const [{ before }] = (await shop().database.db.select({ before: sql<number>`coalesce(max(${orders.id}), 0)::int` }).from(orders)) as [{ before: number }];
    const buyers = await Promise.all(Array.from({ length: 30 }, () => guest()));
    for (const b of buyers) {
      await b.post("/api/basket", { product_id: p, quantity: 1 });
      expect((await b.post("/api/basket/discount", { code: "FIRSTFIVE" })).statusCode).toBe(200);
    }
    const results = await Promise.all(buyers.map((b, i) => b.post("/api/checkout", { ...collect, email: `racer${i}@example.co.uk` })));
    const placed = results.filter((r) => r.statusCode === 201);
    const refused = results.filter((r) => r.statusCode === 422);
    expect(placed).toHaveLength(5);
    expect(refused).toHaveLength(25);
    for (const r of refused) expect(r.json().errors.code).toEqual(["The code FIRSTFIVE has been used up. Remove it from your basket to check out without it."]);

    const made = await shop().database.db.select({ id: orders.id, discount: orders.discount }).from(orders).where(gt(orders.id, before));
    expect(made).toHaveLength(5);
    expect(made.every((o) => o.discount === 200)).toBe(true);
    const [row] = await shop().database.db.select().from(promotions).where(eq(promotions.id, limited.id));
    expect(row!.uses).toBe(5);
    expect(await shop().database.db.$count(promotionRedemptions, eq(promotionRedemptions.promotionId, limited.id))).toBe(5);
    // The refused kept their baskets, the code shown as used up.
    const left = (await buyers.find((_, i) => results[i]!.statusCode === 422)!.get("/api/basket")).json().cart;
    expect(left.items).toHaveLength(1);
    expect(left.discount_notices).toEqual([{ code: "FIRSTFIVE", message: "The code FIRSTFIVE has been used up." }]);
  });
});

describe("the preview", () => {
  it("shows what a sample basket gets, writing nothing", async () => {
    const p = await product(10);
    const [v] = await shop().database.db.select({ sku: productVariants.sku }).from(productVariants).where(eq(productVariants.productId, p));
    const code = await promotion({ code: "PREVIEW15", kind: "percent", value: 15, min_spend: 20 });
    const small = (await as.sales.post(`/api/admin/promotions/${code.id}/preview`, { lines: [{ sku: v!.sku.toLowerCase(), quantity: 1 }] })).json().data;
    expect(small).toMatchObject({ discount: 0, not_applying: { reason: "min_spend", shortPence: 1000 } });
    const big = (await as.sales.post(`/api/admin/promotions/${code.id}/preview`, { lines: [{ sku: v!.sku, quantity: 2 }] })).json().data;
    expect(big).toMatchObject({ subtotal: 20, discount: 3, vat: 3.4, total: 20.4, not_applying: null });
    const unknown = await as.sales.post(`/api/admin/promotions/${code.id}/preview`, { lines: [{ sku: "NO-SUCH-SKU", quantity: 1 }] });
    expect(unknown.json().errors["lines.0.sku"]).toEqual(["No product has the SKU NO-SUCH-SKU."]);
  });
});
