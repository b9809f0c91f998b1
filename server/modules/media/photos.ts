import { createHash, randomBytes } from "node:crypto";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import { HttpError } from "../../http-errors.ts";
import type { ImageSource, ProductImage } from "./contract.ts";
import type { FileStore } from "./store.ts";

/** An upload's limits (issue 20): the file's size, and its pixels before anything is decoded. */
export const PHOTO_MAX_BYTES = 20 * 1024 * 1024;
export const PHOTO_MAX_PIXELS = 50_000_000;
/** The renditions' widths; none wider than the photo itself. */
export const PHOTO_WIDTHS = [320, 640, 960, 1600] as const;
/** The width whose WebP is an entry's `src`, for readers that know nothing of `sources`. */
const FALLBACK_WIDTH = 960;
/** AVIF's effort (0–9): 2 keeps a photo to about a second on two cores; 4 took three times as long for a few per cent. */
const AVIF = { quality: 52, effort: 2 } as const;
const WEBP = { quality: 78, effort: 4 } as const;

/** What the bytes say they are, from their first bytes: the name and the browser's type are not asked. */
export type PhotoType = "jpeg" | "png" | "webp" | "avif" | "heic";
const EXTENSIONS: Record<PhotoType, string> = { jpeg: "jpg", png: "png", webp: "webp", avif: "avif", heic: "heic" };
const MIME: Record<PhotoType, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp", avif: "image/avif", heic: "image/heic" };

/** A refused upload: 422 with a message a member of staff can act on. */
export class PhotoRefused extends HttpError {
  constructor(message: string) {
    super(422, message);
    this.name = "PhotoRefused";
  }
}

const ACCEPTED = "Upload a JPEG, PNG, WebP, AVIF or HEIC photo.";

export function sniffPhotoType(bytes: Buffer): PhotoType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "webp";
  // ISO base media (HEIF): a `ftyp` box first, whose brands say AVIF or HEIC.
  if (bytes.length >= 16 && bytes.toString("latin1", 4, 8) === "ftyp") {
    const size = Math.min(bytes.readUInt32BE(0), bytes.length, 64);
    const brands = [bytes.toString("latin1", 8, 12)];
    for (let at = 16; at + 4 <= size; at += 4) brands.push(bytes.toString("latin1", at, at + 4));
    if (brands.some((b) => b === "avif" || b === "avis")) return "avif";
    if (brands.some((b) => ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].includes(b))) return "heic";
  }
  return null;
}

const megabytes = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * Checks an upload before any pixel is decoded: its size, its real type from
 * its bytes, and its dimensions from its header (a decompression bomb, a small
 * file declaring a huge picture, is refused here). Throws PhotoRefused.
 */
export async function inspectPhoto(bytes: Buffer, name = "The file"): Promise<{ type: PhotoType; width: number; height: number }> {
  if (bytes.length === 0) throw new PhotoRefused(`${name} is empty. ${ACCEPTED}`);
  if (bytes.length > PHOTO_MAX_BYTES) throw new PhotoRefused(`${name} is ${megabytes(bytes.length)}; a photo may be at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB.`);
  const type = sniffPhotoType(bytes);
  if (!type) throw new PhotoRefused(`${name} is not a photo. ${ACCEPTED}`);
  let meta: Metadata;
  try {
    // The header only: metadata() decodes no pixels.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new PhotoRefused(
      type === "heic" ? `${name} is a HEIC photo this server cannot read. Save it as JPEG (on an iPhone: Settings, Camera, Formats, Most Compatible) and upload it again.` : `${name} could not be read: it may be damaged or incomplete. ${ACCEPTED}`,
    );
  }
  const expected = type === "avif" || type === "heic" ? "heif" : type;
  if (meta.format !== expected || !meta.width || !meta.height) throw new PhotoRefused(`${name} could not be read as the ${type.toUpperCase()} it appears to be. ${ACCEPTED}`);
  const pixels = meta.width * meta.height;
  if (pixels > PHOTO_MAX_PIXELS) {
    throw new PhotoRefused(`${name} is ${meta.width} × ${meta.height} pixels (${(pixels / 1e6).toFixed(0)} megapixels); a photo may be at most ${PHOTO_MAX_PIXELS / 1e6} megapixels.`);
  }
  // Orientations 5 to 8 turn the picture a quarter: its width is its height.
  const turned = (meta.orientation ?? 1) >= 5;
  return { type, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
}

export interface Rendition {
  key: string;
  type: ImageSource["type"];
  width: number;
  height: number;
  bytes: Buffer;
}

export interface ProcessedPhoto {
  id: string;
  type: PhotoType;
  width: number;
  height: number;
  original: { key: string; bytes: Buffer; contentType: string };
  renditions: Rendition[];
}

/** 12 random characters: a photo's id, and the folder of its files. */
export const newPhotoId = () => randomBytes(9).toString("base64url").toLowerCase().replace(/[^a-z0-9]/g, "0");

