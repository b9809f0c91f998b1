// The demo's photos after the shop listens (ADR 0060): owed by a file in
// DATA_DIR, made product by product, finished by the next start when a start
// is cut short, never made twice for a product. The shop as a process, with
// its first page before its photos: server/first-start.test.ts.
import { existsSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fileStoreFromConfig } from "../../modules/media/setup.ts";
import type { FileStore } from "../../modules/media/store.ts";
import { testConfig, testDatabaseForFile } from "../../test/app.ts";
import { addDemoPhotos } from "./demo-photos.ts";
import { demoPhotoCacheDir } from "./demo-photo-cache.ts";
import { DEMO_PHOTOS_PENDING, demoPhotosPending, markDemoPhotosPending, readyMessage, startDemoPhotos } from "./demo-start.ts";

const quiet = { info() {}, warn() {} };
const own = testDatabaseForFile({ seeded: true, dirPrefix: "tc-demo-start-" });
const config = () => testConfig(own.dir);

/** The store, telling `written` of each file once it is written. */
function watched(store: FileStore, written: (key: string) => void): FileStore {
  return {
    ...store,
    kind: store.kind,
    async put(key, bytes, type) {
      await store.put(key, bytes, type);
      written(key);
    },
  };
}

/** Each product with a photo, and its photo's id. */
async function photographed(): Promise<Map<number, string>> {
  const result = (await own.database.db.execute(sql`select id, images->0->>'id' as photo from products where jsonb_path_exists(images, '$[*].sources') order by id`)) as unknown as { rows: { id: number; photo: string }[] };
  return new Map(result.rows.map((r) => [Number(r.id), r.photo]));
}

describe("the demo's photos, after the shop listens", () => {
  it("makes none when none are owed", async () => {
    const run = startDemoPhotos(own.database.db, config(), quiet);
    expect(await run.done).toBeNull();
    expect(await photographed()).toEqual(new Map());
  });

  it("stopped halfway, makes the rest on the next run and none of the first again", { timeout: 240_000 }, async () => {
    const store = fileStoreFromConfig(config());
    const stopping = new AbortController();
    const put: string[] = [];
    // The first photo's files are written, then the shop is asked to close.
    const stoppingStore = watched(store, (key) => {
      put.push(key);
      stopping.abort();
    });
    const first = await addDemoPhotos(own.database.db, stoppingStore, { perCategory: 1, cacheDir: demoPhotoCacheDir(), signal: stopping.signal });
    expect(first).toBe(1);
    const afterFirst = await photographed();
    expect(afterFirst.size).toBe(1);

    const again: string[] = [];
    const countingStore = watched(store, (key) => again.push(key));
    const rest = await addDemoPhotos(own.database.db, countingStore, { perCategory: 1, cacheDir: demoPhotoCacheDir() });
    expect(rest).toBeGreaterThan(0);
    const afterRest = await photographed();
    expect(afterRest.size).toBe(1 + rest);
    // The first product kept its photo, and the second run wrote none of its files.
    const [id, photo] = [...afterFirst][0]!;
    expect(afterRest.get(id)).toBe(photo);
    expect(again.filter((key) => put.includes(key))).toEqual([]);
    // A third run finds nothing left to make.
    expect(await addDemoPhotos(own.database.db, store, { perCategory: 1, cacheDir: demoPhotoCacheDir() })).toBe(0);
  });

  it("makes the owed photos, then owes none: the next start makes nothing", { timeout: 240_000 }, async () => {
    await markDemoPhotosPending(config());
    expect(existsSync(path.join(own.dir, DEMO_PHOTOS_PENDING))).toBe(true);
    const made = await startDemoPhotos(own.database.db, config(), quiet, { DEMO_PHOTO_CACHE: demoPhotoCacheDir() ?? "off" }).done;
    expect(made).toBeGreaterThan(0);
    expect(demoPhotosPending(config())).toBe(false);
    expect(await startDemoPhotos(own.database.db, config(), quiet).done).toBeNull();
  });
});

describe("the line a start ends with", () => {
  it("says where the shop and its back office are and, for the demo, how to sign in", () => {
    const demo = readyMessage({ appName: "Tradecounter", publicUrl: "http://localhost:3000", seedDemo: true }, "pglite");
    expect(demo).toBe("Tradecounter is ready at http://localhost:3000 — back office http://localhost:3000/admin (owner@example.com / demo-password-2026, see README 'Demo accounts') (database: pglite)");
    const shop = readyMessage({ appName: "Hardware Ltd", publicUrl: "https://shop.example", seedDemo: false }, "postgres");
    expect(shop).toContain("back office https://shop.example/admin");
    expect(shop).not.toContain("demo-password");
  });
});
