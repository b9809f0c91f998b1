import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestShop, type TestShop } from "../test/app.ts";
import { IMMUTABLE, loadStaticFiles, PUBLIC_FILE, registerStaticFiles } from "./static-files.ts";

describe("the client build's files, from memory", () => {
  let root: string;
  let app: FastifyInstance;
  const script = Buffer.from(`export const greeting = ${JSON.stringify("hello ".repeat(400))};\n`);
  const file = (name: string) => readFileSync(path.join(root, name));
  const get = (url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") => app.inject({ method, url, headers });

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "tc-static-"));
    mkdirSync(path.join(root, "assets"));
    mkdirSync(path.join(root, ".vite"));
    writeFileSync(path.join(root, "assets/entry-Ab12Cd34.js"), script);
    writeFileSync(path.join(root, "assets/entry-Ab12Cd34.js.br"), brotliCompressSync(script));
    writeFileSync(path.join(root, "assets/entry-Ab12Cd34.js.gz"), gzipSync(script));
    writeFileSync(path.join(root, "assets/big-Zz99.js"), Buffer.alloc(8192, "a"));
    writeFileSync(path.join(root, "favicon.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(root, ".vite/manifest.json"), "{}");
    writeFileSync(path.join(root, "notes.unknown"), "no type");
    app = Fastify({ logger: false });
    registerStaticFiles(app, loadStaticFiles(root, { maxFileBytes: 1024 * 1024 }));
    // Stands in for the adapter: whatever the files do not answer comes here.
    app.get("*", async (request, reply) => reply.code(404).send(`adapter: ${request.url}`));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("loads each file once with its copies, and leaves out dotfiles, unknown types and files over the cap", () => {
    const files = loadStaticFiles(root, { maxFileBytes: 4096 });
    expect([...files.keys()].sort()).toEqual(["/assets/entry-Ab12Cd34.js", "/favicon.svg"]);
    const entry = files.get("/assets/entry-Ab12Cd34.js")!;
    expect(Object.keys(entry.variants).sort()).toEqual(["br", "gzip", "identity"]);
    expect(files.get("/favicon.svg")!.variants).not.toHaveProperty("br");
  });

  it("sends brotli when the client takes it, then gzip, else the file as built, each byte for byte", async () => {
    const br = await get("/assets/entry-Ab12Cd34.js", { "accept-encoding": "gzip, deflate, br" });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.rawPayload.equals(file("assets/entry-Ab12Cd34.js.br"))).toBe(true);
    expect(brotliDecompressSync(br.rawPayload).equals(script)).toBe(true);
    expect(br.headers["content-length"]).toBe(String(file("assets/entry-Ab12Cd34.js.br").length));
    expect(br.headers["content-type"]).toBe("application/javascript; charset=utf-8");
    expect(br.headers.vary).toBe("accept-encoding");

    const gzip = await get("/assets/entry-Ab12Cd34.js", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.rawPayload.equals(file("assets/entry-Ab12Cd34.js.gz"))).toBe(true);

    for (const accepted of [undefined, "identity", "br;q=0, gzip;q=0", "*;q=0", "deflate"]) {
      const plain = await get("/assets/entry-Ab12Cd34.js", accepted === undefined ? {} : { "accept-encoding": accepted });
      expect(plain.headers["content-encoding"], accepted).toBeUndefined();
      expect(plain.rawPayload.equals(script), accepted).toBe(true);
      expect(plain.headers.vary).toBe("accept-encoding");
    }
    expect((await get("/assets/entry-Ab12Cd34.js", { "accept-encoding": "br;q=0, gzip;q=0.5" })).headers["content-encoding"]).toBe("gzip");
    expect((await get("/assets/entry-Ab12Cd34.js", { "accept-encoding": "*" })).headers["content-encoding"]).toBe("br");
  });

  it("marks hashed assets immutable and the build's other files short-lived, without Vary when there is no copy", async () => {
    expect((await get("/assets/entry-Ab12Cd34.js")).headers["cache-control"]).toBe(IMMUTABLE);
    const icon = await get("/favicon.svg?v=2", { "accept-encoding": "br, gzip" });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["cache-control"]).toBe(PUBLIC_FILE);
    expect(icon.headers["content-type"]).toBe("image/svg+xml");
    expect(icon.headers["content-encoding"]).toBeUndefined();
    expect(icon.headers.vary).toBeUndefined();
    expect(icon.rawPayload.equals(file("favicon.svg"))).toBe(true);
  });

  it("tags each encoding apart and answers 304 to the tag the client holds", async () => {
    const br = await get("/assets/entry-Ab12Cd34.js", { "accept-encoding": "br" });
    const plain = await get("/assets/entry-Ab12Cd34.js");
    expect(br.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(br.headers.etag).not.toBe(plain.headers.etag);

    const again = await get("/assets/entry-Ab12Cd34.js", { "accept-encoding": "br", "if-none-match": `"other", ${String(br.headers.etag)}` });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers["cache-control"]).toBe(IMMUTABLE);
    // The brotli copy's tag does not validate the gzip body.
    expect((await get("/assets/entry-Ab12Cd34.js", { "accept-encoding": "gzip", "if-none-match": String(br.headers.etag) })).statusCode).toBe(200);
  });

  it("answers HEAD with the GET's headers and no body", async () => {
    const head = await get("/assets/entry-Ab12Cd34.js", { "accept-encoding": "br" }, "HEAD");
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(String(file("assets/entry-Ab12Cd34.js.br").length));
  });

  it("leaves every other path to the adapter: unknown names, copies, dotfiles, traversal, a trailing slash, ranges, other methods", async () => {
    for (const url of ["/assets/missing-Ab12Cd34.js", "/assets/entry-Ab12Cd34.js.br", "/.vite/manifest.json", "/notes.unknown", "/assets/big-Zz99.js/", "/ASSETS/entry-Ab12Cd34.js"]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toMatch(/^adapter: /);
    }
    expect((await get("/assets/entry-Ab12Cd34.js", { range: "bytes=0-9" })).body).toMatch(/^adapter: /);
    expect((await app.inject({ method: "POST", url: "/assets/entry-Ab12Cd34.js" })).statusCode).toBe(404);
  });

  it("takes a path only as an exact name: dot segments sent as they are reach the adapter, never the disk", async () => {
    // Over a socket: inject and fetch resolve dot segments before sending.
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = new URL(address);
    const raw = (pathname: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        request({ host: "127.0.0.1", port, path: pathname }, (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        })
          .on("error", reject)
          .end();
      });
    for (const pathname of ["/assets/../favicon.svg", "/assets/../../package.json", "/assets/..%2Ffavicon.svg", "/assets/./entry-Ab12Cd34.js", "//favicon.svg"]) {
      const res = await raw(pathname);
      expect(res.status, pathname).toBe(404);
      expect(res.body, pathname).toBe(`adapter: ${pathname}`);
    }
    expect((await raw("/favicon.svg")).status).toBe(200);
  });
});

describe("the built storefront's files", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop({}, { storefront: { mode: "build" } });
    // Migrating, seeding and importing the build: slow on a busy machine.
  }, 180_000);
  afterAll(() => shop.close());

  it("sends a hashed script as the build's brotli copy, immutable, with the security headers every answer has", async () => {
    const assets = path.join(import.meta.dirname, "../../build/client/assets");
    const name = readdirSync(assets).find((f) => f.endsWith(".js") && readdirSync(assets).includes(`${f}.br`))!;
    const res = await shop.app.inject({ method: "GET", url: `/assets/${name}`, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe(IMMUTABLE);
    expect(res.rawPayload.equals(readFileSync(path.join(assets, `${name}.br`)))).toBe(true);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["x-request-id"]).toBeTruthy();
    const head = await shop.app.inject({ method: "HEAD", url: `/assets/${name}`, headers: { "accept-encoding": "br" } });
    expect(head.rawPayload.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(res.rawPayload.length));
  });

  it("serves the favicon from memory too, and leaves unknown asset names to the storefront's 404 page", async () => {
    const icon = await shop.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const missing = await shop.app.inject({ method: "GET", url: "/assets/missing-00000000.js" });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["content-type"]).toContain("text/html");
  });
});
