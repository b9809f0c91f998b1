import { createHash } from "node:crypto";
import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * The visitor page cache's memory (ADR 0025): whole responses kept with the CSP
 * nonce as a placeholder, bounded by entries and bytes, least recently used
 * first out. Freshness is not decided here: an entry carries the page version
 * it was rendered at and the caller compares it with the current one.
 */
export interface StoredPage {
  /** The body cut at every nonce placeholder: a fresh nonce goes between the parts. */
  parts: Buffer[];
  /** The same parts, each compressed once (see `gzipWithNonce`). */
  deflated: Buffer[];
  contentType: string;
  /** Hash of the body with the placeholder: the ETag is this and the response's nonce. */
  hash: string;
  version: string;
  storedAt: number;
  bytes: number;
}

export interface PageStoreOptions {
  maxEntries: number;
  maxBytes: number;
  /** A safety net only: versions make entries stale, not time. */
  ttlMs: number;
  now?: () => number;
}

/** The body's hash with every nonce left out: each render has a placeholder of its own. */
export function pageHash(parts: Buffer[]): string {
  const hash = createHash("sha1");
  parts.forEach((part, i) => {
    if (i > 0) hash.update("\0nonce\0");
    hash.update(part);
  });
  return hash.digest("base64url");
}

export function splitAt(body: Buffer, placeholder: string): Buffer[] {
  const needle = Buffer.from(placeholder);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle, from); at !== -1; at = body.indexOf(needle, from)) {
    parts.push(body.subarray(from, at));
    from = at + needle.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

/** The body with `nonce` in every place the placeholder was. */
export function withNonce(parts: Buffer[], nonce: string): Buffer {
  if (parts.length === 1) return parts[0]!;
  const value = Buffer.from(nonce);
  const pieces: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) pieces.push(value);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * Each part deflated on its own, ending on a byte boundary (a sync flush), the
 * last one final. A fresh nonce then goes between them as a stored deflate
 * block, so a kept page is compressed once, not per response.
 */
export function deflateParts(parts: Buffer[]): Buffer[] {
  return parts.map((part, i) => deflateRawSync(part, { level: 6, finishFlush: i === parts.length - 1 ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }));
}

/** The gzip stream of the body with `nonce` in every place the placeholder was. */
export function gzipWithNonce(page: Pick<StoredPage, "parts" | "deflated">, nonce: string): Buffer {
  const value = Buffer.from(nonce);
  // A stored block: not final, no compression; LEN and its ones' complement, little-endian.
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(value.length, 1);
  stored.writeUInt16LE(~value.length & 0xffff, 3);
  const pieces: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  page.parts.forEach((part, i) => {
    if (i > 0) {
      pieces.push(stored, value);
      crc = crc32(value, crc);
      size += value.length;
    }
    pieces.push(page.deflated[i]!);
    crc = crc32(part, crc);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  pieces.push(trailer);
  return Buffer.concat(pieces);
}

export function createPageStore(options: PageStoreOptions) {
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on use makes it an LRU.
  const entries = new Map<string, StoredPage>();
  let bytes = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  return {
    get(key: string, version: string): StoredPage | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.version !== version || now() - entry.storedAt > options.ttlMs) {
        remove(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    set(key: string, page: { body: Buffer; placeholder: string; contentType: string; hash: string; version: string }): void {
      remove(key);
      // Copied out of the response's buffer, so the entry holds only its own bytes.
      const body = Buffer.from(page.body);
      if (body.byteLength + key.length > options.maxBytes || options.maxEntries < 1) return;
      const parts = splitAt(body, page.placeholder);
      const deflated = deflateParts(parts);
      const size = body.byteLength + deflated.reduce((sum, d) => sum + d.byteLength, 0) + key.length;
      if (size > options.maxBytes) return;
      const entry: StoredPage = {
        parts,
        deflated,
        contentType: page.contentType,
        hash: page.hash,
        version: page.version,
        storedAt: now(),
        bytes: size,
      };
      entries.set(key, entry);
      bytes += size;
      for (const oldest of entries.keys()) {
        if (entries.size <= options.maxEntries && bytes <= options.maxBytes) break;
        remove(oldest);
      }
    },
    clear(): void {
      entries.clear();
      bytes = 0;
    },
    stats(): { entries: number; bytes: number } {
      return { entries: entries.size, bytes };
    },
  };
}

export type PageStore = ReturnType<typeof createPageStore>;
