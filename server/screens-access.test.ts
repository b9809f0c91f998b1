// The authorisation matrix over every screen of the storefront (issue 9), the
// pages' counterpart of the API matrix (server/access.test.ts). The screens
// are read from the route config itself (app/routes.ts), so a screen added
// without a row here fails the first test. Each row requests a concrete URL
// (real demo data: a product, a hire item, a nested category; A's order, an
// invoice and a user of company X) and states the outcome for each of the
// seven actors: the page (its h1), a redirect (to sign in, with the path back;
// or, for a guest-only page, to the safe ?redirect or /), or the 404 page;
// the navigation's data request (`….data`) must say the same. The screens
// that take form posts on the server (an `action`) are posted by everyone.
// Customer A, customer B, company X and the other company each own strings
// no one else's page may carry. A signed-in actor's catalogue page comes from
// the page cache, kept once per price view, and names no one (ADR 0043); any
// other page of theirs bypasses the cache and is sent `private, no-store`.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { asc, eq, like } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../app/routes.ts";
import { categories, manufacturers, products } from "./modules/catalog/schema.ts";
import { hireItems } from "./modules/hire/schema.ts";
import { quotes } from "./modules/quotes/schema.ts";
import { tradeInvoices } from "./modules/trade/invoices/invoice-schema.ts";
import { isoDay, tradeFixtures } from "./modules/trade/test-fixtures.ts";
import { ACTORS, type Actor, type SignedInActor, address, all, checkoutBody, day, signInActors } from "./test/actors.ts";
import { createTestShop, type TestShop } from "./test/app.ts";
import { isPersonalFrame, isSharedPage } from "./plugins/shared-pages.ts";
import type { TestBrowser } from "./test/browser.ts";

let shop: TestShop;
beforeAll(async () => {
  // The built storefront with the visitor page cache on, as in production.
  shop = await createTestShop({}, { storefront: { mode: "build" } });
}, 240_000);
afterAll(() => shop.close());

const fixtures = tradeFixtures(() => shop);

/**
 * Every screen in the route config, as its full path pattern. Layouts add no
 * path; a route whose module has no default export is a resource route (data,
 * not a page: none today) and has no row.
 */
function screensOf(entries: RouteConfigEntry[], parent = ""): { screen: string; source: string }[] {
  return entries.flatMap((entry) => {
    const full = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    const source = readFileSync(path.join(import.meta.dirname, "../app", entry.file), "utf8");
    const own = !entry.children && /^export default /m.test(source) ? [{ screen: full || "/", source }] : [];
    return [...own, ...screensOf(entry.children ?? [], full)];
  });
}
/** A screen that takes a plain form post on the server (an `action`; a `clientAction` posts to the API, which its own matrix covers). */
const takesPosts = (source: string) => /^export (async )?function action\b/m.test(source);

/** What an actor gets from a screen's URL. */
type Outcome =
  /** The page, with this h1. */
  | { page: string }
  /** A guest on a signed-in screen: to /auth/login, with the path and query back in ?redirect. */
  | "sign in"
  /** A signed-in user on a guest-only screen: to this path (?redirect when on this site, else /); after a write, where it leads. */
  | { redirect: string | RegExp }
  /** The 404 page: someone else's row, or a screen of a role the actor does not hold. */
  | "not found";

const page = (h1: string) => ({ page: h1 });
/** Anyone, the same page. */
const PUBLIC = (h1: string) => all<Outcome>(page(h1));
/** Guests only: a signed-in user is sent to `to`. */
const GUEST_ONLY = (h1: string, to: string) => ({ ...all<Outcome>({ redirect: to }), guest: page(h1) });
/** Anyone signed in, each about themselves; a guest is sent to sign in. */
const SIGNED_IN = (h1: string) => ({ ...all<Outcome>(page(h1)), guest: "sign in" as const });
/** One of A's rows: A alone; anyone else signed in is told it does not exist. */
const A_ONLY = (h1: string) => ({ ...all<Outcome>("not found"), guest: "sign in" as const, "customer A": page(h1) });
/**
 * A screen of company X for some of its roles (`roles`); the other company's
 * owner sees their own company's screen when `ownCompany` (a list), else the
 * 404 page (one of X's rows). Everyone else signed in gets the 404 page, as from the API.
 */
