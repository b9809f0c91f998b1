import { describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";

const shop = testShopForFile();

interface Card {
  id: number;
  sku: string;
  slug: string;
  name: string;
  price: number;
  price_ex_vat: number;
  vat_rate: number;
  stock: number;
  in_stock: boolean;
  manufacturer: { id: number; name: string } | null;
}

async function get(url: string) {
  const res = await shop().app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.json() };
}

describe("the demo catalogue", () => {
  it("has at least 300 products, 25 categories three levels deep and 20 brands", async () => {
    const all = await get("/api/products?per_page=1");
    expect(all.body.total).toBeGreaterThanOrEqual(300);
    const brands = await get("/api/manufacturers");
    expect(brands.body.data.length).toBeGreaterThanOrEqual(20);
    const deep = await get("/api/categories/power-tools/cordless-drills/combi-drills");
    expect(deep.status).toBe(200);
    expect(deep.body.data.ancestors).toHaveLength(2);
  });
});

describe("GET /api/products", () => {
  it("lists a category with its descendants, with facets for what remains", async () => {
    const res = await get("/api/products?category=power-tools/cordless-drills&per_page=96");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(18);
    expect(res.body.items).toHaveLength(18);
    expect(res.body.facets.manufacturers.map((m: { name: string }) => m.name)).toContain("Makita");
    const voltage = res.body.facets.attributes.find((a: { name: string }) => a.name === "Voltage");
    expect(voltage.values.reduce((n: number, v: { count: number }) => n + v.count, 0)).toBe(18);
  });

  it("keeps the alternatives of a chosen attribute value in its facet", async () => {
    const base = await get("/api/products?category=power-tools/cordless-drills&per_page=96");
    const chosen = await get(`/api/products?category=power-tools/cordless-drills&attr=${encodeURIComponent("Voltage:18V")}&per_page=96`);
    const all18 = (base.body.items as Card[]).length;
    expect(chosen.body.total).toBeLessThan(all18);
    expect(chosen.body.total).toBeGreaterThan(0);
    const voltage = chosen.body.facets.attributes.find((a: { name: string }) => a.name === "Voltage");
    expect(voltage.values.length).toBeGreaterThan(1);
    // Another attribute's facet counts only the 18V products.
    const chuck = chosen.body.facets.attributes.find((a: { name: string }) => a.name === "Chuck size");
    expect(chuck.values.reduce((n: number, v: { count: number }) => n + v.count, 0)).toBe(chosen.body.total);
  });

  it("counts each brand's own products", async () => {
    const brands = (await get("/api/manufacturers")).body.data as { id: number; product_count: number }[];
    const all = await get("/api/products?per_page=1");
    expect(brands.reduce((n, b) => n + b.product_count, 0)).toBe(all.body.total);
    for (const brand of brands.slice(0, 5)) {
      const listed = await get(`/api/products?manufacturer=${brand.id}&per_page=1`);
      expect(brand.product_count).toBe(listed.body.total);
    }
  });

  it("filters by brand, price (inc VAT), stock and combines them", async () => {
    const brands = (await get("/api/manufacturers")).body.data as { id: number; name: string }[];
    const makita = brands.find((b) => b.name === "Makita")!;
    const res = await get(`/api/products?manufacturer=${makita.id}&price_min=50&price_max=200&in_stock=true&per_page=96`);
    expect(res.status).toBe(200);
    for (const item of res.body.items as Card[]) {
      expect(item.manufacturer?.name).toBe("Makita");
      expect(item.price).toBeGreaterThanOrEqual(50);
      expect(item.price).toBeLessThanOrEqual(200);
      expect(item.in_stock).toBe(true);
    }
    expect(res.body.total).toBeGreaterThan(0);
  });

  it("shows prices inc VAT with the ex-VAT price beside them, in pounds with at most 2 decimals", async () => {
    const res = await get("/api/products?per_page=96");
    for (const item of res.body.items as Card[]) {
      expect(item.price).toBeCloseTo(Math.floor((Math.round(item.price_ex_vat * 100) * (100 + item.vat_rate) + 50) / 100) / 100, 2);
      expect(Number.isInteger(Math.round(item.price * 100))).toBe(true);
    }
  });

  it.each([
    ["price_asc", (a: Card, b: Card) => a.price <= b.price],
    ["price_desc", (a: Card, b: Card) => a.price >= b.price],
    ["name", (a: Card, b: Card) => a.name <= b.name || a.name.localeCompare(b.name) <= 0],
  ] as const)("sorts by %s", async (sort, inOrder) => {
    const res = await get(`/api/products?sort=${sort}&per_page=48`);
    const items = res.body.items as Card[];
    for (let i = 1; i < items.length; i++) expect(inOrder(items[i - 1]!, items[i]!)).toBe(true);
  });

  it("pages without overlap", async () => {
    const one = (await get("/api/products?sort=price_asc&per_page=10&page=1")).body;
    const two = (await get("/api/products?sort=price_asc&per_page=10&page=2")).body;
    const ids = new Set((one.items as Card[]).map((i) => i.id));
    expect((two.items as Card[]).some((i) => ids.has(i.id))).toBe(false);
    expect(one.last_page).toBe(Math.ceil(one.total / 10));
  });

  it.each(["per_page=97", "per_page=0", "page=0", "page=501", "page=1.5", "sort=random", "price_min=-1", "manufacturer=abc", "category=../etc"])(
    "refuses %s with 422",
    async (qs) => {
      const res = await get(`/api/products?${qs}`);
      expect(res.status).toBe(422);
    },
  );

  it("answers 404 for an unknown category", async () => {
    expect((await get("/api/products?category=no-such-thing")).status).toBe(404);
  });

  // Found by the hostile-input tests (issue 9), each of which answered 500.
  it("refuses a brand id too long for the id column with 422", async () => {
    expect((await get("/api/products?manufacturer=1,543522965985")).status).toBe(422);
  });

  it.each(["__proto__:x", "constructor:x", "hasOwnProperty:x"])("takes the attribute filter %s as a name like any other", async (attr) => {
    const res = await get(`/api/products?attr=${encodeURIComponent(attr)}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
  });
});

describe("GET /api/products/{slug}", () => {
  it("answers the product with attributes, categories, related products and sanitised description", async () => {
    const first = ((await get("/api/products?category=power-tools/sds-drills&per_page=1")).body.items as Card[])[0]!;
    const res = await get(`/api/products/${first.slug}`);
    expect(res.status).toBe(200);
    const p = res.body.data;
    expect(p.attributes.map((a: { name: string }) => a.name)).toContain("Voltage");
    expect(p.categories[0].path).toBe("power-tools/sds-drills");
    expect(p.related.length).toBeGreaterThan(0);
    expect(p.description_html).toContain("<ul>");
    expect(p.images[0].src).toMatch(/^\/images\/products\/.+\/1\.svg$/);
    expect((await get("/api/products/no-such-product")).status).toBe(404);
  });

  it("serves the generated product image as cacheable SVG", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/images/products/some-drill/1.svg" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/image\/svg\+xml/);
    expect(res.headers["cache-control"]).toContain("immutable");
    expect(res.body).toContain("<svg");
    expect((await shop().app.inject({ method: "GET", url: "/images/products/..%2Fetc/1.svg" })).statusCode).toBe(422);
  });
});

describe("search", () => {
  it("ranks an exact SKU first", async () => {
    const some = ((await get("/api/products?category=plumbing/radiators&per_page=1")).body.items as Card[])[0]!;
    const res = await get(`/api/search?q=${encodeURIComponent(some.sku.toLowerCase())}`);
    expect(res.body.items[0].sku).toBe(some.sku);
  });

  it("tolerates typos: 'makta dril' finds Makita drills", async () => {
    const res = await get("/api/search?q=makta%20dril");
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThan(0);
    const top = (res.body.items as Card[]).slice(0, 5);
    for (const item of top) {
      expect(item.manufacturer?.name).toBe("Makita");
      expect(item.name).toMatch(/Drill/);
    }
  });

  it("offers a did-you-mean when nothing matches", async () => {
    const res = await get("/api/search?q=stelrd%20xqzv");
    expect(res.body.total).toBe(0);
    expect(res.body.did_you_mean).toBeTruthy();
  });

  it("suggests up to 8 products, categories and brands", async () => {
    const res = await get("/api/search/suggest?q=drill");
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.length).toBeLessThanOrEqual(8);
    expect(res.body.data.some((s: { type: string }) => s.type === "category")).toBe(true);
    expect((await get("/api/search/suggest?q=d")).body.data).toEqual([]);
    expect((await get("/api/search?q=")).status).toBe(422);
  });
});

describe("GET /api/compare", () => {
  it("answers the products and the sorted union of their attribute names; unknown ids are left out", async () => {
    const items = (await get("/api/products?category=power-tools/grinders&per_page=3")).body.items as Card[];
    const ids = items.map((i) => i.id);
    const res = await get(`/api/compare?product_ids=${ids.join(",")},999999`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.map((p: { id: number }) => p.id)).toEqual(ids);
    const names = res.body.unique_attribute_names as string[];
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en-GB")));
    expect(names).toContain("Disc size");
  });

  it("refuses non-numeric ids and more than 4 with 422", async () => {
    expect((await get("/api/compare?product_ids=1,abc")).status).toBe(422);
    const five = await get("/api/compare?product_ids=1,2,3,4,5");
    expect(five.status).toBe(422);
    expect(five.body.message).toBe("You can only compare up to 4 products.");
  });
});

describe("wishlist", () => {
  it("needs sign-in", async () => {
    expect((await get("/api/account/wishlist")).status).toBe(401);
  });

  it("adds once, lists with the product, removes; validates the id", async () => {
    const browser = new TestBrowser(shop().app);
    await browser.csrf();
    const reg = await browser.register("Wish", "List", `wish.${Date.now()}@example.co.uk`);
    expect(reg.statusCode).toBe(201);
    const product = ((await get("/api/products?per_page=1")).body.items as Card[])[0]!;
    expect((await browser.post("/api/account/wishlist", { product_id: product.id })).statusCode).toBe(201);
    expect((await browser.post("/api/account/wishlist", { product_id: product.id })).statusCode).toBe(201);
    const list = (await browser.get("/api/account/wishlist")).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ product_id: product.id, product: { slug: product.slug } });

    const bad = await browser.post("/api/account/wishlist", { product_id: "abc" });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.product_id).toEqual(["Invalid product ID."]);
    expect((await browser.post("/api/account/wishlist", { product_id: 999999 })).statusCode).toBe(404);

    expect((await browser.delete(`/api/account/wishlist/${product.id}`)).statusCode).toBe(200);
    expect((await browser.get("/api/account/wishlist")).json().data).toEqual([]);
    expect((await browser.delete("/api/account/wishlist/abc")).statusCode).toBe(422);
  });
});

describe("enquiries, sitemap and robots", () => {
  it("stores an enquiry and emails it to the shop", async () => {
    const browser = new TestBrowser(shop().app, "203.0.113.200");
    await browser.csrf();
    const res = await browser.post("/api/enquiries", {
      type: "design-consultation",
      name: "Pat <b>Kitchen</b>",
      email: "pat@example.co.uk",
      postcode: "ls1 4ap",
      message: "We would like a new kitchen designed for a small terrace.",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().success).toBe(true);
    const { mailOutbox } = await import("../mail/schema.ts");
    const { enquiries } = await import("../content/schema.ts");
    const { eq } = await import("drizzle-orm");
    const [stored] = await shop().database.db.select().from(enquiries).where(eq(enquiries.id, res.json().id));
    expect(stored).toMatchObject({ type: "design-consultation", postcode: "LS1 4AP" });
    const mails = await shop().database.db.select().from(mailOutbox).where(eq(mailOutbox.to, shop().config.shopEmail));
    const mail = mails.find((m) => m.subject.includes(`#${res.json().id}`));
    expect(mail?.html).toContain("Pat &lt;b&gt;Kitchen&lt;/b&gt;");
    expect(mail?.html).not.toContain("<b>Kitchen</b>");
  });

  it("takes 5 enquiries per client in 10 minutes, then asks it to wait", async () => {
    const browser = new TestBrowser(shop().app, "203.0.113.202");
    await browser.csrf();
    const enquiry = { type: "contact", name: "Sam Busy", email: "sam@example.co.uk", message: "A question about delivery to a building site." };
    for (let i = 0; i < 5; i++) expect((await browser.post("/api/enquiries", enquiry)).statusCode).toBe(201);
    const refused = await browser.post("/api/enquiries", enquiry);
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers["retry-after"]);
    expect(wait).toBeGreaterThan(590);
    expect(wait).toBeLessThanOrEqual(600);
    expect(refused.json()).toEqual({ message: `Too many messages. Please try again in ${wait} seconds.` });
    // Another client is not affected.
    const other = new TestBrowser(shop().app, "203.0.113.203");
    await other.csrf();
    expect((await other.post("/api/enquiries", enquiry)).statusCode).toBe(201);
  });

  it("validates an enquiry field by field", async () => {
    const browser = new TestBrowser(shop().app, "203.0.113.201");
    await browser.csrf();
    const res = await browser.post("/api/enquiries", { type: "spam", name: "", email: "x", postcode: "nope", message: "short" });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(["email", "message", "name", "postcode", "type"]);
  });

  it("publishes a sitemap of content, categories, brands and products, and robots.txt", async () => {
    const sitemap = await shop().app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers["content-type"]).toMatch(/xml/);
    expect(sitemap.body).toContain("/category/power-tools/cordless-drills</loc>");
    expect(sitemap.body).toMatch(/\/product\/[a-z0-9-]+<\/loc>/);
    expect(sitemap.body).toMatch(/\/manufacturer\/\d+<\/loc>/);
    expect(sitemap.body).toContain("/hire/heavy-duty-breaker-110v</loc>");
    const robots = await shop().app.inject({ method: "GET", url: "/robots.txt" });
    expect(robots.body).toContain("Sitemap: ");
    expect(robots.body).toContain("Disallow: /account");
    expect(robots.body).toContain("Disallow: /checkout");
    // The baskets are the same page for everyone, so they stay crawlable.
    expect(robots.body).not.toContain("Disallow: /basket");
  });
});
