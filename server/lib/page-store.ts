import { createHash } from "node:crypto";

/**
 * The visitor page cache's memory (ADR 0025): whole responses kept with the CSP
 * nonce as a placeholder, bounded by entries and bytes, least recently used
 * first out. Freshness is not decided here: an entry carries the page version
 * it was rendered at and the caller compares it with the current one.
 */
export interface StoredPage {
  /** The body cut at every nonce placeholder: a fresh nonce goes between the parts. */
  parts: Buffer[];
  contentType: string;
  /** A weak validator: bodies differ by their nonce, byte for byte. */
  etag: string;
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

export function pageEtag(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
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
    set(key: string, page: { body: Buffer; placeholder: string; contentType: string; etag: string; version: string }): void {
      remove(key);
      // Copied out of the response's buffer, so the entry holds only its own bytes.
      const body = Buffer.from(page.body);
      const size = body.byteLength + key.length;
      if (size > options.maxBytes || options.maxEntries < 1) return;
      const entry: StoredPage = {
        parts: splitAt(body, page.placeholder),
        contentType: page.contentType,
        etag: page.etag,
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
