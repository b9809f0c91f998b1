// The catalogue CSV's API over HTTP (issue 20): the export's headers and
// stream, the import's contract `{rows, created, updated, refused}`, the dry
// run, the background job with its progress, who may do what, and the 200 MB
// limit enforced on the upload's stream.
import { Readable } from "node:stream";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../../db/seed/index.ts";
import { registerErrorHandler } from "../../../plugins/errors.ts";
import { type TestBrowser } from "../../../test/browser.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { productVariants, products } from "../schema.ts";
import { createCatalogueCsv } from "./jobs.ts";
import { IMPORT_MAX_BYTES } from "./read.ts";
import { catalogueCsvRoutes } from "./routes.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";

const { as, shop } = staffTestShop("198.51.102");

/** A multipart/form-data body with one file field. */
function multipart(content: string | Buffer, filename = "products.csv", field = "file") {
  const boundary = "----tradecounter-test-boundary";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`),
    typeof content === "string" ? Buffer.from(content) : content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

function upload(b: TestBrowser, url: string, content: string | Buffer, filename?: string) {
  const { body, headers } = multipart(content, filename);
  return b.request("POST", url, body, { headers });
}

async function poll(b: TestBrowser, id: number) {
  for (let i = 0; i < 200; i++) {
    const res = await b.get(`/api/admin/products/imports/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const status = res.json();
    if (!["queued", "checking", "running"].includes(status.state)) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("The import did not finish");
}

describe("the catalogue CSV API", () => {
  it("exports the catalogue as a streamed CSV attachment to whoever may view the catalogue", async () => {
    const res = await as.warehouse.get("/api/admin/products/export.csv");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers["cache-control"]).toBe("no-store");
    // Streamed: no length known before the last batch.
    expect(res.headers["content-length"]).toBeUndefined();
    const lines = res.body.replace(/^\uFEFF/, "").trim().split(/\r?\n/);
    // The demo's four branches: each one's stock after the total (issue 30).
    expect(lines[0]).toMatch(/^sku,name,slug,status,price_ex_vat,was_price_ex_vat,vat_rate,stock,stock@leeds,stock@york,stock@harrogate,stock@manchester,reorder_level,brand,categories,/);
    // A row per variant on sale.
    expect(lines.length - 1).toBe(await shop().database.db.$count(productVariants, eq(productVariants.status, "active")));
    const filtered = await as.sales.get("/api/admin/products/export.csv?q=MAK-1001&status=");
    expect(filtered.body.replace(/^\uFEFF/, "").trim().split(/\r?\n/).slice(1).map((l) => l.split(",")[0])).toEqual(["MAK-1001"]);
    expect((await as.hire.get("/api/admin/products/export.csv")).statusCode).toBe(403);
    expect((await as.guest.get("/api/admin/products/export.csv")).statusCode).toBe(401);
    expect((await as.owner.get("/api/admin/products/export.csv?status=lost")).statusCode).toBe(422);
  });

  it("dry-runs the example file: the contract's keys, nothing written", async () => {
    const example = await as.manager.get("/api/admin/products/import/example.csv");
    expect(example.statusCode).toBe(200);
    const before = (await shop().database.db.select().from(products).where(eq(products.sku, "MAK-1001")))[0]!;
    const res = await upload(as.manager, "/api/admin/products/import?dry_run=1", example.body, "products-example.csv");
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ rows: 3, created: 2, updated: before.stock === 25 ? 0 : 1, refused: [], applied: false, dry_run: true });
    expect(Object.keys(report)).toEqual(expect.arrayContaining(["rows", "created", "updated", "refused"]));
    expect(await shop().database.db.$count(products, eq(products.sku, "EX-DRILL-18V"))).toBe(0);
  });

  it("dry-runs the variants example (docs/products-variants-example.csv): the demo's variants changed, a length added to the CLS, a decking board made in four variants, refused nowhere", async () => {
    const file = readFileSync(new URL("../../../../docs/products-variants-example.csv", import.meta.url), "utf8");
    const res = await upload(as.manager, "/api/admin/products/import?dry_run=1", file, "products-variants-example.csv");
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report.refused).toEqual([]);
    expect(report).toMatchObject({ rows: 10, created: 5, updated: 5, applied: false });
    const tiles = report.changes.find((c: { sku: string }) => c.sku === "TCL-PT6060");
    expect(tiles.fields).toEqual(expect.arrayContaining([{ field: "barcode", old: "", new: "5012345678900" }]));
    const length = report.changes.find((c: { sku: string }) => c.sku === "TCL-CLS3863-54M");
    expect(length).toMatchObject({ action: "create", fields: expect.arrayContaining([{ field: "variant", old: "", new: "Length 5.4 m" }]) });
    const decking = report.changes.find((c: { sku: string }) => c.sku === "TCL-DECK-24-GRN");
    expect(decking.fields).toEqual(expect.arrayContaining([{ field: "options", old: "", new: "Length: 2.4 m, 3.6 m; Finish: Green, Brown" }]));
  });

  it("applies a file all or nothing, and the valid rows only when asked; sales may not import", async () => {
    const file = "sku,name,price_ex_vat\nAPI-1,Api thing,3.00\nAPI-2,Api bad thing,free\n";
    const refused = await upload(as.manager, "/api/admin/products/import", file);
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ rows: 2, created: 0, updated: 0, applied: false, refused: [{ row: 3, column: "price_ex_vat", message: expect.any(String) }] });
    expect(await shop().database.db.$count(products, eq(products.sku, "API-1"))).toBe(0);
    const valid = await upload(as.manager, "/api/admin/products/import?valid_only=1", file);
    expect(valid.json()).toMatchObject({ rows: 2, created: 1, applied: true });
    expect(await shop().database.db.$count(products, eq(products.sku, "API-1"))).toBe(1);

    expect((await upload(as.sales, "/api/admin/products/import?dry_run=1", file)).statusCode).toBe(403);
    expect((await upload(as.warehouse, "/api/admin/products/import?dry_run=1", file)).statusCode).toBe(403);
    expect((await upload(as.guest, "/api/admin/products/import?dry_run=1", file)).statusCode).toBe(401);
    expect((await as.owner.post("/api/admin/products/import?dry_run=1", { file: "not multipart" })).statusCode).toBe(422);
    for (const payload of ["--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--", "", "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\nsku,na"]) {
      const res = await as.owner.request("POST", "/api/admin/products/import?dry_run=1", payload, { headers: { "content-type": "multipart/form-data; boundary=x" } });
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(422);
    }
  });

  it("documents every route under the tag admin: products", async () => {
    const doc = (await shop().app.inject({ url: "/api/openapi.json" })).json() as { paths: Record<string, Record<string, { tags: string[]; summary: string }>> };
    const mine = ["/api/admin/products/export.csv", "/api/admin/products/import", "/api/admin/products/imports", "/api/admin/products/imports/{id}", "/api/admin/products/imports/{id}/apply", "/api/admin/products/import/example.csv"];
    for (const path of mine) {
      for (const op of Object.values(doc.paths[path] ?? {})) {
        expect(op.tags, path).toEqual(["admin: products"]);
        expect(op.summary, path).toMatch(/catalogue\.(view|manage)/);
      }
      expect(Object.keys(doc.paths[path] ?? {}), path).not.toEqual([]);
    }
  });

  it("checks in the background, then applies the checked file, with progress readable throughout", async () => {
    const file = "sku,price_ex_vat,stock\nMAK-1001,77.70,31\n";
    const started = await upload(as.owner, "/api/admin/products/imports?dry_run=1", file);
    expect(started.statusCode, started.body).toBe(202);
    const checked = await poll(as.owner, started.json().id);
    expect(checked).toMatchObject({ state: "done", dry_run: true, rows_done: 1, rows_total: 1, can_apply: true, report: { rows: 1, updated: 1, applied: false } });
    expect(checked.report.changes[0].fields).toContainEqual({ field: "price_ex_vat", old: expect.any(String), new: "77.70" });

    const applying = await as.owner.post(`/api/admin/products/imports/${checked.id}/apply`);
    expect(applying.statusCode, applying.body).toBe(202);
    const done = await poll(as.owner, applying.json().id);
    expect(done).toMatchObject({ state: "done", dry_run: false, report: { applied: true, updated: 1 } });
    const [p] = await shop().database.db.select().from(products).where(eq(products.sku, "MAK-1001"));
    expect(p).toMatchObject({ pricePence: 7770, stock: 31 });
    // The checked file went to the import: it cannot be applied twice.
    expect((await as.owner.post(`/api/admin/products/imports/${checked.id}/apply`)).statusCode).toBe(409);
    expect((await as.sales.get(`/api/admin/products/imports/${checked.id}`)).statusCode).toBe(403);
    expect((await as.owner.get("/api/admin/products/imports/2147483647")).statusCode).toBe(404);
  });
});