/** The widths a photo this wide is made at: those below its own width, and its own width when under the largest. */
export function widthsFor(width: number, widths: readonly number[] = PHOTO_WIDTHS): number[] {
  const below = widths.filter((w) => w < width);
  return width <= widths.at(-1)! ? [...below, width] : [...widths];
}

/** What a caller other than the catalogue may ask of the pipeline: the folder its renditions go in, their widths and formats. */
export interface PhotoOutput {
  /** The store's folder for the renditions (`photos`, which `/media` serves, unless told). */
  folder?: string;
  /** Ascending; the last is the largest made. */
  widths?: readonly number[];
  formats?: readonly ImageSource["type"][];
}

/**
 * The pipeline: inspect, decode once (turned upright by its EXIF orientation,
 * at most the largest width), then AVIF and WebP at each width. sharp writes
 * no metadata unless asked, so EXIF (GPS location, camera, owner) and XMP are
 * gone from every rendition. The original's bytes are kept as uploaded.
 */
export async function processPhoto(bytes: Buffer, name?: string, id = newPhotoId(), output: PhotoOutput = {}): Promise<ProcessedPhoto> {
  const { folder = "photos", widths = PHOTO_WIDTHS, formats = ["image/avif", "image/webp"] } = output;
  const inspected = await inspectPhoto(bytes, name);
  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await sharp(bytes, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" })
      .autoOrient()
      .resize({ width: widths.at(-1), withoutEnlargement: true })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new PhotoRefused(`${name ?? "The file"} could not be read: it may be damaged or incomplete. ${ACCEPTED}`);
  }
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
  const renditions: Rendition[] = [];
  await Promise.all(
    widthsFor(base.info.width, widths).flatMap((width) =>
      formats.map(async (type) => {
        const pipeline = sharp(base.data, { raw }).resize({ width, withoutEnlargement: true });
        const out = await (type === "image/avif" ? pipeline.avif(AVIF) : pipeline.webp(WEBP)).toBuffer({ resolveWithObject: true });
        const hash = createHash("sha256").update(out.data).digest("hex").slice(0, 16);
        const ext = type === "image/avif" ? "avif" : "webp";
        renditions.push({ key: `${folder}/${id}/${width}w-${hash}.${ext}`, type, width: out.info.width, height: out.info.height, bytes: out.data });
      }),
    ),
  );
  renditions.sort((a, b) => a.type.localeCompare(b.type) || a.width - b.width);
  return {
    id,
    type: inspected.type,
    width: inspected.width,
    height: inspected.height,
    original: { key: originalKey(id, inspected.type), bytes, contentType: MIME[inspected.type] },
    renditions,
  };
}

/**
 * The original's key: by the photo's id alone, so the storefront's entries
 * never name it (it is kept as uploaded, EXIF location and all, and never served).
 */
const originalKey = (id: string, type: PhotoType) => `originals/${id}.${EXTENSIONS[type]}`;

/** Where the storefront fetches a stored file. */
export const mediaUrl = (key: string) => `/media/${key}`;

/** The `images` entry of a processed photo: AVIF first (the browser takes the first it can show), WebP next, the 960 WebP as `src`. */
export function photoEntry(photo: ProcessedPhoto, alt = ""): ProductImage {
  const of = (type: ImageSource["type"]) => photo.renditions.filter((r) => r.type === type);
  const webp = of("image/webp");
  const fallback = webp.filter((r) => r.width <= FALLBACK_WIDTH).at(-1) ?? webp[0]!;
  const largest = webp.at(-1)!;
  return {
    id: photo.id,
    src: mediaUrl(fallback.key),
    alt,
    width: largest.width,
    height: largest.height,
    sources: (["image/avif", "image/webp"] as const).map((type) => ({ type, srcset: of(type).map((r) => `${mediaUrl(r.key)} ${r.width}w`).join(", ") })),
  };
}

/** Every stored key of an entry: its renditions and its original, whichever type it was (none for the drawn fallback). */
export function keysOf(image: ProductImage): string[] {
  const urls = [image.src, ...(image.sources ?? []).flatMap((s) => s.srcset.split(",").map((part) => part.trim().split(/\s+/)[0]!))];
  const keys = urls.filter((u) => u.startsWith("/media/")).map((u) => u.slice("/media/".length));
  const originals = image.id ? (Object.keys(EXTENSIONS) as PhotoType[]).map((type) => originalKey(image.id!, type)) : [];
  return [...new Set([...keys, ...originals])];
}

/** Stores a processed photo's files; on a failure, removes what was written, so nothing is left half-stored. */
export async function storePhoto(store: FileStore, photo: ProcessedPhoto): Promise<void> {
  const files = [photo.original, ...photo.renditions.map((r) => ({ key: r.key, bytes: r.bytes, contentType: r.type }))];
  try {
    await Promise.all(files.map((f) => store.put(f.key, f.bytes, f.contentType)));
  } catch (err) {
    await Promise.allSettled(files.map((f) => store.delete(f.key)));
    throw err;
  }
}
