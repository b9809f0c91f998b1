import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestShop, testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { products } from "../catalog/schema.ts";
import { orderLines } from "./schema.ts";
import { reorderMessage } from "./reorder.ts";

const shop = testShopForFile();

let ip = 1;
async function customer(name: string) {
  const b = new TestBrowser(shop().app, `198.21.0.${ip++ % 250}`);
  await b.csrf();
  const reg = await b.register(name, "Builder", `reorder.${name.toLowerCase()}.${Date.now()}.${ip}@example.co.uk`);
  expect(reg.statusCode).toBe(201);
  return b;
}

let offset = 0;
/** A product with a known stock and price: £10.00 ex VAT at 20% unless told. */
async function product(stock: number, pricePence = 1000) {
  offset += 1;
  const [p] = await shop().database.db
    .update(products)
    .set({ stock, pricePence, vatRate: 20 })
    .where(eq(products.id, sql`(select id from products where sku not like 'GEN-%' and (select count(*) from product_variants v where v.product_id = products.id) = 1 order by id desc offset ${offset} limit 1)`))
    .returning({ id: products.id, name: products.name });
  return p!;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const setStock = (id: number, stock: number, pricePence = 1000) => shop().database.db.update(products).set({ stock, pricePence }).where(eq(products.id, id));

/** Places an order (click & collect, bank transfer) for the lines, leaving the basket empty. */
async function placeOrder(b: TestBrowser, lines: { id: number; quantity: number }[]) {
  for (const l of lines) expect((await b.post("/api/basket", { product_id: l.id, quantity: l.quantity })).statusCode).toBe(200);
  const res = await b.post("/api/checkout", { email: "buyer@example.co.uk", delivery_method: "collect", collector_name: "Test Collector", payment_method: "bank_transfer" });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { order_id: number; order_number: string };
}

describe("reorder", () => {
  it("adds an order's lines at today's prices, caps at the stock, skips what is gone or out of stock, and says so", async () => {
    const b = await customer("Rita");
    const plenty = await product(20);
    const few = await product(20);
    const sold = await product(20);
    const gone = await product(20);
    const placed = await placeOrder(b, [
      { id: plenty.id, quantity: 2 },
      { id: few.id, quantity: 5 },
      { id: sold.id, quantity: 1 },
      { id: gone.id, quantity: 1 },
    ]);
    // Since the order: a price rise, a shortage, a sell-out and a product withdrawn (its lines keep their name).
    await setStock(plenty.id, 20, 1500);
    await setStock(few.id, 3);
    await setStock(sold.id, 0);
    await shop().database.db.update(orderLines).set({ productId: null, variantId: null }).where(eq(orderLines.productId, gone.id));

    const res = await b.post(`/api/account/orders/${placed.order_id}/reorder`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.errors).toEqual({});
    const lines = (cart: { items: { product_id: number; quantity: number; unit_price: number }[] }) =>
      Object.fromEntries(cart.items.map((i) => [i.product_id, [i.quantity, i.unit_price]]));
    expect(lines(body.cart)).toEqual({ [plenty.id]: [2, 18], [few.id]: [3, 12] });
    expect(body.reorder.added).toEqual([{ product_id: plenty.id, name: plenty.name, quantity: 2 }]);
    expect(body.reorder.capped).toEqual([{ product_id: few.id, name: few.name, quantity: 3, requested: 5, stock: 3 }]);
    // Skipped lines come in the order's own order.
    expect(body.reorder.skipped).toHaveLength(2);
    expect(body.reorder.skipped).toEqual(
      expect.arrayContaining([
        { product_id: sold.id, name: sold.name, requested: 1, reason: "out_of_stock" },
        { product_id: null, name: gone.name, requested: 1, reason: "unavailable" },
      ]),
    );
    expect(body.message).toMatch(new RegExp(`^Added to your basket: 2 × ${escape(plenty.name)}\\. ${escape(few.name)}: 3 of the 5 ordered added \\(only 3 in stock\\)\\. Not added: `));
    expect(body.message).toContain(`${sold.name} (out of stock)`);
    expect(body.message).toContain(`${gone.name} (no longer sold)`);

    // Again: the basket already holds all of the short product, so only the plentiful one grows.
    const again = (await b.post(`/api/account/orders/${placed.order_id}/reorder`)).json();
    expect(lines(again.cart)).toEqual({ [plenty.id]: [4, 18], [few.id]: [3, 12] });
    expect(again.reorder.skipped).toContainEqual({ product_id: few.id, name: few.name, requested: 5, reason: "basket_full" });
    expect(again.message).toContain(`${few.name} (your basket already holds all we have)`);
  });

  it("never passes the stock when reorders of one order race (the basket row is locked)", async () => {
    const b = await customer("Rhys");
    const item = await product(5);
    const placed = await placeOrder(b, [{ id: item.id, quantity: 2 }]);
    // 3 left: ten reorders of 2 at once fill the basket to 3, never more.
    const answers = await Promise.all(Array.from({ length: 10 }, () => b.post(`/api/account/orders/${placed.order_id}/reorder`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    const cart = (await b.get("/api/basket")).json().cart;
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0].quantity).toBe(3);
  });

  it("answers 404 for another user's order and an unknown one, 401 when signed out, and needs the CSRF token", async () => {
    const owner = await customer("Owen");
    const item = await product(10);
    const placed = await placeOrder(owner, [{ id: item.id, quantity: 1 }]);

    const stranger = await customer("Stan");
    const refused = await stranger.post(`/api/account/orders/${placed.order_id}/reorder`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ success: false, message: "Order not found.", cart: { items: [] } });
    expect((await stranger.get("/api/basket")).json().cart.items).toEqual([]);
    expect((await owner.post("/api/account/orders/2147483647/reorder")).statusCode).toBe(404);
    expect((await owner.post("/api/account/orders/abc/reorder")).statusCode).toBe(422);

    const signedOut = new TestBrowser(shop().app, "198.21.1.1");
    await signedOut.csrf();
    expect((await signedOut.post(`/api/account/orders/${placed.order_id}/reorder`)).statusCode).toBe(401);
    expect((await owner.request("POST", `/api/account/orders/${placed.order_id}/reorder`, undefined, { csrf: false })).statusCode).toBe(419);
  });

  it("is gone with the basket switched off", async () => {
    const off = await createTestShop({ BASKET_ENABLED: "off" });
    try {
      const res = await off.app.inject({ method: "POST", url: "/api/account/orders/1/reorder" });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe("reorderMessage", () => {
  it("says when nothing was added", () => {
    expect(reorderMessage({ added: [], capped: [], skipped: [{ product_id: 1, name: "Sand", requested: 2, reason: "out_of_stock" }] })).toBe(
      "Nothing was added to your basket. Not added: Sand (out of stock).",
    );
  });
});
