// The demo shop's photos: made locally, through the real pipeline, for the
// home page's featured products and the first products of each top category.
// They come through the machine's cache of made photos (demo-photo-cache.ts),
// as a shop's do: whichever of this file, demo-start.test.ts or the browser
// suite's shop comes first makes them, the others copy them (some 45 s of CPU
// each); first-start.test.ts makes them afresh, and the cache has its own test.
import { eq, isNull } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { categories, products } from "../../modules/catalog/schema.ts";
import { createProductService } from "../../modules/catalog/products/products.ts";
import { localFileStore } from "../../modules/media/store.ts";
import { testDatabaseForFile } from "../../test/app.ts";
import { addDemoPhotos, demoScene } from "./demo-photos.ts";
import { demoPhotoCacheDir } from "./demo-photo-cache.ts";

const own = testDatabaseForFile({ seeded: true, dirPrefix: "tc-demo-photos-" });

describe("the demo shop's photos", () => {
  it("draws a detailed scene that renders to a real photo-sized JPEG", async () => {
    const jpeg = await sharp(Buffer.from(demoScene("Makita 18V Combi Drill", "Makita"))).jpeg().toBuffer();
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: "jpeg", width: 1600, height: 1200 });
  });

  it("gives the featured products and each top category's first products photos, once", async () => {
    const store = localFileStore(own.dir);
    const made = await addDemoPhotos(own.database.db, store, { perCategory: 1, cacheDir: demoPhotoCacheDir() });
    const tops = await own.database.db.select({ id: categories.id }).from(categories).where(isNull(categories.parentId));
    expect(made).toBeGreaterThanOrEqual(tops.length);
    // How long the photos take is the bench's business (a newcomer's first start), not a test's: a busy machine is no bug.
    const featured = await createProductService(own.database.db).featured(8);
    expect(featured.length).toBeGreaterThan(0);
    for (const card of featured) {
      expect(card.image, card.name).toMatchObject({ id: expect.any(String), alt: card.name, sources: [{ type: "image/avif" }, { type: "image/webp" }] });
      const key = card.image!.src.replace(/^\/media\//, "");
      expect((await store.get(key))?.contentType).toBe("image/webp");
    }
    // A second run finds every one done.
    expect(await addDemoPhotos(own.database.db, store, { perCategory: 1, cacheDir: demoPhotoCacheDir() })).toBe(0);
    const [drawn] = await own.database.db.select({ images: products.images }).from(products).where(eq(products.featured, false)).limit(1);
    expect(drawn).toBeDefined();
  }, 180_000);
});
