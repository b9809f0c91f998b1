// Hostile input against every route (issue 9): fast-check sends generated
// path parameters, query strings (repeated parameters too) and bodies to each
// operation of the server's own OpenAPI document, as a guest, a customer and
// a trade account's owner. Every answer must be a 2xx, 3xx or 4xx; afterwards
// the database must still hold its invariants.
//
// Reproducible by default (fixed seed, few runs per route); go deeper with
// FUZZ_RUNS=500 FUZZ_SEED=<n>, or FUZZ_ROUTE=<substring> for one route
// (FUZZ_SHRINK=1 to shrink a failure, FUZZ_STATS=1 for the statuses seen).
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMER } from "../db/seed/index.ts";
import { PASSWORD, tradeFixtures } from "../modules/trade/test-fixtures.ts";
import { createTestShop } from "./app.ts";
import { TestBrowser } from "./browser.ts";
import { databaseInvariantViolations } from "./invariants.ts";
import { type ApiOperation, type JsonSchema, type OpenApiParameter, apiOperations } from "./openapi.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const ONLY = process.env.FUZZ_ROUTE;
/** FUZZ_STATS=1 prints how each route answered, to see how far past validation the requests get. */
const STATS = !!process.env.FUZZ_STATS;

// The shop is built at collection time so that the routes, read from its
// OpenAPI document, can each be a test of their own.
const shop = await createTestShop();
afterAll(() => shop.close());
const operations = (await apiOperations(shop.app)).filter((op) => !ONLY || `${op.method} ${op.path}`.includes(ONLY));

/** FUZZ_SEED mixed with a name: reproducible, and different for each name. */
function seedFor(name: string): number {
  let h = SEED | 0;
  for (const c of name) h = Math.imul(h ^ c.codePointAt(0)!, 0x01000193);
  return h;
}

// ---------------------------------------------------------------------------
// Hostile values

const LONG = 10_001;
const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u0007\u001b[31m\u007f",
  "\r\n\t",
  "\u202eevil\u202c",
  "\ufeff",
  "\ud800",
  "\udfff\ud800",
  "🔥💩👨‍👩‍👧‍👦",
  "Ω≈ç√∫˜µ≤≥÷",
  "𝕿𝖊𝖘𝖙",
  "'",
  '"',
  "\\",
  "' OR '1'='1",
  "1; DROP TABLE products; --",
  "'); DELETE FROM orders; --",
  "1' UNION SELECT password_hash FROM users --",
  "%",
  "%25",
  "%00",
  "%zz",
  "_",
  "*",
  "..",
  "../../etc/passwd",
  "/",
  "a/b",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "{{7*7}}",
  "${7*7}",
  "__proto__",
  "constructor",
  "prototype",
  "__proto__:x",
  "constructor:prototype",
  "hasOwnProperty",
  "null",
  "undefined",
  "true",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "0",
  "-0",
  "1.5",
  "1e999",
  "-1e999",
  "0x1F",
  "9007199254740993",
  "2147483648",
  "99999999999999999999999",
  "2026-02-30",
  "2026-13-01",
  "0000-00-00",
  "9999-12-31",
  "1970-01-01",
  "2026-11-23T25:61:00Z",
  "x".repeat(LONG),
  "€".repeat(LONG),
  "\u0000".repeat(LONG),
];

const HOSTILE_NUMBERS = [
  -1,
  0,
  -0,
  0.5,
  1.5,
  0.001,
  -0.01,
  99.999,
  1e-7,
  Number.MIN_VALUE,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  1e308,
  -1e308,
];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  // Any code point, lone surrogates and control characters included.
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).map((s) => s.repeat(Math.ceil(LONG / s.length))) },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, fc.constantFrom(null, true, false));

/** An object with keys that poison prototypes when merged without care. */
const poisonedObject: fc.Arbitrary<Record<string, unknown>> = fc
  .record({ key: fc.constantFrom("__proto__", "constructor", "prototype", "$where", "$ne"), value: hostileScalar })
  .map(({ key, value }) => withKey({}, key, key === "constructor" ? { prototype: { isAdmin: true, polluted: value } } : { isAdmin: true, polluted: value }));

