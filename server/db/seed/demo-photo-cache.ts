// The demo's photos, kept between shops (issue 35's slow first start, and
// CI's many fresh shops): each photo the demo makes is the same bytes every
// time for the same scene, sharp and widths, so once made it is kept under a
// key of those, and the next shop on this machine copies it instead of
// rendering 26 scenes again (some 45 seconds of one core).
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { PHOTO_WIDTHS, type ProcessedPhoto } from "../../modules/media/photos.ts";

/** Where made photos are kept: `DEMO_PHOTO_CACHE` (`off` for nowhere), else node_modules/.cache beside the code, else the system's temporary folder. */
export function demoPhotoCacheDir(env = process.env, cwd = process.cwd()): string | null {
  const set = env.DEMO_PHOTO_CACHE?.trim();
  if (set === "off") return null;
  if (set) return path.resolve(cwd, set);
  const modules = path.join(cwd, "node_modules");
  return existsSync(modules) ? path.join(modules, ".cache", "tradecounter-demo-photos") : path.join(tmpdir(), "tradecounter-demo-photos");
}

interface Kept extends Omit<ProcessedPhoto, "original" | "renditions"> {
  original: { key: string; contentType: string };
  renditions: { key: string; type: ProcessedPhoto["renditions"][number]["type"]; width: number; height: number }[];
}

const fileOf = (key: string) => key.replace(/[^A-Za-z0-9._-]/g, "_");

/** The photo made from `scene`, from the cache when it was made before with this sharp and these widths; else made by `make(id)` and kept. */
export async function cachedPhoto(dir: string | null, scene: string, make: (id: string) => Promise<ProcessedPhoto>): Promise<ProcessedPhoto> {
  const key = createHash("sha256").update(JSON.stringify([scene, sharp.versions, PHOTO_WIDTHS, 1])).digest("hex");
  // A photo id of the shape uploads have (12 of a–z, 0–9), the same for the same scene.
  const id = key.slice(0, 12);
  if (!dir) return make(id);
  const folder = path.join(dir, key);
  try {
    const kept = JSON.parse(await readFile(path.join(folder, "photo.json"), "utf8")) as Kept;
    const [original, ...renditions] = await Promise.all([kept.original, ...kept.renditions].map((f) => readFile(path.join(folder, fileOf(f.key)))));
    return { ...kept, original: { ...kept.original, bytes: original! }, renditions: kept.renditions.map((r, i) => ({ ...r, bytes: renditions[i]! })) };
  } catch {
    // Not kept yet (or half-kept by a process that stopped): make it.
  }
  const photo = await make(id);
  const staging = `${folder}.${process.pid}.${Date.now()}`;
  try {
    await mkdir(staging, { recursive: true });
    await Promise.all([photo.original, ...photo.renditions.map((r) => ({ key: r.key, bytes: r.bytes }))].map((f) => writeFile(path.join(staging, fileOf(f.key)), f.bytes)));
    const kept: Kept = { ...photo, original: { key: photo.original.key, contentType: photo.original.contentType }, renditions: photo.renditions.map(({ bytes: _b, ...r }) => r) };
    await writeFile(path.join(staging, "photo.json"), JSON.stringify(kept));
    // Whole or not at all: another process that kept it first wins.
    await rename(staging, folder).catch(() => rm(staging, { recursive: true, force: true }));
  } catch {
    // A read-only or full disk: the photo is made all the same, just not kept.
    await rm(staging, { recursive: true, force: true }).catch(() => {});
  }
  return photo;
}
