import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, CSRF_MAX_AGE_MS, type CookieJar, createApiClient, fieldMessage } from "./api-client.ts";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

// A real HTTP server: the client's requests cross a socket as in the browser.
let seen: Seen[] = [];
let handler: (req: Seen, res: ServerResponse) => void = (_req, res) => res.end();
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const entry = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
    seen.push(entry);
    handler(entry, res);
  });
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
});

/** A cookie jar fed by Set-Cookie, standing in for the browser's. */
function browserLike() {
  const cookies = new Map<string, string>();
  const jar: CookieJar = { get: (n) => cookies.get(n), set: (n, v) => void cookies.set(n, v) };
  const fetchWithCookies: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, value] = (pair ?? "").split("=");
      if (name) cookies.set(name, decodeURIComponent(value ?? ""));
    }
    return response;
  };
  return { jar, cookies, fetch: fetchWithCookies };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

describe("api client", () => {
  it("sends credentials, JSON and the bearer token, against the configured base URL", async () => {
    handler = (_req, res) => json(res, 200, { ok: true });
    const b = browserLike();
    const client = createApiClient({ baseUrl: `${base}/`, cookies: b.jar, fetch: b.fetch, getToken: () => "7|secret" });
    expect(await client.get("/api/user", { query: { a: 1, skip: undefined } })).toEqual({ ok: true });
    expect(seen[0]).toMatchObject({ method: "GET", url: "/api/user?a=1" });
    expect(seen[0]?.headers.authorization).toBe("Bearer 7|secret");
    expect(seen[0]?.headers.accept).toBe("application/json");
  });

  it("fetches the request-forgery cookie before a write and sends it as X-XSRF-TOKEN", async () => {
    handler = (req, res) => {
      if (req.url === "/sanctum/csrf-cookie") {
        res.writeHead(204, { "set-cookie": "XSRF-TOKEN=tok%3D1; Path=/; SameSite=Lax" });
        return res.end();
      }
      json(res, 201, { saved: req.body ? JSON.parse(req.body) : null });
    };
    const b = browserLike();
    let now = 1_000_000;
    const client = createApiClient({ baseUrl: base, cookies: b.jar, fetch: b.fetch, now: () => now });
    expect(await client.post("/api/basket", { product_id: 1, quantity: 2 })).toEqual({ saved: { product_id: 1, quantity: 2 } });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["GET /sanctum/csrf-cookie", "POST /api/basket"]);
    expect(seen[1]?.headers["x-xsrf-token"]).toBe("tok=1");
    expect(seen[1]?.headers["content-type"]).toBe("application/json");

    // Reused while younger than 5 minutes, fetched again after.
    seen = [];
    now += CSRF_MAX_AGE_MS - 1;
    await client.delete("/api/basket/1");
    expect(seen.map((s) => s.url)).toEqual(["/api/basket/1"]);
    seen = [];
    now += 2;
    await client.put("/api/basket/1", { quantity: 3 });
    expect(seen.map((s) => s.url)).toEqual(["/sanctum/csrf-cookie", "/api/basket/1"]);
  });

  it("sends a write refused as a forgery (419) once more with a fresh token, and no more than once", async () => {
    let issued = 0;
    let refuse = 1;
    handler = (req, res) => {
      if (req.url === "/sanctum/csrf-cookie") {
        issued += 1;
        res.writeHead(204, { "set-cookie": `XSRF-TOKEN=tok${issued}; Path=/; SameSite=Lax` });
        return res.end();
      }
      if (refuse-- > 0) return json(res, 419, { message: "CSRF token mismatch." });
      json(res, 200, { ok: true });
    };
    const b = browserLike();
    const client = createApiClient({ baseUrl: base, cookies: b.jar, fetch: b.fetch });
    expect(await client.post("/api/basket", { product_id: 1, quantity: 1 })).toEqual({ ok: true });
    expect(seen.map((s) => `${s.url} ${s.headers["x-xsrf-token"] ?? ""}`)).toEqual(["/sanctum/csrf-cookie ", "/api/basket tok1", "/sanctum/csrf-cookie ", "/api/basket tok2"]);
    // Refused again: the answer is the refusal, not a loop.
    seen = [];
    refuse = 2;
    await expect(client.post("/api/basket", { product_id: 1, quantity: 1 })).rejects.toMatchObject({ status: 419 });
    expect(seen.filter((s) => s.url === "/api/basket")).toHaveLength(2);
  });

  it("fetches one token for writes sent at the same moment, and sends it with each", async () => {
    let issued = 0;
    handler = (req, res) => {
      if (req.url === "/sanctum/csrf-cookie") {
        issued += 1;
        res.writeHead(204, { "set-cookie": `XSRF-TOKEN=tok${issued}; Path=/; SameSite=Lax` });
        return res.end();
      }
      json(res, 200, { ok: true });
    };
    const b = browserLike();
    const client = createApiClient({ baseUrl: base, cookies: b.jar, fetch: b.fetch });
    await Promise.all([client.post("/api/checkout/postcode-lookup", { postcode: "LS1 1AA" }), client.post("/api/checkout/postcode-suggestions", { query: "LS1" })]);
    expect(issued).toBe(1);
    const writes = seen.filter((s) => s.method === "POST");
    expect(writes.map((w) => w.headers["x-xsrf-token"])).toEqual(["tok1", "tok1"]);
  });

  it("retries a GET once, at once, after a 5xx", async () => {
    let calls = 0;
    handler = (_req, res) => (++calls === 1 ? json(res, 503, { message: "busy" }) : json(res, 200, { ok: calls }));
    const b = browserLike();
    const client = createApiClient({ baseUrl: base, cookies: b.jar, fetch: b.fetch });
    expect(await client.get("/api/basket")).toEqual({ ok: 2 });
    expect(seen).toHaveLength(2);
  });

  it("retries a GET only once", async () => {
    handler = (_req, res) => json(res, 500, { message: "Server Error" });
    const b = browserLike();
    const client = createApiClient({ baseUrl: base, cookies: b.jar, fetch: b.fetch });
    await expect(client.get("/api/basket")).rejects.toMatchObject({ status: 500, message: "Server Error" });
    expect(seen).toHaveLength(2);
  });

  it("retries a GET after a network failure", async () => {
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      if (++calls === 1) throw new TypeError("fetch failed");
      return fetch(input, init);
    };
    handler = (_req, res) => json(res, 200, { ok: true });
    const client = createApiClient({ baseUrl: base, cookies: browserLike().jar, fetch: flaky });
    expect(await client.get("/api/basket")).toEqual({ ok: true });
    expect(calls).toBe(2);
  });

  it("never retries a write", async () => {
    handler = (req, res) =>
      req.url === "/sanctum/csrf-cookie" ? (res.writeHead(204, { "set-cookie": "XSRF-TOKEN=t" }), res.end()) : json(res, 503, { message: "busy" });
    const b = browserLike();
    const client = createApiClient({ baseUrl: base, cookies: b.jar, fetch: b.fetch });
    await expect(client.post("/api/checkout", {})).rejects.toBeInstanceOf(ApiError);
    expect(seen.filter((s) => s.method === "POST")).toHaveLength(1);
  });

  it("turns a 422 into field errors joined with spaces", async () => {
    handler = (req, res) =>
      req.url === "/sanctum/csrf-cookie"
        ? (res.writeHead(204, { "set-cookie": "XSRF-TOKEN=t" }), res.end())
        : json(res, 422, { message: "Only 3 left in stock.", errors: { quantity: ["Only 3 left in stock.", "Really."] } });
    const b = browserLike();
    const client = createApiClient({ baseUrl: base, cookies: b.jar, fetch: b.fetch });
    const error = await client.post("/api/basket", { quantity: 9 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect(fieldMessage((error as ApiError).errors, "quantity")).toBe("Only 3 left in stock. Really.");
    expect(fieldMessage((error as ApiError).errors, "other")).toBeUndefined();
  });

  it("answers undefined for an empty 204 (signed out)", async () => {
    handler = (_req, res) => (res.writeHead(204), res.end());
    const client = createApiClient({ baseUrl: base, cookies: browserLike().jar });
    expect(await client.get("/api/user")).toBeUndefined();
  });
});
