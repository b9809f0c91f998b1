import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** A stored file: its bytes and the content type it is served with. */
export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

/**
 * Where photos live (ADR 0034): a folder under DATA_DIR by default, or an
 * S3-compatible bucket for a shop on several machines. Keys are immutable by
 * convention: a changed file gets a new key (its content hash is in it), so
 * nothing ever has to be overwritten or invalidated.
 */
export interface FileStore {
  /** Which adapter, for logs and the readiness of start-up. */
  readonly kind: "local" | "s3";
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Null when no file has that key. */
  get(key: string): Promise<StoredFile | null>;
  /** Deleting a key that is not there is not an error. */
  delete(key: string): Promise<void>;
}

/** The types a key's extension stands for; nothing else is stored or served. */
export const CONTENT_TYPES: Record<string, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
  png: "image/png",
  heic: "image/heic",
};

const SEGMENT = /^[a-z0-9][a-z0-9_-]{0,99}(\.[a-z0-9]{1,10})?$/;

/**
 * A key is lower-case segments of letters, digits, `-` and `_` joined by `/`,
 * the last with one extension the store knows: no `..`, no leading `/`, no
 * backslash, no dot files, nothing a path or a bucket could read another way.
 */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 300) return false;
  const segments = key.split("/");
  if (segments.length > 6 || !segments.every((s) => SEGMENT.test(s))) return false;
  return contentTypeOfKey(key) !== null;
}

/** The content type a key's extension stands for, or null. */
export function contentTypeOfKey(key: string): string | null {
  const match = /\.([a-z0-9]+)$/.exec(key);
  return match ? (CONTENT_TYPES[match[1]!] ?? null) : null;
}

export class UnsafeKeyError extends Error {
  constructor(key: string) {
    super(`Unsafe file key: ${JSON.stringify(key.slice(0, 100))}`);
    this.name = "UnsafeKeyError";
  }
}

/** Refuses a key that is not safe, or whose extension does not match the type given. */
export function checkKey(key: string, contentType?: string): void {
  if (!isSafeKey(key)) throw new UnsafeKeyError(key);
  if (contentType !== undefined && contentTypeOfKey(key) !== contentType) throw new UnsafeKeyError(key);
}

/**
 * Files in a folder (`DATA_DIR/media`). The content type is the key's
 * extension's. A file is written to a temporary name and renamed, so a reader
 * never sees half of it.
 */
export function localFileStore(root: string): FileStore {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    checkKey(key);
    const file = path.resolve(base, key);
    // Belt and braces: the key's rules already keep it inside.
    if (!file.startsWith(base + path.sep)) throw new UnsafeKeyError(key);
    return file;
  };
  return {
    kind: "local",
    async put(key, bytes, contentType) {
      checkKey(key, contentType);
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(temporary, bytes, { mode: 0o644 });
      await rename(temporary, file);
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      try {
        return { bytes: await readFile(fileOf(key)), contentType: contentTypeOfKey(key)! };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "EISDIR") return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
