// Photos of products and hire items through the back office's API, signed in
// as the demo staff: uploads with real and hostile files, the renditions
// served from /media, order, alt text, delete, the audit log, who may, and two
// uploads at once (on PostgreSQL with TEST_DATABASE_URL, where it proves the lock).
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestBrowser } from "../../../test/browser.ts";
import { apiOperations } from "../../../test/openapi.ts";
import { auditLog } from "../../audit/schema.ts";
import { hireItems } from "../../hire/schema.ts";
import { localFileStore } from "../../media/store.ts";
import { multipart, testJpeg } from "../../media/test-photos.ts";
import { productVariants, products } from "../schema.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";

const { as, shop } = staffTestShop("198.51.102");
let jpeg: Buffer;

const upload = (b: TestBrowser, url: string, files: Parameters<typeof multipart>[0]) => {
  const { body, headers } = multipart(files);
  return b.request("POST", url, body, { headers });
};

/** A published product of the demo shop, by its position. */
async function aProduct(offset: number) {
  const rows = await shop().database.db.select({ sku: products.sku, slug: products.slug, images: products.images }).from(products).where(eq(products.status, "published")).orderBy(products.id).limit(1).offset(offset);
  return rows[0]!;
}

beforeAll(async () => {
  jpeg = await testJpeg(2000, 1500);
}, 120_000);

