// The products part of the counter (issue 34): a new product made with its
// photos in one go (the new-product form's path: the media pipeline first,
// then the product with them, or nothing), what publishing asks for, the
// rich text the editor sends cleaned by the same sanitiser, and the bin
// location through the admin API and the catalogue CSV.
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../../db/seed/index.ts";
import { testShopForFile } from "../../../test/app.ts";
import { TestBrowser } from "../../../test/browser.ts";
import { staffBrowser } from "../../../test/staff-browsers.ts";
import { auditLog } from "../../audit/schema.ts";
import { localFileStore } from "../../media/store.ts";
import { testJpeg } from "../../media/test-photos.ts";
import { staff } from "../../staff/schema.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { createAdminProductService } from "./admin.ts";
import { createAdminPhotoService } from "../photos/admin-photos.ts";
import { parseProduct, productCreate } from "./product-rules.ts";
import { products } from "../schema.ts";

const shop = testShopForFile();
let manager: TestBrowser;
let warehouse: TestBrowser;
let actor: StaffActor;
const db = () => shop().database.db;

beforeAll(async () => {
  manager = await staffBrowser(shop().app, "198.51.104.1", DEMO_STAFF.find((s) => s.role === "manager")!.email);
  warehouse = await staffBrowser(shop().app, "198.51.104.2", DEMO_STAFF.find((s) => s.role === "warehouse")!.email);
  const [m] = await db().select().from(staff).where(eq(staff.email, DEMO_STAFF.find((s) => s.role === "manager")!.email));
  actor = { staffId: m!.id, name: m!.name, email: m!.email, role: "manager", via: "screen" };
}, 120_000);

describe("a new product with its photos", () => {
  const services = () => {
    const store = localFileStore(path.join(shop().config.dataDir, "media"));
    return { store, photos: createAdminPhotoService(db(), { store }), products: createAdminProductService(db()) };
  };

  it("is created published with its photos and their alt text in one submission, audited with them", async () => {
    const { photos, products: service, store } = services();
    const jpeg = await testJpeg(1200, 900);
    const fields = parseProduct(productCreate, { sku: "CTR-PHOTO-1", name: "Counter Photo Drill", price_ex_vat: "89.00", status: "published" });
    const made = await photos.forNewProduct(actor, [{ filename: "drill.jpg", bytes: jpeg, alt: "The drill from the left" }], (images) => service.create(actor, fields, { images }));
    expect(made.status).toBe("published");
    expect(made.images).toHaveLength(1);
    expect(made.images[0]).toMatchObject({ alt: "The drill from the left" });
    expect(made.images[0]!.src).toMatch(/^\/media\/.+\.webp$/);
    expect(await store.get(made.images[0]!.src.slice("/media/".length))).not.toBeNull();
    const front = (await new TestBrowser(shop().app, "198.51.104.9").get(`/api/products/${made.slug}`)).json().data;
    expect(front.images[0].alt).toBe("The drill from the left");
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.entityId, "CTR-PHOTO-1"));
    expect(audit!.after).toMatchObject({ photos: [made.images[0]!.id] });
  });

  it("refuses to publish with a photo left undescribed, and stores no file and no product", async () => {
    const { photos, products: service, store } = services();
    const jpeg = await testJpeg(800, 600);
    const fields = parseProduct(productCreate, { sku: "CTR-PHOTO-2", name: "Counter Photo Saw", price_ex_vat: "20", status: "published" });
    let ids: string[] = [];
    await expect(
      photos.forNewProduct(actor, [{ filename: "saw.jpg", bytes: jpeg, alt: "  " }], (images) => {
        ids = images.map((i) => i.src.slice("/media/".length));
        return service.create(actor, fields, { images });
      }),
    ).rejects.toMatchObject({ statusCode: 422, errors: { published: [expect.stringMatching(/alt text/)] } });
    expect(ids).toHaveLength(1);
    expect(await store.get(ids[0]!)).toBeNull();
    expect(await db().select().from(products).where(eq(products.sku, "CTR-PHOTO-2"))).toEqual([]);
    // As a draft it needs no alt text yet: publishing later asks for it.
    const draft = await photos.forNewProduct(actor, [{ filename: "saw.jpg", bytes: jpeg, alt: "" }], (images) => service.create(actor, { ...fields, status: "draft" }, { images }));
    expect(draft).toMatchObject({ status: "draft" });
    expect(draft.images).toHaveLength(1);
  });

  it("refuses a file that is not a photo by its name, before any product is made", async () => {
    const { photos, products: service } = services();
    const fields = parseProduct(productCreate, { sku: "CTR-PHOTO-3", name: "Counter Photo Bin", price_ex_vat: "5" });
    await expect(photos.forNewProduct(actor, [{ filename: "notes.txt", bytes: Buffer.from("not a photo"), alt: "x" }], (images) => service.create(actor, fields, { images }))).rejects.toMatchObject({
      statusCode: 422,
      message: expect.stringContaining("notes.txt"),
    });
    expect(await db().select().from(products).where(eq(products.sku, "CTR-PHOTO-3"))).toEqual([]);
  });

  it("publishes a product created without photos: the only check is alt text on photos it has", async () => {
    const res = await manager.post("/api/admin/products", { sku: "CTR-NOPHOTO", name: "Counter Plain Tape", price_ex_vat: 3, status: "published" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: "published", published: true });
  });
});

