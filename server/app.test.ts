import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { HttpError, ValidationError } from "./http-errors.ts";
import { SESSION_COOKIE } from "./plugins/auth.ts";
import { GUEST_COOKIE } from "./plugins/guest.ts";
import { createTestShop, type TestShop, testShopForFile } from "./test/app.ts";

const shop = testShopForFile({ shop: { beforeReady: testRoutes } });
let logged: unknown[] = [];

// Routes that exist only in this test, to drive the shared error handling.
function testRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/api/test/echo",
    { schema: { body: z.object({ quantity: z.number().int().min(1, "The quantity must be at least 1."), email: z.email("Enter a valid email.") }) } },
    async (request) => ({ quantity: request.body.quantity }),
  );
  r.get("/api/test/boom", async () => {
    throw new Error("secret database detail: password=hunter2");
  });
  r.get("/api/test/teapot", async () => {
    throw new HttpError(409, "That basket changed; reload it.");
  });
  r.get("/api/test/service-validation", async () => {
    throw new ValidationError({ quantity: ["Only 3 left in stock."] });
  });
  app.addHook("onError", async (_request, _reply, error) => {
    logged.push(error);
  });
}

describe("health", () => {
  it("GET /healthz answers while the process is up", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("GET /readyz answers when the database does", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ready", database: shop().database.kind, redis: "not used" });
  });

  it("GET /api/build publishes the build id", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/build" });
    expect(res.statusCode).toBe(200);
    expect(res.json().buildId).toMatch(/^(dev|[0-9a-f]{12})$/);
  });
});