/** Sets `key` as an own property, so JSON.stringify writes it even when it is `__proto__`. */
function withKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

/** A value of any JSON type, most of them wrong for the field they land in. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: poisonedObject },
  { weight: 1, arbitrary: fc.constantFrom([], {}, [[[[[]]]]], { a: { b: { c: {} } } }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

// ---------------------------------------------------------------------------
// Plausible values: enough of a request is well-formed that the hostile part
// gets past validation's first refusal and into the services.

const isoDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Real values from the seeded shop for the fields whose names say what they are. */
const known: Record<string, readonly unknown[]> = {};

function plausibleString(name: string, schema: JsonSchema): fc.Arbitrary<string> {
  const real = known[name];
  if (real?.length) return fc.constantFrom(...(real as string[]));
  if (schema.format === "email" || /email/.test(name)) return fc.constantFrom(DEMO_CUSTOMER.email, "fuzz@example.com", "a@b.co");
  if (/date|^from$|^to$|^after$/.test(name)) return fc.integer({ min: -3, max: 60 }).map(isoDay);
  if (/postcode/.test(name)) return fc.constantFrom("LS1 4AP", "SW1A 1AA", "ls14ap", "BT1 1AA", "IV1 1AA");
  // Never the real password: a fuzzed password change must not lock the actor out.
  if (/password/.test(name)) return fc.constantFrom("not the password 1", "correct horse battery staple");
  if (/phone/.test(name)) return fc.constantFrom("0113 496 0123", "+44 (0)113 496 0000");
  const max = Math.min(schema.maxLength ?? 24, 24);
  const min = Math.min(schema.minLength ?? 0, max);
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    const longest = schema.maxLength ?? Infinity;
    // Matches are short, so a long minimum (a 20-character token) is reached by repeating one, which keeps a one-class
    // pattern matched; filtering alone would wait for ever for a long enough match.
    return fc
      .stringMatching(pattern)
      .map((v) => (v.length > 0 && v.length < min ? v.repeat(Math.ceil(min / v.length)).slice(0, Math.min(longest, min + v.length)) : v))
      .filter((v) => v.length >= min && v.length <= longest && pattern.test(v));
  }
  return fc.string({ minLength: Math.max(min, 1), maxLength: max });
}

function plausibleNumber(name: string, schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const real = known[name];
  if (real?.length) return fc.constantFrom(...(real as number[]));
  const min = Math.max(schema.minimum ?? 0, -5);
  const max = Math.max(min, Math.min(schema.maximum ?? 60, 5000));
  return integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.double({ min, max, noNaN: true }));
}

function plausible(name: string, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if ("const" in schema) return fc.constant(schema.const);
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants?.length) return fc.oneof(...variants.map((v) => plausible(name, v, depth)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return plausibleString(name, schema);
    case "integer":
      return plausibleNumber(name, schema, true);
    case "number":
      return plausibleNumber(name, schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(schema.items ? fieldValue(name, schema.items, depth + 1) : hostileValue, { maxLength: 4 });
    case "object":
      return objectOf(schema, depth + 1);
    default:
      return hostileValue;
  }
}

/** A value for a field: usually plausible for it, often hostile. */
function fieldValue(name: string, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return hostileScalar;
  return fc.oneof({ weight: 3, arbitrary: plausible(name, schema, depth) }, { weight: 2, arbitrary: hostileValue });
}

const EXTRA_KEYS = ["__proto__", "constructor", "id", "user_id", "role", "state", "credit_limit", "price", "stock", "is_admin"];

/**
 * The schema's own fields, then a few of them (or keys it does not have, such
 * as `__proto__`) set to hostile values. Mostly every field is there and
 * plausible but one or two, so the hostile ones get past the others' checks;
 * sometimes fields are missing and every field may be hostile.
 */
function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const keys = [...properties.map(([name]) => name), ...EXTRA_KEYS];
  const record = (field: (name: string, s: JsonSchema) => fc.Arbitrary<unknown>, complete: boolean) =>
    fc.record(Object.fromEntries(properties.map(([name, s]) => [name, field(name, s)])), { requiredKeys: complete ? (schema.required ?? []) : [] });
  return fc
    .tuple(
      fc.oneof(
        // Every required field, and optional ones or not.
        { weight: 3, arbitrary: record((name, s) => plausible(name, s, depth), true) },
        { weight: 1, arbitrary: record((name, s) => fieldValue(name, s, depth), false) },
      ),
      // Up to two hostile fields at the top; rarely one in a nested object, so that nested ones are not nearly always broken.
      depth <= 1
        ? fc.array(fc.tuple(fc.constantFrom(...keys), hostileValue), { maxLength: 2 })
        : fc.option(fc.tuple(fc.constantFrom(...keys), hostileValue), { freq: 4 }).map((c) => (c ? [c] : [])),
    )
    .map(([body, changes]) => changes.reduce((b, [key, value]) => withKey(b, key, value), { ...body } as Record<string, unknown>));
}

