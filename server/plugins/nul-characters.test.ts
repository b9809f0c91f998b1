// Found by the hostile-input tests (issue 9): a NUL in a path, query or body
// reached PostgreSQL, which refuses it in text (22021), and the API answered 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestShop, type TestShop } from "../test/app.ts";
import { TestBrowser } from "../test/browser.ts";
import { NUL_MESSAGE, fieldsWithNul } from "./nul-characters.ts";

describe("fieldsWithNul", () => {
  it("names each field with a NUL in its text or its key, dotted as schema errors are", () => {
    expect(fieldsWithNul({ a: "ok", b: "x\u0000", c: { d: ["fine", "\u0000"] }, "e\u0000": 1 }, "").sort()).toEqual(["b", "c.d.1", "e\u0000"]);
    expect(fieldsWithNul("\u0000", "")).toEqual([""]);
    expect(fieldsWithNul(null, "")).toEqual([]);
  });

  it("walks a body nested far deeper than the call stack", () => {
    const deep = JSON.parse(`${"[".repeat(200_000)}"\\u0000"${"]".repeat(200_000)}`) as unknown;
    expect(fieldsWithNul(deep, "")).toHaveLength(1);
  });
});

describe("a NUL in a request", () => {
  let shop: TestShop;
  let browser: TestBrowser;
  beforeAll(async () => {
    shop = await createTestShop();
    browser = new TestBrowser(shop.app);
    await browser.csrf();
  });
  afterAll(() => shop.close());

  it.each([
    ["a path parameter", "GET", "/api/products/%00", undefined, "slug"],
    ["a query parameter", "GET", "/api/products?q=drill%00", undefined, "q"],
    ["a body field", "POST", "/api/auth/login", { email: "a@b.co", password: "pass\u0000word" }, "password"],
    ["a nested body field", "POST", "/api/enquiries", { type: "general", name: "A", email: "a@b.co", message: ["\u0000"] }, "message.0"],
  ] as const)("answers 422 for %s", async (_where, method, url, body, field) => {
    const res = await browser.request(method, url, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: NUL_MESSAGE, errors: { [field]: [NUL_MESSAGE] } });
  });

  it("names a field called __proto__ as the request's, and answers 422", async () => {
    const res = await browser.get("/api/account?__proto__=%00");
    expect(res.statusCode).toBe(422);
    const body = res.json() as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe(NUL_MESSAGE);
    expect(Object.entries(body.errors)).toEqual([["request", [NUL_MESSAGE]]]);
  });

  it("lets the same requests through without it", async () => {
    expect((await browser.get("/api/products?q=drill")).statusCode).toBe(200);
    expect((await browser.get("/api/products/no-such-product")).statusCode).toBe(404);
  });
});

// Found by probing pages after the hostile-input tests: their loaders passed a NUL in the address to the services.
describe("a NUL in a page's address", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop({}, { storefront: { mode: "build" }, pageCache: false });
  }, 240_000);
  afterAll(() => shop.close());

  it.each(["/search?q=%00", "/hire?q=%00", "/hire/%00", "/products?q=a%00b"])("answers 400 for %s", async (url) => {
    expect((await shop.app.inject({ method: "GET", url })).statusCode).toBe(400);
  });

  it("serves the same pages without it", async () => {
    expect((await shop.app.inject({ method: "GET", url: "/search?q=drill" })).statusCode).toBe(200);
    expect((await shop.app.inject({ method: "GET", url: "/hire" })).statusCode).toBe(200);
  });
});
