import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser, freshBrowser } from "../../test/browser.ts";
import { productVariants, products } from "../catalog/schema.ts";

const shop = testShopForFile();

let ip = 1;
const visitor = () => freshBrowser(shop().app, `198.22.0.${ip++ % 250}`);

let offset = 0;
/** A product of one variant with a known stock, at £10.00 ex VAT and 20% VAT: its SKU and name. */
async function product(stock: number) {
  offset += 1;
  const [p] = await shop().database.db
    .update(products)
    .set({ stock, pricePence: 1000, vatRate: 20, status: "published" })
    .where(eq(products.id, sql`(select id from products where sku not like 'GEN-%' and (select count(*) from product_variants v where v.product_id = products.id) = 1 order by id offset ${offset} limit 1)`))
    .returning({ id: products.id, sku: products.sku, name: products.name });
  return p!;
}

interface Line {
  line: number;
  sku: string;
  quantity: number | null;
  ok: boolean;
  product: { product_id: number; variant_id: number; sku: string; name: string; options: Record<string, string>; unit_price: number; unit_price_ex_vat: number; stock: number; in_basket: number } | null;
}
type Item = { product_id: number; variant_id: number; quantity: number };
const items = async (b: TestBrowser) => (await b.get("/api/basket")).json().cart.items as Item[];

