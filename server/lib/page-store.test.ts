import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32 } from "node:zlib";
import { compressParts, crcCombine, crcShift, createPageStore, gzipWithNonce, splitAt, withNonce } from "./page-store.ts";

const page = (body: string, version = "1") => ({ body: Buffer.from(body), placeholder: "PH", contentType: "text/html", hash: "x", version });

describe("page store", () => {
  it("puts a nonce where each placeholder was, plain and gzipped", () => {
    const store = createPageStore({ maxEntries: 10, maxBytes: 1 << 20, ttlMs: 1000 });
    const html = `<script nonce="PH">a</script>${"<p>filler</p>".repeat(5000)}<script nonce="PH">b</script>PH`;
    store.set("k", page(html));
    const kept = store.get("k", "1")!;
    expect(withNonce(kept.parts, "N0nce").toString()).toBe(html.replaceAll("PH", "N0nce"));
    const gz = gzipWithNonce(kept, "An0therNonce+/An0therN==");
    expect(gunzipSync(gz).toString()).toBe(html.replaceAll("PH", "An0therNonce+/An0therN=="));
    expect(gz.byteLength).toBeLessThan(html.length / 10);
    const plain = splitAt(Buffer.from("no placeholder"), "PH");
    expect(gunzipSync(gzipWithNonce({ parts: plain, ...compressParts(plain) }, "x".repeat(24))).toString()).toBe("no placeholder");
    expect(() => gzipWithNonce(kept, "short")).toThrow();
  });

  it("refers back across nonces only where it is safe", () => {
    // Repeats across the placeholder compress against the text before it.
    const html = `${"<li>the same card again</li>".repeat(300)}<script nonce="PH"></script>${"<li>the same card again</li>".repeat(300)}PH<p>end</p>`;
    const parts = splitAt(Buffer.from(html), "PH");
    const gz = gzipWithNonce({ parts, ...compressParts(parts) }, "0123456789abcdefghijklm=");
    expect(gunzipSync(gz).toString()).toBe(html.replaceAll("PH", "0123456789abcdefghijklm="));
    // A zero byte in the page: no dictionary, still right.
    const odd = splitAt(Buffer.from(`a\0b${"x".repeat(100)}PH${"x".repeat(100)}\0`), "PH");
    const oddGz = gzipWithNonce({ parts: odd, ...compressParts(odd) }, "0".repeat(24));
    expect(gunzipSync(oddGz).toString()).toBe(`a\0b${"x".repeat(100)}${"0".repeat(24)}${"x".repeat(100)}\0`);
  });

  it("combines CRC-32s as zlib does", () => {
    const a = Buffer.from("The quick brown fox ");
    const b = Buffer.from("jumps over the lazy dog".repeat(1000));
    expect(crcCombine(crc32(a), crc32(b), crcShift(b.length))).toBe(crc32(Buffer.concat([a, b])));
    expect(crcCombine(0, crc32(b), crcShift(b.length))).toBe(crc32(b));
    expect(crcCombine(crc32(a), crc32(Buffer.alloc(0)), crcShift(0))).toBe(crc32(a));
  });

  it("forgets an entry of another version, or older than its time to live", () => {
    let now = 0;
    const store = createPageStore({ maxEntries: 10, maxBytes: 1 << 20, ttlMs: 1000, now: () => now });
    store.set("k", page("a"));
    expect(store.get("k", "2")).toBeUndefined();
    expect(store.get("k", "1")).toBeUndefined();
    store.set("k", page("a"));
    now = 1001;
    expect(store.get("k", "1")).toBeUndefined();
    expect(store.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  it("keeps within its entries and bytes, the least recently used out first", () => {
    const store = createPageStore({ maxEntries: 3, maxBytes: 10_000, ttlMs: 60_000 });
    for (const key of ["a", "b", "c"]) store.set(key, page(key.repeat(100)));
    store.get("a", "1");
    store.set("d", page("d".repeat(100)));
    expect(store.get("b", "1")).toBeUndefined();
    expect(store.get("a", "1")).toBeDefined();
    expect(store.stats().entries).toBe(3);
    // Random bytes do not compress: each entry holds about twice its body.
    const noise = () => Array.from({ length: 2000 }, () => String.fromCharCode(33 + Math.floor(Math.random() * 90))).join("");
    for (let i = 0; i < 10; i++) store.set(`n${i}`, page(noise()));
    expect(store.stats().bytes).toBeLessThanOrEqual(10_000);
    expect(store.stats().entries).toBeLessThan(3);
    store.set("huge", page(noise().repeat(10)));
    expect(store.get("huge", "1")).toBeUndefined();
  });
});
