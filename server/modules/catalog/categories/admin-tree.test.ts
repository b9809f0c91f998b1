// The category tree and brands in the back office, over HTTP: adding, renaming
// and moving categories with their paths, subcategories, listings and old
// addresses following; reordering; brands renamed and found by the new name.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { categories, manufacturers, productCategories, products } from "../schema.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";

const { as, shop } = staffTestShop("198.51.104");
const db = () => shop().database.db;
type Row = { id: number; parent_id: number | null; name: string; path: string; position: number; depth: number; products: number };
const tree = async () => (await as.manager.get("/api/admin/categories")).json().data as Row[];

describe("the category tree", () => {
  it("lists every category depth first with its path and product count, to catalogue.view only", async () => {
    const rows = (await as.sales.get("/api/admin/categories")).json().data as Row[];
    expect(rows.length).toBe((await db().select().from(categories)).length);
    for (const [i, row] of rows.entries()) {
      if (row.parent_id !== null) expect(rows.slice(0, i).some((r) => r.id === row.parent_id)).toBe(true);
    }
    expect((await as.hire.get("/api/admin/categories")).statusCode).toBe(403);
    expect((await as.sales.post("/api/admin/categories", { name: "Sales made" })).statusCode).toBe(403);
  });

  it("adds a subcategory last among its siblings, and refuses a web address a sibling has", async () => {
    const [parent] = (await tree()).filter((r) => r.depth === 0);
    const made = await as.manager.post("/api/admin/categories", { name: "Site Radios", parent_id: parent!.id });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ path: `${parent!.path}/site-radios`, depth: 1, products: 0 });
    const siblings = (await tree()).filter((r) => r.parent_id === parent!.id);
    expect(siblings[siblings.length - 1]!.name).toBe("Site Radios");
    const twice = await as.manager.post("/api/admin/categories", { name: "Site radios", parent_id: parent!.id });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.slug[0]).toMatch(/same parent/);
    expect((await as.guest.get(`/api/categories/${parent!.path}/site-radios`)).statusCode).toBe(200);
  });

  it("renames a category's web address: its subcategories' paths follow and every old path redirects", async () => {
    const rows = await tree();
    const parent = rows.find((r) => r.depth === 0 && rows.some((c) => c.parent_id === r.id))!;
    const child = rows.find((r) => r.parent_id === parent.id)!;
    const res = await as.manager.patch(`/api/admin/categories/${parent.id}`, { name: `${parent.name} & More`, slug: `${parent.path}-and-more` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().path).toBe(`${parent.path}-and-more`);
    const after = await tree();
    expect(after.find((r) => r.id === child.id)!.path).toBe(child.path.replace(parent.path, `${parent.path}-and-more`));

    const old = await as.guest.get(`/api/categories/${child.path}`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/api/categories/${child.path.replace(parent.path, `${parent.path}-and-more`)}`);
    // The listing under the new path holds the same products.
    const listed = (await as.guest.get(`/api/products?category=${parent.path}-and-more&per_page=1`)).json();
    expect(listed.total).toBeGreaterThan(0);
  });

  it("moves a category under another parent: its products are listed under the new one and no longer the old", async () => {
    const rows = await tree();
    const withProducts = rows.find((r) => r.depth === 1 && r.products > 0)!;
    const oldParent = rows.find((r) => r.id === withProducts.parent_id)!;
    const newParent = rows.find((r) => r.depth === 0 && r.id !== oldParent.id)!;
    const [sample] = await db()
      .select({ sku: products.sku })
      .from(productCategories)
      .innerJoin(products, eq(products.id, productCategories.productId))
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .where(sql`${categories.path} = ${withProducts.path} or ${categories.path} like ${`${withProducts.path}/%`}`)
      .limit(1);
    const skusUnder = async (path: string) => {
      const found = (await as.guest.get(`/api/products?category=${path}&q=${encodeURIComponent(sample!.sku)}`)).json();
      return found.items.map((p: { sku: string }) => p.sku);
    };
    expect(await skusUnder(oldParent.path)).toContain(sample!.sku);

    const res = await as.manager.patch(`/api/admin/categories/${withProducts.id}`, { parent_id: newParent.id });
    expect(res.statusCode, res.body).toBe(200);
    const newPath = `${newParent.path}/${withProducts.path.split("/").pop()}`;
    expect(res.json()).toMatchObject({ parent_id: newParent.id, path: newPath });
    expect(await skusUnder(newParent.path)).toContain(sample!.sku);
    expect(await skusUnder(oldParent.path)).not.toContain(sample!.sku);
    expect((await as.guest.get(`/api/categories/${withProducts.path}`)).headers.location).toBe(`/api/categories/${newPath}`);

    // Never under itself or its own subcategory.
    const own = await as.manager.patch(`/api/admin/categories/${newParent.id}`, { parent_id: withProducts.id });
    expect(own.statusCode).toBe(422);
    expect(own.json().errors.parent_id[0]).toMatch(/itself or one of its own/);
  });

  it("reorders siblings one place at a time", async () => {
    const tops = (await tree()).filter((r) => r.depth === 0);
    const second = tops[1]!;
    expect((await as.manager.post(`/api/admin/categories/${second.id}/move`, { direction: "up" })).json()).toEqual({ moved: true });
    const after = (await tree()).filter((r) => r.depth === 0);
    expect(after[0]!.id).toBe(second.id);
    expect(after[1]!.id).toBe(tops[0]!.id);
    expect((await as.manager.post(`/api/admin/categories/${second.id}/move`, { direction: "up" })).json()).toEqual({ moved: false });
    const storefront = (await as.guest.get("/api/categories")).json().data as { id: number }[];
    expect(storefront[0]!.id).toBe(second.id);
  });
});

describe("brands", () => {
  it("adds a brand and renames one, whose products are then found by the new name", async () => {
    const made = await as.manager.post("/api/admin/brands", { name: "Quillon Tools" });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ slug: "quillon-tools" });
    expect((await as.manager.post("/api/admin/brands", { name: "Quillon tools" })).statusCode).toBe(422);

    const [brand] = await db().select().from(manufacturers).where(eq(manufacturers.slug, "bosch"));
    const res = await as.manager.patch(`/api/admin/brands/${brand!.id}`, { name: "Boschmann" });
    expect(res.statusCode, res.body).toBe(200);
    const found = (await as.guest.get("/api/products?q=boschmann")).json();
    expect(found.total).toBeGreaterThan(0);
    expect((await as.sales.patch(`/api/admin/brands/${brand!.id}`, { name: "Nope" })).statusCode).toBe(403);
  });
});

describe("attribute sets", () => {
  it("are read off the demo catalogue: each category holding products gets theirs, a number with its unit where every value is one", async () => {
    const rows = (await tree()) as (Row & { attributes: { kind: string; unit: string }[] })[];
    const withNumber = rows.find((r) => r.attributes.some((a) => a.kind === "number" && a.unit !== ""));
    expect(withNumber, "a category with a numeric attribute").toBeDefined();
    expect(rows.filter((r) => r.depth === 0).every((r) => r.attributes.length === 0)).toBe(true);
  });

  it("type a product's attributes: a number written with its unit, yes/no as Yes or No, nonsense refused by name; subcategories inherit", async () => {
    const rows = await tree();
    const top = rows.find((r) => r.depth === 0 && rows.some((c) => c.parent_id === r.id))!;
    const sub = rows.find((r) => r.parent_id === top.id)!;
    const set = await as.manager.put(`/api/admin/categories/${top.id}/attributes`, {
      attributes: [
        { name: "Blade length", kind: "number", unit: "mm" },
        { name: "Cordless", kind: "yes_no" },
        { name: "Finish", kind: "text" },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().attributes).toEqual([
      { name: "Blade length", kind: "number", unit: "mm" },
      { name: "Cordless", kind: "yes_no", unit: "" },
      { name: "Finish", kind: "text", unit: "" },
    ]);
    expect((await as.manager.put(`/api/admin/categories/${top.id}/attributes`, { attributes: [{ name: "A", kind: "colour" }] })).statusCode).toBe(422);
    expect((await as.sales.put(`/api/admin/categories/${top.id}/attributes`, { attributes: [] })).statusCode).toBe(403);

    const made = await as.manager.post("/api/admin/products", {
      sku: "ATTR-1",
      name: "Attribute Test Saw",
      price_ex_vat: 10,
      category_ids: [sub.id],
      attributes: [
        { name: "blade length", value: "1,200 mm" },
        { name: "Cordless", value: "y" },
        { name: "Colour", value: "Teal" },
      ],
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().attributes).toEqual([
      { name: "Blade length", value: "1200mm" },
      { name: "Cordless", value: "Yes" },
      { name: "Colour", value: "Teal" },
    ]);
    // The subcategory's own set first, then what it inherits from the top.
    const names = made.json().attribute_set.map((a: { name: string }) => a.name) as string[];
    expect(names.slice(-3)).toEqual(["Blade length", "Cordless", "Finish"]);

    const bad = await as.manager.patch("/api/admin/products/ATTR-1", { attributes: [{ name: "Blade length", value: "long" }, { name: "Cordless", value: "maybe" }] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.attributes).toEqual(["Blade length: give a number (in mm).", "Cordless: answer Yes or No."]);
  });
});
