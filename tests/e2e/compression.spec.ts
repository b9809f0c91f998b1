// What the production server sends over the wire: pages compressed per
// request, and the build's files as the brotli and gzip copies written at
// build time (scripts/lib/precompress.ts), far smaller than the files.
import { statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { root } from "./server-process.ts";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
  body: string;
}

/** One GET with the given Accept-Encoding, the body left as it came (no decompression). */
function rawGet(url: string, acceptEncoding: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: body.length, body: body.toString("latin1") });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

test("pages, JSON and the build's scripts and styles travel compressed", async ({ baseURL }) => {
  const page = await rawGet(`${baseURL}/`, "identity");
  expect(page.status).toBe(200);
  // A visitor's page comes from the page cache gzipped once (ADR 0025); a rendered one in brotli.
  const pageBr = await rawGet(`${baseURL}/`, "gzip, deflate, br");
  expect(pageBr.headers["content-encoding"]).toMatch(/^(br|gzip)$/);
  expect(pageBr.bytes).toBeLessThan(page.bytes / 4);

  const json = await rawGet(`${baseURL}/api/categories`, "gzip");
  expect(json.headers["content-encoding"]).toBe("gzip");

  // Every script and stylesheet the home page loads.
  const assets = [...page.body.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  expect(assets.length).toBeGreaterThan(5);
  for (const asset of assets) {
    const onDisk = statSync(path.join(root, "build/client", asset)).size;
    if (onDisk < 1024) continue;
    const br = await rawGet(`${baseURL}${asset}`, "gzip, deflate, br");
    expect(br.headers["content-encoding"], asset).toBe("br");
    expect(br.headers["cache-control"], asset).toContain("immutable");
    expect(br.bytes, asset).toBeLessThan(onDisk * 0.6);
    const gzip = await rawGet(`${baseURL}${asset}`, "gzip");
    expect(gzip.headers["content-encoding"], asset).toBe("gzip");
  }
});