describe("the upload limit", () => {
  it("is 200 MB", () => {
    expect(IMPORT_MAX_BYTES).toBe(200 * 1024 * 1024);
  });

  it("refuses a file over the limit while it streams in, keeping nothing", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tc-csv-limit-"));
    const app = Fastify({ bodyLimit: 1024 * 1024 });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app, "Test");
    const owner: StaffActor = { staffId: DEMO_STAFF.length, name: "Owner", email: "owner@example.com", role: "owner", via: "api" };
    app.decorateRequest("staffActor", null);
    app.addHook("onRequest", async (request) => {
      (request as unknown as { staffActor: StaffActor }).staffActor = owner;
    });
    const limit = 256 * 1024;
    await app.register(catalogueCsvRoutes, { csv: createCatalogueCsv(shop().database.db, { dataDir, sharedProgress: false, maxBytes: limit }), prefix: "/api" });
    await app.ready();
    const boundary = "----limit-boundary";
    let sent = 0;
    // 4 MB streamed in 64 KB chunks: never one buffer of the whole body.
    async function* body() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nsku,name\n`);
      const chunk = Buffer.from("BIG-1,a big file's row that goes on and on\n".repeat(1500));
      while (sent < 4 * 1024 * 1024) {
        sent += chunk.length;
        yield chunk;
      }
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const res = await app.inject({ method: "POST", url: "/api/admin/products/import?dry_run=1", payload: Readable.from(body()), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toMatch(/^The file is over 256 KB, the most an import takes/);
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(path.join(dataDir, "imports"))).toEqual([]);
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
