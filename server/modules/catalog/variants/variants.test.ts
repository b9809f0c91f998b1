// Variants over HTTP (issue 29): the options editor making a product's
// variants, an ERP's variant calls, the product API with ?variant=, the basket
// refusing a product with several variants and none named, checkout taking one
// variant's stock and leaving its siblings alone, and the listing's card.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "../../../test/browser.ts";
import { databaseInvariantViolations } from "../../../test/invariants.ts";
import { auditLog } from "../../audit/schema.ts";
import { mailOutbox } from "../../mail/schema.ts";
import { orderLines } from "../../orders/schema.ts";
import { stockMovements } from "../../stock/schema.ts";
import { productVariants, products } from "../schema.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";

const { as, shop, address } = staffTestShop("198.51.104");
const db = () => shop().database.db;

/** A published demo product with no options, by offset so each test has its own. */
async function product(offset: number) {
  const [p] = await db().select().from(products).where(sql`sku not like 'GEN-%' and status = 'published'`).orderBy(products.id).offset(offset).limit(1);
  return p!;
}

/** A demo product given a Length option with four values: its variants as the admin API answers them. */
async function inFourLengths(offset: number) {
  const p = await product(offset);
  const res = await as.manager.put(`/api/admin/products/${p.sku}/options`, { options: [{ name: "Length", values: ["2.4 m", "3.0 m", "3.6 m", "4.8 m"] }] });
  expect(res.statusCode, res.body).toBe(200);
  return { product: p, body: res.json() as { variants: { sku: string; options: Record<string, string>; stock: number; status: string; price_ex_vat: number }[]; created: string[]; archived: string[] } };
}

describe("the options editor", () => {
  it("makes a variant of every value, the existing one keeping its SKU, price and stock as the first", async () => {
    const { product: p, body } = await inFourLengths(20);
    expect(body.variants.map((v) => v.options)).toEqual([{ Length: "2.4 m" }, { Length: "3.0 m" }, { Length: "3.6 m" }, { Length: "4.8 m" }]);
    expect(body.variants[0]).toMatchObject({ sku: p.sku, stock: p.stock, price_ex_vat: p.pricePence / 100 });
    expect(body.created).toEqual([`${p.sku}-30M`, `${p.sku}-36M`, `${p.sku}-48M`].map((s) => s.slice(0, 64)));
    expect(body.variants.slice(1).every((v) => v.stock === 0 && v.price_ex_vat === p.pricePence / 100)).toBe(true);

    // A second option multiplies them; the lengths keep their SKUs as the first colour.
    const both = await as.manager.put(`/api/admin/products/${p.sku}/options`, {
      options: [
        { name: "Length", values: ["2.4 m", "3.0 m", "3.6 m", "4.8 m"] },
        { name: "Finish", values: ["Sawn", "Planed"] },
      ],
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json().variants.filter((v: { status: string }) => v.status === "active")).toHaveLength(8);
    expect(both.json().variants.find((v: { sku: string }) => v.sku === p.sku).options).toEqual({ Length: "2.4 m", Finish: "Sawn" });
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "product.options_changed")).orderBy(sql`id desc`).limit(1);
    expect(audit!.entityId).toBe(p.sku);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("refuses to take away a value whose variant holds stock, and archives one that holds none", async () => {
    const { product: p } = await inFourLengths(21);
    expect(p.stock).toBeGreaterThan(0);
    const refused = await as.manager.put(`/api/admin/products/${p.sku}/options`, { options: [{ name: "Length", values: ["3.0 m", "3.6 m", "4.8 m"] }] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.options[0]).toContain(`${p.sku} (2.4 m) has ${p.stock} in stock`);
    const dropped = await as.manager.put(`/api/admin/products/${p.sku}/options`, { options: [{ name: "Length", values: ["2.4 m", "3.0 m", "3.6 m"] }] });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json().archived).toEqual([`${p.sku}-48M`]);
    const bad = await as.manager.put(`/api/admin/products/${p.sku}/options`, { options: [{ name: "Length", values: ["3.0 m", "3.0 M"] }] });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json().errors)).toContain("Give each value once.");
    expect((await as.sales.put(`/api/admin/products/${p.sku}/options`, { options: [] })).statusCode).toBe(403);
  });
});

