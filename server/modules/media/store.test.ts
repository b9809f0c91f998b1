// Both adapters of the FileStore, proven the same way: the local folder on
// disk, and the S3 adapter (the real AWS SDK) against a real S3-compatible
// server on loopback (s3rver, keeping its objects in a temporary folder).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3FileStore } from "./s3-store.ts";
import { type FileStore, isSafeKey, localFileStore } from "./store.ts";

const HOSTILE_KEYS = ["../escape.webp", "photos/../../escape.webp", "/etc/passwd.png", "photos//a.webp", "photos/.hidden.webp", "photos\\a.webp", "Photos/A.WEBP", "photos/a.html", "photos/a.svg", "photos/a", "photos/a.webp\u0000.png", "photos/%2e%2e/a.webp", ""];

describe("file keys", () => {
  it("takes lower-case segments with a known extension only", () => {
    expect(isSafeKey("photos/k3x9/960w-ab12cd.webp")).toBe(true);
    expect(isSafeKey("originals/k3x9.jpg")).toBe(true);
    for (const key of HOSTILE_KEYS) expect(isSafeKey(key), key).toBe(false);
  });
});

function contract(name: string, open: () => FileStore) {
  describe(name, () => {
    it("puts, gets and deletes a file with its content type", async () => {
      const store = open();
      const bytes = Buffer.from([1, 2, 3, 4, 250]);
      await store.put("photos/abc/320w-0123.webp", bytes, "image/webp");
      expect(await store.get("photos/abc/320w-0123.webp")).toEqual({ bytes, contentType: "image/webp" });
      await store.put("photos/abc/320w-0123.webp", Buffer.from("again"), "image/webp");
      expect((await store.get("photos/abc/320w-0123.webp"))?.bytes.toString()).toBe("again");
      await store.delete("photos/abc/320w-0123.webp");
      expect(await store.get("photos/abc/320w-0123.webp")).toBeNull();
      await store.delete("photos/abc/320w-0123.webp");
    });

    it("answers null for an unknown key and refuses unsafe ones", async () => {
      const store = open();
      expect(await store.get("photos/none/1w-0.avif")).toBeNull();
      for (const key of HOSTILE_KEYS) {
        expect(await store.get(key), key).toBeNull();
        await expect(store.put(key, Buffer.from("x"), "image/webp"), key).rejects.toThrow(/Unsafe file key/);
      }
      // The type must be the extension's: nothing is stored to be served as something else.
      await expect(store.put("photos/a.webp", Buffer.from("<html>"), "text/html")).rejects.toThrow(/Unsafe file key/);
      await expect(store.put("photos/a.webp", Buffer.from("x"), "image/avif")).rejects.toThrow(/Unsafe file key/);
    });
  });
}

let root: string;
let s3Dir: string;
let server: S3rver;
let endpoint: string;
beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "tc-media-"));
  s3Dir = mkdtempSync(path.join(tmpdir(), "tc-s3rver-"));
  server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: "shop-photos", configs: [] }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(s3Dir, { recursive: true, force: true });
});

contract("the local folder", () => localFileStore(root));
contract("the S3 adapter against a local S3-compatible server", () =>
  s3FileStore({ bucket: "shop-photos", region: "eu-west-2", endpoint, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true }),
);

describe("the local folder on disk", () => {
  it("writes under its root only, and leaves no temporary files", async () => {
    const store = localFileStore(root);
    await store.put("photos/zz/640w-feed.avif", Buffer.from("avif"), "image/avif");
    expect(readdirSync(path.join(root, "photos/zz"))).toEqual(["640w-feed.avif"]);
    // A file outside the root is never reached, whatever the key says.
    writeFileSync(path.join(root, "..", "tc-outside.webp"), "secret");
    expect(await store.get("../tc-outside.webp")).toBeNull();
    rmSync(path.join(root, "..", "tc-outside.webp"));
  });
});

describe("the S3 adapter", () => {
  it("stores the object with its type and an immutable cache control, and reports a missing bucket", async () => {
    const store = s3FileStore({ bucket: "shop-photos", region: "eu-west-2", endpoint, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true });
    await store.put("photos/s3/960w-beef.webp", Buffer.from("webp"), "image/webp");
    const res = await fetch(`${endpoint}/shop-photos/photos/s3/960w-beef.webp`);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const missing = s3FileStore({ bucket: "no-such-bucket", region: "eu-west-2", endpoint, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true });
    await expect(missing.put("photos/a.webp", Buffer.from("x"), "image/webp")).rejects.toThrow(/bucket/i);
    store.close();
    missing.close();
  });
});
