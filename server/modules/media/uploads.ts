import type { FastifyRequest } from "fastify";
import { PHOTO_MAX_BYTES, type PhotoOutput, PhotoRefused, type ProcessedPhoto, processPhoto, storePhoto } from "./photos.ts";
import type { FileStore } from "./store.ts";

/**
 * Uploaded photos, for whoever takes them (the catalogue's desk, a customer's
 * return): read from a multipart body, then checked, converted and stored by
 * the pipeline (photos.ts) before the caller writes its rows.
 */

export interface UploadedFile {
  /** The name the browser gave, only to name the file in a refusal. */
  filename: string;
  bytes: Buffer;
}

/** A file name fit to quote in a message: no paths, no control characters, not too long. */
export function displayName(filename: string): string {
  const base = filename.split(/[\\/]/).pop()!.replace(/[\p{Cc}\p{Cf}]/gu, "").trim();
  return base ? `"${base.slice(0, 80)}"` : "The file";
}

/** Every stored key of a processed photo: its renditions and its original. */
export const storedKeys = (photo: ProcessedPhoto) => [photo.original.key, ...photo.renditions.map((r) => r.key)];

/** Deletes files no longer needed; a failure is logged, never thrown (it leaves an orphan file, never a broken page). */
export async function discardFiles(store: FileStore, keys: string[], log?: { warn(obj: unknown, msg: string): void }): Promise<void> {
  const results = await Promise.allSettled(keys.map((k) => store.delete(k)));
  const failed = results.filter((r) => r.status === "rejected");
  if (failed.length) log?.warn({ keys, err: (failed[0] as PromiseRejectedResult).reason }, "could not delete photo files");
}

/**
 * Checks, converts and stores the files, then runs `work` with them; one
 * refused file refuses them all (422 naming it) with nothing stored, and a
 * `work` that throws leaves no file behind. Files are taken one after
 * another: each uses both cores already, and a burst at once would hold
 * every decoded photo in memory.
 */
export async function withStoredPhotos<T>(
  store: FileStore,
  files: UploadedFile[],
  work: (processed: ProcessedPhoto[]) => Promise<T>,
  options: { output?: PhotoOutput; log?: { warn(obj: unknown, msg: string): void } } = {},
): Promise<T> {
  const processed: ProcessedPhoto[] = [];
  for (const file of files) processed.push(await processPhoto(file.bytes, displayName(file.filename), undefined, options.output));
  const stored: ProcessedPhoto[] = [];
  try {
    for (const photo of processed) {
      await storePhoto(store, photo);
      stored.push(photo);
    }
    return await work(processed);
  } catch (err) {
    await discardFiles(store, stored.flatMap(storedKeys), options.log);
    throw err;
  }
}

/**
 * Reads a multipart body's `file` fields (one or several) into memory, each
 * at most the pipeline's 20 MB: past that the stream is cut and the upload
 * refused by name. Text fields named in `fields` come back in order.
 */
export async function multipartPhotos(request: FastifyRequest, options: { maxFiles: number; fields?: readonly string[] }): Promise<{ files: UploadedFile[]; fields: Record<string, string[]> }> {
  if (!request.isMultipart()) throw new PhotoRefused("Send the photos as multipart/form-data, each in a field named file.");
  const files: UploadedFile[] = [];
  const fields: Record<string, string[]> = {};
  const tooMany = () => new PhotoRefused(`Upload at most ${options.maxFiles} photo${options.maxFiles === 1 ? "" : "s"} at a time.`);
  try {
    for await (const part of request.parts({ limits: { fileSize: PHOTO_MAX_BYTES, files: options.maxFiles, fields: 20, parts: options.maxFiles + 20 } })) {
      if (part.type !== "file") {
        if (options.fields?.includes(part.fieldname) && typeof part.value === "string") (fields[part.fieldname] ??= []).push(part.value);
        continue;
      }
      if (part.fieldname !== "file") {
        part.file.resume();
        continue;
      }
      try {
        const bytes = await part.toBuffer();
        // An empty file input sends a part with no name and no bytes: nothing chosen.
        if (bytes.length || part.filename) files.push({ filename: part.filename, bytes });
      } catch (err) {
        if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
          throw new PhotoRefused(`${displayName(part.filename)} is over ${PHOTO_MAX_BYTES / 1024 / 1024} MB; a photo may be at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB.`);
        }
        throw err;
      }
    }
  } catch (err) {
    if (err instanceof PhotoRefused) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_FILES_LIMIT") throw tooMany();
    if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") throw new PhotoRefused("The form has too many fields.");
    if (code?.startsWith("FST_") || (err as Error).message?.includes("Unexpected end of form")) throw new PhotoRefused("The upload was not complete. Try again.");
    throw err;
  }
  return { files, fields };
}