describe("the description from the rich-text editor", () => {
  it("keeps the editor's formatting and drops what the sanitiser refuses", async () => {
    const html =
      '<h2>Features</h2><p>Bright <strong>green</strong> and <em>level</em>.</p><ul><li><p>One</p></li></ul><ol><li><p>Two</p></li></ol><blockquote><p>Quote</p></blockquote>' +
      '<p><a href="https://example.com/manual" target="_blank">Manual</a> <a href="javascript:alert(1)">bad</a></p><p style="color:red" onclick="x()">Styled</p><script>alert(1)</script><img src=x onerror=alert(2)>';
    const res = await manager.post("/api/admin/products", { sku: "CTR-RICH", name: "Counter Rich Level", price_ex_vat: 10, description_html: html });
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json().description_html as string;
    expect(saved).toContain("<h2>Features</h2>");
    expect(saved).toContain("<strong>green</strong>");
    expect(saved).toContain("<em>level</em>");
    expect(saved).toContain("<blockquote><p>Quote</p></blockquote>");
    expect(saved).toContain('<a href="https://example.com/manual">Manual</a>');
    expect(saved).not.toMatch(/script|onerror|onclick|style=|javascript:|target=|<img/);
    const patched = await manager.patch("/api/admin/products/CTR-RICH", { description_html: "<p>New <u>text</u></p><iframe src=x></iframe>" });
    expect(patched.json().description_html).toBe("<p>New <u>text</u></p>");
  });
});

describe("the bin location", () => {
  it("round-trips through the admin API, the warehouse may set it, and it is checked", async () => {
    const made = await manager.post("/api/admin/products", { sku: "CTR-BIN", name: "Counter Bin Screws", price_ex_vat: 4, bin_location: " A3-B2-S1 " });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().bin_location).toBe("A3-B2-S1");
    expect((await manager.get("/api/admin/products/CTR-BIN")).json().bin_location).toBe("A3-B2-S1");
    // Where it sits is the warehouse's to say, like its stock.
    const moved = await warehouse.patch("/api/admin/products/CTR-BIN", { bin_location: "C1-04" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().bin_location).toBe("C1-04");
    const long = await manager.patch("/api/admin/products/CTR-BIN", { bin_location: "X".repeat(31) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.bin_location[0]).toMatch(/at most 30/);
    const [row] = await db().select({ bin: products.binLocation }).from(products).where(eq(products.sku, "CTR-BIN"));
    expect(row!.bin).toBe("C1-04");
    const audits = await db().select().from(auditLog).where(eq(auditLog.entityId, "CTR-BIN"));
    expect(audits.some((a) => (a.after as { bin_location?: string }).bin_location === "C1-04")).toBe(true);
  });

  it("is a column of the catalogue CSV: exported, imported, and an old file without it keeps it", async () => {
    const exported = (await manager.get("/api/admin/products/export.csv?q=CTR-BIN")).body;
    const header = exported.split(/\r?\n/)[0]!.split(",");
    expect(header).toContain("bin_location");
    const line = exported.split(/\r?\n/).find((l) => l.startsWith("CTR-BIN,"))!;
    expect(line.split(",")[header.indexOf("bin_location")]).toBe("C1-04");

    const upload = async (body: string) => {
      const boundary = "----ctrbin";
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bins.csv"\r\nContent-Type: text/csv\r\n\r\n${body}\r\n--${boundary}--\r\n`;
      return manager.request("POST", "/api/admin/products/import", Buffer.from(payload), { headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
    };
    const withBin = await upload("sku,bin_location\nCTR-BIN,D2-01\n");
    expect(withBin.statusCode, withBin.body).toBe(200);
    expect(withBin.json()).toMatchObject({ updated: 1, refused: [] });
    const bin = async () => (await db().select({ bin: products.binLocation }).from(products).where(eq(products.sku, "CTR-BIN")))[0]!.bin;
    expect(await bin()).toBe("D2-01");
    // A file from before the column: the bin location stays as it was.
    const old = await upload("sku,summary\nCTR-BIN,Zinc screws\n");
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json()).toMatchObject({ updated: 1, refused: [] });
    expect((await db().select({ summary: products.summary }).from(products).where(eq(products.sku, "CTR-BIN")))[0]!.summary).toBe("Zinc screws");
    expect(await bin()).toBe("D2-01");
  });
});