// ---------------------------------------------------------------------------
// Requests

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface FuzzRequest {
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Percent-encodes; a lone surrogate (which encodeURIComponent refuses) goes as bytes that are not UTF-8. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.toWellFormed())}%ED%A0%80`;
  }
}

/** How a generated value travels in a URL: a path segment or a query value is text. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** Path parameters: values plausible for the name, or hostile, or raw text that is not a clean segment. */
function pathArbitrary(op: ApiOperation): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const byName = (name: string) => op.parameters.find((p) => p.in === "path" && p.name === name)?.schema ?? { type: "string" };
  const segment = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fieldValue(name, byName(name), 0).map((v) => encode(asText(v))) },
      // Not encoded: slashes, dot segments, broken escapes, a NUL escape.
      { weight: 1, arbitrary: fc.constantFrom("..", "../..", "a/b", "%", "%zz", "%00", "%2e%2e", "%C0%AF", "x%ED%A0%80y", ";", "a;b=c", "~") },
    );
  return fc.tuple(...names.map(segment)).map((values) => {
    let i = 0;
    return op.path.replace(/\{[^}]+\}/g, () => values[i++] ?? "");
  });
}

/** A query string: declared parameters (each may repeat), array and object forms, and unknown keys. */
function queryArbitrary(params: OpenApiParameter[]): fc.Arbitrary<string> {
  const declared = params.filter((p) => p.in === "query");
  const pair = fc.oneof(
    ...(declared.length
      ? [
          {
            weight: 4,
            arbitrary: fc
              .tuple(fc.constantFrom(...declared), fc.constantFrom("", "[]", "[0]", "[__proto__]", "[$gt]"))
              .chain(([p, suffix]) => fieldValue(p.name, p.schema ?? { type: "string" }, 0).map((v) => `${encode(p.name)}${suffix ? encode(suffix) : ""}=${encode(asText(v))}`)),
          },
        ]
      : []),
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("__proto__", "constructor", "__proto__[polluted]", "constructor[prototype][polluted]", "x"), hostileString).map(([k, v]) => `${encode(k)}=${encode(v)}`) },
    { weight: 1, arbitrary: fc.constantFrom("&", "=", "==", "a", "%", "%zz=1", "q=%ED%A0%80", "page=1&page=2&page=3", "&&&") },
  );
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length ? `?${pairs.join("&")}` : ""));
}

const MALFORMED_JSON = ["{", '{"a":', "[", "nul", "{'a':1}", '{"a":1,}', '{"a":1}{"b":2}', "1e999", "-1e999", '"\\ud800"', "\u0000", "\ufeff{}", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", `${"[".repeat(5000)}${"]".repeat(5000)}`, `{"__proto__":{"isAdmin":true}}`, `{"constructor":{"prototype":{"isAdmin":true}}}`, `{"a":1,"a":2}`];

/** The body and its content type: JSON of the route's own fields, JSON of the wrong shape, broken JSON, or another media type. */
interface Body {
  contentType?: string;
  payload?: string;
}

function bodyArbitrary(op: ApiOperation): fc.Arbitrary<Body> {
  const json = (arb: fc.Arbitrary<unknown>) => arb.map((v) => ({ contentType: "application/json", payload: JSON.stringify(v) ?? "null" }));
  return fc.oneof(
    { weight: op.body ? 8 : 1, arbitrary: json(op.body ? plausible("body", op.body, 0) : fc.constant({})) },
    { weight: 1, arbitrary: json(hostileValue) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((payload) => ({ contentType: "application/json", payload })) },
    {
      weight: 1,
      arbitrary: fc.record({
        contentType: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=utf-16", "application/json; charset=\u00e9", "*/*", "application/jsonx", ""),
        payload: fc.constantFrom("a=1&b=2", "<a>1</a>", '{"email":"a@b.co"}', "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--", ""),
      }),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

/** Extra headers: the checkout's idempotency key and a few that parsers read. */
const headersArbitrary: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      "idempotency-key": fc.oneof(fc.constantFrom("", "a", "x".repeat(101), "key with spaces", "'; DROP TABLE orders; --", "valid-key-0001"), fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/)),
      accept: fc.constantFrom("application/json", "text/html", "*/*", "image/png", ""),
      "accept-language": fc.constantFrom("en-GB", "*", "x".repeat(500)),
    },
    { requiredKeys: [] },
  )
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== "")));

function requestArbitrary(op: ApiOperation): fc.Arbitrary<FuzzRequest> {
  const hasBody = op.method !== "GET";
  return fc
    .tuple(pathArbitrary(op), queryArbitrary(op.parameters), hasBody ? bodyArbitrary(op) : fc.constant<Body>({}), headersArbitrary)
    .map(([path, query, body, headers]) => ({
      url: path + query,
      headers: { ...headers, ...(body.contentType !== undefined ? { "content-type": body.contentType } : {}) },
      payload: body.payload,
    }));
}

// ---------------------------------------------------------------------------
// Actors

interface Actor {
  name: string;
  browser: TestBrowser;
  /** Signs in again (from a fresh address, past any lock the fuzzing earned) when a request signed the actor out. */
  restore(): Promise<void>;
}

let addresses = 0;
async function actor(name: string, credentials: { email: string; password: string } | null): Promise<Actor> {
  const who: Actor = {
    name,
    browser: new TestBrowser(shop.app),
    async restore() {
      addresses += 1;
      who.browser = new TestBrowser(shop.app, `198.51.${100 + Math.floor(addresses / 250)}.${addresses % 250}`);
      if (credentials) await who.browser.signIn(credentials.email, credentials.password);
      else await who.browser.csrf();
    },
  };
  await who.restore();
  return who;
}

/** Sends with the actor's cookies and CSRF header, without keeping what the answer sets, so one request cannot change who the next is. */
function send(who: Actor, method: Method, req: FuzzRequest): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...req.headers };
  const { cookies, ip } = who.browser;
  if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const xsrf = cookies.get("XSRF-TOKEN");
  if (method !== "GET" && xsrf) headers["x-xsrf-token"] = decodeURIComponent(xsrf);
  return shop.app.inject({ method, url: req.url, payload: req.payload, headers, remoteAddress: ip });
}

const guest = await actor("guest", null);
const customer = await actor("customer", DEMO_CUSTOMER);
// The owner of a fresh approved company: the demo one has an overdue invoice, so it could not buy on account.
const tradeOwner = (await tradeFixtures(() => shop).company("Fuzz Fitters Ltd")).owner;
const trade = await actor("trade owner", { email: tradeOwner.email, password: PASSWORD });
const ACTORS = [guest, customer, trade];

// Ids, slugs and choices that exist, so plausible requests reach real rows.
let fillBaskets: () => Promise<void>;
{
  const products = (await guest.browser.get("/api/products?per_page=48")).json() as { items: { id: number; slug: string }[] };
  const hire = (await guest.browser.get("/api/hire?per_page=48")).json() as { items: { id: number; slug: string }[] };
  const delivery = (await customer.browser.get("/api/checkout/delivery-options?postcode=LS1%204AP")).json() as { data: { delivery: { id: string }[] } };
  known.slug = [...products.items.map((p) => p.slug), ...hire.items.map((h) => h.slug)];
  known.product_id = products.items.map((p) => p.id);
  known.hire_item_id = hire.items.map((h) => h.id);
  known.delivery_method = delivery.data.delivery.map((m) => m.id);
  known.product_ids = [products.items.slice(0, 3).map((p) => p.id).join(","), "1,1,1,1,1", ",,,", "-1,0"];
  // Something in each actor's baskets before each route (an earlier route may have emptied them), so basket lines, checkout and hire requests have rows to work on.
  fillBaskets = async () => {
    for (const who of ACTORS) {
      if (who !== guest && (await who.browser.get("/api/user")).statusCode !== 200) await who.restore();
      for (const p of products.items.slice(0, 2)) await who.browser.post("/api/basket", { product_id: p.id, quantity: 1 });
      const h = hire.items[0];
      if (h) await who.browser.post("/api/hire-basket", { hire_item_id: h.id, quantity: 1, start_date: isoDay(7), end_date: isoDay(9) });
    }
  };
}

// ---------------------------------------------------------------------------

describe("hostile input to every route", () => {
  it("reads the routes from the OpenAPI document", () => {
    expect(operations.length).toBeGreaterThan(ONLY ? 0 : 50);
  });

  it("starts from a database that holds its invariants", async () => {
    expect(await databaseInvariantViolations(shop.database.db)).toEqual([]);
  });

  // Fuzzed bodies rarely make a whole order, so a few real ones give the invariants rows to hold for.
  it("places real orders, on account too, and a hire request", async () => {
    await fillBaskets();
    const collect = { delivery_method: "collect", collector_name: "Test Collector", billing_address: { line_1: "1 Park Row", town: "Leeds", postcode: "LS1 4AP" } };
    const paid = await customer.browser.post("/api/checkout", { ...collect, email: DEMO_CUSTOMER.email, payment_method: "pay_on_collection" });
    expect(paid.statusCode, paid.body).toBe(201);
    const onAccount = await trade.browser.post("/api/checkout", { ...collect, email: tradeOwner.email, payment_method: "pay_on_account", po_reference: "PO-FUZZ-1" });
    expect(onAccount.statusCode, onAccount.body).toBe(201);
    const hire = await customer.browser.post("/api/hire-requests", { name: "Sam Carter", email: DEMO_CUSTOMER.email, phone: "0113 496 0123", fulfilment: "collection" });
    expect(hire.statusCode, hire.body).toBe(201);
    expect(await databaseInvariantViolations(shop.database.db)).toEqual([]);
  });

  for (const op of operations) {
    it(`${op.method} ${op.path} never answers 5xx`, async () => {
      const seen: Record<number, number> = {};
      await fillBaskets();
      for (const [i, who] of ACTORS.entries()) {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(op), async (req) => {
            const res = await send(who, op.method as Method, req);
            seen[res.statusCode] = (seen[res.statusCode] ?? 0) + 1;
            const shown = { actor: who.name, method: op.method, url: req.url.slice(0, 300), headers: req.headers, payload: req.payload?.slice(0, 300), status: res.statusCode, answer: res.body.slice(0, 300) };
            expect(res.statusCode, JSON.stringify(shown)).toBeLessThan(500);
          }),
          // A seed of its own for each route and actor, so they do not all send the same requests.
          { seed: seedFor(`${i} ${op.method} ${op.path}`), numRuns: RUNS, endOnFailure: !process.env.FUZZ_SHRINK },
        );
        // A fuzzed sign-out must not change who the next route's requests come from.
        if (who !== guest && (await who.browser.get("/api/user")).statusCode !== 200) await who.restore();
      }
      if (STATS) console.log(`${op.method} ${op.path}`, JSON.stringify(seen));
    });
  }

  it("leaves the process answering and the database consistent", async () => {
    expect((await shop.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expect(await databaseInvariantViolations(shop.database.db)).toEqual([]);
  });
});
