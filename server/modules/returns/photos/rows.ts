import { asc, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { ValidationError } from "../../../http-errors.ts";
import type { PhotoOutput, ProcessedPhoto } from "../../media/photos.ts";
import { CAPTION_MAX, RETURN_PHOTOS_MAX } from "./limits.ts";
import { type ReturnPhotoRendition, returnPhotos } from "../schema.ts";

export { CAPTION_MAX, RETURN_PHOTOS_MAX };

// A return's photos as rows and as their readers see them (issue 31): what
// the request, the customer's list and the desk share. Storing and serving
// them is service.ts beside.

/** Photos may be added while the desk has not yet received the goods. */
export const PHOTO_STATUSES = ["requested", "approved"] as const;

/**
 * The pipeline's output for a return's photo: WebP only (the desk's browsers
 * all read it), a thumbnail and a large one, in `returns/`, a folder `/media`
 * never serves. A customer's photo may show their home, their face or their
 * address label: it is read only through routes that check who asks, never
 * from a public URL a CDN would keep (ADR 0050).
 */
export const RETURN_PHOTO_OUTPUT: PhotoOutput = { folder: "returns", widths: [320, 1280], formats: ["image/webp"] };

export const PHOTO_SIZES = ["small", "large"] as const;
export type PhotoSize = (typeof PHOTO_SIZES)[number];

export type PhotoRow = typeof returnPhotos.$inferSelect;

/** A return's photo as its readers see it: the URLs are the access-checked routes'. */
export interface ReturnPhotoJson {
  id: string;
  caption: string;
  width: number;
  height: number;
  /** The large one (at most 1,280 pixels wide), and the thumbnail (320). */
  url: string;
  thumbnail_url: string;
}

const customerBase = (orderNumber: string, rma: string) => `/api/orders/${orderNumber}/returns/${rma}/photos`;
const deskBase = (rma: string) => `/api/admin/returns/${rma}/photos`;

function photoJson(row: PhotoRow, base: string): ReturnPhotoJson {
  return { id: row.photoId, caption: row.caption, width: row.width, height: row.height, url: `${base}/${row.photoId}/large`, thumbnail_url: `${base}/${row.photoId}/small` };
}

/** Each return's photos, oldest first. */
export async function photosOf(tx: Db, returnIds: number[]): Promise<Map<number, PhotoRow[]>> {
  const out = new Map<number, PhotoRow[]>();
  if (!returnIds.length) return out;
  const rows = await tx.select().from(returnPhotos).where(inArray(returnPhotos.returnId, returnIds)).orderBy(asc(returnPhotos.id));
  for (const row of rows) out.set(row.returnId, [...(out.get(row.returnId) ?? []), row]);
  return out;
}

export const customerPhotosJson = (rows: PhotoRow[] | undefined, orderNumber: string, rma: string) => (rows ?? []).map((r) => photoJson(r, customerBase(orderNumber, rma)));
export const deskPhotosJson = (rows: PhotoRow[], rma: string) => rows.map((r) => photoJson(r, deskBase(rma)));

/**
 * A guest reads their return's photos with the signature of their order's
 * link, as they read the order: it is added to each URL (a signed-in
 * customer's cookie needs nothing).
 */
export function withOrderLink<T extends { photos: ReturnPhotoJson[] }>(list: T[], link: { expires?: string | null; signature?: string | null }): T[] {
  if (!link.signature) return list;
  const query = `?${new URLSearchParams({ ...(link.expires ? { expires: link.expires } : {}), signature: link.signature })}`;
  return list.map((r) => ({ ...r, photos: r.photos.map((p) => ({ ...p, url: p.url + query, thumbnail_url: p.thumbnail_url + query })) }));
}

/** Writes the rows of photos already stored, in the caller's transaction. */
export async function insertReturnPhotos(tx: Db, returnId: number, photos: ProcessedPhoto[], captions: string[] = []): Promise<void> {
  if (!photos.length) return;
  await tx.insert(returnPhotos).values(
    photos.map((p, i) => ({
      returnId,
      photoId: p.id,
      width: p.renditions.at(-1)!.width,
      height: p.renditions.at(-1)!.height,
      renditions: p.renditions.map((r): ReturnPhotoRendition => ({ key: r.key, type: r.type, width: r.width, height: r.height })),
      originalKey: p.original.key,
      caption: (captions[i] ?? "").trim(),
    })),
  );
}

export function checkCount(existing: number, adding: number): void {
  if (adding === 0) throw new ValidationError({ file: ["Choose a photo to add."] });
  if (existing + adding > RETURN_PHOTOS_MAX) {
    throw new ValidationError({ file: [existing ? `A return may have at most ${RETURN_PHOTOS_MAX} photos; this one has ${existing}, so add at most ${RETURN_PHOTOS_MAX - existing}.` : `Attach at most ${RETURN_PHOTOS_MAX} photos.`] });
  }
}

export function checkCaptions(captions: string[]): void {
  if (captions.some((c) => c.trim().length > CAPTION_MAX)) throw new ValidationError({ caption: [`Keep each caption to ${CAPTION_MAX} characters.`] });
}