const TRADE = (h1: string, roles: SignedInActor[], ownCompany: boolean) => ({
  ...all<Outcome>("not found"),
  guest: "sign in" as const,
  ...Object.fromEntries(roles.map((r) => [r, page(h1)])),
  "other owner": ownCompany ? page(h1) : ("not found" as const),
});
/** Roles that read and pay the company's invoices (INVOICE_READERS): not a buyer. */
const INVOICE_READERS: SignedInActor[] = ["owner", "accounts"];
/** Who reads a buyer's quote: the buyer, and the company's owners, admins and accounts users (COMPANY_ORDER_READERS). */
const QUOTE_READERS: SignedInActor[] = ["buyer", "owner", "accounts"];
/** Roles that manage the company's users (owners and admins): not a buyer or an accounts user. */
const USER_MANAGERS: SignedInActor[] = ["owner"];

interface World {
  as: Record<Actor, TestBrowser>;
  productSlug: string;
  productName: string;
  hireSlug: string;
  /** A showroom appointment's link token: whoever holds the link sees the page. */
  appointmentToken: string;
  categoryPath: string;
  manufacturerId: number;
  a: { orderId: number; orderNumber: string; hireRequest: string };
  x: { accountId: number; invoiceId: number; invoiceNumber: string; buyerId: number; buyerEmail: string; quote: string };
  productId: number;
  /** Each string, with the actors whose pages may show it. */
  secrets: [string, Actor[]][];
}

interface Row {
  /** As the route config names it. */
  screen: string;
  url: (w: World) => string;
  expect: Record<Actor, Outcome>;
  /** What the page shows wherever it is the page, when its h1 is the row's own (a product's name, an order's number). */
  shows?: (w: World) => string;
}

const A_NAME = "Ottoline";
const B_NAME = "Bartholomew";
const A_LINE = "23 Pennyroyal Crescent";
const B_LINE = "8 Wolfsbane Terrace";
const A_SITE = "Plot 4 Hawthorn Wharf";
const X_NAME = "Screens Epsilon Roofing Ltd";
const Y_NAME = "Screens Zeta Glazing Ltd";

