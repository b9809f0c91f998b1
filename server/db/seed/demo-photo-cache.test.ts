// The demo's photos are made once per machine: the second shop copies them.
import { mkdtemp, readdir, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp, { type JpegOptions } from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { processPhoto } from "../../modules/media/photos.ts";
import { cachedPhoto, demoPhotoCacheDir } from "./demo-photo-cache.ts";

/** A small scene: the cache keeps whatever the scene is, and small ones render in milliseconds. */
const demoScene = (name: string, _brand: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360"><rect width="480" height="360" fill="#${(name.length * 99991).toString(16).slice(0, 6).padEnd(6, "8")}"/><text x="20" y="180">${name}</text></svg>`;

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function freshDir() {
  const dir = await mkdtemp(path.join(tmpdir(), "demo-photo-cache-"));
  dirs.push(dir);
  return dir;
}

/** The photo maker cachedPhoto is handed: renders `scene` as a JPEG named `file`, counting how often it is asked. */
function countedMaker(scene: string, file: string, jpeg?: JpegOptions) {
  let count = 0;
  const make = async (id: string) => {
    count += 1;
    return processPhoto(await sharp(Buffer.from(scene)).jpeg(jpeg).toBuffer(), file, id);
  };
  return { make, made: () => count };
}

describe("cachedPhoto", () => {
  it("makes a scene's photo once and hands the same photo back after", async () => {
    const dir = await freshDir();
    const scene = demoScene("Cache test drill", "Tradecounter");
    const { make, made } = countedMaker(scene, "drill.jpg", { quality: 86 });
    const first = await cachedPhoto(dir, scene, make);
    const again = await cachedPhoto(dir, scene, make);
    expect(made()).toBe(1);
    expect(again.id).toMatch(/^[a-z0-9]{12}$/);
    expect(again).toEqual(first);
    expect(again.renditions.map((r) => r.key)).toEqual(first.renditions.map((r) => r.key));
    expect(Buffer.compare(again.renditions.at(-1)!.bytes, first.renditions.at(-1)!.bytes)).toBe(0);
    // Another scene is another photo.
    await cachedPhoto(dir, demoScene("Cache test saw", "Tradecounter"), make);
    expect(made()).toBe(2);
  });

  it("makes it again over a half-kept folder, and makes it without keeping when there is no cache", async () => {
    const dir = await freshDir();
    const scene = demoScene("Half kept", "Tradecounter");
    const { make, made } = countedMaker(scene, "half.jpg");
    const photo = await cachedPhoto(dir, scene, make);
    const [folder] = await readdir(dir);
    await rm(path.join(dir, folder!), { recursive: true });
    await mkdir(path.join(dir, folder!));
    await writeFile(path.join(dir, folder!, "photo.json"), "{");
    expect((await cachedPhoto(dir, scene, make)).id).toBe(photo.id);
    expect(made()).toBe(2);
    await cachedPhoto(null, scene, make);
    expect(made()).toBe(3);
  });

  it("is kept under node_modules/.cache unless DEMO_PHOTO_CACHE says where, or off", () => {
    expect(demoPhotoCacheDir({}, process.cwd())).toBe(path.join(process.cwd(), "node_modules", ".cache", "tradecounter-demo-photos"));
    expect(demoPhotoCacheDir({ DEMO_PHOTO_CACHE: "off" })).toBeNull();
    expect(demoPhotoCacheDir({ DEMO_PHOTO_CACHE: "/srv/photos" })).toBe("/srv/photos");
  });
});
