// Over 500 lines: the authorisation matrix is one table of every API route by every actor, easier to audit whole than in parts.
// The authorisation matrix over every API route that is not a trade route
// (security issue; the trade routes have theirs in modules/trade/access.test.ts).
// The routes are read from the server's own OpenAPI document, so a route added
// without a row here, or in the trade matrix, fails the first test. Each row
// gives the status for each actor: a guest, customers A and B, a trade buyer,
// owner and accounts user of one company, and the owner of another. Customer A
// owns the rows under test (an address, orders, a wishlist item, basket and
// hire basket lines, a hire request); no answer to anyone else may carry A's
// distinctive strings, and nobody else's writes may change A's rows.
import { asc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { categories, manufacturers, products } from "./modules/catalog/schema.ts";
import { hireItems } from "./modules/hire/schema.ts";
import { loadQuote, snapshotOf } from "./modules/quotes/read.ts";
import { quoteRevisions, quotes } from "./modules/quotes/schema.ts";
import { addresses } from "./modules/account/schema.ts";
import { PASSWORD, type Person, tradeFixtures } from "./modules/trade/test-fixtures.ts";
import { ACTORS, type Actor, address, all, checkoutBody, day, signInActors } from "./test/actors.ts";
import { testShopForFile } from "./test/app.ts";
import { TestBrowser } from "./test/browser.ts";
import { apiOperations } from "./test/openapi.ts";

const shop = testShopForFile();

const fixtures = tradeFixtures(shop);
const { freshEmail, guest } = fixtures;

/** A's distinctive strings: only A's own answers may contain them. */
const A_LINE = "17 Quillfeather Mews";
const A_SITE = "Plot 9 Marrowbone Yard";
const A_NOTES = "Ask for Zebedee at the gate";

interface World {
  as: Record<Actor, TestBrowser>;
  people: Record<Exclude<Actor, "guest">, Person>;
  /** Two stocked products: `p1` sits in A's wishlist and basket; `p2` is for A's own churn. */
  p1: number;
  p2: number;
  /** `p2`'s SKU, for the quick order. */
  p2Sku: string;
  productSlug: string;
  categoryPath: string;
  manufacturerId: number;
  hireSlug: string;
  hireItemId: number;
  a: { addressId: number; orderId: number; orderNumber: string; hireRequest: string };
  /** The trade buyer's quotes: one sent, one expired. */
  quote: string;
  closedQuote: string;
  secrets: string[];
}

let hireWindow = 20;
/** A hire line in the actor's own hire basket, on dates of its own so units never run short. */
async function hireLine(w: World, b: TestBrowser): Promise<number> {
  const start = (hireWindow += 4);
  const res = await b.post("/api/hire-basket", { hire_item_id: w.hireItemId, quantity: 1, start_date: day(start), end_date: day(start + 1) });
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(300);
  const items = res.json().cart.items as { id: number }[];
  return items.at(-1)!.id;
}
/** A's basket line of `p1` (re-added if A emptied it). */
async function aBasketLine(w: World): Promise<number> {
  const cart = (await w.as["customer A"].get("/api/basket")).json().cart;
  const line = (cart.items as { cart_item_id: number; product_id: number }[]).find((i) => i.product_id === w.p1);
  if (line) return line.cart_item_id;
  const res = await w.as["customer A"].post("/api/basket", { product_id: w.p1, quantity: 2 });
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(300);
  return (res.json().cart.items as { cart_item_id: number; product_id: number }[]).find((i) => i.product_id === w.p1)!.cart_item_id;
}
const basketLines = async (w: World) => ((await w.as["customer A"].get("/api/basket")).json().cart.items as { cart_item_id: number; quantity: number }[]).map((i) => `${i.cart_item_id}x${i.quantity}`).sort();
const hireLines = async (w: World) => (await w.as["customer A"].get("/api/hire-basket")).json().cart.items as { id: number; quantity: number }[];
const wishlist = async (w: World) => ((await w.as["customer A"].get("/api/account/wishlist")).json().data as { product_id: number }[]).map((p) => p.product_id);

let appointmentSlot = 0;
/** A showroom appointment of the caller's own, in a slot nobody else in the run takes: the token of its link. */
async function ownAppointment(b: TestBrowser): Promise<string> {
  const week = (await b.get("/api/appointments/slots?branch=york")).json() as { days: { slots: { start: string }[] }[] };
  const start = week.days.flatMap((d) => d.slots)[appointmentSlot++]!.start;
  const res = await b.post("/api/appointments", { branch: "york", start, name: "Matrix Visitor", email: "visitor@example.co.uk", phone: "07700 900000" });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  return (res.json().manage_path as string).split("/").at(-1)!;
}
/** Another free slot for a change. */
async function freeSlot(b: TestBrowser): Promise<string> {
  const week = (await b.get("/api/appointments/slots?branch=york")).json() as { days: { slots: { start: string }[] }[] };
  return week.days.flatMap((d) => d.slots)[appointmentSlot++]!.start;
}

/** Reads of the caller's own things: never stored by any cache (`no-store`). */
const PERSONAL_READ = /^GET \/api\/(account|basket|hire-basket|checkout\/orders|user)\b/;

interface Row {
  /** As the OpenAPI document names it. */
  route: string;
  expect: Record<Actor, number>;
  /** Makes the request as `actor`; may set up what it needs first. */
  call: (w: World, actor: Actor) => Promise<LightMyRequestResponse>;
}

/** Open to anyone, the same for everyone. */
const PUBLIC = all(200);
/** Anyone signed in, about their own data; a guest is told to sign in. */
const SIGNED_IN_ONLY = (ok: number) => ({ ...all(ok), guest: 401 });
/** One of A's rows by its id: A alone; others are told it does not exist, a guest to sign in. */
const A_ONLY = (ok: number, guestStatus = 401) => ({ ...all(404), "customer A": ok, guest: guestStatus });

/** A trade buyer's quote: the buyer and their company's owner may act on it (`act`), its accounts user read it (`read`); others are told it does not exist. */
const COMPANY_QUOTE = (act: number, read: number) => ({ ...all(404), guest: 401, buyer: act, owner: act, accounts: read });

/** A write of A's row by someone else must leave it as it was. */
function unchanged<T>(read: (w: World) => Promise<T>, call: (w: World, actor: Actor) => Promise<LightMyRequestResponse>) {
  return async (w: World, actor: Actor) => {
    const before = await read(w);
    const res = await call(w, actor);
    if (actor !== "customer A") expect(await read(w), `${actor} changed A's row`).toEqual(before);
    return res;
  };
}

const ROWS: Row[] = [
  // The shop itself and the catalogue: the same for everyone.
  { route: "GET /healthz", expect: PUBLIC, call: (w, a) => w.as[a].get("/healthz") },
  { route: "GET /readyz", expect: PUBLIC, call: (w, a) => w.as[a].get("/readyz") },
  { route: "GET /api/build", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/build") },
  { route: "GET /sanctum/csrf-cookie", expect: all(204), call: (w, a) => w.as[a].get("/sanctum/csrf-cookie") },
  { route: "GET /api/categories", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/categories") },
  { route: "GET /api/categories/{*}", expect: PUBLIC, call: (w, a) => w.as[a].get(`/api/categories/${w.categoryPath}`) },
  { route: "GET /api/products", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/products") },
  { route: "GET /api/products/{slug}", expect: PUBLIC, call: (w, a) => w.as[a].get(`/api/products/${w.productSlug}`) },
  { route: "GET /api/manufacturers", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/manufacturers") },
  { route: "GET /api/manufacturers/{id}", expect: PUBLIC, call: (w, a) => w.as[a].get(`/api/manufacturers/${w.manufacturerId}`) },
  { route: "GET /api/branches", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/branches?near=LS1%201AA") },
  { route: "GET /api/branches/{slug}", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/branches/leeds") },
  { route: "GET /api/products/{slug}/availability", expect: PUBLIC, call: (w, a) => w.as[a].get(`/api/products/${w.productSlug}/availability?branch=york`) },
  // Each caller's own branch: the cookie's, or the account's.
  { route: "GET /api/my-branch", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/my-branch") },
  { route: "PUT /api/my-branch", expect: PUBLIC, call: (w, a) => w.as[a].put("/api/my-branch", { branch: "leeds" }) },
  // Showroom appointments: anyone may book; the link's token is the key to one, whoever holds it.
  { route: "GET /api/appointments/showrooms", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/appointments/showrooms") },
  { route: "GET /api/appointments/slots", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/appointments/slots?branch=york") },
  {
    route: "POST /api/appointments",
    expect: all(201),
    call: async (w, a) => {
      const start = await freeSlot(w.as[a]);
      return w.as[a].post("/api/appointments", { branch: "york", start, name: "Matrix Visitor", email: "visitor@example.co.uk", phone: "07700 900000" });
    },
  },
  { route: "GET /api/appointments/{token}", expect: PUBLIC, call: async (w, a) => w.as[a].get(`/api/appointments/${await ownAppointment(w.as[a])}`) },
  { route: "PATCH /api/appointments/{token}", expect: PUBLIC, call: async (w, a) => w.as[a].patch(`/api/appointments/${await ownAppointment(w.as[a])}`, { start: await freeSlot(w.as[a]) }) },
  { route: "POST /api/appointments/{token}/cancel", expect: PUBLIC, call: async (w, a) => w.as[a].post(`/api/appointments/${await ownAppointment(w.as[a])}/cancel`) },
  { route: "GET /api/search", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/search?q=timber") },
  { route: "GET /api/search/suggest", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/search/suggest?q=ti") },
  { route: "GET /api/compare", expect: PUBLIC, call: (w, a) => w.as[a].get(`/api/compare?product_ids=${w.p1},${w.p2}`) },
  { route: "GET /api/hire", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/hire") },
  { route: "GET /api/hire/{slug}", expect: PUBLIC, call: (w, a) => w.as[a].get(`/api/hire/${w.hireSlug}`) },
  { route: "GET /api/hire/{slug}/availability", expect: PUBLIC, call: (w, a) => w.as[a].get(`/api/hire/${w.hireSlug}/availability`) },
  { route: "GET /api/hire/{slug}/quote", expect: PUBLIC, call: (w, a) => w.as[a].get(`/api/hire/${w.hireSlug}/quote?start_date=${day(5)}&end_date=${day(7)}`) },
  { route: "GET /api/hire-depots", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/hire-depots") },
  { route: "GET /api/hire-depots/{slug}/delivery", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/hire-depots/leeds/delivery?postcode=LS11%205PS") },
  { route: "GET /api/checkout/delivery-options", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/checkout/delivery-options") },
  // The test database has no postcode data: the same "none found" for everyone.
  { route: "POST /api/checkout/postcode-lookup", expect: all(404), call: (w, a) => w.as[a].post("/api/checkout/postcode-lookup", { postcode: "LS1 4AP" }) },
  { route: "POST /api/checkout/postcode-suggestions", expect: PUBLIC, call: (w, a) => w.as[a].post("/api/checkout/postcode-suggestions", { query: "LS1" }) },
  {
    route: "POST /api/enquiries",
    expect: all(201),
    call: (w, a) => w.as[a].post("/api/enquiries", { type: "contact", name: "Matrix Visitor", email: "visitor@example.co.uk", message: "Do you stock oak sleepers?" }),
  },

  // Signing in and out: open to all; each acts on the caller's own session only.
  {
    route: "POST /api/auth/register",
    // Signed in already or not, a new address makes a new account and signs the caller in as it;
    // the actor then signs back in as themselves.
    expect: all(201),
    call: async (w, a) => {
      const res = await (a === "guest" ? await guest() : w.as[a]).post("/api/auth/register", { firstname: "New", lastname: "Fitter", email: freshEmail("reg"), password: PASSWORD, password_confirmation: PASSWORD });
      if (a !== "guest") await signBackIn(w, a);
      return res;
    },
  },
  {
    route: "POST /api/auth/login",
    // Nobody signs in as A without A's password, whoever they already are.
    expect: all(422),
    call: (w, a) => clone(w.as[a]).post("/api/auth/login", { email: w.people["customer A"].email, password: `${PASSWORD}!` }),
  },
  {
    route: "POST /api/auth/logout",
    // A session of the actor's own, so the shared browsers stay signed in.
    expect: all(204),
    call: async (w, a) => {
      if (a === "guest") return (await guest()).post("/api/auth/logout");
      const b = new TestBrowser(shop().app, "198.51.99.7");
      await b.csrf();
      expect((await b.post("/api/auth/login", { email: w.people[a].email, password: PASSWORD })).statusCode).toBe(200);
      return b.post("/api/auth/logout");
    },
  },
  { route: "GET /api/user", expect: { ...all(200), guest: 204 }, call: (w, a) => w.as[a].get("/api/user") },
  { route: "POST /api/auth/recovery", expect: PUBLIC, call: (w, a) => w.as[a].post("/api/auth/recovery", { email: freshEmail("lost") }) },
  { route: "POST /api/auth/recovery/token", expect: all(422), call: (w, a) => w.as[a].post("/api/auth/recovery/token", { email: w.people["customer A"].email, token: "0".repeat(64) }) },
  {
    route: "POST /api/auth/reset-password",
    // Without A's emailed token nobody resets A's password.
    expect: all(422),
    call: (w, a) => w.as[a].post("/api/auth/reset-password", { email: w.people["customer A"].email, token: "0".repeat(64), password: "another long secret", password_confirmation: "another long secret" }),
  },

  // One's own account: anyone signed in, about themselves.
  { route: "GET /api/account", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].get("/api/account") },
  { route: "PUT /api/account", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].put("/api/account", { firstname: "Matrix", lastname: "Actor", phone: "0113 496 0111" }) },
  {
    route: "PUT /api/account/password",
    // The current password is required: a wrong one is refused for everyone signed in.
    expect: SIGNED_IN_ONLY(422),
    call: (w, a) => w.as[a].put("/api/account/password", { current_password: "not the password", password: "another long secret", password_confirmation: "another long secret" }),
  },
  { route: "GET /api/account/newsletter", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].get("/api/account/newsletter") },
  { route: "PUT /api/account/newsletter", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].put("/api/account/newsletter", { subscribed: false, topics: [] }) },
  { route: "GET /api/account/addresses", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].get("/api/account/addresses") },
  { route: "POST /api/account/addresses", expect: SIGNED_IN_ONLY(201), call: (w, a) => w.as[a].post("/api/account/addresses", address("2 Own Row")) },
  {
    route: "PUT /api/account/addresses/{id}",
    expect: A_ONLY(200),
    call: unchanged(readAddress, (w, a) => w.as[a].put(`/api/account/addresses/${w.a.addressId}`, address(a === "customer A" ? A_LINE : "99 Hijack Street"))),
  },
  {
    route: "DELETE /api/account/addresses/{id}",
    expect: A_ONLY(204),
    call: async (w, a) => {
      // A deletes a second address of A's own; everyone else tries A's first.
      if (a === "customer A") {
        const spare = (await w.as[a].post("/api/account/addresses", address(A_LINE))).json().data.id as number;
        return w.as[a].delete(`/api/account/addresses/${spare}`);
      }
      return unchanged(readAddress, (ww, aa) => ww.as[aa].delete(`/api/account/addresses/${ww.a.addressId}`))(w, a);
    },
  },

  // The wishlist: one's own list; a product id names a product, not a row, so B's delete acts on B's list.
  { route: "GET /api/account/wishlist", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].get("/api/account/wishlist") },
  { route: "POST /api/account/wishlist", expect: SIGNED_IN_ONLY(201), call: (w, a) => w.as[a].post("/api/account/wishlist", { product_id: w.p2 }) },
  {
    route: "DELETE /api/account/wishlist/{product_id}",
    expect: SIGNED_IN_ONLY(200),
    call: async (w, a) => {
      if (a === "customer A") return w.as[a].delete(`/api/account/wishlist/${w.p2}`);
      return unchanged(wishlist, (ww, aa) => ww.as[aa].delete(`/api/account/wishlist/${ww.p1}`))(w, a);
    },
  },

  // Baskets: everyone has one (a guest's by cookie); another's line is not in yours.
  { route: "GET /api/basket", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/basket") },
  { route: "POST /api/basket", expect: PUBLIC, call: (w, a) => w.as[a].post("/api/basket", { product_id: w.p2, quantity: 1 }) },
  {
    route: "PUT /api/basket/{cart_item_id}",
    expect: A_ONLY(200, 404),
    call: async (w, a) => {
      const line = await aBasketLine(w);
      return unchanged(basketLines, (ww, aa) => ww.as[aa].put(`/api/basket/${line}`, { quantity: aa === "customer A" ? 2 : 7 }))(w, a);
    },
  },
  {
    route: "DELETE /api/basket/{cart_item_id}",
    expect: A_ONLY(200, 404),
    call: async (w, a) => {
      const line = await aBasketLine(w);
      return unchanged(basketLines, (ww, aa) => ww.as[aa].delete(`/api/basket/${line}`))(w, a);
    },
  },
  // The quick order (issue 32): anyone with a basket, into their own; A's lines stay as they were.
  { route: "POST /api/basket/bulk", expect: PUBLIC, call: unchanged(basketLines, (w, a) => w.as[a].post("/api/basket/bulk", { lines: [{ sku: w.p2Sku.toLowerCase(), quantity: 1 }] })) },
  { route: "POST /api/basket/bulk/check", expect: PUBLIC, call: unchanged(basketLines, (w, a) => w.as[a].post("/api/basket/bulk/check", { lines: [{ sku: w.p2Sku, quantity: 1 }] })) },
  {
    route: "DELETE /api/basket",
    // Empties the caller's own basket, never A's.
    expect: PUBLIC,
    call: async (w, a) => {
      if (a !== "customer A") await aBasketLine(w);
      return unchanged(basketLines, (ww, aa) => ww.as[aa].delete("/api/basket"))(w, a);
    },
  },
  // Discount codes (issue 32): on the caller's own basket; a code no one issued is refused alike for everyone.
  { route: "POST /api/basket/discount", expect: all(422), call: (w, a) => w.as[a].post("/api/basket/discount", { code: "NOSUCHCODE" }) },
  { route: "DELETE /api/basket/discount", expect: PUBLIC, call: (w, a) => w.as[a].delete("/api/basket/discount") },

  // Orders.
  {
    route: "POST /api/checkout",
    // Guests and everyone signed in may buy, from their own basket.
    expect: all(201),
    call: async (w, a) => {
      expect((await w.as[a].post("/api/basket", { product_id: w.p2, quantity: 1 })).statusCode).toBeLessThan(300);
      return w.as[a].post("/api/checkout", checkoutBody(a === "guest" ? "matrix.guest@example.co.uk" : w.people[a].email, a === "customer A" ? A_LINE : "5 Elsewhere Road"));
    },
  },
  // Without the signed link, the thank-you page is A's alone; a guest without it is not told it exists.
  // Card payments: a made-up return or cancel link is no one's; this shop takes cards on the built-in test page, whose events never come over HTTP.
  { route: "GET /api/payments/return/{token}", expect: all(404), call: (w, a) => w.as[a].get(`/api/payments/return/${"x".repeat(32)}`) },
  { route: "GET /api/payments/cancel/{token}", expect: all(404), call: (w, a) => w.as[a].get(`/api/payments/cancel/${"x".repeat(32)}`) },
  // A counter order's card payment link (issue 34): without its signature, or with a forged one, it is no one's.
  { route: "GET /api/payments/order/{number}", expect: all(404), call: (w, a) => w.as[a].get(`/api/payments/order/${w.a.orderNumber}?expires=9999999999&signature=${"x".repeat(43)}`) },
  // A hire confirmation's card payment link: a made-up one is no one's.
  { route: "GET /api/payments/hire/{token}", expect: all(404), call: (w, a) => w.as[a].get(`/api/payments/hire/${"x".repeat(32)}`) },
  // The hire agreement linked from a hand-over's email: a made-up token is no one's.
  { route: "GET /api/hire-agreements/{token}", expect: all(404), call: (w, a) => w.as[a].get(`/api/hire-agreements/${"x".repeat(32)}`) },
  { route: "POST /api/payments/stripe/webhook", expect: all(404), call: (w, a) => w.as[a].post("/api/payments/stripe/webhook", { id: "evt_1", type: "checkout.session.completed" }) },
  // No one in the matrix has a card order waiting: an empty answer, and nothing to cancel.
  { route: "GET /api/checkout/card-payment", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/checkout/card-payment") },
  { route: "POST /api/checkout/card-payment/cancel", expect: all(404), call: (w, a) => w.as[a].post("/api/checkout/card-payment/cancel", {}) },
  { route: "GET /api/checkout/orders/{number}", expect: A_ONLY(200, 404), call: (w, a) => w.as[a].get(`/api/checkout/orders/${w.a.orderNumber}`) },
  // Quotes (issue 32): asked for from one's own basket; a trade buyer's seen by their company by role. Writes refused after the door leave them as they were.
  {
    route: "POST /api/quotes",
    expect: { ...all(201), guest: 401 },
    call: async (w, a) => {
      expect((await w.as[a].post("/api/basket", { product_id: w.p2, quantity: 1 })).statusCode).toBe(200);
      const res = await w.as[a].post("/api/quotes", { notes: "Matrix" });
      if (a === "customer A") await aBasketLine(w);
      return res;
    },
  },
  { route: "GET /api/quotes", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].get("/api/quotes") },
  { route: "GET /api/quotes/{number}", expect: COMPANY_QUOTE(200, 200), call: (w, a) => w.as[a].get(`/api/quotes/${w.quote}`) },
  { route: "GET /api/quotes/{number}/pdf", expect: COMPANY_QUOTE(200, 200), call: (w, a) => w.as[a].get(`/api/quotes/${w.quote}/pdf`) },
  { route: "GET /api/quotes/{number}/delivery-options", expect: COMPANY_QUOTE(200, 200), call: (w, a) => w.as[a].get(`/api/quotes/${w.quote}/delivery-options`) },
  {
    route: "POST /api/quotes/{number}/accept",
    // A delivery method there is none of: refused after the door, nothing placed.
    expect: COMPANY_QUOTE(422, 403),
    call: (w, a) => w.as[a].post(`/api/quotes/${w.quote}/accept`, { delivery_method: "nowhere", payment_method: "bank_transfer" }),
  },
  { route: "POST /api/quotes/{number}/changes", expect: COMPANY_QUOTE(409, 403), call: (w, a) => w.as[a].post(`/api/quotes/${w.closedQuote}/changes`, { message: "Matrix change" }) },
  { route: "POST /api/quotes/{number}/decline", expect: COMPANY_QUOTE(409, 403), call: (w, a) => w.as[a].post(`/api/quotes/${w.closedQuote}/decline`, { reason: "Matrix" }) },
  { route: "GET /api/account/orders", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].get("/api/account/orders") },
  { route: "GET /api/account/orders/{order_id}", expect: A_ONLY(200), call: (w, a) => w.as[a].get(`/api/account/orders/${w.a.orderId}`) },
  {
    route: "POST /api/account/orders/{order_id}/reorder",
    expect: A_ONLY(200),
    call: unchanged(basketLines, (w, a) => w.as[a].post(`/api/account/orders/${w.a.orderId}/reorder`)),
  },

  // Returns and cancelling (issue 31): A's alone; a guest without the order's signed link is asked to sign in.
  // A's order is not delivered, so A's return is refused as too early; A's cancel names a line not on it.
  { route: "GET /api/orders/{number}/returns", expect: { ...all(403), "customer A": 200, guest: 401 }, call: (w, a) => w.as[a].get(`/api/orders/${w.a.orderNumber}/returns`) },
  {
    route: "POST /api/orders/{number}/returns",
    expect: { ...all(403), "customer A": 422, guest: 401 },
    call: (w, a) => w.as[a].post(`/api/orders/${w.a.orderNumber}/returns`, { lines: [{ line_id: 1, quantity: 1, reason: "changed_mind" }], method: "post" }),
  },
  // A's photos of a return A's order has not got: found no further than the order's door (404 for A, 403 for anyone else), no body read.
  {
    route: "POST /api/orders/{number}/returns/{rma}/photos",
    expect: { ...all(403), "customer A": 404, guest: 401 },
    call: (w, a) => w.as[a].post(`/api/orders/${w.a.orderNumber}/returns/RMA-999999/photos`, {}),
  },
  {
    route: "GET /api/orders/{number}/returns/{rma}/photos/{photo}/{size}",
    expect: { ...all(403), "customer A": 404, guest: 401 },
    call: (w, a) => w.as[a].get(`/api/orders/${w.a.orderNumber}/returns/RMA-999999/photos/abcdefabcdef/small`),
  },
  {
    route: "POST /api/orders/{number}/cancel",
    expect: { ...all(403), "customer A": 422, guest: 401 },
    call: (w, a) => w.as[a].post(`/api/orders/${w.a.orderNumber}/cancel`, { lines: [{ line_id: 2_147_483_000, quantity: 1 }] }),
  },

  // The hire basket and hire requests.
  { route: "GET /api/hire-basket", expect: PUBLIC, call: (w, a) => w.as[a].get("/api/hire-basket") },
  { route: "POST /api/hire-basket", expect: PUBLIC, call: async (w, a) => w.as[a].post("/api/hire-basket", { hire_item_id: w.hireItemId, quantity: 1, start_date: day((hireWindow += 4)), end_date: day(hireWindow + 1) }) },
  {
    route: "PUT /api/hire-basket/{id}",
    expect: A_ONLY(200, 404),
    call: async (w, a) => {
      const lines = await hireLines(w);
      const target = lines.length ? lines[0]!.id : await hireLine(w, w.as["customer A"]);
      return unchanged(hireLines, (ww, aa) => ww.as[aa].put(`/api/hire-basket/${target}`, { quantity: 1 + (aa === "customer A" ? 0 : 1) }))(w, a);
    },
  },
  { route: "PUT /api/hire-basket/depot", expect: PUBLIC, call: (w, a) => w.as[a].put("/api/hire-basket/depot", { depot: "leeds" }) },
  {
    route: "DELETE /api/hire-basket/{id}",
    expect: A_ONLY(200, 404),
    call: async (w, a) => {
      const lines = await hireLines(w);
      const target = lines.length ? lines[0]!.id : await hireLine(w, w.as["customer A"]);
      return unchanged(hireLines, (ww, aa) => ww.as[aa].delete(`/api/hire-basket/${target}`))(w, a);
    },
  },
  {
    route: "DELETE /api/hire-basket",
    expect: PUBLIC,
    call: async (w, a) => {
      if (a !== "customer A" && (await hireLines(w)).length === 0) await hireLine(w, w.as["customer A"]);
      return unchanged(hireLines, (ww, aa) => ww.as[aa].delete("/api/hire-basket"))(w, a);
    },
  },
  {
    route: "POST /api/hire-requests",
    // Anyone may send a hire request, from their own hire basket.
    expect: all(201),
    call: async (w, a) => {
      await hireLine(w, w.as[a]);
      return w.as[a].post("/api/hire-requests", { name: "Matrix Hirer", email: "hirer@example.co.uk", phone: "07700 900111", fulfilment: "collection" });
    },
  },
  { route: "GET /api/account/hire-requests", expect: SIGNED_IN_ONLY(200), call: (w, a) => w.as[a].get("/api/account/hire-requests") },
];

async function readAddress(w: World) {
  const [row] = await shop().database.db.select().from(addresses).where(eq(addresses.id, w.a.addressId));
  return row ?? null;
}

/** Signs the actor's shared browser back in as the actor. */
async function signBackIn(w: World, a: Exclude<Actor, "guest">): Promise<void> {
  await w.as[a].signIn(w.people[a].email, PASSWORD);
}

/** A second browser with the same cookies, for a request that would change the session. */
function clone(b: TestBrowser): TestBrowser {
  const c = new TestBrowser(shop().app, b.ip);
  for (const [k, v] of b.cookies) c.cookies.set(k, v);
  return c;
}

describe("authorisation matrix over every route outside /api/trade", () => {
  const w = {} as World;
  beforeAll(async () => {
    const db = shop().database.db;
    const stocked = await db.select({ id: products.id, slug: products.slug, sku: products.sku }).from(products).orderBy(asc(products.id)).limit(2);
    for (const p of stocked) await db.update(products).set({ stock: 999, heavy: false }).where(eq(products.id, p.id));
    w.p1 = stocked[0]!.id;
    w.p2 = stocked[1]!.id;
    w.p2Sku = stocked[1]!.sku;
    w.productSlug = stocked[0]!.slug;
    const [category] = await db.select({ path: categories.path }).from(categories).orderBy(asc(categories.id)).limit(1);
    w.categoryPath = category!.path;
    const [maker] = await db.select({ id: manufacturers.id }).from(manufacturers).orderBy(asc(manufacturers.id)).limit(1);
    w.manufacturerId = maker!.id;
    const [hire] = await db.select({ id: hireItems.id, slug: hireItems.slug }).from(hireItems).where(eq(hireItems.slug, "cement-mixer-110v"));
    w.hireItemId = hire!.id;
    w.hireSlug = hire!.slug;

    const { people, as } = await signInActors(fixtures, { a: "alma", b: "bertram", company: "Matrix Gamma Carpentry Ltd", otherCompany: "Matrix Delta Decking Ltd" });
    w.people = people;
    w.as = as;

    // A's rows.
    const A = w.as["customer A"];
    const addr = await A.post("/api/account/addresses", address(A_LINE));
    expect(addr.statusCode, addr.body).toBe(201);
    expect((await A.post("/api/basket", { product_id: w.p1, quantity: 2 })).statusCode).toBeLessThan(300);
    const placed = await A.post("/api/checkout", checkoutBody(people["customer A"].email, A_LINE));
    expect(placed.statusCode, placed.body.slice(0, 300)).toBe(201);
    const { order_id: orderId, order_number: orderNumber } = placed.json() as { order_id: number; order_number: string };
    await hireLine(w, A);
    const hr = await A.post("/api/hire-requests", { name: "Alma Ashdown", email: people["customer A"].email, phone: "07700 900222", fulfilment: "delivery", address_line1: A_SITE, town: "Leeds", postcode: "ls1 4ap", notes: A_NOTES });
    expect(hr.statusCode, hr.body.slice(0, 300)).toBe(201);
    w.a = { addressId: addr.json().data.id, orderId, orderNumber, hireRequest: hr.json().number };
    expect((await A.post("/api/account/wishlist", { product_id: w.p1 })).statusCode).toBe(201);
    await aBasketLine(w);
    await hireLine(w, A);
    // The trade buyer's quotes, as the desk leaves them: one sent (with its revision's PDF), one expired.
    const quoteOf = async () => {
      expect((await w.as.buyer.post("/api/basket", { product_id: w.p2, quantity: 1 })).statusCode).toBe(200);
      const res = await w.as.buyer.post("/api/quotes", {});
      expect(res.statusCode, res.body).toBe(201);
      return (await loadQuote(db, { number: res.json().data.number }))!;
    };
    const sent = await quoteOf();
    await db.update(quotes).set({ status: "sent", validUntil: day(20), sentAt: new Date() }).where(eq(quotes.id, sent.row.id));
    await db.insert(quoteRevisions).values({ quoteId: sent.row.id, revision: 1, snapshot: snapshotOf({ ...sent.row, validUntil: day(20) }, sent.lines) });
    const closed = await quoteOf();
    await db.update(quotes).set({ status: "expired", validUntil: day(-3) }).where(eq(quotes.id, closed.row.id));
    w.quote = sent.row.number;
    w.closedQuote = closed.row.number;
    w.secrets = [people["customer A"].email, A_LINE, A_SITE, A_NOTES, orderNumber, w.a.hireRequest];
  });

  it("has a row, here or in the trade or back-office matrix, for every route the server serves", async () => {
    const served = (await apiOperations(shop().app)).map((op) => `${op.method} ${op.path}`);
    // The trade matrix holds a row for exactly each route under /api/trade/, and the back office's
    // (server/admin-access.test.ts) for each under /api/admin/; this one for every other route.
    const mine = served.filter((r) => !r.includes(" /api/trade/") && !r.includes(" /api/admin/")).sort();
    expect(served.length - mine.length, "the trade routes the trade matrix covers").toBeGreaterThan(0);
    const rows = ROWS.map((r) => r.route);
    expect(mine.filter((r) => !rows.includes(r)), "routes without a row").toEqual([]);
    expect(rows.filter((r) => !mine.includes(r)), "rows for routes the server does not serve, or trade or back-office routes").toEqual([]);
    expect(new Set(rows).size, "one row a route").toBe(rows.length);
  });

  for (const row of ROWS) {
    it.each(ACTORS)(`${row.route} as %s`, async (actor) => {
      const res = await row.call(w, actor);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expect[actor]);
      if (actor !== "customer A") for (const secret of w.secrets) expect(res.body, `${actor} must not see "${secret}"`).not.toContain(secret);
      // Nobody's own rows may sit in a cache.
      if (res.statusCode < 300 && PERSONAL_READ.test(row.route)) expect(res.headers["cache-control"], `${row.route} as ${actor}`).toMatch(/\bno-store\b/);
    });
  }

  it("answers A with A's own rows, so the others' clean answers mean something", async () => {
    const A = w.as["customer A"];
    expect((await A.get("/api/account/addresses")).body).toContain(A_LINE);
    expect((await A.get(`/api/checkout/orders/${w.a.orderNumber}`)).body).toContain(A_LINE);
    expect((await A.get("/api/account/orders")).body).toContain(w.a.orderNumber);
    expect((await A.get("/api/account")).body).toContain(w.people["customer A"].email);
  });

  it("leaves A's rows in place after everyone else's attempts", async () => {
    expect((await readAddress(w))?.line1).toBe(A_LINE);
    expect(await wishlist(w)).toContain(w.p1);
    const order = await w.as["customer A"].get(`/api/account/orders/${w.a.orderId}`);
    expect(order.statusCode).toBe(200);
    expect(order.body).toContain(w.a.orderNumber);
    const requests = await w.as["customer A"].get("/api/account/hire-requests");
    expect(requests.body).toContain(w.a.hireRequest);
  });
});
