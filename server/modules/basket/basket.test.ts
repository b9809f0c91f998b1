import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expectNotFoundWith, testShopForFile } from "../../test/app.ts";
import { TestBrowser, freshBrowser } from "../../test/browser.ts";
import { products } from "../catalog/schema.ts";

const shop = testShopForFile();

let ip = 1;
const guest = () => freshBrowser(shop().app, `198.19.0.${ip++ % 250}`);

/** A product with a known stock and price: £10.00 ex VAT at 20%. */
async function stocked(stock: number, vatRate = 20, pricePence = 1000) {
  const [p] = await shop().database.db
    .update(products)
    .set({ stock, vatRate, pricePence })
    .where(eq(products.id, sql`(select id from products where sku not like 'GEN-%' order by id offset ${ip * 3} limit 1)`))
    .returning({ id: products.id });
  ip += 1;
  return p!.id;
}

describe("the basket API", () => {
  it("answers {success, message, errors, cart} for a guest with nothing yet", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/basket" });
    expect(res.json()).toEqual({ success: true, message: "", errors: {}, cart: { items: [], subtotal: 0, discount: 0, discounts: [], discount_notices: [], free_delivery_code: null, taxes: 0, total: 0, itemCount: 0 } });
  });

  it("adds, adds again to the same line, and works VAT per line with prices from the server", async () => {
    const b = await guest();
    const id = await stocked(10);
    await b.post("/api/basket", { product_id: id, quantity: 2, price: 0.01 });
    const res = await b.post("/api/basket", { product_id: id, quantity: 1 });
    expect(res.statusCode).toBe(200);
    const cart = res.json().cart;
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({ product_id: id, quantity: 3, unit_price: 12, unit_price_ex_vat: 10, line_total: 36, line_total_ex_vat: 30, in_stock: true });
    expect(cart).toMatchObject({ subtotal: 30, taxes: 6, total: 36, itemCount: 3 });
  });

  it("rounds VAT half up on each line", async () => {
    const b = await guest();
    const a = await stocked(5, 20, 333); // £3.33 → VAT 66.6p → 67p
    const c = await stocked(5, 5, 999); // £9.99 → VAT 49.95p → 50p
    await b.post("/api/basket", { product_id: a, quantity: 1 });
    const cart = (await b.post("/api/basket", { product_id: c, quantity: 1 })).json().cart;
    expect(cart).toMatchObject({ subtotal: 13.32, taxes: 1.17, total: 14.49 });
  });

  it("never lets a quantity pass the stock", async () => {
    const b = await guest();
    const id = await stocked(3);
    const over = await b.post("/api/basket", { product_id: id, quantity: 4 });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ success: false, errors: { quantity: ["Only 3 left in stock."] } });
    await b.post("/api/basket", { product_id: id, quantity: 2 });
    const again = await b.post("/api/basket", { product_id: id, quantity: 2 });
    expect(again.json().errors.quantity).toEqual(["Only 3 left in stock."]);
    expect(again.json().cart.items[0].quantity).toBe(2);
    const line = again.json().cart.items[0].cart_item_id;
    expect((await b.put(`/api/basket/${line}`, { quantity: 4 })).json().errors.quantity).toEqual(["Only 3 left in stock."]);
    expect((await b.put(`/api/basket/${line}`, { quantity: 3 })).json().cart.items[0].quantity).toBe(3);
    const none = await stocked(0);
    expect((await b.post("/api/basket", { product_id: none, quantity: 1 })).json().errors.quantity).toEqual(["This product is out of stock."]);
  });

  it.each([
    [{ quantity: 0 }, "quantity"],
    [{ quantity: 1000 }, "quantity"],
    [{ quantity: 1.5 }, "quantity"],
    [{ quantity: -2 }, "quantity"],
    [{ product_id: "abc" }, "product_id"],
  ])("refuses %j with 422 and the cart", async (change, field) => {
    const b = await guest();
    const res = await b.post("/api/basket", { product_id: await stocked(10), quantity: 1, ...change });
    expect(res.statusCode).toBe(422);
    expect(res.json().success).toBe(false);
    expect(res.json().errors[field]).toBeDefined();
    expect(res.json().cart).toBeDefined();
  });

  it("refuses an unknown product and answers 404 for another basket's line", async () => {
    const a = await guest();
    const b = await guest();
    expect((await a.post("/api/basket", { product_id: 99999999, quantity: 1 })).json().errors.product_id).toEqual(["That product does not exist."]);
    const line = (await a.post("/api/basket", { product_id: await stocked(5), quantity: 1 })).json().cart.items[0].cart_item_id;
    expect((await b.put(`/api/basket/${line}`, { quantity: 2 })).statusCode).toBe(404);
    expect((await b.delete(`/api/basket/${line}`)).statusCode).toBe(404);
    expect((await a.get("/api/basket")).json().cart.items).toHaveLength(1);
  });

  it("removes a line and clears the basket", async () => {
    const b = await guest();
    await b.post("/api/basket", { product_id: await stocked(5), quantity: 1 });
    const two = (await b.post("/api/basket", { product_id: await stocked(5), quantity: 1 })).json().cart;
    const removed = await b.delete(`/api/basket/${two.items[0].cart_item_id}`);
    expect(removed.json().cart.items).toHaveLength(1);
    expect((await b.delete("/api/basket")).json().cart.itemCount).toBe(0);
  });

  it("merges a guest basket into the account on sign-in, adding quantities capped at stock", async () => {
    const b = await guest();
    const id = await stocked(4);
    const reg = new TestBrowser(shop().app, "198.19.1.1");
    await reg.csrf();
    const email = `basket.${Date.now()}@example.co.uk`;
    const made = await reg.register("B", "M", email);
    await reg.post("/api/basket", { product_id: id, quantity: 3 });
    await b.post("/api/basket", { product_id: id, quantity: 2 });
    const login = await b.post("/api/auth/login", { email, password: "a long enough secret" });
    expect(login.statusCode).toBe(200);
    const cart = (await b.get("/api/basket")).json().cart;
    expect(cart.items[0]).toMatchObject({ product_id: id, quantity: 4 });
    const byToken = await shop().app.inject({ method: "GET", url: "/api/basket", headers: { authorization: `Bearer ${made.json().token}` } });
    expect(byToken.json().cart.items[0].quantity).toBe(4);
  });

  it("answers 404 everywhere when BASKET_ENABLED is off", async () => {
    await expectNotFoundWith({ BASKET_ENABLED: "no" }, ["GET /api/basket", "POST /api/basket", "PUT /api/basket/1", "DELETE /api/basket/1", "DELETE /api/basket"]);
  });
});