describe("POST /api/basket/bulk (quick order)", () => {
  it("adds every valid line in one step, SKUs matched trimmed and in any case, prices from the database", async () => {
    const b = await visitor();
    const one = await product(10);
    const two = await product(10);
    const res = await b.post("/api/basket/bulk", {
      lines: [
        { sku: ` ${one.sku.toLowerCase()} `, quantity: 3, price: 0.01 },
        { sku: two.sku, quantity: "2" },
        { sku: one.sku.toUpperCase() },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: "Added 3 lines to your basket.", errors: {} });
    expect(body.lines.map((l: Line) => [l.line, l.ok, l.quantity, l.product?.sku])).toEqual([
      [0, true, 3, one.sku],
      [1, true, 2, two.sku],
      [2, true, 1, one.sku],
    ]);
    expect(body.lines[0].product).toMatchObject({ product_id: one.id, name: one.name, unit_price: 12, unit_price_ex_vat: 10, stock: 10, in_basket: 0 });
    // The same SKU twice goes into one basket line.
    expect(body.cart.items.map((i: Item) => [i.product_id, i.quantity])).toEqual([
      [one.id, 4],
      [two.id, 2],
    ]);
    expect(body.cart).toMatchObject({ subtotal: 60, taxes: 12, total: 72, itemCount: 6 });
  });

  it("refuses unknown, off-sale, short and badly counted lines by line, and adds the rest", async () => {
    const b = await visitor();
    const good = await product(10);
    const short = await product(2);
    const none = await product(0);
    const draft = await product(10);
    await shop().database.db.update(products).set({ status: "draft" }).where(eq(products.id, draft.id));
    const res = await b.post("/api/basket/bulk", {
      lines: [
        { sku: good.sku, quantity: 1 },
        { sku: "NO-SUCH-SKU", quantity: 1 },
        { sku: draft.sku, quantity: 1 },
        { sku: short.sku, quantity: 3 },
        { sku: none.sku, quantity: 1 },
        { sku: good.sku, quantity: "two" },
        { sku: good.sku, quantity: 0 },
        { sku: good.sku, quantity: 1.5 },
        { sku: good.sku, quantity: 1000 },
        { sku: "  ", quantity: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.message).toBe("Added 1 line to your basket. Not added: 9 lines, shown with what to fix.");
    expect(body.errors).toEqual({
      "lines.1.sku": ["We have no product with the SKU “NO-SUCH-SKU”."],
      "lines.2.sku": [`“${draft.sku}” is not on sale.`],
      "lines.3.quantity": ["Only 2 left in stock."],
      "lines.4.quantity": ["This product is out of stock."],
      "lines.5.quantity": ["“two” is not a quantity: enter a whole number from 1 to 999."],
      "lines.6.quantity": ["The quantity must be at least 1."],
      "lines.7.quantity": ["“1.5” is not a quantity: enter a whole number from 1 to 999."],
      "lines.8.quantity": ["The quantity must be at most 999."],
      "lines.9.sku": ["Enter a SKU."],
    });
    expect(body.lines.map((l: Line) => l.ok)).toEqual([true, false, false, false, false, false, false, false, false, false]);
    // A line short of stock still says what it is, so the customer can fix its quantity.
    expect(body.lines[3].product).toMatchObject({ sku: short.sku, stock: 2 });
    expect(body.lines[2].product).toBeNull();
    expect(body.cart.items.map((i: Item) => [i.product_id, i.quantity])).toEqual([[good.id, 1]]);
  });

  it("answers 422 and adds nothing when every line is refused", async () => {
    const b = await visitor();
    await b.post("/api/basket/bulk", { lines: [{ sku: (await product(5)).sku, quantity: 1 }] });
    const res = await b.post("/api/basket/bulk", { lines: [{ sku: "NOPE-1" }, { sku: "NOPE-2", quantity: "x" }] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ success: false, message: "Nothing was added to your basket: 2 lines need fixing." });
    expect(Object.keys(res.json().errors)).toEqual(["lines.0.sku", "lines.1.sku", "lines.1.quantity"]);
    expect(res.json().cart.items).toHaveLength(1);
  });

  it("counts what the basket already holds and earlier lines of the same SKU against the stock", async () => {
    const b = await visitor();
    const p = await product(5);
    await b.post("/api/basket", { product_id: p.id, quantity: 3 });
    const over = await b.post("/api/basket/bulk", { lines: [{ sku: p.sku, quantity: 3 }] });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors).toEqual({ "lines.0.quantity": ["Only 5 left in stock: your basket already holds 3."] });
    expect(over.json().lines[0].product.in_basket).toBe(3);
    const twice = await b.post("/api/basket/bulk", { lines: [{ sku: p.sku, quantity: 1 }, { sku: p.sku.toLowerCase(), quantity: 2 }] });
    expect(twice.statusCode).toBe(200);
    expect(twice.json().errors).toEqual({ "lines.1.quantity": ["Only 5 left in stock: your basket already holds 3 and earlier lines take 1."] });
    expect((await items(b)).find((i) => i.product_id === p.id)!.quantity).toBe(4);
  });

  it("adds the variant a variant's SKU names, and refuses an archived one", async () => {
    const b = await visitor();
    const variants = await shop().database.db
      .select({ id: productVariants.id, sku: productVariants.sku, options: productVariants.options, productId: productVariants.productId })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(and(eq(products.sku, "TCL-SAWN47100"), eq(productVariants.status, "active")))
      .orderBy(asc(productVariants.id));
    const [first, second, , last] = variants;
    await shop().database.db.update(productVariants).set({ stock: 0, status: "archived" }).where(eq(productVariants.id, last!.id));
    const res = await b.post("/api/basket/bulk", { lines: [{ sku: second!.sku.toLowerCase(), quantity: 2 }, { sku: last!.sku, quantity: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().lines[0].product).toMatchObject({ variant_id: second!.id, sku: second!.sku, options: second!.options });
    expect(res.json().errors).toEqual({ "lines.1.sku": [`“${last!.sku}” is not on sale.`] });
    expect((await items(b)).map((i) => [i.variant_id, i.quantity])).toEqual([[second!.id, 2]]);
    expect(second!.id).not.toBe(first!.id);
  });

  it("refuses a list that is not one with 422 and the basket, at the door", async () => {
    const b = await visitor();
    for (const body of [{}, { lines: [] }, { lines: "A-1 2" }, { lines: [{ quantity: 2 }] }, { lines: Array.from({ length: 1001 }, () => ({ sku: "X" })) }]) {
      const res = await b.post("/api/basket/bulk", body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.json()).toMatchObject({ success: false, cart: { items: [] } });
    }
    expect((await b.post("/api/basket/bulk", { lines: [{ quantity: 2 }] })).json().errors).toEqual({ "lines.0.sku": ["Enter a SKU."] });
  });

  it("is open to visitors and signed-in customers alike, behind the CSRF token", async () => {
    const p = await product(10);
    const fresh = new TestBrowser(shop().app, "198.22.1.1");
    await fresh.csrf();
    const res = await fresh.post("/api/basket/bulk", { lines: [{ sku: p.sku, quantity: 1 }] });
    expect(res.statusCode).toBe(200);
    // The visitor's basket is theirs by the guest cookie the answer set.
    expect(fresh.cookies.has("tc_guest")).toBe(true);
    expect(await items(fresh)).toHaveLength(1);
    const forged = await fresh.request("POST", "/api/basket/bulk", { lines: [{ sku: p.sku, quantity: 1 }] }, { csrf: false });
    expect(forged.statusCode).toBe(419);
    expect((await fresh.request("POST", "/api/basket/bulk/check", { lines: [{ sku: p.sku }] }, { csrf: false })).statusCode).toBe(419);
    expect((await items(fresh))[0]!.quantity).toBe(1);

    const customer = await visitor();
    const email = `bulk.${Date.now()}@example.co.uk`;
    expect((await customer.register("Q", "O", email)).statusCode).toBe(201);
    expect((await customer.post("/api/basket/bulk", { lines: [{ sku: p.sku, quantity: 2 }] })).statusCode).toBe(200);
    expect((await items(customer))[0]!.quantity).toBe(2);
  });
});

describe("POST /api/basket/bulk/check", () => {
  it("says line by line what the quick order would do, and writes nothing", async () => {
    const b = await visitor();
    const p = await product(4);
    await b.post("/api/basket", { product_id: p.id, quantity: 1 });
    const lines = [{ sku: p.sku.toLowerCase(), quantity: 3 }, { sku: "NOPE" }, { sku: p.sku, quantity: 1 }];
    const res = await b.post("/api/basket/bulk/check", { lines });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: false, message: "1 line can be added; 2 lines need fixing." });
    expect(res.json().errors).toEqual({
      "lines.1.sku": ["We have no product with the SKU “NOPE”."],
      "lines.2.quantity": ["Only 4 left in stock: your basket already holds 1 and earlier lines take 3."],
    });
    expect(res.json().lines[0]).toMatchObject({ ok: true, quantity: 3, product: { sku: p.sku, name: p.name, unit_price: 12, stock: 4, in_basket: 1 } });
    expect((await items(b)).map((i) => i.quantity)).toEqual([1]);
    // A visitor with no basket yet is answered too, and given no cookie.
    const fresh = new TestBrowser(shop().app, "198.22.1.2");
    await fresh.csrf();
    const first = await fresh.post("/api/basket/bulk/check", { lines: [{ sku: p.sku }] });
    expect(first.json()).toMatchObject({ success: true, message: "All 1 line can be added.", cart: { items: [] } });
    expect(fresh.cookies.has("tc_guest")).toBe(false);
  });
});

// Proves something only on PostgreSQL (PGlite runs one query at a time):
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/basket/bulk.test.ts
describe("quick orders racing into one basket", () => {
  it("two quick orders for the last units of a SKU never pass the stock together", async () => {
    for (let round = 0; round < 5; round += 1) {
      const b = await visitor();
      // The basket exists before the race, as the screen's check leaves it.
      await b.post("/api/basket", { product_id: (await product(50)).id, quantity: 1 });
      const p = await product(5);
      const other = await product(50);
      const results = await Promise.all([
        b.post("/api/basket/bulk", { lines: [{ sku: p.sku, quantity: 3 }, { sku: other.sku, quantity: 1 }] }),
        b.post("/api/basket/bulk", { lines: [{ sku: p.sku.toLowerCase(), quantity: 3 }, { sku: other.sku, quantity: 1 }] }),
      ]);
      // Each added its other line; only one got the three.
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(results.filter((r) => r.json().errors["lines.0.quantity"])).toHaveLength(1);
      const held = await items(b);
      expect(held.find((i) => i.product_id === p.id)!.quantity).toBe(3);
      expect(held.find((i) => i.product_id === other.id)!.quantity).toBe(2);
    }
  });

  it("ten quick orders and ten adds at once for a SKU with 4 in stock give exactly 4", async () => {
    const b = await visitor();
    await b.post("/api/basket", { product_id: (await product(50)).id, quantity: 1 });
    const p = await product(4);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? b.post("/api/basket/bulk", { lines: [{ sku: p.sku, quantity: 1 }] }) : b.post("/api/basket", { product_id: p.id, quantity: 1 }))),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(4);
    expect((await items(b)).find((i) => i.product_id === p.id)!.quantity).toBe(4);
  });
});