const ROWS: Row[] = [
  // Public (anyone): the same page for everyone.
  { screen: "/", url: () => "/", expect: PUBLIC("Everything for the build, from one counter.") },
  { screen: "/compare", url: () => "/compare", expect: PUBLIC("Compare products") },
  { screen: "/hire", url: () => "/hire", expect: PUBLIC("Equipment hire") },
  { screen: "/hire/:slug", url: (w) => `/hire/${w.hireSlug}`, expect: PUBLIC("Cement Mixer 110V") },
  { screen: "/about", url: () => "/about", expect: PUBLIC("About us") },
  { screen: "/basket", url: () => "/basket", expect: PUBLIC("Your basket") },
  { screen: "/search", url: () => "/search?q=drill", expect: PUBLIC("Search results for “drill”") },
  { screen: "/contact", url: () => "/contact", expect: PUBLIC("Contact us") },
  { screen: "/category", url: () => "/category", expect: PUBLIC("All categories") },
  { screen: "/category/*", url: (w) => `/category/${w.categoryPath}`, expect: PUBLIC("") },
  // The address book comes with the page for the signed-in: their own only.
  { screen: "/checkout", url: () => "/checkout", expect: PUBLIC("Checkout") },
  // A's order number in the link, without its signature: the order is rendered for A, who placed it signed in (issue 34); anyone else gets the empty page.
  { screen: "/checkout/thank-you", url: (w) => `/checkout/thank-you?order=${w.a.orderNumber}`, expect: { ...all<Outcome>(page("Thank you")), "customer A": page("Thank you for your order") } },
  { screen: "/delivery", url: () => "/delivery", expect: PUBLIC("Delivery") },
  { screen: "/product/:slug", url: (w) => `/product/${w.productSlug}`, expect: PUBLIC(""), shows: (w) => w.productName },
  { screen: "/products", url: () => "/products", expect: PUBLIC("All products") },
  { screen: "/showcase", url: () => "/showcase", expect: PUBLIC("Showcase") },
  { screen: "/manufacturer", url: () => "/manufacturer", expect: PUBLIC("Brands") },
  { screen: "/manufacturer/:id", url: (w) => `/manufacturer/${w.manufacturerId}`, expect: PUBLIC("") },
  { screen: "/branches", url: () => "/branches?near=LS1%201AA", expect: PUBLIC("Find a branch") },
  { screen: "/branches/:slug", url: () => "/branches/york", expect: PUBLIC("York, Foss Islands") },
  { screen: "/hire-basket", url: () => "/hire-basket", expect: PUBLIC("Your hire request") },
  { screen: "/kitchens-and-bathrooms", url: () => "/kitchens-and-bathrooms", expect: PUBLIC("Kitchens & Bathrooms") },
  { screen: "/appointments/:token", url: (w) => `/appointments/${w.appointmentToken}`, expect: PUBLIC("Your design consultation") },
  // An order behind its emails' signed link (issue 31): without the link it is no one's, A's own included.
  // Asked in lower case (the page takes either): the 404 page echoes the path asked for, which is no secret, and A's number in capitals must appear nowhere.
  { screen: "/orders/:number", url: (w) => `/orders/${w.a.orderNumber.toLowerCase()}?expires=9999999999&signature=not-the-link`, expect: all<Outcome>("not found") },

  // Guest-only: a signed-in user goes to ?redirect when it is on this site, else to /.
  { screen: "/auth/login", url: () => `/auth/login?redirect=${encodeURIComponent("/account/wishlist")}`, expect: GUEST_ONLY("Sign in", "/account/wishlist") },
  { screen: "/auth/register", url: () => `/auth/register?redirect=${encodeURIComponent("//evil.example/account")}`, expect: GUEST_ONLY("Create an account", "/") },
  { screen: "/auth/recovery", url: () => "/auth/recovery", expect: GUEST_ONLY("Reset your password", "/") },
  { screen: "/account/login", url: () => "/account/login", expect: GUEST_ONLY("Sign in", "/") },

  // Signed-in only: a guest goes to /auth/login?redirect={the path and query}.
  // Anyone signed in may apply; a member sees their company's state instead of the form.
  { screen: "/trade/setup", url: () => "/trade/setup", expect: SIGNED_IN("Apply for a trade account") },
  { screen: "/account", url: () => "/account", expect: SIGNED_IN("Your account") },
  { screen: "/account/manage", url: () => "/account/manage", expect: SIGNED_IN("Your details") },
  { screen: "/account/password", url: () => "/account/password", expect: SIGNED_IN("Change your password") },
  { screen: "/account/addresses", url: () => "/account/addresses", expect: SIGNED_IN("Your addresses") },
  { screen: "/account/newsletter", url: () => "/account/newsletter", expect: SIGNED_IN("Newsletter") },
  { screen: "/account/wishlist", url: () => "/account/wishlist", expect: SIGNED_IN("Your wishlist") },
  { screen: "/account/hire-requests", url: () => "/account/hire-requests", expect: SIGNED_IN("Your hire requests") },
  { screen: "/account/orders/history", url: () => "/account/orders/history", expect: SIGNED_IN("Your orders") },
  { screen: "/account/orders/:orderId", url: (w) => `/account/orders/${w.a.orderId}`, expect: A_ONLY(""), shows: (w) => `Order ${w.a.orderNumber}` },
  // Each customer's quotes, with their company's for its owners, admins and accounts users (issue 32).
  { screen: "/account/quotes", url: () => "/account/quotes", expect: SIGNED_IN("Your quotes") },
  // The buyer's quote: theirs, and their company's quote readers' (the accounts user reads it without the buttons).
  // Asked in lower case (the page takes either), as an order above: the 404 page echoes the path, and the number in capitals must appear nowhere else.
  { screen: "/account/quotes/:number", url: (w) => `/account/quotes/${w.x.quote.toLowerCase()}`, expect: TRADE("", QUOTE_READERS, false), shows: (w) => `Quote ${w.x.quote}` },
  // Everyone signed in gets the dashboard: a member their company's, anyone else the way to apply.
  { screen: "/trade/dashboard", url: () => "/trade/dashboard", expect: SIGNED_IN("Trade dashboard") },
  // Every signed-in customer's, trade member or not (issue 32).
  { screen: "/trade/quick-order", url: () => "/trade/quick-order", expect: SIGNED_IN("Quick order") },
  { screen: "/trade/invoices", url: () => "/trade/invoices", expect: TRADE("Invoices", INVOICE_READERS, true) },
  { screen: "/trade/invoices/pay", url: (w) => `/trade/invoices/pay?invoice=${w.x.invoiceId}`, expect: TRADE("Pay invoices", INVOICE_READERS, true) },
  { screen: "/trade/invoices/view/:id", url: (w) => `/trade/invoices/view/${w.x.invoiceId}`, expect: TRADE("", INVOICE_READERS, false), shows: (w) => `Invoice ${w.x.invoiceNumber}` },
  { screen: "/trade/manage", url: () => "/trade/manage", expect: TRADE("Company users", USER_MANAGERS, true) },
  // Every member reads the company's sites; the other company's owner reads their own.
  { screen: "/trade/sites", url: () => "/trade/sites", expect: TRADE("Sites", ["owner", "buyer", "accounts"], true) },
  { screen: "/trade/manage/invite", url: () => "/trade/manage/invite", expect: TRADE("Invite a user", USER_MANAGERS, true) },
  { screen: "/trade/manage/user/:id", url: (w) => `/trade/manage/user/${w.x.buyerId}`, expect: TRADE("buyer Fitter", USER_MANAGERS, false) },
  // The token comes from the emailed link; accepting it checks it is the signed-in user's own.
  { screen: "/trade/invitation", url: () => "/trade/invitation?token=screens-matrix-token", expect: SIGNED_IN("Join a trade account") },

  // The built-in test payment page: a session the test processor never opened is no one's.
  { screen: "/payments/test/:id", url: () => "/payments/test/cs_test_nosuchsession", expect: all<Outcome>("not found") },

  // Anything else is the 404 page, for everyone.
  { screen: "/*", url: () => "/no-such-screen/here", expect: all<Outcome>("not found") },
];

