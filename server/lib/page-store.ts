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
  /** Each part's CRC-32 and the operator that shifts a CRC past it: a hit never reads the body to check-sum it. */
  crcs: { crc: number; shift: number; length: number }[];
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

// CRC-32 of a concatenation from the CRCs of its pieces, as zlib's crc32_combine:
// crc(A + B) = (x^(8 * length of B) mod P) * crc(A) + crc(B), polynomials over GF(2).
const POLY = 0xedb88320;
function multiplyModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}
const X2N: number[] = [];
for (let n = 0, p = 0x40000000; n < 32; n++) {
  X2N.push(p);
  p = multiplyModP(p, p);
}
/** x^(8 * bytes) mod P: multiplying a CRC by it moves the CRC past that many bytes. */
export function crcShift(bytes: number): number {
  let p = 0x80000000;
  for (let n = bytes, k = 3; n > 0; n = Math.floor(n / 2), k++) {
    if (n & 1) p = multiplyModP(X2N[k & 31]!, p);
  }
  return p;
}
export function crcCombine(first: number, second: number, secondShift: number): number {
  return (multiplyModP(secondShift, first) ^ second) >>> 0;
}

/** The length of every nonce: 16 random bytes in base64. */
export const NONCE_LENGTH = 24;

/**
 * Each part deflated on its own, ending on a byte boundary (a sync flush), the
 * last one final. A fresh nonce then goes between them as a stored deflate
 * block, so a kept page is compressed once, not per response.
 *
 * Each part may refer back to the text before it (the dictionary), with
 * NONCE_LENGTH zero bytes where a nonce will be: the distances come out right,
 * and a page with no zero byte in it can never match those bytes, so no
 * reference reaches into a nonce. A page that holds a zero byte goes without.
 */
export function deflateParts(parts: Buffer[]): Buffer[] {
  const chained = !parts.some((part) => part.includes(0));
  let before = Buffer.alloc(0);
  return parts.map((part, i) => {
    const options = { level: 9, finishFlush: i === parts.length - 1 ? constants.Z_FINISH : constants.Z_SYNC_FLUSH };
    const deflated = chained && before.length > 0 ? deflateRawSync(part, { ...options, dictionary: before }) : deflateRawSync(part, options);
    // The window is 32 KiB: more dictionary than that is never used.
    if (chained) before = Buffer.concat([before, part, Buffer.alloc(NONCE_LENGTH)]).subarray(-32_768);
    return deflated;
  });
}

/** The gzip stream of the body with `nonce` in every place the placeholder was. */
export function gzipWithNonce(page: Pick<StoredPage, "parts" | "deflated" | "crcs">, nonce: string): Buffer {
  const value = Buffer.from(nonce);
  // The parts were compressed for a nonce of this length (see deflateParts).
  if (value.length !== NONCE_LENGTH) throw new Error(`A nonce is ${NONCE_LENGTH} bytes.`);
  // A stored block: not final, no compression; LEN and its ones' complement, little-endian.
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(value.length, 1);
  stored.writeUInt16LE(~value.length & 0xffff, 3);
  const nonceCrc = crc32(value);
  const nonceShift = crcShift(value.length);
  const pieces: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  page.crcs.forEach((part, i) => {
    if (i > 0) {
      pieces.push(stored, value);
      crc = crcCombine(crc, nonceCrc, nonceShift);
      size += value.length;
    }
    pieces.push(page.deflated[i]!);
    crc = crcCombine(crc, part.crc, part.shift);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  pieces.push(trailer);
  return Buffer.concat(pieces);
}

/** What a kept page needs besides its parts: computed once, when it is kept. */
export function compressParts(parts: Buffer[]): Pick<StoredPage, "deflated" | "crcs"> {
  return { deflated: deflateParts(parts), crcs: parts.map((part) => ({ crc: crc32(part), shift: crcShift(part.length), length: part.length })) };
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
      const { deflated, crcs } = compressParts(parts);
      const size = body.byteLength + deflated.reduce((sum, d) => sum + d.byteLength, 0) + key.length;
      if (size > options.maxBytes) return;
      const entry: StoredPage = {
        parts,
        deflated,
        crcs,
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