describe("errors", () => {
  it("answers unknown API paths with 404 JSON", async () => {
    for (const url of ["/api/nothing-here", "/api/a/b/c?x=1", "/sanctum/nope"]) {
      const res = await shop().app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      expect(res.json()).toEqual({ message: "Not Found" });
    }
    const post = await shop().app.inject({ method: "POST", url: "/api/nothing-here", payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it("answers a schema failure with 422 {message, errors: {field: [..]}}", async () => {
    const res = await shop().app.inject({ method: "POST", url: "/api/test/echo", payload: { quantity: 0, email: "nope" } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: "The quantity must be at least 1. (and 1 more error)",
      errors: { quantity: ["The quantity must be at least 1."], email: ["Enter a valid email."] },
    });
  });

  it("answers a service's validation failure with the same 422 shape", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/test/service-validation" });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: "Only 3 left in stock.", errors: { quantity: ["Only 3 left in stock."] } });
  });

  it("ignores unknown fields rather than failing", async () => {
    const res = await shop().app.inject({ method: "POST", url: "/api/test/echo", payload: { quantity: 2, email: "a@b.co", admin: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ quantity: 2 });
  });

  it("answers malformed JSON with 400 and a message", async () => {
    const res = await shop().app.inject({
      method: "POST",
      url: "/api/test/echo",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe("string");
  });

  it("refuses a body over the size limit", async () => {
    const res = await shop().app.inject({
      method: "POST",
      url: "/api/test/echo",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ pad: "x".repeat(1_100_000) }),
    });
    expect(res.statusCode).toBe(413);
  });

  it("keeps a client error's own message", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/test/teapot" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: "That basket changed; reload it." });
  });

  it("answers an unexpected error with 500 Server Error and never its internals", async () => {
    logged = [];
    const res = await shop().app.inject({ method: "GET", url: "/api/test/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: "Server Error" });
    expect(res.body).not.toContain("hunter2");
    expect(res.body).not.toContain("stack");
    expect(logged).toHaveLength(1);
  });
});

describe("compression", () => {
  it("sends JSON brotli- or gzip-compressed as the client accepts, and plain otherwise", async () => {
    // Not a catalogue read: visitors' catalogue JSON comes from the page cache, gzipped (page-cache.test.ts).
    const url = "/api/hire?per_page=24";
    const br = await shop().app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
    const gzip = await shop().app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
    const plain = await shop().app.inject({ method: "GET", url, headers: { "accept-encoding": "identity" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it("leaves small answers alone", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/healthz", headers: { "accept-encoding": "br" } });
    expect(res.headers["content-encoding"]).toBeUndefined();
  });
});

describe("headers", () => {
  // The production rules (HSTS, Secure cookies): one shop for the tests that need them.
  let production: TestShop;
  beforeAll(async () => {
    production = await createTestShop({ NODE_ENV: "production", COOKIE_SECRET: "p".repeat(32) });
  });
  afterAll(() => production?.close());

  it("sets the security headers with a fresh CSP nonce per request", async () => {
    const a = await shop().app.inject({ method: "GET", url: "/healthz" });
    const b = await shop().app.inject({ method: "GET", url: "/healthz" });
    const csp = String(a.headers["content-security-policy"]);
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(csp).not.toContain("unsafe-inline' 'unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(b.headers["content-security-policy"]).not.toBe(csp);
    expect(a.headers["x-content-type-options"]).toBe("nosniff");
    expect(a.headers["x-frame-options"]).toBe("DENY");
    expect(a.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    // HSTS only in production.
    expect(a.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends HSTS in production", async () => {
    const res = await production.app.inject({ method: "GET", url: "/healthz" });
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });

  it("sets the session, CSRF and guest cookies Secure, HttpOnly where scripts need not read them, and SameSite=Lax in production", async () => {
    const csrf = await production.app.inject({ method: "GET", url: "/sanctum/csrf-cookie" });
    const xsrf = csrf.cookies.find((c) => c.name === "XSRF-TOKEN")!;
    expect(xsrf).toMatchObject({ secure: true, sameSite: "Lax" });
    // The page's script reads the CSRF token to send it back as a header.
    expect(xsrf.httpOnly).toBeFalsy();
    const cookie = `XSRF-TOKEN=${encodeURIComponent(xsrf.value)}`;
    const login = await production.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { cookie, "x-xsrf-token": xsrf.value },
      payload: { email: "customer@example.com", password: "demo-password-2026" },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax" });
    // A visitor's basket is theirs by a guest cookie, given with their first write.
    const added = await production.app.inject({ method: "POST", url: "/api/basket", headers: { cookie, "x-xsrf-token": xsrf.value }, payload: { product_id: 1, quantity: 1 } });
    expect(added.cookies.find((c) => c.name === GUEST_COOKIE), added.body).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax" });
  });

  it("gives every response a request id, keeping a well-formed incoming one", async () => {
    const own = await shop().app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": "trace-1234abcd" } });
    expect(own.headers["x-request-id"]).toBe("trace-1234abcd");
    const bad = await shop().app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": "<script>" } });
    expect(bad.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("route rules", () => {
  it("redirects a configured path before anything renders", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/kitchens?ref=mail" });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe("/kitchens-and-bathrooms?ref=mail");
  });

  it("sends an external rule off the site", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/companies-house" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^https:\/\//);
  });

  it("carries the rest of the path over on a prefix rule", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/categories/power-tools/saws" });
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe("/category/power-tools/saws");
  });
});

describe("API documentation", () => {
  it("publishes an OpenAPI document generated from the schemas", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/healthz", "/readyz", "/api/build", "/api/categories"]));
    expect(doc.paths["/api/categories"].get.responses["200"]).toBeDefined();
  });

  it("serves a reference page that needs no script", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/docs" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain("/api/categories");
    expect(res.body).not.toContain("<script");
  });
});

describe("GET /api/categories", () => {
  it("answers the seeded tree, several levels deep", async () => {
    const res = await shop().app.inject({ method: "GET", url: "/api/categories" });
    expect(res.statusCode).toBe(200);
    const tree = res.json().data as { path: string; children: { path: string; children: { path: string }[] }[] }[];
    const power = tree.find((c) => c.path === "power-tools");
    const drills = power?.children.find((c) => c.path === "power-tools/cordless-drills");
    expect(drills?.children.map((c) => c.path)).toContain("power-tools/cordless-drills/combi-drills");
  });
});