interface WriteRow {
  /** As the route config names it. */
  screen: string;
  /** Posts the screen's form as `actor`, as a browser without scripts does; may set up a target of its own first. */
  post: (w: World, actor: Actor) => Promise<{ url: string; res: LightMyRequestResponse }>;
  expect: Record<Actor, Outcome>;
}

/** A form post to a screen, with the page's own origin. */
async function postForm(b: TestBrowser, url: string, form: Record<string, string>) {
  const res = await b.request("POST", url, new URLSearchParams(form).toString(), { headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" } });
  return { url, res };
}

const WRITES: WriteRow[] = [
  // Acts on the visitor's own compare cookie only.
  { screen: "/compare", post: (w, a) => postForm(w.as[a], "/compare", { intent: "clear" }), expect: all<Outcome>({ redirect: "/compare" }) },
  {
    screen: "/trade/invoices/pay",
    // A fresh unpaid invoice of company X each time: its invoice readers pay it; no one else may, and it stays unpaid.
    expect: { ...TRADE("", [], false), owner: { redirect: /^\/trade\/invoices\/pay\?paid=[A-Z0-9-]+$/ }, accounts: { redirect: /^\/trade\/invoices\/pay\?paid=[A-Z0-9-]+$/ } },
    post: async (w, a) => {
      const invoice = await fixtures.invoiceFor(w.x.accountId, w.x.buyerId, { invoiceDate: isoDay(0), dueDate: isoDay(30), lines: [{ name: "Lead flashing", qty: 1, unit: 2500, rate: 20 }] });
      const sent = await postForm(w.as[a], "/trade/invoices/pay", { invoice_ids: String(invoice.id) });
      const [row] = await shop.database.db.select({ status: tradeInvoices.status }).from(tradeInvoices).where(eq(tradeInvoices.id, invoice.id));
      expect(row!.status, `${a} paying X's invoice`).toBe(a === "owner" || a === "accounts" ? "payment_pending" : "unpaid");
      return sent;
    },
  },
  // "Pay by card" opens a payment page only for the signed-in customer's own hire request: anyone else's number is no one's (the page, its message, nothing opened).
  { screen: "/account/hire-requests", post: (w, a) => postForm(w.as[a], "/account/hire-requests", { number: "HR-999999" }), expect: SIGNED_IN("Your hire requests") },
  // "Request a quote" acts on the poster's own basket only: every actor's is empty here, so each is told so on the page.
  { screen: "/basket", post: (w, a) => postForm(w.as[a], "/basket", { intent: "quote", notes: "From the matrix" }), expect: SIGNED_IN("Your basket") },
  // Adding a site: an owner adds it to their own company (each owner to theirs); a buyer or accounts user, or a customer outside a company, gets the 404 page.
  {
    screen: "/trade/sites",
    post: (w, a) => postForm(w.as[a], "/trade/sites", { intent: "save", name: `Matrix site ${a}`, line1: "1 Mill Lane", town: "Leeds", postcode: "LS1 4AP" }),
    expect: { ...TRADE("", [], false), owner: { redirect: /^\/trade\/sites\?saved=\d+$/ }, "other owner": { redirect: /^\/trade\/sites\?saved=\d+$/ } },
  },
  {
    screen: "/account/quotes/:number",
    // A fresh quote of X's buyer each time: the buyer and the owner decline it; the accounts user may only read it (the page says so); anyone else gets the 404 page, and it stays open.
    expect: { ...TRADE("", [], false), buyer: { redirect: /^\/account\/quotes\/Q-\d{6}\?done=declined$/ }, owner: { redirect: /^\/account\/quotes\/Q-\d{6}\?done=declined$/ }, accounts: page("") },
    post: async (w, a) => {
      expect((await w.as.buyer.post("/api/basket", { product_id: w.productId, quantity: 1 })).statusCode).toBeLessThan(300);
      const made = await w.as.buyer.post("/api/quotes", {});
      expect(made.statusCode, made.body.slice(0, 300)).toBe(201);
      const number = made.json().data.number as string;
      const sent = await postForm(w.as[a], `/account/quotes/${number}`, { intent: "decline", reason: "From the matrix" });
      const [row] = await shop.database.db.select({ status: quotes.status }).from(quotes).where(eq(quotes.number, number));
      expect(row!.status, `${a} declining X's buyer's quote`).toBe(a === "buyer" || a === "owner" ? "declined" : "requested");
      return sent;
    },
  },
  // The test payment page acts on a session the processor opened; its id, like Stripe's page address, is the only key. A made-up one is no one's.
  { screen: "/payments/test/:id", post: (w, a) => postForm(w.as[a], "/payments/test/cs_test_nosuchsession", { outcome: "pay" }), expect: all<Outcome>("not found") },
  { screen: "/*", post: (w, a) => postForm(w.as[a], "/no-such-screen/here", { intent: "anything" }), expect: all<Outcome>("not found") },
];

/** The h1's text, tags dropped and entities read. */
function h1Of(html: string): string | null {
  const m = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  if (!m) return null;
  return m[1]!
    .replace(/<[^>]*>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .trim();
}

function assertOutcome(res: LightMyRequestResponse, url: string, outcome: Outcome): void {
  const where = `${url}: ${res.statusCode} ${String(res.headers.location ?? "")} ${h1Of(res.body) ?? res.body.slice(0, 200)}`;
  if (outcome === "sign in") {
    expect(res.statusCode, where).toBe(302);
    const to = new URL(String(res.headers.location), "http://shop");
    expect(to.pathname, where).toBe("/auth/login");
    expect(to.searchParams.get("redirect"), where).toBe(url);
  } else if (outcome === "not found") {
    expect(res.statusCode, where).toBe(404);
    expect(res.body, where).toContain(`Page Not Found: ${new URL(url, "http://shop").pathname}`);
  } else if ("redirect" in outcome) {
    expect(res.statusCode, where).toBe(302);
    if (typeof outcome.redirect === "string") expect(res.headers.location, where).toBe(outcome.redirect);
    else expect(String(res.headers.location), where).toMatch(outcome.redirect);
  } else {
    expect(res.statusCode, where).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    if (outcome.page) expect(h1Of(res.body), where).toBe(outcome.page);
    else expect(h1Of(res.body), where).toBeTruthy();
  }
}

/** The same screen as a client-side navigation asks for it: its loaders' data (single fetch, as React Router's `singleFetchUrl` names it). */
function dataUrlOf(url: string): string {
  const u = new URL(url, "http://shop");
  return `${u.pathname.endsWith("/") ? `${u.pathname}_` : u.pathname}.data${u.search}`;
}

/** A navigation's data carries the same decision: the data, a redirect in the payload (202), or 404. */
function assertDataOutcome(res: LightMyRequestResponse, url: string, outcome: Outcome): void {
  const where = `${dataUrlOf(url)}: ${res.statusCode} ${res.body.slice(0, 200)}`;
  const redirectTo = (to: string) => {
    expect(res.statusCode, where).toBe(202);
    expect(res.body, where).toContain(`["SingleFetchRedirect",1]`);
    expect(res.body, where).toContain(`"redirect",${JSON.stringify(to)}`);
  };
  if (outcome === "sign in") redirectTo(`/auth/login?${new URLSearchParams({ redirect: url })}`);
  else if (outcome === "not found") expect(res.statusCode, where).toBe(404);
  else if ("redirect" in outcome) redirectTo(String(outcome.redirect));
  else expect(res.statusCode, where).toBe(200);
}

describe("authorisation matrix over every screen", () => {
  const w = {} as World;
  beforeAll(async () => {
    const db = shop.database.db;
    const [product] = await db.select({ id: products.id, slug: products.slug, name: products.name }).from(products).orderBy(asc(products.id)).limit(1);
    await db.update(products).set({ stock: 999, heavy: false }).where(eq(products.id, product!.id));
    w.productSlug = product!.slug;
    w.productName = product!.name;
    // A category below another: its slug spans two path segments.
    const [category] = await db.select({ path: categories.path }).from(categories).where(like(categories.path, "%/%")).orderBy(asc(categories.id)).limit(1);
    w.categoryPath = category!.path;
    const [maker] = await db.select({ id: manufacturers.id }).from(manufacturers).orderBy(asc(manufacturers.id)).limit(1);
    w.manufacturerId = maker!.id;
    const [hire] = await db.select({ id: hireItems.id, slug: hireItems.slug }).from(hireItems).where(eq(hireItems.slug, "cement-mixer-110v"));
    w.hireSlug = hire!.slug;

    const { people, as, company, other } = await signInActors(fixtures, { a: A_NAME, b: B_NAME, company: X_NAME, otherCompany: Y_NAME });
    w.as = as;

    // A's rows: an address, an order (placed from that address), a wishlist item, a hire request.
    const A = as["customer A"];
    expect((await A.post("/api/account/addresses", address(A_LINE))).statusCode).toBe(201);
    expect((await A.post("/api/basket", { product_id: product!.id, quantity: 2 })).statusCode).toBeLessThan(300);
    const placed = await A.post("/api/checkout", checkoutBody(people["customer A"].email, A_LINE));
    expect(placed.statusCode, placed.body.slice(0, 300)).toBe(201);
    w.a = { orderId: placed.json().order_id, orderNumber: placed.json().order_number, hireRequest: "" };
    expect((await A.post("/api/account/wishlist", { product_id: product!.id })).statusCode).toBe(201);
    expect((await A.post("/api/hire-basket", { hire_item_id: hire!.id, quantity: 1, start_date: day(30), end_date: day(31) })).statusCode).toBeLessThan(300);
    const hr = await A.post("/api/hire-requests", { name: "Ottoline Fitter", email: people["customer A"].email, phone: "07700 900222", fulfilment: "delivery", address_line1: A_SITE, town: "Leeds", postcode: "ls1 4ap" });
    expect(hr.statusCode, hr.body.slice(0, 300)).toBe(201);
    w.a.hireRequest = hr.json().number;
    // A showroom appointment, booked by a guest: its link is the key.
    const visitor = await fixtures.guest();
    const week = (await visitor.get("/api/appointments/slots?branch=york")).json() as { days: { slots: { start: string }[] }[] };
    const booked = await visitor.post("/api/appointments", { branch: "york", start: week.days[0]!.slots[0]!.start, name: "Screens Visitor", email: "screens.visitor@example.co.uk", phone: "07700 900333" });
    expect(booked.statusCode, booked.body.slice(0, 300)).toBe(201);
    w.appointmentToken = (booked.json().manage_path as string).split("/").at(-1)!;
    // B's: an address.
    expect((await as["customer B"].post("/api/account/addresses", address(B_LINE))).statusCode).toBe(201);
    // Company X's: an invoice for the buyer's order, unpaid.
    const invoice = await fixtures.invoiceFor(company.accountId, company.buyer.id, { po: "PO-SCREENS-X", invoiceDate: isoDay(-2), dueDate: isoDay(28), lines: [{ name: "Clay ridge tile", qty: 3, unit: 1200, rate: 20 }] });
    // The buyer's quote, asked for from their basket.
    w.productId = product!.id;
    expect((await as.buyer.post("/api/basket", { product_id: product!.id, quantity: 3 })).statusCode).toBeLessThan(300);
    const quote = await as.buyer.post("/api/quotes", { notes: "Screens matrix" });
    expect(quote.statusCode, quote.body.slice(0, 300)).toBe(201);
    w.x = { accountId: company.accountId, invoiceId: invoice.id, invoiceNumber: invoice.number, buyerId: company.buyer.id, buyerEmail: company.buyer.email, quote: quote.json().data.number };

    const members: Actor[] = ["buyer", "owner", "accounts"];
    w.secrets = [
      [A_NAME, ["customer A"]],
      [people["customer A"].email, ["customer A"]],
      [A_LINE, ["customer A"]],
      [A_SITE, ["customer A"]],
      [placed.json().order_number, ["customer A"]],
      [hr.json().number, ["customer A"]],
      [B_NAME, ["customer B"]],
      [people["customer B"].email, ["customer B"]],
      [B_LINE, ["customer B"]],
      [X_NAME, members],
      // The invoice is for those who read invoices; the buyer's own order page shows the order, not the invoice.
      [invoice.number, INVOICE_READERS],
      [w.x.quote, QUOTE_READERS],
      // A member's address is theirs, and their company's user managers'.
      [company.buyer.email, ["buyer", ...USER_MANAGERS]],
      [company.accounts.email, ["accounts", ...USER_MANAGERS]],
      [company.owner.email, ["owner"]],
      [Y_NAME, ["other owner"]],
      [other.owner.email, ["other owner"]],
    ];
  });

  it("has a row for every screen in the route config, and a write row for every screen that takes form posts", () => {
    // The back office's screens (/admin…) have their own matrix, server/admin-access.test.ts.
    const found = screensOf(routes).filter((f) => !/^\/admin(\/|$)/.test(f.screen));
    const screens = found.map((f) => f.screen);
    expect(screens.length).toBeGreaterThan(40);
    const rows = ROWS.map((r) => r.screen);
    for (const screen of screens) expect(rows, `add ${screen} to the screens matrix`).toContain(screen);
    expect(rows.filter((r) => !screens.includes(r)), "rows for screens the route config does not have").toEqual([]);
    expect(new Set(rows).size, "one row a screen").toBe(rows.length);
    const posting = found.filter((f) => takesPosts(f.source)).map((f) => f.screen);
    const writes = WRITES.map((r) => r.screen);
    for (const screen of posting) expect(writes, `add ${screen}'s form post to the screens matrix's WRITES`).toContain(screen);
    expect(writes.filter((r) => !posting.includes(r)), "write rows for screens without an action").toEqual([]);
  });

  for (const row of ROWS) {
    // The guest goes first, so a kept visitor's page is there for the others to be wrongly served.
    it.each(ACTORS)(`${row.screen} as %s, its page and its navigation data`, async (actor) => {
      const url = row.url(w);
      const res = await w.as[actor].get(url);
      assertOutcome(res, url, row.expect[actor]);
      if (row.shows && res.statusCode === 200) expect(res.body, url).toContain(row.shows(w));
      const data = await w.as[actor].get(dataUrlOf(url));
      assertDataOutcome(data, url, row.expect[actor]);
      for (const answer of [res, data]) {
        const where = `${answer === res ? url : dataUrlOf(url)} as ${actor}`;
        for (const [secret, allowed] of w.secrets) if (!allowed.includes(actor)) expect(answer.body, `${where} must not show "${secret}"`).not.toContain(secret);
        if (actor === "guest") continue;
        if ((isSharedPage(url) || isPersonalFrame(url)) && answer.statusCode === 200) {
          // A catalogue page, or a personal page's frame, is kept once per price view (ADR 0043, 0061): it names no one, not even the actor.
          expect(["hit", "miss"], where).toContain(answer.headers["x-cache"]);
          for (const [secret] of w.secrets) expect(answer.body, `${where} is shared and must not show "${secret}"`).not.toContain(secret);
          expect(["public, max-age=0, must-revalidate", "private, no-store"], where).toContain(answer.headers["cache-control"]);
          continue;
        }
        // Any other page of a signed-in actor is theirs alone: never kept, here or anywhere.
        expect(answer.headers["x-cache"], where).toBe("bypass");
        if (answer.statusCode === 200) expect(answer.headers["cache-control"], where).toBe("private, no-store");
      }
    });
  }

  for (const row of WRITES) {
    it.each(ACTORS)(`a form post to ${row.screen} as %s`, async (actor) => {
      const { url, res } = await row.post(w, actor);
      assertOutcome(res, url, row.expect[actor]);
      for (const [secret, allowed] of w.secrets) if (!allowed.includes(actor)) expect(res.body, `${url} as ${actor} must not show "${secret}"`).not.toContain(secret);
    });
  }

  it("shows the owners their own rows, so the others' clean pages mean something", async () => {
    const A = w.as["customer A"];
    const own = async (b: TestBrowser, url: string) => (await b.get(url)).body;
    // The personal pages' frames name no one (ADR 0061): their data is the API's, read by the browser.
    expect(await own(A, "/api/user")).toContain(A_NAME);
    expect(await own(A, "/account/addresses")).toContain(A_LINE);
    expect(await own(A, "/checkout")).toContain(A_LINE);
    expect(await own(A, "/api/account/orders")).toContain(w.a.orderNumber);
    expect(await own(A, `/account/orders/${w.a.orderId}`)).toContain(A_LINE);
    expect(await own(A, "/account/hire-requests")).toContain(w.a.hireRequest);
    for (const reader of QUOTE_READERS) expect(await own(w.as[reader], "/account/quotes")).toContain(w.x.quote);
    expect(await own(w.as["customer B"], "/account/addresses")).toContain(B_LINE);
    expect(await own(w.as.owner, "/api/trade/dashboard")).toContain(X_NAME);
    expect(await own(w.as.accounts, "/trade/invoices")).toContain(w.x.invoiceNumber);
    expect(await own(w.as.owner, "/trade/manage")).toContain(w.x.buyerEmail);
    expect(await own(w.as["other owner"], "/api/trade/dashboard")).toContain(Y_NAME);
  });

  it("sends a guest whose navigation asks for a path ending in / back to that path after signing in", async () => {
    // React Router 8 asks for /account/ as /account/_.data; the way back is /account/, not /account/_.
    const data = await w.as.guest.get(dataUrlOf("/account/"));
    assertDataOutcome(data, "/account/", "sign in");
    assertOutcome(await w.as.guest.get("/account/"), "/account/", "sign in");
  });

  it("keeps serving visitors the visitor's page after everyone has been signed in", async () => {
    for (const row of ROWS.filter((r) => typeof r.expect.guest === "object" && "page" in r.expect.guest)) {
      const url = row.url(w);
      const res = await w.as.guest.get(url);
      expect(res.statusCode, url).toBe(200);
      for (const [secret] of w.secrets) expect(res.body, `${url} for a visitor must not show "${secret}"`).not.toContain(secret);
    }
  });
});