// Proves something only on PostgreSQL (PGlite runs one query at a time):
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/basket
describe("the stock holds under concurrent writes to one basket", () => {
  it("20 adds of 1 at once for a product with 3 in stock give exactly 3, the rest 422", async () => {
    const b = await guest();
    // One write first, so the basket (and its guest cookie) exists before the burst.
    await b.post("/api/basket", { product_id: await stocked(5), quantity: 1 });
    const id = await stocked(3);
    const results = await Promise.all(Array.from({ length: 20 }, () => b.post("/api/basket", { product_id: id, quantity: 1 })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 422)).toHaveLength(17);
    for (const r of results.filter((x) => x.statusCode === 422)) expect(r.json().errors.quantity).toEqual(["Only 3 left in stock."]);
    const line = (await b.get("/api/basket")).json().cart.items.find((i: { product_id: number }) => i.product_id === id);
    expect(line.quantity).toBe(3);
  });

  it("adds and quantity changes at once never pass the stock", async () => {
    const b = await guest();
    const id = await stocked(4);
    const line = (await b.post("/api/basket", { product_id: id, quantity: 1 })).json().cart.items[0].cart_item_id;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? b.put(`/api/basket/${line}`, { quantity: 4 }) : b.post("/api/basket", { product_id: id, quantity: 1 }))),
    );
    const [row] = (await b.get("/api/basket")).json().cart.items;
    expect(row.quantity).toBeLessThanOrEqual(4);
  });

  it("20 quantity changes of one line at once leave one of the requested quantities, and totals that match the lines", async () => {
    const b = await guest();
    const other = await stocked(50);
    await b.post("/api/basket", { product_id: other, quantity: 2 });
    const id = await stocked(100);
    const line = (await b.post("/api/basket", { product_id: id, quantity: 1 })).json().cart.items.find((i: { product_id: number }) => i.product_id === id).cart_item_id;
    const requested = Array.from({ length: 20 }, (_, i) => i + 2);
    const results = await Promise.all(requested.map((quantity) => b.put(`/api/basket/${line}`, { quantity })));
    expect(results.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    const cart = (await b.get("/api/basket")).json().cart;
    const row = cart.items.find((i: { product_id: number }) => i.product_id === id);
    // Last writer wins, whole: never a sum or a mix of two requests.
    expect(requested).toContain(row.quantity);
    expect(cart.items.find((i: { product_id: number }) => i.product_id === other).quantity).toBe(2);
    // The stored row agrees with the answer, and the totals are the lines'.
    const cents = (n: number) => Math.round(n * 100);
    expect(cents(cart.total)).toBe(cart.items.reduce((sum: number, i: { line_total: number }) => sum + cents(i.line_total), 0));
    expect(cents(cart.subtotal)).toBe(cart.items.reduce((sum: number, i: { line_total_ex_vat: number }) => sum + cents(i.line_total_ex_vat), 0));
    expect(cart.itemCount).toBe(row.quantity + 2);
    expect(row.line_total).toBe(row.quantity * 12);
  });

  /** A signed-in account, and a guest holding `quantity` of the product who is about to sign in to it. */
  async function accountAndVisitor(productId: number, quantity: number) {
    const email = `race.${Date.now()}.${ip}@example.co.uk`;
    const account = await guest();
    await account.register("R", "C", email);
    const visitor = await guest();
    await visitor.post("/api/basket", { product_id: productId, quantity });
    return { account, visitor, signIn: () => visitor.post("/api/auth/login", { email, password: "a long enough secret" }) };
  }

  it("a sign-in merge racing adds to the account's basket never passes the stock", async () => {
    const id = await stocked(3);
    const { account, signIn } = await accountAndVisitor(id, 3);
    await Promise.all([
      signIn(),
      ...Array.from({ length: 10 }, () => account.post("/api/basket", { product_id: id, quantity: 1 })),
    ]);
    const [row] = (await account.get("/api/basket")).json().cart.items;
    expect(row.quantity).toBe(3);
  });

  it("a guest's adds racing their own sign-in (which merges and deletes the guest basket) never fail", async () => {
    const id = await stocked(50);
    const { visitor, signIn } = await accountAndVisitor(id, 1);
    const results = await Promise.all([
      signIn(),
      ...Array.from({ length: 10 }, () => visitor.post("/api/basket", { product_id: id, quantity: 1 })),
    ]);
    expect(results.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
  });
});