describe("the storefront's product", () => {
  it("answers its unit, options and variants, and with ?variant= that variant's SKU, price and stock", async () => {
    const { product: p, body } = await inFourLengths(22);
    const dear = body.variants[3]!.sku;
    expect((await as.manager.patch(`/api/admin/variants/${dear}`, { price_ex_vat: "19.50", stock: 7, barcode: "5012345678900" })).statusCode).toBe(200);

    const res = await as.guest.get(`/api/products/${p.slug}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.unit).toBe("each");
    expect(data.coverage).toBeNull();
    expect(data.options).toEqual([{ name: "Length", values: ["2.4 m", "3.0 m", "3.6 m", "4.8 m"] }]);
    expect(data.variants).toHaveLength(4);
    expect(data.variants[3]).toMatchObject({ sku: dear, options: { Length: "4.8 m" }, price: 23.4, price_ex_vat: 19.5, stock: 7, in_stock: true, barcode: "5012345678900" });
    // The product's own figures: the first variant's SKU, the cheapest price, the total stock.
    expect(data.sku).toBe(p.sku);
    expect(data.price_ex_vat).toBe(Math.min(p.pricePence, 1950) / 100);
    expect(data.stock).toBe(p.stock + 7);
    expect(data.price_varies).toBe(p.pricePence !== 1950);

    const chosen = (await as.guest.get(`/api/products/${p.slug}?variant=${dear.toLowerCase()}`)).json().data;
    expect(chosen).toMatchObject({ sku: dear, price_ex_vat: 19.5, stock: 7, selected_variant_id: data.variants[3].id });
    const unknown = await as.guest.get(`/api/products/${p.slug}?variant=NOPE-1`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("That variant of this product was not found.");
    // A variant's SKU finds the product, in search.
    const found = (await as.guest.get(`/api/search?q=${encodeURIComponent(dear)}`)).json();
    expect(found.items[0]).toMatchObject({ id: p.id, variant_sku: dear });
    const byBarcode = (await as.guest.get("/api/search?q=5012345678900")).json();
    expect(byBarcode.items.map((c: { id: number; variant_sku?: string }) => [c.id, c.variant_sku])).toEqual([[p.id, dear]]);
    const suggested = (await as.guest.get(`/api/search/suggest?q=${encodeURIComponent(dear)}`)).json().data;
    expect(suggested).toContainEqual({ type: "product", label: p.name, url: `/product/${p.slug}?variant=${dear}` });
  });

  it("shows one card with the price from the cheapest, and the first option's values as chips", async () => {
    const { product: p, body } = await inFourLengths(23);
    await as.manager.patch(`/api/admin/variants/${body.variants[1]!.sku}`, { price_ex_vat: (p.pricePence + 500) / 100 });
    const listing = (await as.guest.get(`/api/products?q=${encodeURIComponent(p.sku)}`)).json();
    const card = listing.items.find((c: { id: number }) => c.id === p.id);
    expect(card).toMatchObject({ price_ex_vat: p.pricePence / 100, price_varies: true, option_chips: { name: "Length", values: ["2.4 m", "3.0 m", "3.6 m", "4.8 m"] } });
    expect(listing.items.filter((c: { id: number }) => c.id === p.id)).toHaveLength(1);
  });
});

describe("the listing's option values", () => {
  it("filters by an option value and counts each value, a value's count keeping the other filters", async () => {
    const lengths = (await as.guest.get("/api/products?category=timber")).json();
    const length = lengths.facets.options.find((o: { name: string }) => o.name === "Length");
    expect(length.values.map((v: { value: string }) => v.value)).toEqual(["2.4 m", "3.0 m", "3.6 m", "4.8 m"]);
    expect(length.values[0].count).toBeGreaterThanOrEqual(2);
    const res = await as.guest.get(`/api/products?category=timber&option[Length]=${encodeURIComponent("4.8 m")}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const skus = body.items.map((c: { sku: string }) => c.sku);
    expect(skus).toEqual(expect.arrayContaining(["TCL-CLS3863", "TCL-SAWN47100"]));
    expect(body.total).toBe(skus.length);
    // The other values still count, so choosing one never hides its alternatives.
    expect(body.facets.options.find((o: { name: string }) => o.name === "Length").values).toHaveLength(4);
    const paint = (await as.guest.get(`/api/products?option[Colour]=${encodeURIComponent("Soft Grey")}&option[Size]=5%20L`)).json();
    expect(paint.items.map((c: { sku: string }) => c.sku)).toEqual(["TCL-EMUL"]);
    const none = (await as.guest.get(`/api/products?option[Length]=${encodeURIComponent("9.9 m")}`)).json();
    expect(none.total).toBe(0);
  });

  it("prices, sorts and filters a product by its cheapest variant with the chosen values, and matches all of them in one variant", async () => {
    const get = async (query: string) => {
      const res = await as.guest.get(`/api/products?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { total: number; items: { sku: string; price: number; price_varies: boolean }[] };
    };
    const longest = `category=timber&option[Length]=${encodeURIComponent("4.8 m")}`;
    // 4.8 m: CLS £6.98 ex VAT (£8.38), sawn £10.58 (£12.70); each product's cheapest length is far less.
    const sorted = await get(`${longest}&sort=price_desc`);
    expect(sorted.items.map((c) => [c.sku, c.price, c.price_varies])).toEqual([
      ["TCL-SAWN47100", 12.7, false],
      ["TCL-CLS3863", 8.38, false],
    ]);
    expect((await get(`${longest}&sort=price_asc`)).items.map((c) => c.sku)).toEqual(["TCL-CLS3863", "TCL-SAWN47100"]);
    // From £8: the 4.8 m CLS is in, though its 2.4 m length is £4.19; under £8 it is out, though its 2.4 m is in.
    expect((await get(`${longest}&price_min=8`)).items.map((c) => c.sku)).toEqual(expect.arrayContaining(["TCL-CLS3863", "TCL-SAWN47100"]));
    expect((await get("category=timber&price_min=8")).items.map((c) => c.sku)).not.toContain("TCL-CLS3863");
    expect((await get(`${longest}&price_max=8`)).items.map((c) => c.sku)).not.toContain("TCL-CLS3863");

    // Two options in one variant: 5 L Charcoal is out of stock, 2.5 L Charcoal is not.
    const charcoal = (size: string) => `option[Size]=${encodeURIComponent(size)}&option[Colour]=Charcoal&in_stock=1`;
    expect((await get(charcoal("5 L"))).total).toBe(0);
    expect((await get(charcoal("2.5 L"))).items.map((c) => c.sku)).toEqual(["TCL-EMUL"]);
    // The card's price is the matching tin's: 5 L Soft Grey is £31.99 ex VAT.
    expect((await get(`option[Size]=5%20L&option[Colour]=${encodeURIComponent("Soft Grey")}`)).items[0]).toMatchObject({ sku: "TCL-EMUL", price: 38.39, price_varies: false });
  });
});

describe("the basket and checkout", () => {
  it("refuses a product with several variants and none named, merges the same variant, and keeps two variants apart", async () => {
    const { product: p, body } = await inFourLengths(24);
    const [first, second] = body.variants.map((v) => v.sku);
    await as.manager.patch(`/api/admin/variants/${second}`, { stock: 5 });
    const ids = Object.fromEntries((await db().select({ sku: productVariants.sku, id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, p.id))).map((v) => [v.sku, v.id]));
    const buyer = new TestBrowser(shop().app, address());
    await buyer.csrf();
    const none = await buyer.post("/api/basket", { product_id: p.id, quantity: 1 });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.variant_id).toEqual(["Choose the length first."]);
    const foreign = await buyer.post("/api/basket", { product_id: (await product(30)).id, variant_id: ids[first!] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.variant_id).toBeDefined();

    expect((await buyer.post("/api/basket", { product_id: p.id, variant_id: ids[second!], quantity: 2 })).statusCode).toBe(200);
    const again = await buyer.post("/api/basket", { product_id: p.id, variant_id: ids[second!], quantity: 1 });
    expect(again.statusCode).toBe(200);
    const items = again.json().cart.items as { variant_id: number; sku: string; options: Record<string, string>; quantity: number }[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ variant_id: ids[second!], sku: second, options: { Length: "3.0 m" }, quantity: 3 });
    const tooMany = await buyer.post("/api/basket", { product_id: p.id, variant_id: ids[second!], quantity: 3 });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors.quantity).toEqual(["Only 5 left in stock."]);
    const other = await buyer.post("/api/basket", { product_id: p.id, variant_id: ids[first!], quantity: 1 });
    expect(other.json().cart.items).toHaveLength(2);
  });

  it("takes the stock of the variant bought, names it on the order line, and leaves its siblings' stock alone", async () => {
    const { product: p, body } = await inFourLengths(25);
    const [first, second] = body.variants.map((v) => v.sku);
    await as.manager.patch(`/api/admin/variants/${second}`, { stock: 4 });
    const [v] = await db().select().from(productVariants).where(eq(productVariants.sku, second!));
    const before = (await db().select({ sku: productVariants.sku, stock: productVariants.stock }).from(productVariants).where(eq(productVariants.productId, p.id))).filter((x) => x.sku !== second);

    const buyer = new TestBrowser(shop().app, address());
    await buyer.csrf();
    expect((await buyer.post("/api/basket", { product_id: p.id, variant_id: v!.id, quantity: 3 })).statusCode).toBe(200);
    const placed = await buyer.post("/api/checkout", { email: "lengths@example.co.uk", delivery_method: "collect", collector_name: "Test Collector", payment_method: "bank_transfer" });
    expect(placed.statusCode, placed.body).toBe(201);
    const [line] = await db().select().from(orderLines).where(eq(orderLines.orderId, placed.json().order_id));
    expect(line).toMatchObject({ variantId: v!.id, sku: second, name: `${p.name} (3.0 m)`, options: { Length: "3.0 m" }, unit: "each", productId: p.id });
    const [after] = await db().select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, v!.id));
    expect(after!.stock).toBe(1);
    const siblings = (await db().select({ sku: productVariants.sku, stock: productVariants.stock }).from(productVariants).where(eq(productVariants.productId, p.id))).filter((x) => x.sku !== second);
    expect(siblings).toEqual(before);
    const [sold] = await db().select().from(stockMovements).where(eq(stockMovements.orderId, placed.json().order_id));
    expect(sold).toMatchObject({ variantId: v!.id, productId: p.id, change: -3, kind: "sold", stockAfter: 1 });
    expect(first).toBe(p.sku);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});

describe("an order of a product sold by the metre", () => {
  it("names the variant and its unit in the order's lines and in the confirmation email", async () => {
    const [cable] = await db().select().from(productVariants).where(eq(productVariants.sku, "TCL-TE25-WHITE"));
    const buyer = new TestBrowser(shop().app, address());
    await buyer.csrf();
    expect((await buyer.post("/api/basket", { product_id: cable!.productId, variant_id: cable!.id, quantity: 25 })).statusCode).toBe(200);
    const placed = await buyer.post("/api/checkout", { email: "metres@example.co.uk", delivery_method: "collect", collector_name: "Test Collector", payment_method: "bank_transfer" });
    expect(placed.statusCode, placed.body).toBe(201);
    const [line] = await db().select().from(orderLines).where(eq(orderLines.orderId, placed.json().order_id));
    expect(line).toMatchObject({ sku: "TCL-TE25-WHITE", options: { Sheath: "White" }, unit: "m", quantity: 25 });
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.to, "metres@example.co.uk"));
    expect(mail!.text).toContain(`25 m × ${line!.name}: `);
    expect(line!.name).toMatch(/\(White\)$/);
  });
});

describe("the last units of one variant", () => {
  it("are never oversold by concurrent checkouts, and its sibling variants' stock is untouched", async () => {
    const { product: p, body } = await inFourLengths(29);
    const sku = body.variants[1]!.sku;
    await as.manager.patch(`/api/admin/variants/${sku}`, { stock: 3 });
    await as.manager.patch(`/api/admin/variants/${body.variants[2]!.sku}`, { stock: 40 });
    const [v] = await db().select().from(productVariants).where(eq(productVariants.sku, sku));
    const siblings = async () => (await db().select({ sku: productVariants.sku, stock: productVariants.stock }).from(productVariants).where(eq(productVariants.productId, p.id))).filter((x) => x.sku !== sku);
    const before = await siblings();
    const buyers = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const b = new TestBrowser(shop().app, address());
        await b.csrf();
        return b;
      }),
    );
    // Each basket holds one of the three: the basket allows it, checkout decides.
    for (const b of buyers) expect((await b.post("/api/basket", { product_id: p.id, variant_id: v!.id, quantity: 1 })).statusCode).toBe(200);
    const results = await Promise.all(buyers.map((b, i) => b.post("/api/checkout", { email: `race-${i}@example.co.uk`, delivery_method: "collect", collector_name: "Test Collector", payment_method: "bank_transfer" })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    const refused = results.filter((r) => r.statusCode === 422);
    expect(refused).toHaveLength(9);
    expect(refused[0]!.json().errors.items).toEqual([`${p.name} (3.0 m) is out of stock.`]);
    const [after] = await db().select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, v!.id));
    expect(after!.stock).toBe(0);
    expect(await siblings()).toEqual(before);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});

describe("the variant API for an ERP", () => {
  it("adds a variant (a new value joins its option), refusing a taken SKU, a twin and a bad barcode by field", async () => {
    const { product: p, body } = await inFourLengths(26);
    const made = await as.manager.post(`/api/admin/products/${p.sku}/variants`, { sku: `${p.sku}-54M`, options: { length: "5.4 m" }, price_ex_vat: 21, stock: 12, barcode: "4006381333931" });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ sku: `${p.sku}-54M`, options: { Length: "5.4 m" }, stock: 12, price_inc_vat: 25.2 });
    const options = (await as.manager.get(`/api/admin/products/${p.sku}/variants`)).json().options;
    expect(options).toEqual([{ name: "Length", values: ["2.4 m", "3.0 m", "3.6 m", "4.8 m", "5.4 m"] }]);
    const [opening] = await db().select().from(stockMovements).where(eq(stockMovements.variantId, made.json().id));
    expect(opening).toMatchObject({ kind: "opening", change: 12 });

    const refused = await as.manager.post(`/api/admin/products/${p.sku}/variants`, { sku: body.variants[0]!.sku, options: { Length: "6.0 m" }, price_ex_vat: 1, barcode: "4006381333932" });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(["barcode"]);
    const taken = await as.manager.post(`/api/admin/products/${p.sku}/variants`, { sku: body.variants[0]!.sku, options: { Length: "6.0 m" }, price_ex_vat: 1 });
    expect(taken.json().errors.sku[0]).toContain("is already used by");
    const twin = await as.manager.post(`/api/admin/products/${p.sku}/variants`, { sku: "TWIN-1", options: { Length: "3.0 m" }, price_ex_vat: 1 });
    expect(twin.json().errors.options).toEqual([`3.0 m is already a variant: ${body.variants[1]!.sku}.`]);
    const wrong = await as.manager.post(`/api/admin/products/${p.sku}/variants`, { sku: "WRONG-1", options: { Colour: "Red" }, price_ex_vat: 1 });
    expect(wrong.json().errors.options[0]).toContain("no option “Colour”");
    const plain = await product(31);
    const noOptions = await as.manager.post(`/api/admin/products/${plain.sku}/variants`, { sku: "PLAIN-2", options: { Length: "1 m" }, price_ex_vat: 1 });
    expect(noOptions.json().errors.options[0]).toContain("no options yet");
  });

  it("changes a variant's fields, counts its stock into the ledger, and keeps the product's last variant on sale", async () => {
    const { product: p, body } = await inFourLengths(27);
    const sku = body.variants[2]!.sku;
    const counted = await as.warehouse.patch(`/api/admin/variants/${sku}`, { stock: 9, reorder_level: 2 });
    expect(counted.statusCode, counted.body).toBe(200);
    expect(counted.json()).toMatchObject({ stock: 9, reorder_level: 2, low_stock: false });
    expect((await as.warehouse.patch(`/api/admin/variants/${sku}`, { price_ex_vat: 1 })).statusCode).toBe(403);
    const [variant] = await db().select().from(productVariants).where(eq(productVariants.sku, sku));
    const [movement] = await db().select().from(stockMovements).where(eq(stockMovements.variantId, variant!.id));
    expect(movement).toMatchObject({ kind: "counted", change: 9, stockAfter: 9 });

    const bad = await as.manager.patch(`/api/admin/variants/${sku}`, { barcode: "123", price_ex_vat: "12.345", weight_grams: -1 });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["barcode", "price_ex_vat", "weight_grams"]);
    const stocked = await as.manager.patch(`/api/admin/variants/${sku}`, { status: "archived" });
    expect(stocked.json().errors.status).toEqual(["It has 9 in stock: count it to 0 before archiving it."]);
    expect((await as.manager.patch(`/api/admin/variants/${sku}`, { status: "archived", stock: 0 })).statusCode).toBe(200);
    const shown = (await as.guest.get(`/api/products/${p.slug}`)).json().data;
    expect(shown.variants.map((v: { sku: string }) => v.sku)).not.toContain(sku);

    // A product with one variant left keeps it.
    const plain = await product(32);
    const last = await as.manager.patch(`/api/admin/variants/${plain.sku}`, { status: "archived" });
    expect(last.json().errors.status).toEqual(["This is the product's only variant on sale: archive the product instead."]);
    expect((await as.manager.patch("/api/admin/variants/NO-SUCH-SKU", { price_ex_vat: 1 })).statusCode).toBe(404);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("refuses a product-level price or stock for a product with several variants, naming the fields", async () => {
    const { product: p } = await inFourLengths(28);
    const res = await as.manager.patch(`/api/admin/products/${p.sku}`, { price_ex_vat: 10, stock: 3, name: "Still named" });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(["price_ex_vat", "stock"]);
    expect(res.json().errors.stock[0]).toBe("This product has 4 variants: change stock on each variant.");
    const detail = (await as.manager.get(`/api/admin/products/${p.sku}`)).json();
    expect(detail.variants).toHaveLength(4);
    expect(detail.options).toEqual([{ name: "Length", values: ["2.4 m", "3.0 m", "3.6 m", "4.8 m"] }]);
    expect(detail.name).toBe(p.name);
  });
});