describe("a product's photos through the API", () => {
  it("uploads two photos, answers the whole list, serves the renditions for a year, and the storefront shows them next", async () => {
    const p = await aProduct(3);
    expect(p.images[0]!.src).toMatch(/\.svg$/);
    // The storefront's JSON, kept by the visitor cache until something it shows changes.
    expect((await as.guest.get(`/api/products/${p.slug}`)).json().data.images[0].src).toMatch(/\.svg$/);

    const res = await upload(as.manager, `/api/admin/products/${p.sku}/images`, [
      { filename: "front.jpg", bytes: jpeg },
      { filename: "side.png", bytes: await testJpeg(640, 480), type: "image/png" },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const { images } = res.json();
    expect(images).toHaveLength(2);
    expect(images[0]).toMatchObject({ id: expect.stringMatching(/^[a-z0-9]{12}$/), alt: "", width: 1600, height: 1200, src: expect.stringMatching(/^\/media\/photos\/.+\/960w-[0-9a-f]{16}\.webp$/) });
    expect(images[0].sources.map((s: { type: string }) => s.type)).toEqual(["image/avif", "image/webp"]);
    expect(images[0].sources[0].srcset).toMatch(/^\/media\/photos\/\S+\/320w-\S+\.avif 320w, \S+ 640w, \S+ 960w, \S+ 1600w$/);
    expect(images[1]).toMatchObject({ width: 640, height: 480 });
    // The drawn pictures gave way to the photos.
    const [row] = await shop().database.db.select({ images: products.images }).from(products).where(eq(products.sku, p.sku));
    expect(row!.images.map((i) => i.id)).toEqual(images.map((i: { id: string }) => i.id));

    const avif = await as.guest.get(images[0].sources[0].srcset.split(" ")[0]);
    expect(avif.statusCode).toBe(200);
    expect(avif.headers["content-type"]).toBe("image/avif");
    expect(avif.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(avif.headers["x-content-type-options"]).toBe("nosniff");
    expect(avif.rawPayload.subarray(4, 12).toString("latin1")).toBe("ftypavif");
    expect((await as.guest.get(images[0].src)).headers["content-type"]).toBe("image/webp");

    const product = (await as.guest.get(`/api/products/${p.slug}`)).json().data;
    expect(product.images[0]).toMatchObject({ id: images[0].id, src: images[0].src, sources: images[0].sources, width: 1600, height: 1200 });
    // Never the original's key: it is kept, not shown.
    expect(JSON.stringify(product.images)).not.toContain("originals/");
    const listing = (await as.guest.get(`/api/products?q=${encodeURIComponent(p.sku)}`)).json();
    expect(listing.items.find((i: { sku: string }) => i.sku === p.sku)?.image).toMatchObject({ src: images[0].src, sources: images[0].sources });

    const audit = await shop().database.db.select().from(auditLog).where(and(eq(auditLog.entity, "product"), eq(auditLog.entityId, p.sku), eq(auditLog.action, "product.photos_added")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ staffName: expect.stringContaining("manager@staff.example.com"), via: "api", after: { photos: images.map((i: { id: string }) => i.id) } });
  });

  it("refuses hostile files by name with 422, and stores nothing", async () => {
    const p = await aProduct(4);
    const url = `/api/admin/products/${p.sku}/images`;
    const html = Buffer.from("<!doctype html><script>alert(document.cookie)</script>");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const cases: [Parameters<typeof multipart>[0], RegExp][] = [
      [[{ filename: "photo.jpg", bytes: html }], /^"photo\.jpg" is not a photo\. Upload a JPEG, PNG, WebP, AVIF or HEIC photo\.$/],
      [[{ filename: "logo.svg", bytes: svg, type: "image/svg+xml" }], /^"logo\.svg" is not a photo/],
      // One good file and one bad: the upload is refused whole.
      [[{ filename: "good.jpg", bytes: jpeg }, { filename: "../../etc/evil.jpg", bytes: html }], /^"evil\.jpg" is not a photo/],
      [[{ filename: "huge.jpg", bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(21 * 1024 * 1024)]) }], /^"huge\.jpg" is over 20 MB; a photo may be at most 20 MB\.$/],
      [[{ filename: "notes.txt", bytes: jpeg, field: "other" }], /^Choose a photo to upload\.$/],
    ];
    for (const [files, message] of cases) {
      const res = await upload(as.owner, url, files);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(message);
    }
    const notMultipart = await as.owner.post(url, { file: "x" });
    expect(notMultipart.statusCode).toBe(422);
    expect(notMultipart.json().message).toMatch(/multipart\/form-data/);
    const [row] = await shop().database.db.select({ images: products.images }).from(products).where(eq(products.sku, p.sku));
    expect(row!.images).toEqual(p.images);
  });

  it("reorders, describes and deletes photos; the last one gone brings back the drawn picture", async () => {
    const p = await aProduct(5);
    const base = `/api/admin/products/${p.sku}/images`;
    const added = (await upload(as.owner, base, [{ filename: "a.jpg", bytes: jpeg }, { filename: "b.jpg", bytes: await testJpeg(900, 900) }])).json().images as { id: string; src: string; sources: { srcset: string }[] }[];
    const [a, b] = added.map((i) => i.id) as [string, string];

    const reordered = await as.owner.put(`${base}/order`, { ids: [b, a] });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(reordered.json().images.map((i: { id: string }) => i.id)).toEqual([b, a]);
    expect((await as.owner.put(`${base}/order`, { ids: [b] })).statusCode).toBe(422);
    expect((await as.owner.put(`${base}/order`, { ids: [b, b] })).statusCode).toBe(422);

    const described = await as.owner.patch(`${base}/${a}`, { alt: "  Drill from the side, battery fitted " });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json().images[1]).toMatchObject({ id: a, alt: "Drill from the side, battery fitted" });
    expect((await as.owner.patch(`${base}/${a}`, { alt: "x".repeat(251) })).statusCode).toBe(422);
    expect((await as.owner.patch(`${base}/zzzzzzzzzzzz`, { alt: "Nothing" })).statusCode).toBe(404);
    expect((await as.owner.patch(`/api/admin/products/NO-SUCH-SKU/images/${a}`, { alt: "Nothing" })).statusCode).toBe(404);

    const firstFile = added[0]!.sources[0]!.srcset.split(" ")[0]!;
    expect((await as.guest.get(firstFile)).statusCode).toBe(200);
    const deleted = await as.owner.delete(`${base}/${a}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().images.map((i: { id: string }) => i.id)).toEqual([b]);
    // Its files went with it.
    expect((await as.guest.get(firstFile)).statusCode).toBe(404);
    expect((await as.owner.delete(`${base}/${b}`)).json().images).toEqual([]);
    const [row] = await shop().database.db.select({ images: products.images }).from(products).where(eq(products.sku, p.sku));
    expect(row!.images).toEqual([{ src: `/images/products/${p.slug}/1.svg`, alt: expect.any(String) }]);

    const actions = (await shop().database.db.select({ action: auditLog.action, before: auditLog.before, after: auditLog.after }).from(auditLog).where(eq(auditLog.entityId, p.sku))).map((e) => e.action);
    expect(actions).toEqual(["product.photos_added", "product.photos_reordered", "product.photo_described", "product.photo_deleted", "product.photo_deleted"]);
  });

  it("lets only catalogue managers write, refuses before reading the body, and needs the CSRF header with the cookie", async () => {
    const p = await aProduct(6);
    const url = `/api/admin/products/${p.sku}/images`;
    for (const role of ["sales", "warehouse", "hire", "accounts"] as const) {
      const res = await upload(as[role], url, [{ filename: "a.jpg", bytes: jpeg }]);
      expect(res.statusCode, role).toBe(403);
    }
    expect((await upload(as.guest, url, [{ filename: "a.jpg", bytes: jpeg }])).statusCode).toBe(401);
    // Reading is catalogue.view: sales may look, the hire desk may not.
    expect((await as.sales.get(url)).statusCode).toBe(200);
    expect((await as.hire.get(url)).statusCode).toBe(403);
    const { body, headers } = multipart([{ filename: "a.jpg", bytes: jpeg }]);
    expect((await as.owner.request("POST", url, body, { headers, csrf: false })).statusCode).toBe(419);
    const [row] = await shop().database.db.select({ images: products.images }).from(products).where(eq(products.sku, p.sku));
    expect(row!.images).toEqual(p.images);
  });

  it("keeps every photo of six uploads at once (the row is locked while its list is rewritten)", async () => {
    const p = await aProduct(7);
    const url = `/api/admin/products/${p.sku}/images`;
    const small = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => testJpeg(200 + i * 10, 150)));
    const answers = await Promise.all(small.map((bytes, i) => upload(i % 2 ? as.owner : as.manager, url, [{ filename: `${i}.jpg`, bytes }])));
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    const [row] = await shop().database.db.select({ images: products.images }).from(products).where(eq(products.sku, p.sku));
    expect(row!.images.map((i) => i.width).sort()).toEqual([200, 210, 220, 230, 240, 250]);
  });
});

describe("a variant's photos", () => {
  it("uploads by the variant's SKU; the product API gives them to that variant alone; the last one gone leaves it showing the product's", async () => {
    const [variant] = await shop().database.db.select({ sku: productVariants.sku, productId: productVariants.productId }).from(productVariants).where(eq(productVariants.sku, "TCL-EMUL-5L-SOFTGREY"));
    const base = `/api/admin/variants/${variant!.sku}/images`;
    const res = await upload(as.manager, base, [{ filename: "soft-grey-tin.jpg", bytes: jpeg }]);
    expect(res.statusCode, res.body).toBe(201);
    const [photo] = res.json().images as { id: string; src: string }[];
    const [product] = await shop().database.db.select({ slug: products.slug, images: products.images }).from(products).where(eq(products.id, variant!.productId));
    const page = (await as.guest.get(`/api/products/${product!.slug}?variant=${variant!.sku}`)).json().data as { images: { src: string }[]; variants: { sku: string; images: { src: string }[] }[] };
    expect(page.variants.find((v) => v.sku === variant!.sku)!.images.map((i) => i.src)).toEqual([photo!.src]);
    expect(page.variants.filter((v) => v.sku !== variant!.sku).every((v) => v.images.length === 0)).toBe(true);
    // The product's own photos are untouched.
    expect(page.images.map((i) => i.src)).toEqual(product!.images.map((i) => i.src));
    const [audit] = await shop().database.db.select().from(auditLog).where(eq(auditLog.action, "variant.photos_added")).orderBy(sql`${auditLog.id} desc`).limit(1);
    expect(audit).toMatchObject({ entity: "variant", entityId: variant!.sku });

    const gone = await as.manager.delete(`${base}/${photo!.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().images).toEqual([]);
    expect((await upload(as.sales, base, [{ filename: "a.jpg", bytes: jpeg }])).statusCode).toBe(403);
    expect((await as.manager.get("/api/admin/variants/NO-SUCH-VARIANT/images")).statusCode).toBe(404);
  });
});

describe("a hire item's photos", () => {
  it("uploads, reads and deletes by the item's slug", async () => {
    const [item] = await shop().database.db.select({ slug: hireItems.slug }).from(hireItems).limit(1);
    const base = `/api/admin/hire/items/${item!.slug}/images`;
    const res = await upload(as.manager, base, [{ filename: "mixer.jpg", bytes: jpeg }]);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().images[0].id;
    expect((await as.manager.get(base)).json().images.map((i: { id: string }) => i.id)).toEqual([id]);
    const hire = (await as.guest.get(`/api/hire/${item!.slug}`));
    expect(hire.body).toContain(res.json().images[0].src);
    expect((await as.manager.delete(`${base}/${id}`)).statusCode).toBe(200);
    expect((await upload(as.hire, base, [{ filename: "mixer.jpg", bytes: jpeg }])).statusCode).toBe(403);
    expect((await as.manager.get("/api/admin/hire/items/no-such-item/images")).statusCode).toBe(404);
  });
});

/** Whether the store holds a key (the shop's own store: DATA_DIR/media in tests). */
async function createStoreCheck(key: string): Promise<boolean> {
  return (await localFileStore(path.join(shop().config.dataDir, "media")).get(key)) !== null;
}

describe("/media", () => {
  it("answers 404 for unknown keys, traversal, and the originals, which are never served", async () => {
    const p = await aProduct(8);
    await upload(as.owner, `/api/admin/products/${p.sku}/images`, [{ filename: "a.jpg", bytes: jpeg }]);
    const [row] = await shop().database.db.select({ images: products.images }).from(products).where(eq(products.sku, p.sku));
    const original = `originals/${row!.images[0]!.id}.jpg`;
    // Kept in the store, as uploaded…
    expect((await shop().app.inject({ method: "GET", url: `/media/${original}` })).statusCode).toBe(404);
    expect(await createStoreCheck(original)).toBe(true);
    for (const url of ["/media/photos/none/320w-0000.webp", "/media/..%2F..%2Fetc%2Fpasswd", "/media/photos/..%2F..%2Fcookie-secret.png", "/media/%2e%2e/%2e%2e/etc/hosts.png", "/media/photos/a.html", "/media/"]) {
      const res = await shop().app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"], url).toMatch(/^application\/json/);
    }
  });

  it("documents every operation in the OpenAPI document", async () => {
    const ops = (await apiOperations(shop().app)).map((o) => `${o.method} ${o.path}`);
    for (const path of ["/api/admin/products/{sku}/images", "/api/admin/variants/{sku}/images", "/api/admin/hire/items/{slug}/images"]) {
      expect(ops).toEqual(expect.arrayContaining([`GET ${path}`, `POST ${path}`, `PUT ${path}/order`, `PATCH ${path}/{id}`, `DELETE ${path}/{id}`]));
    }
  });
});
