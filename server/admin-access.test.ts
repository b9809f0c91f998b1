// Over 500 lines: the authorisation matrix is one table of every /admin screen and operation by every actor, easier to audit whole than in parts.
// The back office's authorisation matrix (issue 18, ADR 0029): every /admin
// screen in the route config (app/routes.ts) and every /api/admin operation in
// the server's own OpenAPI document, each tried by a guest, a customer (by
// their storefront cookie, and by their bearer token), a trade account's
// owner, each staff role, and a staff API token of each role. A screen or an
// operation without a row fails the first test, naming it.
//
// Each row names only what it needs: a permission from ROLE_PERMISSIONS
// (server/modules/staff/permissions.ts), `staff` (any member) or `public`.
// Who is let in is derived from that and the permissions table, never written
// per role, so changing the table changes the matrix. The screens take a staff
// session only; the API a session or a token, which acts with its own role,
// except where a row is `sessionOnly` (staff management and one's own sign-in):
// there a token is refused whatever its role.
//
// A refused actor gets the sign-in screen (a page: a redirect to
// /admin/login?redirect={the path}; its navigation data: the same redirect) or
// 401 from the API when they hold no staff credential, and 403 when their role
// lacks the permission; a refused answer carries none of the data's own
// strings, and a refused write changes nothing. An allowed actor is let
// through: the page (200), or from the API anything but 401 and 403 (a 409 or
// a 422 from a harmless body is the door opened). Every answer is `no-store`.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { asc, eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../app/routes.ts";
import { DEMO_STAFF } from "./db/seed/index.ts";
import type { Db } from "./db/client.ts";
import { countSoleVariantsTo } from "./modules/stock/ledger.ts";
import { categories, manufacturers, products } from "./modules/catalog/schema.ts";
import { hireItems } from "./modules/hire/schema.ts";
import { orderLines, orders } from "./modules/orders/schema.ts";
import { returnLines, returns } from "./modules/returns/schema.ts";
import { quotes } from "./modules/quotes/schema.ts";
import { type Permission, STAFF_ROLES, type StaffRole, can } from "./modules/staff/permissions.ts";
import { checkoutBody } from "./test/actors.ts";
import { type TestShop, createTestShop } from "./test/app.ts";
import { TestBrowser } from "./test/browser.ts";
import { apiOperations } from "./test/openapi.ts";

let shop: TestShop;
beforeAll(async () => {
  // The built screens, as in production.
  shop = await createTestShop({}, { storefront: { mode: "build" } });
}, 240_000);
afterAll(() => shop?.close());

/** The demo's password, for staff and customers alike. */
const PASSWORD = "demo-password-2026";
const CUSTOMER_PASSWORD = "a sturdy matrix password";

/** What a screen or an operation needs. */
type Access = Permission | "staff" | "public" | AnyOf;
/** Any one of these permissions opens it (the hire catalogue: catalogue.view or hire.desk). */
type AnyOf = readonly [Permission, ...Permission[]];
const allows = (role: StaffRole, needs: Permission | AnyOf) => (typeof needs === "string" ? can(role, needs) : needs.some((p) => can(role, p)));
/** What an actor gets: let through, sent to sign in (401), or refused for their role (403). */
type Outcome = "open" | "sign in" | "forbidden";

interface ActorSpec {
  name: string;
  kind: "guest" | "customer" | "member" | "token";
  role?: StaffRole;
}

const ACTORS: ActorSpec[] = [
  { name: "guest", kind: "guest" },
  { name: "customer", kind: "customer" },
  { name: "customer by bearer token", kind: "customer" },
  { name: "trade owner", kind: "customer" },
  ...STAFF_ROLES.map((role): ActorSpec => ({ name: role, kind: "member", role })),
  ...STAFF_ROLES.map((role): ActorSpec => ({ name: `${role} API token`, kind: "token", role })),
];
const ACTOR_NAMES = ACTORS.map((a) => a.name);
const actorNamed = (name: string): ActorSpec => ACTORS.find((a) => a.name === name)!;

/**
 * The one rule of the back office: derived from what the row needs and
 * ROLE_PERMISSIONS. A screen reads a staff session only (a bearer credential
 * is nothing to it); the API a session or a staff API token with its own role.
 */
function outcomeOf(needs: Access, actor: ActorSpec, door: "screen" | "api", sessionOnly = false): Outcome {
  if (needs === "public") return "open";
  const role = actor.kind === "member" || (actor.kind === "token" && door === "api") ? actor.role! : null;
  if (!role) return "sign in";
  if (actor.kind === "token" && sessionOnly) return "forbidden";
  return needs === "staff" || allows(role, needs) ? "open" : "forbidden";
}

/** A browser (its cookies), and the bearer credential it sends, if any. */
interface Client {
  browser: TestBrowser;
  bearer?: string;
}

interface World {
  clients: Record<string, Client>;
  /** A stocked product, for orders. */
  productId: number;
  /** Its SKU and name, for the catalogue and stock desks. */
  productSku: string;
  productName: string;
  /** A category and a brand, renamed to their own names by the tree's rows. */
  categoryId: number;
  categoryName: string;
  brandId: number;
  brandName: string;
  /** The secret customer's own order, awaiting payment: nobody refused may move it. */
  orderNumber: string;
  /** The secret customer: their details, addresses and orders are the data. */
  customerId: number;
  /** A customer to block and unblock. */
  blockeeId: number;
  /** An invited member not yet set up: their set-up link is the public screen's. */
  invitee: { id: number; setupToken: string };
  /** An invited member the owner removes. */
  leaverId: number;
  /** An invited member whose refund limit and set-up link change. */
  relinkId: number;
  /** A staff API token the owner revokes. */
  spareTokenId: number;
  /** The owner's saved filters. */
  presetId: number;
  /** A return asked for (its order delivered), and its line; a second one of the same order, received. */
  returnNumber: string;
  returnLineId: number;
  receivedReturnNumber: string;
  /** A running discount code: refused saves must leave it as it is. */
  promotionId: number;
  /** The secret customer's quote, drafting, its last day passed (so sending it is refused after the door), and its line. */
  quoteNumber: string;
  quoteLineId: number;
  /** Strings only the data carries: never in a refused answer. */
  secrets: string[];
}

const SECRET = {
  firstname: "Zebedee",
  lastname: "Quarrendon",
  email: "zebedee.quarrendon@example.co.uk",
  line1: "14 Pennywhistle Row",
  invitee: "quentin.matrix@staff.example.com",
};

/** A form post's fields; may set up a fresh target first. */
interface Post {
  /** What the form does. */
  what: string;
  needs: Access;
  /**
   * Called for each request: a page's form post and its navigation's (`.data`) post. `verify`
   * checks what an allowed actor's post did, by their role (a batch that checks each item's own permission).
   */
  form: (w: World) => Promise<{ url?: string; fields: Record<string, string>; verify?: (role: StaffRole) => Promise<void> }>;
  /** The action's answer to an allowed actor (its own 409 or 422 is the door opened). */
  ok: number[];
  /** Signs out: a member posts from a fresh session of their own, so the shared one lives on. */
  endsSession?: true;
}

interface Row {
  /** A screen as app/routes.ts names its path (`admin/orders/:number`), or an operation as the OpenAPI document names it (`GET /api/admin/orders/{number}`). */
  key: string;
  needs: Access;
  /** API only: a staff API token is refused (403) whatever its role. */
  sessionOnly?: true;
  /** API writes whose body decides the permission: what lets a member in before the body is read (default: `needs`). */
  door?: Access;
  /** The concrete URL, its params filled; may set up a fresh target. */
  url: (w: World) => string | Promise<string>;
  /** API writes: a body the schema accepts, so the door (not the schema) answers; may set up a fresh target. */
  body?: (w: World) => unknown;
  /** API: what else an allowed actor's answer must show, by their role (a batch that checks each item's own permission). */
  verify?: (res: LightMyRequestResponse, role: StaffRole) => void;
  /** What an allowed actor gets: a screen's page (default 200), an operation's status (default 200 for a read). */
  ok?: number[];
  /** Screens with an action: the forms they take. */
  posts?: Post[];
  /** Signs out: a member calls it from a fresh session of their own. */
  endsSession?: true;
}

/** A fixed form, posted to the row's own URL. */
const form = (fields: Record<string, string>) => async () => ({ fields });

/** The hire catalogue is read by the catalogue's readers and by the hire desk (server/modules/hire/admin.ts). */
const HIRE_READ: AnyOf = ["catalogue.view", "hire.desk"];
/** A hire request number no request has: the hire desk's operations answer 404 after their door. */
const NO_HIRE = "/api/admin/hire/requests/HR-999999";
/** The trade desk is read by trade.manage and by invoices.manage (server/modules/trade/desk/common.ts `authorizeDesk`). */
const TRADE_DESK: AnyOf = ["trade.manage", "invoices.manage"];
/** A trade account id no account has: the trade desk's operations on it answer 404 after their door. */
const NO_TRADE_ACCOUNT = "/api/admin/trade/accounts/2147483647";

/** The quotes row's price, a penny more each call, so each is a change the floor judges. */
let belowFloorPence = 0;

const ROWS: Row[] = [
  // Screens outside the layout: open to anyone.
  {
    key: "admin/login",
    needs: "public",
    url: () => `/admin/login?redirect=${encodeURIComponent("/admin/orders")}`,
    // A member already signed in goes straight on.
    ok: [200, 302],
    // Refused as empty; a member already signed in is sent straight on after it.
    posts: [{ what: "empty sign-in", needs: "public", form: form({ email: "", password: "" }), ok: [422, 302] }],
  },
  {
    key: "admin/logout",
    needs: "public",
    url: () => "/admin/logout",
    // Its loader only sends a visitor on to /admin.
    ok: [302],
    posts: [{ what: "sign out", needs: "public", form: form({}), ok: [302], endsSession: true }],
  },
  {
    key: "admin/setup/:token",
    needs: "public",
    url: (w) => `/admin/setup/${w.invitee.setupToken}`,
    posts: [{ what: "passwords that differ", needs: "public", form: form({ password: "matrix one two three", password_confirmation: "matrix four five six" }), ok: [422] }],
  },

  // Screens inside the layout: staff, each by its permission.
  { key: "admin", needs: "dashboard.view", url: () => "/admin" },
  {
    key: "admin/account",
    needs: "staff",
    url: () => "/admin/account",
    posts: [{ what: "a wrong authenticator code", needs: "staff", form: form({ code: "not-a-code" }), ok: [409, 422] }],
  },
  {
    key: "admin/orders",
    needs: "orders.view",
    url: () => "/admin/orders",
    posts: [
      { what: "save the filters", needs: "orders.view", form: form({ intent: "save-preset", name: "Matrix screen filters", query: "status=paid" }), ok: [200] },
      {
        what: "mark a fresh order paid, chosen on the list",
        // Through the door with orders.view; the order moves only for a role that may make the move.
        needs: "orders.view",
        form: async (w) => {
          const number = await placeOrder(w);
          return {
            fields: { intent: "bulk", to: "paid", number },
            verify: async (role) => expect(await orderStatus(number), `${role} marking ${number} paid from the list`).toBe(can(role, "orders.mark_paid") ? "paid" : "awaiting_payment"),
          };
        },
        ok: [200],
      },
    ],
  },
  {
    key: "admin/orders/:number",
    needs: "orders.view",
    url: (w) => `/admin/orders/${w.orderNumber}`,
    posts: [
      { what: "a note", needs: "orders.note", form: form({ intent: "note", note: "Matrix note from the screen." }), ok: [200] },
      {
        what: "mark a fresh order paid",
        needs: "orders.mark_paid",
        form: async (w) => {
          const number = await placeOrder(w);
          return {
            url: `/admin/orders/${number}`,
            fields: { intent: "transition", to: "paid", expected_status: "awaiting_payment" },
            verify: async (role) => expect(await orderStatus(number), `${role} marking ${number} paid`).toBe("paid"),
          };
        },
        ok: [200],
      },
    ],
  },
  // The returns desk (issue 31): each move is tried with a body refused after its own permission, so nothing changes.
  { key: "admin/returns", needs: "returns.view", url: () => "/admin/returns?status=requested" },
  {
    key: "admin/returns/:number",
    needs: "returns.view",
    url: (w) => `/admin/returns/${w.returnNumber}`,
    posts: [
      { what: "a reject without its reason", needs: "returns.approve", form: form({ to: "rejected", expected_status: "requested", reason: "" }), ok: [422] },
      {
        what: "receiving more units than were returned",
        needs: "returns.receive",
        form: async (w) => ({ fields: { to: "received", expected_status: "requested", line: String(w.returnLineId), [`received_${w.returnLineId}`]: "5", [`damaged_${w.returnLineId}`]: "5" } }),
        ok: [422],
      },
      { what: "a refund above the goods back", needs: "refunds.create", form: async (w) => ({ url: `/admin/returns/${w.receivedReturnNumber}`, fields: { to: "refunded", expected_status: "received", amount: "99999" } }), ok: [422] },
    ],
  },
  // The promotions desk (issue 32): a save refused by the rules after the door (manage); a sample basket tried (view) writes nothing.
  { key: "admin/promotions", needs: "promotions.view", url: () => "/admin/promotions?status=all" },
  {
    key: "admin/promotions/new",
    needs: "promotions.manage",
    url: () => "/admin/promotions/new",
    posts: [{ what: "a code above 100%", needs: "promotions.manage", form: form({ intent: "save", kind: "percent", code: "MATRIX-NEW", value: "150" }), ok: [422] }],
  },
  {
    key: "admin/promotions/:id",
    needs: "promotions.view",
    url: (w) => `/admin/promotions/${w.promotionId}`,
    posts: [
      { what: "a sample basket", needs: "promotions.view", form: async (w) => ({ fields: { intent: "preview", lines: `${w.productSku} 2`, buyer: "consumer" } }), ok: [200] },
      { what: "a save above 100%", needs: "promotions.manage", form: form({ intent: "save", kind: "percent", code: "MATRIX10", name: "Matrix", value: "150" }), ok: [422] },
      { what: "a status that is none", needs: "promotions.manage", form: form({ intent: "status", status: "deleted" }), ok: [422] },
    ],
  },
  // Orders taken by staff (issue 34): a post with an unknown SKU is refused after the door (422), so nothing is written.
  {
    key: "admin/orders/new",
    needs: "orders.create",
    url: () => "/admin/orders/new",
    posts: [{ what: "an order for a walk-in with an unknown SKU", needs: "orders.create", form: form({ intent: "place", walkin_name: "Matrix Walkin", line_sku: "NO-SUCH-SKU", line_quantity: "1", fulfilment: "collection", payment: "pay_on_collection" }), ok: [422] }],
  },
  {
    key: "admin/orders/drafts",
    needs: "orders.create",
    url: () => "/admin/orders/drafts",
    posts: [{ what: "delete a draft that is not there", needs: "orders.create", form: form({ id: "2147483647" }), ok: [404] }],
  },
  // The quotes desk (issue 32): each write refused by the rules after its door (quotes.manage), so the secret customer's quote stays as it is.
  { key: "admin/quotes", needs: "quotes.view", url: () => "/admin/quotes?status=drafting" },
  {
    key: "admin/quotes/new",
    needs: "quotes.manage",
    url: () => "/admin/quotes/new",
    posts: [{ what: "a customer with no account", needs: "quotes.manage", form: async (w) => ({ fields: { customer_email: "no.such.customer@example.com", lines: `${w.productSku} 1` } }), ok: [422] }],
  },
  {
    key: "admin/quotes/:number",
    needs: "quotes.view",
    url: (w) => `/admin/quotes/${w.quoteNumber}`,
    posts: [
      { what: "a save with a last day in the past", needs: "quotes.manage", form: form({ intent: "save", valid_until: "2020-01-01" }), ok: [422] },
      { what: "a send after its last day", needs: "quotes.manage", form: form({ intent: "send" }), ok: [422] },
      { what: "a decline without its reason", needs: "quotes.manage", form: form({ intent: "decline", reason: "" }), ok: [422] },
    ],
  },
  { key: "admin/customers", needs: "customers.view", url: () => "/admin/customers" },
  // A guest buyer's page (issue 34): an email that placed no guest order answers 404 after the door.
  { key: "admin/customers/guest", needs: "customers.view", url: () => "/admin/customers/guest?email=nobody-matrix%40example.com", ok: [404] },
  {
    key: "admin/customers/:id",
    needs: "customers.view",
    url: (w) => `/admin/customers/${w.customerId}`,
    posts: [
      { what: "details without a first name", needs: "customers.edit", form: async (w) => ({ url: `/admin/customers/${w.customerId}`, fields: { intent: "edit", firstname: "" } }), ok: [422] },
      {
        what: "unblock",
        needs: "customers.manage",
        form: async (w) => ({ url: `/admin/customers/${w.blockeeId}`, fields: { intent: "unblock" } }),
        // Not blocked now: 409, after the door.
        ok: [200, 409],
      },
    ],
  },
  { key: "admin/products/import", needs: "catalogue.manage", url: () => "/admin/products/import" },
  {
    key: "admin/products",
    needs: "catalogue.view",
    url: () => "/admin/products",
    posts: [{ what: "a bulk archive, previewed", needs: "catalogue.manage", form: async (w) => ({ fields: { intent: "preview", bulk_action: "archive", sku: w.productSku } }), ok: [200] }],
  },
  {
    key: "admin/products/new",
    needs: "catalogue.manage",
    url: () => "/admin/products/new",
    posts: [{ what: "a product without a name or price", needs: "catalogue.manage", form: form({ intent: "save", sku: "MATRIX-SCREEN", name: "" }), ok: [422] }],
  },
  {
    key: "admin/products/:sku",
    needs: "catalogue.view",
    url: (w) => `/admin/products/${w.productSku}`,
    posts: [
      // The stock as it stands, counted: sent because it differs from the form's old figure, and changes nothing.
      { what: "a stock count", needs: "stock.count", form: form({ intent: "save", stock: "100000", stock_was: "1" }), ok: [200] },
      { what: "the name as it is", needs: "catalogue.manage", form: async (w) => ({ fields: { intent: "save", name: w.productName } }), ok: [200] },
    ],
  },
  {
    key: "admin/categories",
    needs: "catalogue.view",
    url: () => "/admin/categories",
    posts: [
      { what: "a category without a name", needs: "catalogue.manage", form: form({ intent: "create", name: "" }), ok: [422] },
      { what: "an attribute of no kind", needs: "catalogue.manage", form: async (w) => ({ fields: { intent: "attributes", id: String(w.categoryId), attribute_name: "Matrix", attribute_kind: "colour" } }), ok: [422] },
    ],
  },
  {
    key: "admin/brands",
    needs: "catalogue.view",
    url: () => "/admin/brands",
    posts: [{ what: "a brand without a name", needs: "catalogue.manage", form: form({ intent: "create", name: "" }), ok: [422] }],
  },
  {
    key: "admin/redirects",
    needs: "catalogue.view",
    url: () => "/admin/redirects",
    posts: [{ what: "a rule for a reserved path", needs: "catalogue.manage", form: form({ intent: "create", from: "/admin/matrix", to: "/" }), ok: [422] }],
  },
  {
    key: "admin/stock",
    needs: "stock.count",
    url: () => "/admin/stock",
    posts: [{ what: "a delivery of one", needs: "stock.count", form: async (w) => ({ fields: { intent: "receive", reference: "Matrix", sku: w.productSku, quantity: "1" } }), ok: [200] }],
  },
  {
    key: "admin/stock/transfers",
    needs: "stock.count",
    url: () => "/admin/stock/transfers",
    // Asked for, the screen goes on to the new transfer's page.
    posts: [{ what: "a transfer of one", needs: "stock.count", form: async (w) => ({ fields: { from_branch_id: "1", to_branch_id: "2", sku: w.productSku, quantity: "1" } }), ok: [302] }],
  },
  {
    key: "admin/stock/transfers/:id",
    needs: "stock.count",
    url: async () => `/admin/stock/transfers/${await matrixTransfer()}`,
    // Receiving a transfer not yet sent: 409 after the door.
    posts: [{ what: "receiving a transfer not yet sent", needs: "stock.count", form: form({ intent: "receive" }), ok: [409] }],
  },
  { key: "admin/branches", needs: "branches.manage", url: () => "/admin/branches" },
  {
    key: "admin/branches/new",
    needs: "branches.manage",
    url: () => "/admin/branches/new",
    posts: [{ what: "a branch without a name", needs: "branches.manage", form: form({ slug: "matrix", name: "" }), ok: [422] }],
  },
  {
    key: "admin/branches/:slug",
    needs: "branches.manage",
    url: () => "/admin/branches/leeds",
    // The default branch cannot be closed: 422 after the door, nothing changed.
    posts: [{ what: "closing the default branch", needs: "branches.manage", form: form({ intent: "close" }), ok: [422] }],
  },
  {
    key: "admin/appointments",
    needs: "appointments.manage",
    url: () => "/admin/appointments?branch=york&date=2026-12-01",
    // A cancel of an appointment that is not there: 404 after the door.
    posts: [{ what: "a cancel of an unknown appointment", needs: "appointments.manage", form: form({ id: "999999", reason: "Matrix" }), ok: [404] }],
  },
  { key: "admin/audit", needs: "audit.view", url: () => "/admin/audit" },
  { key: "admin/backups", needs: "backups.download", url: () => "/admin/backups" },
  {
    key: "admin/products/:sku/photos",
    needs: "catalogue.view",
    url: async () => `/admin/products/${await matrixSku()}/photos`,
    // Alt text for a photo the product does not have: 404 after the door.
    posts: [{ what: "alt text of no photo", needs: "catalogue.manage", form: form({ intent: "alt", id: "zzzzzzzzzzzz", alt: "Matrix alt" }), ok: [404] }],
  },
  {
    key: "admin/variants/:sku/photos",
    needs: "catalogue.view",
    url: async () => `/admin/variants/${await matrixSku()}/photos`,
    // Alt text for a photo the variant does not have: 404 after the door.
    posts: [{ what: "alt text of no photo", needs: "catalogue.manage", form: form({ intent: "alt", id: "zzzzzzzzzzzz", alt: "Matrix alt" }), ok: [404] }],
  },
  {
    key: "admin/products/:sku/variants",
    needs: "catalogue.view",
    url: async () => `/admin/products/${await matrixSku()}/variants`,
    // The options as they stand (none): the door is what is checked.
    posts: [{ what: "options", needs: "catalogue.manage", form: form({ intent: "options" }), ok: [200] }],
  },
  // The hire catalogue: read by the catalogue's readers and the hire desk; changed with catalogue.manage.
  // The hire desk: the day's overview, the planner, the requests list.
  { key: "admin/hire", needs: "hire.desk", url: () => "/admin/hire" },
  { key: "admin/hire/planner", needs: "hire.desk", url: () => "/admin/hire/planner?days=3" },
  { key: "admin/hire/requests", needs: "hire.desk", url: () => "/admin/hire/requests" },
  // A hire taken by staff (issue 34): the form, and a booking with no customer refused after the door.
  {
    key: "admin/hire/bookings/new",
    needs: "hire.desk",
    url: () => "/admin/hire/bookings/new",
    posts: [{ what: "a booking with nothing chosen", needs: "hire.desk", form: form({ hire_item: "", starts_on: "", ends_on: "" }), ok: [422] }],
  },
  // A request's page and its forms: a number no request has answers 404 after the door; an empty reason 422.
  {
    key: "admin/hire/requests/:number",
    needs: "hire.desk",
    url: () => "/admin/hire/requests/HR-999999",
    ok: [404],
    posts: [{ what: "a decline without a reason", needs: "hire.desk", form: form({ intent: "decline", reason: "" }), ok: [422] }],
  },
  { key: "admin/hire/items", needs: HIRE_READ, url: () => "/admin/hire/items" },
  {
    key: "admin/hire/items/new",
    needs: "catalogue.manage",
    url: () => "/admin/hire/items/new",
    posts: [{ what: "a hire item without a name or rates", needs: "catalogue.manage", form: form({ intent: "save", name: "" }), ok: [422] }],
  },
  {
    key: "admin/hire/items/:slug",
    needs: HIRE_READ,
    url: async () => `/admin/hire/items/${(await matrixHireItem()).slug}`,
    posts: [
      { what: "the name as it is", needs: "catalogue.manage", form: async () => ({ fields: { intent: "save", name: (await matrixHireItem()).name } }), ok: [200] },
      { what: "a unit without an asset number", needs: "catalogue.manage", form: form({ intent: "add-unit", asset_number: "" }), ok: [422] },
    ],
  },
  {
    key: "admin/hire/items/:slug/photos",
    needs: "catalogue.view",
    url: async () => `/admin/hire/items/${await matrixHireSlug()}/photos`,
    posts: [{ what: "alt text of no photo", needs: "catalogue.manage", form: form({ intent: "alt", id: "zzzzzzzzzzzz", alt: "Matrix alt" }), ok: [404] }],
  },
  // The trade desk's statements and aged debt: a statement of an account no one has is 404 after the door; a bad month 422.
  { key: "admin/trade/aged-debt", needs: "invoices.manage", url: () => "/admin/trade/aged-debt" },
  // The trade desk's screens: the list, and an account no one has (404 after the door); a decision on no application is 404, an empty note 422.
  {
    key: "admin/trade",
    needs: TRADE_DESK,
    url: () => "/admin/trade",
    posts: [{ what: "a decline of no application", needs: "trade.manage", form: form({ intent: "decline", id: "2147483647", reason: "Matrix" }), ok: [404] }],
  },
  {
    key: "admin/trade/accounts/:id",
    needs: TRADE_DESK,
    url: () => "/admin/trade/accounts/214748364",
    ok: [404],
    posts: [{ what: "an empty note", needs: "trade.manage", form: form({ intent: "note", body: "" }), ok: [422] }],
  },
  {
    key: "admin/trade/accounts/:id/statement",
    needs: "invoices.manage",
    url: () => "/admin/trade/accounts/214748364/statement?month=2026-01",
    ok: [404],
    posts: [{ what: "a statement email of no month", needs: "invoices.manage", form: form({ month: "2026-13" }), ok: [422] }],
  },
  {
    key: "admin/staff",
    needs: "staff.manage",
    url: () => "/admin/staff",
    // Each refused after the door and before the password is asked (so the 5-minute window does not matter): nothing changes.
    posts: [
      { what: "an invitation to no valid address", needs: "staff.manage", form: form({ intent: "invite", name: "Nobody", email: "not an address", role: "sales" }), ok: [422] },
      { what: "a refund limit below nothing", needs: "staff.manage", form: async (w) => ({ fields: { intent: "refund_limit", id: String(w.relinkId), refund_limit: "-1" } }), ok: [422] },
      { what: "removing no one", needs: "staff.manage", form: form({ intent: "remove", id: "2147483647" }), ok: [404] },
    ],
  },
  {
    key: "admin/staff/tokens",
    needs: "tokens.manage",
    url: () => "/admin/staff/tokens",
    posts: [
      { what: "a token without a name", needs: "tokens.manage", form: form({ intent: "create", name: "", role: "hire" }), ok: [422] },
      { what: "revoking no token", needs: "tokens.manage", form: form({ intent: "revoke", id: "2147483647" }), ok: [404] },
    ],
  },

  // Signing in, and one's own account.
  { key: "POST /api/admin/auth/login", needs: "public", url: () => "/api/admin/auth/login", body: () => ({ email: "", password: "" }), ok: [422] },
  { key: "POST /api/admin/auth/logout", needs: "public", url: () => "/api/admin/auth/logout", ok: [204], endsSession: true },
  { key: "GET /api/admin/auth/me", needs: "staff", url: () => "/api/admin/auth/me" },
  { key: "POST /api/admin/auth/reauthenticate", needs: "staff", sessionOnly: true, url: () => "/api/admin/auth/reauthenticate", body: () => ({ password: PASSWORD }), ok: [204] },
  // An authenticator is a member's own: a token (acting in an owner's name) must not enrol one for them.
  { key: "POST /api/admin/auth/totp", needs: "staff", sessionOnly: true, url: () => "/api/admin/auth/totp", ok: [200, 409] },
  { key: "POST /api/admin/auth/totp/confirm", needs: "staff", sessionOnly: true, url: () => "/api/admin/auth/totp/confirm", body: () => ({ code: "not-a-code" }), ok: [409, 422] },
  { key: "GET /api/admin/setup/{token}", needs: "public", url: (w) => `/api/admin/setup/${w.invitee.setupToken}` },
  {
    key: "POST /api/admin/setup/{token}",
    needs: "public",
    url: (w) => `/api/admin/setup/${w.invitee.setupToken}`,
    body: () => ({ password: "matrix one two three", password_confirmation: "matrix four five six" }),
    ok: [422],
  },
  { key: "GET /api/admin/presets", needs: "staff", url: () => "/api/admin/presets?screen=orders" },
  { key: "POST /api/admin/presets", needs: "staff", url: () => "/api/admin/presets", body: () => ({ screen: "orders", name: "Matrix paid", query: "status=paid" }), ok: [201] },
  // The owner's own: the owner deletes it; anyone else's delete finds nothing.
  { key: "DELETE /api/admin/presets/{id}", needs: "staff", url: (w) => `/api/admin/presets/${w.presetId}`, ok: [200, 404] },

  // Staff management: owners, from a signed-in session, never by a token.
  { key: "GET /api/admin/staff", needs: "staff.manage", sessionOnly: true, url: () => "/api/admin/staff" },
  { key: "POST /api/admin/staff", needs: "staff.manage", sessionOnly: true, url: () => "/api/admin/staff", body: () => ({ email: "not an address", name: "Nobody", role: "sales" }), ok: [422] },
  { key: "PATCH /api/admin/staff/{id}", needs: "staff.manage", sessionOnly: true, url: (w) => `/api/admin/staff/${w.relinkId}`, body: () => ({ refund_limit: 0 }) },
  { key: "DELETE /api/admin/staff/{id}", needs: "staff.manage", sessionOnly: true, url: (w) => `/api/admin/staff/${w.leaverId}`, ok: [200, 409] },
  { key: "POST /api/admin/staff/{id}/setup-link", needs: "staff.manage", sessionOnly: true, url: (w) => `/api/admin/staff/${w.relinkId}/setup-link` },
  { key: "GET /api/admin/tokens", needs: "tokens.manage", sessionOnly: true, url: () => "/api/admin/tokens" },
  { key: "POST /api/admin/tokens", needs: "tokens.manage", sessionOnly: true, url: () => "/api/admin/tokens", body: () => ({ name: "Matrix till", role: "hire" }), ok: [201] },
  { key: "DELETE /api/admin/tokens/{id}", needs: "tokens.manage", sessionOnly: true, url: (w) => `/api/admin/tokens/${w.spareTokenId}`, ok: [200, 404] },

  { key: "GET /api/admin/audit", needs: "audit.view", url: () => "/api/admin/audit" },
  { key: "GET /api/admin/backups", needs: "backups.download", url: () => "/api/admin/backups" },
  // No backup in the matrix's shop: an owner signed in gets 404 after the door; a token, even the owner's, 403.
  { key: "GET /api/admin/backups/latest", needs: "backups.download", sessionOnly: true, url: () => "/api/admin/backups/latest", ok: [404] },
  { key: "GET /api/admin/dashboard", needs: "dashboard.view", url: () => "/api/admin/dashboard" },

  // The orders desk.
  { key: "GET /api/admin/orders", needs: "orders.view", url: () => "/api/admin/orders" },
  { key: "GET /api/admin/orders/counts", needs: "orders.view", url: () => "/api/admin/orders/counts" },
  { key: "GET /api/admin/orders/export.csv", needs: "orders.export", url: () => "/api/admin/orders/export.csv" },
  { key: "GET /api/admin/orders/picking-list.pdf", needs: "orders.fulfil", url: () => "/api/admin/orders/picking-list.pdf" },
  { key: "GET /api/admin/orders/{number}", needs: "orders.view", url: (w) => `/api/admin/orders/${w.orderNumber}` },
  { key: "GET /api/admin/orders/{number}/picking-list.pdf", needs: "orders.fulfil", url: (w) => `/api/admin/orders/${w.orderNumber}/picking-list.pdf` },
  { key: "GET /api/admin/orders/{number}/delivery-note.pdf", needs: "orders.fulfil", url: (w) => `/api/admin/orders/${w.orderNumber}/delivery-note.pdf` },
  {
    key: "POST /api/admin/orders/{number}/transitions",
    // Through the door with any move's permission; the move itself needs its own.
    needs: "orders.mark_paid",
    door: ["orders.mark_paid", "orders.fulfil", "orders.cancel"],
    url: async (w) => `/api/admin/orders/${await placeOrder(w)}/transitions`,
    body: () => ({ to: "paid", expected_status: "awaiting_payment" }),
  },
  {
    key: "POST /api/admin/orders/bulk-transitions",
    // Through the door with orders.view; each order moves only for a role that may make the move, and is listed as refused otherwise.
    needs: "orders.view",
    url: () => "/api/admin/orders/bulk-transitions",
    body: async (w) => ({ numbers: [await placeOrder(w)], to: "paid" }),
    verify: (res, role) => expect(res.json().moved, res.body).toHaveLength(can(role, "orders.mark_paid") ? 1 : 0),
  },
  // Orders taken by staff (issue 34): an unknown SKU is refused after the door (422), so nothing is written.
  { key: "POST /api/admin/orders", needs: "orders.create", url: () => "/api/admin/orders", body: () => ({ customer: { name: "Matrix Walkin" }, lines: [{ sku: "NO-SUCH-SKU", quantity: 1 }], delivery_method: "collect", payment: "pay_on_collection" }), ok: [422] },
  { key: "GET /api/admin/orders/lookup/customers", needs: "orders.create", url: () => "/api/admin/orders/lookup/customers?q=matrix" },
  { key: "GET /api/admin/orders/lookup/products", needs: "orders.create", url: (w) => `/api/admin/orders/lookup/products?q=${w.productSku}` },
  { key: "GET /api/admin/orders/drafts", needs: "orders.create", url: () => "/api/admin/orders/drafts" },
  { key: "POST /api/admin/orders/drafts", needs: "orders.create", url: () => "/api/admin/orders/drafts", body: () => ({ label: "Matrix draft", payload: {} }), ok: [201] },
  { key: "GET /api/admin/orders/drafts/{id}", needs: "orders.create", url: () => "/api/admin/orders/drafts/2147483647", ok: [404] },
  { key: "PUT /api/admin/orders/drafts/{id}", needs: "orders.create", url: () => "/api/admin/orders/drafts/2147483647", body: () => ({ payload: {} }), ok: [404] },
  { key: "DELETE /api/admin/orders/drafts/{id}", needs: "orders.create", url: () => "/api/admin/orders/drafts/2147483647", ok: [404] },
  { key: "GET /api/admin/orders/{number}/payment", needs: "orders.prices", url: (w) => `/api/admin/orders/${w.orderNumber}/payment` },
  // The matrix's order was not paid by card: an allowed member's refund is refused as such (409), which is the door opened.
  { key: "POST /api/admin/orders/{number}/refunds", needs: "refunds.create", url: (w) => `/api/admin/orders/${w.orderNumber}/refunds`, body: () => ({ amount: 1, reason: "Matrix refund" }), ok: [409] },
  { key: "POST /api/admin/orders/{number}/notes", needs: "orders.note", url: (w) => `/api/admin/orders/${w.orderNumber}/notes`, body: () => ({ note: "Matrix note from the API." }), ok: [201] },

  // The quotes desk (issue 32): writes refused by the rules (422) after the door; a price below the floor needs a manager.
  { key: "GET /api/admin/quotes", needs: "quotes.view", url: () => "/api/admin/quotes?status=drafting" },
  { key: "POST /api/admin/quotes", needs: "quotes.manage", url: () => "/api/admin/quotes", body: (w) => ({ customer_email: "no.such.customer@example.com", lines: [{ sku: w.productSku, quantity: 1 }] }), ok: [422] },
  { key: "GET /api/admin/quotes/{number}", needs: "quotes.view", url: (w) => `/api/admin/quotes/${w.quoteNumber}` },
  { key: "GET /api/admin/quotes/{number}/pdf", needs: "quotes.view", url: (w) => `/api/admin/quotes/${w.quoteNumber}/pdf` },
  // Who may price below the floor (85% of the customer's price) as well as change quotes: each call a new price of a few pence, which only quotes.below_floor may set.
  { key: "PATCH /api/admin/quotes/{number}", needs: "quotes.below_floor", door: "quotes.manage", url: (w) => `/api/admin/quotes/${w.quoteNumber}`, body: (w) => ({ lines: [{ line_id: w.quoteLineId, unit_price_ex_vat: (belowFloorPence += 1) / 100 }] }) },
  { key: "POST /api/admin/quotes/{number}/send", needs: "quotes.manage", url: (w) => `/api/admin/quotes/${w.quoteNumber}/send`, ok: [422] },
  { key: "POST /api/admin/quotes/{number}/decline", needs: "quotes.manage", url: (w) => `/api/admin/quotes/${w.quoteNumber}/decline`, body: () => ({ reason: "" }), ok: [422] },

  // The returns desk: a reject without its reason is refused after the move's own permission (returns.approve).
  { key: "GET /api/admin/returns", needs: "returns.view", url: () => "/api/admin/returns?status=requested" },
  { key: "GET /api/admin/returns/{number}", needs: "returns.view", url: (w) => `/api/admin/returns/${w.returnNumber}` },
  // A photo the return has not got: not found once through the door.
  { key: "GET /api/admin/returns/{number}/photos/{photo}/{size}", needs: "returns.view", url: (w) => `/api/admin/returns/${w.returnNumber}/photos/abcdefabcdef/small`, ok: [404] },
  { key: "POST /api/admin/returns/{number}/transitions", needs: "returns.approve", door: ["returns.approve", "returns.receive", "refunds.create"], url: (w) => `/api/admin/returns/${w.returnNumber}/transitions`, body: () => ({ to: "rejected", reason: "" }), ok: [422] },

  // The promotions desk: writes refused by the rules (422) after the door; the preview writes nothing.
  { key: "GET /api/admin/promotions", needs: "promotions.view", url: () => "/api/admin/promotions?status=active" },
  { key: "POST /api/admin/promotions", needs: "promotions.manage", url: () => "/api/admin/promotions", body: () => ({ code: "MATRIX-API", kind: "percent", value: 150 }), ok: [422] },
  { key: "GET /api/admin/promotions/{id}", needs: "promotions.view", url: (w) => `/api/admin/promotions/${w.promotionId}` },
  { key: "PATCH /api/admin/promotions/{id}", needs: "promotions.manage", url: (w) => `/api/admin/promotions/${w.promotionId}`, body: () => ({ value: 150 }), ok: [422] },
  { key: "POST /api/admin/promotions/{id}/preview", needs: "promotions.view", url: (w) => `/api/admin/promotions/${w.promotionId}/preview`, body: (w) => ({ lines: [{ sku: w.productSku, quantity: 2 }], trade: false }) },

  // The catalogue desk: reading is catalogue.view; writing catalogue.manage, but stock and reorder level stock.count.
  { key: "GET /api/admin/products", needs: "catalogue.view", url: () => "/api/admin/products" },
  { key: "GET /api/admin/products/counts", needs: "catalogue.view", url: () => "/api/admin/products/counts" },
  // The first allowed actor makes it; the rest are told the SKU is taken (the door opened either way).
  { key: "POST /api/admin/products", needs: "catalogue.manage", url: () => "/api/admin/products", body: () => ({ sku: "MATRIX-NEW", name: "Matrix product", price_ex_vat: 1 }), ok: [201, 422] },
  { key: "POST /api/admin/products/bulk", needs: "catalogue.manage", url: () => "/api/admin/products/bulk", body: (w) => ({ skus: [w.productSku], action: "archive", preview: true }) },
  { key: "GET /api/admin/products/{sku}", needs: "catalogue.view", url: (w) => `/api/admin/products/${w.productSku}` },
  { key: "PATCH /api/admin/products/{sku}", needs: "catalogue.manage", door: ["catalogue.manage", "stock.count"], url: (w) => `/api/admin/products/${w.productSku}`, body: (w) => ({ name: w.productName }) },
  { key: "GET /api/admin/products/{sku}/variants", needs: "catalogue.view", url: (w) => `/api/admin/products/${w.productSku}/variants` },
  // The product's options as they stand (none): nothing changes, but the write is checked.
  { key: "PUT /api/admin/products/{sku}/options", needs: "catalogue.manage", url: (w) => `/api/admin/products/${w.productSku}/options`, body: () => ({ options: [] }) },
  { key: "POST /api/admin/products/{sku}/variants", needs: "catalogue.manage", url: (w) => `/api/admin/products/${w.productSku}/variants`, body: () => ({ sku: "MATRIX-VARIANT", options: { Length: "1 m" }, price_ex_vat: 1 }), ok: [422] },
  { key: "PATCH /api/admin/variants/{sku}", needs: "catalogue.manage", door: ["catalogue.manage", "stock.count"], url: (w) => `/api/admin/variants/${w.productSku}`, body: () => ({ barcode: null }) },
  { key: "GET /api/admin/redirects", needs: "catalogue.view", url: () => "/api/admin/redirects?q=matrix" },
  { key: "GET /api/admin/redirects/test", needs: "catalogue.view", url: () => "/api/admin/redirects/test?url=/matrix-nowhere" },
  // Writes to no rule, or a rule refused by the rules: the door is what is checked.
  { key: "POST /api/admin/redirects", needs: "catalogue.manage", url: () => "/api/admin/redirects", body: () => ({ from: "/admin/matrix", to: "/" }), ok: [422] },
  { key: "PATCH /api/admin/redirects/{id}", needs: "catalogue.manage", url: () => "/api/admin/redirects/2147483647", body: () => ({ status: 301 }), ok: [404] },
  { key: "DELETE /api/admin/redirects/{id}", needs: "catalogue.manage", url: () => "/api/admin/redirects/2147483647", ok: [404] },
  { key: "POST /api/admin/redirects/import", needs: "catalogue.manage", url: () => "/api/admin/redirects/import?dry_run=1", body: () => ({ csv: "from,to\n/matrix-old,/matrix-new\n" }) },
  { key: "GET /api/admin/products/{sku}/stock-movements", needs: "catalogue.view", url: (w) => `/api/admin/products/${w.productSku}/stock-movements` },

  // The category tree and brands: a refused body answers 422 after the door.
  { key: "GET /api/admin/categories", needs: "catalogue.view", url: () => "/api/admin/categories" },
  { key: "POST /api/admin/categories", needs: "catalogue.manage", url: () => "/api/admin/categories", body: () => ({ name: "Matrix category" }), ok: [201, 422] },
  { key: "PATCH /api/admin/categories/{id}", needs: "catalogue.manage", url: (w) => `/api/admin/categories/${w.categoryId}`, body: (w) => ({ name: w.categoryName }) },
  { key: "PUT /api/admin/categories/{id}/attributes", needs: "catalogue.manage", url: (w) => `/api/admin/categories/${w.categoryId}/attributes`, body: () => ({ attributes: [{ name: "Matrix attribute", kind: "text" }] }) },
  { key: "POST /api/admin/categories/{id}/move", needs: "catalogue.manage", url: (w) => `/api/admin/categories/${w.categoryId}/move`, body: () => ({ direction: "down" }) },
  { key: "GET /api/admin/brands", needs: "catalogue.view", url: () => "/api/admin/brands" },
  { key: "POST /api/admin/brands", needs: "catalogue.manage", url: () => "/api/admin/brands", body: () => ({ name: "Matrix brand" }), ok: [201, 422] },
  { key: "PATCH /api/admin/brands/{id}", needs: "catalogue.manage", url: (w) => `/api/admin/brands/${w.brandId}`, body: (w) => ({ name: w.brandName }) },

  // The stock desk.
  { key: "POST /api/admin/stock/movements", needs: "stock.count", url: () => "/api/admin/stock/movements", body: (w) => ({ movements: [{ sku: w.productSku, change: 1, reason: "Matrix" }] }) },
  { key: "POST /api/admin/stock/deliveries", needs: "stock.count", url: () => "/api/admin/stock/deliveries", body: (w) => ({ reference: "MATRIX", lines: [{ sku: w.productSku, quantity: 1 }] }) },
  { key: "POST /api/admin/stock/counts", needs: "stock.count", url: () => "/api/admin/stock/counts", body: (w) => ({ counts: [{ sku: w.productSku, counted: 100_000 }] }) },
  { key: "GET /api/admin/stock/movements", needs: "catalogue.view", url: () => "/api/admin/stock/movements" },
  { key: "GET /api/admin/stock/levels", needs: "catalogue.view", url: (w) => `/api/admin/stock/levels?sku=${w.productSku}` },
  { key: "GET /api/admin/stock/lookup", needs: "catalogue.view", url: (w) => `/api/admin/stock/lookup?q=${w.productSku}` },
  // Branches: a change of nothing that matters (the door answers first), and a new branch refused after it.
  { key: "GET /api/admin/branches", needs: "dashboard.view", url: () => "/api/admin/branches" },
  { key: "POST /api/admin/branches", needs: "branches.manage", url: () => "/api/admin/branches", body: () => ({ slug: "matrix" }), ok: [422] },
  { key: "PATCH /api/admin/branches/{slug}", needs: "branches.manage", url: () => "/api/admin/branches/york", body: () => ({ position: 1 }) },
  // Showroom appointments: a day's list, and a cancel of one that is not there (the door answers before the 404).
  { key: "GET /api/admin/appointments", needs: "appointments.manage", url: () => "/api/admin/appointments?branch=york&date=2026-12-01" },
  { key: "POST /api/admin/appointments/{id}/cancel", needs: "appointments.manage", url: () => "/api/admin/appointments/999999/cancel", body: () => ({ reason: "Matrix" }), ok: [404] },
  // Transfers: the step endpoints on a transfer that is not there (the door answers before the 404).
  { key: "POST /api/admin/stock/transfers", needs: "stock.count", url: () => "/api/admin/stock/transfers", body: (w) => ({ from_branch_id: 1, to_branch_id: 2, lines: [{ sku: w.productSku, quantity: 1 }] }), ok: [201] },
  { key: "GET /api/admin/stock/transfers", needs: "catalogue.view", url: () => "/api/admin/stock/transfers" },
  { key: "GET /api/admin/stock/transfers/{id}", needs: "catalogue.view", url: () => "/api/admin/stock/transfers/999999", ok: [404] },
  { key: "POST /api/admin/stock/transfers/{id}/send", needs: "stock.count", url: () => "/api/admin/stock/transfers/999999/send", body: () => ({}), ok: [404] },
  { key: "POST /api/admin/stock/transfers/{id}/receive", needs: "stock.count", url: () => "/api/admin/stock/transfers/999999/receive", body: () => ({}), ok: [404] },
  { key: "POST /api/admin/stock/transfers/{id}/cancel", needs: "stock.count", url: () => "/api/admin/stock/transfers/999999/cancel", body: () => ({}), ok: [404] },
  // The catalogue's CSV export and import (ADR 0036).
  { key: "GET /api/admin/products/export.csv", needs: "catalogue.view", url: () => "/api/admin/products/export.csv?q=MATRIX-NONE" },
  { key: "GET /api/admin/products/import/example.csv", needs: "catalogue.view", url: () => "/api/admin/products/import/example.csv" },
  // Not multipart: refused by the import after the door.
  { key: "POST /api/admin/products/import", needs: "catalogue.manage", url: () => "/api/admin/products/import?dry_run=1", body: () => ({ file: "sku" }), ok: [422] },
  { key: "POST /api/admin/products/imports", needs: "catalogue.manage", url: () => "/api/admin/products/imports?dry_run=1", body: () => ({ file: "sku" }), ok: [422] },
  { key: "POST /api/admin/products/imports/{id}/apply", needs: "catalogue.manage", url: () => "/api/admin/products/imports/2147483647/apply", ok: [404] },
  { key: "GET /api/admin/products/imports/{id}", needs: "catalogue.manage", url: () => "/api/admin/products/imports/2147483647", ok: [404] },

  // Photos of products and hire items.
  { key: "GET /api/admin/products/{sku}/images", needs: "catalogue.view", url: async () => `/api/admin/products/${await matrixSku()}/images` },
  // Not multipart: 422 after the door; the role is checked before the body is read.
  { key: "POST /api/admin/products/{sku}/images", needs: "catalogue.manage", url: async () => `/api/admin/products/${await matrixSku()}/images`, ok: [422] },
  { key: "PUT /api/admin/products/{sku}/images/order", needs: "catalogue.manage", url: async () => `/api/admin/products/${await matrixSku()}/images/order`, body: () => ({ ids: ["zzzzzzzzzzzz"] }), ok: [422] },
  { key: "PATCH /api/admin/products/{sku}/images/{id}", needs: "catalogue.manage", url: async () => `/api/admin/products/${await matrixSku()}/images/zzzzzzzzzzzz`, body: () => ({ alt: "Matrix alt" }), ok: [404] },
  { key: "DELETE /api/admin/products/{sku}/images/{id}", needs: "catalogue.manage", url: async () => `/api/admin/products/${await matrixSku()}/images/zzzzzzzzzzzz`, ok: [404] },
  { key: "GET /api/admin/variants/{sku}/images", needs: "catalogue.view", url: (w) => `/api/admin/variants/${w.productSku}/images` },
  // Not multipart: 422 after the door; the role is checked before the body is read.
  { key: "POST /api/admin/variants/{sku}/images", needs: "catalogue.manage", url: (w) => `/api/admin/variants/${w.productSku}/images`, ok: [422] },
  { key: "PUT /api/admin/variants/{sku}/images/order", needs: "catalogue.manage", url: (w) => `/api/admin/variants/${w.productSku}/images/order`, body: () => ({ ids: ["zzzzzzzzzzzz"] }), ok: [422] },
  { key: "PATCH /api/admin/variants/{sku}/images/{id}", needs: "catalogue.manage", url: (w) => `/api/admin/variants/${w.productSku}/images/zzzzzzzzzzzz`, body: () => ({ alt: "Matrix alt" }), ok: [404] },
  { key: "DELETE /api/admin/variants/{sku}/images/{id}", needs: "catalogue.manage", url: (w) => `/api/admin/variants/${w.productSku}/images/zzzzzzzzzzzz`, ok: [404] },
  { key: "GET /api/admin/hire/items/{slug}/images", needs: "catalogue.view", url: async () => `/api/admin/hire/items/${await matrixHireSlug()}/images` },
  // Not multipart: 422 after the door; the role is checked before the body is read.
  { key: "POST /api/admin/hire/items/{slug}/images", needs: "catalogue.manage", url: async () => `/api/admin/hire/items/${await matrixHireSlug()}/images`, ok: [422] },
  { key: "PUT /api/admin/hire/items/{slug}/images/order", needs: "catalogue.manage", url: async () => `/api/admin/hire/items/${await matrixHireSlug()}/images/order`, body: () => ({ ids: ["zzzzzzzzzzzz"] }), ok: [422] },
  { key: "PATCH /api/admin/hire/items/{slug}/images/{id}", needs: "catalogue.manage", url: async () => `/api/admin/hire/items/${await matrixHireSlug()}/images/zzzzzzzzzzzz`, body: () => ({ alt: "Matrix alt" }), ok: [404] },
  { key: "DELETE /api/admin/hire/items/{slug}/images/{id}", needs: "catalogue.manage", url: async () => `/api/admin/hire/items/${await matrixHireSlug()}/images/zzzzzzzzzzzz`, ok: [404] },

  // The hire catalogue: read by the catalogue's readers and the hire desk; changed with catalogue.manage.
  { key: "GET /api/admin/hire/items", needs: HIRE_READ, url: () => "/api/admin/hire/items" },
  { key: "GET /api/admin/hire/categories", needs: HIRE_READ, url: () => "/api/admin/hire/categories" },
  // The first allowed actor makes it; the rest are told the web address is taken (the door opened either way).
  {
    key: "POST /api/admin/hire/items",
    needs: "catalogue.manage",
    url: () => "/api/admin/hire/items",
    body: async () => ({ name: "Matrix hire item", slug: "matrix-hire-item", hire_category_id: (await matrixHireItem()).categoryId, day_rate: 1, weekend_rate: 1, week_rate: 1 }),
    ok: [201, 422],
  },
  { key: "GET /api/admin/hire/items/{slug}", needs: HIRE_READ, url: async () => `/api/admin/hire/items/${(await matrixHireItem()).slug}` },
  { key: "PATCH /api/admin/hire/items/{slug}", needs: "catalogue.manage", url: async () => `/api/admin/hire/items/${(await matrixHireItem()).slug}`, body: async () => ({ name: (await matrixHireItem()).name }) },
  { key: "GET /api/admin/hire/items/{slug}/units", needs: HIRE_READ, url: async () => `/api/admin/hire/items/${(await matrixHireItem()).slug}/units` },
  { key: "POST /api/admin/hire/items/{slug}/units", needs: "catalogue.manage", url: async () => `/api/admin/hire/items/${(await matrixHireItem()).slug}/units`, body: () => ({ asset_number: "MATRIX-UNIT" }), ok: [201, 422] },
  {
    key: "PATCH /api/admin/hire/items/{slug}/units/{id}",
    needs: "catalogue.manage",
    url: async () => `/api/admin/hire/items/${(await matrixHireItem()).slug}/units/${(await matrixHireItem()).unitId}`,
    body: async () => ({ serial_number: (await matrixHireItem()).serialNumber }),
  },

  // The hire desk's reading: the planner, the day's overview, the requests list.
  { key: "GET /api/admin/hire/planner", needs: "hire.desk", url: () => "/api/admin/hire/planner?days=3&limit=2" },
  { key: "GET /api/admin/hire/overview", needs: "hire.desk", url: () => "/api/admin/hire/overview" },
  { key: "GET /api/admin/hire/requests", needs: "hire.desk", url: () => "/api/admin/hire/requests" },
  // Hires taken by staff (issue 34), for an item no one has: 422 after the door, nothing booked.
  { key: "POST /api/admin/hire/bookings", needs: "hire.desk", url: () => "/api/admin/hire/bookings", body: () => ({ hire_item: "no-such-matrix-item", starts_on: "2099-01-05", ends_on: "2099-01-06", customer: { name: "Matrix Walk-in", phone: "07700 900000" } }), ok: [422] },
  { key: "GET /api/admin/hire/bookings/quote", needs: "hire.desk", url: () => "/api/admin/hire/bookings/quote?hire_item=no-such-matrix-item&starts_on=2099-01-05&ends_on=2099-01-06", ok: [422] },
  // The hire desk's operations (hire/desk/routes.ts), on a request no one has: 404 after the door, nothing changed.
  { key: "GET /api/admin/hire/requests/{number}", needs: "hire.desk", url: () => `${NO_HIRE}`, ok: [404] },
  { key: "POST /api/admin/hire/requests/{number}/approve", needs: "hire.desk", url: () => `${NO_HIRE}/approve`, body: () => ({}), ok: [404] },
  { key: "POST /api/admin/hire/requests/{number}/decline", needs: "hire.desk", url: () => `${NO_HIRE}/decline`, body: () => ({ reason: "Matrix" }), ok: [404] },
  { key: "POST /api/admin/hire/requests/{number}/propose", needs: "hire.desk", url: () => `${NO_HIRE}/propose`, body: () => ({ start_date: "2099-01-05", end_date: "2099-01-06" }), ok: [404] },
  { key: "POST /api/admin/hire/requests/{number}/handovers", needs: "hire.desk", url: () => `${NO_HIRE}/handovers`, body: () => ({ allocation_id: 1, asset_number: "MATRIX", condition: "Good", id_checked: false }), ok: [404] },
  { key: "GET /api/admin/hire/requests/{number}/handovers/{id}/agreement.pdf", needs: "hire.desk", url: () => `${NO_HIRE}/handovers/1/agreement.pdf`, ok: [404] },
  { key: "POST /api/admin/hire/requests/{number}/off-hire", needs: "hire.desk", url: () => `${NO_HIRE}/off-hire`, body: () => ({}), ok: [404] },
  { key: "POST /api/admin/hire/requests/{number}/handovers/{id}/return", needs: "hire.desk", url: () => `${NO_HIRE}/handovers/1/return`, body: () => ({ condition: "Good" }), ok: [404] },
  { key: "POST /api/admin/hire/requests/{number}/charges", needs: "hire.desk", url: () => `${NO_HIRE}/charges`, body: () => ({ kind: "other", reason: "Matrix", amount: 1 }), ok: [404] },
  { key: "POST /api/admin/hire/requests/{number}/settle", needs: "hire.desk", url: () => `${NO_HIRE}/settle`, body: () => ({}), ok: [404] },
  { key: "POST /api/admin/hire/units/{id}/service", needs: "hire.desk", url: () => "/api/admin/hire/units/2147483647/service", body: () => ({ days: 1, reason: "Matrix" }), ok: [404] },
  // Hire depots (hire/depots/routes.ts): a unit no one has, so nothing moves; the bands read and saved as they are.
  { key: "POST /api/admin/hire/units/{id}/transfer", needs: "hire.desk", url: () => "/api/admin/hire/units/2147483647/transfer", body: () => ({ depot: "leeds" }), ok: [404] },
  { key: "GET /api/admin/hire/units/{id}/transfers", needs: "hire.desk", url: () => "/api/admin/hire/units/2147483647/transfers" },
  { key: "GET /api/admin/hire/delivery-bands", needs: "catalogue.view", url: () => "/api/admin/hire/delivery-bands" },
  { key: "PUT /api/admin/hire/delivery-bands", needs: "catalogue.manage", url: () => "/api/admin/hire/delivery-bands", body: () => ({ bands: [{ up_to_miles: 10, price: 25 }, { up_to_miles: 25, price: 45 }, { up_to_miles: 50, price: 75 }] }) },

  // The customers desk.
  { key: "GET /api/admin/customers", needs: "customers.view", url: () => "/api/admin/customers" },
  { key: "GET /api/admin/customers/{id}", needs: "customers.view", url: (w) => `/api/admin/customers/${w.customerId}` },
  // The customers desk at the counter (issue 34): a guest's page, and edits of the secret customer (a note kept as it was).
  { key: "GET /api/admin/customers/guest", needs: "customers.view", url: () => "/api/admin/customers/guest?email=nobody-matrix@example.com", ok: [404] },
  { key: "PATCH /api/admin/customers/{id}", needs: "customers.edit", url: (w) => `/api/admin/customers/${w.customerId}`, body: () => ({ staff_note: "" }) },
  { key: "POST /api/admin/customers/{id}/addresses", needs: "customers.edit", url: (w) => `/api/admin/customers/${w.customerId}/addresses`, body: () => ({}), ok: [422] },
  { key: "PUT /api/admin/customers/{id}/addresses/{address}", needs: "customers.edit", url: (w) => `/api/admin/customers/${w.customerId}/addresses/2147483647`, body: () => ({ firstname: "Matrix", lastname: "Row", line1: "1 Matrix Road", town: "Leeds", postcode: "LS1 4AP" }), ok: [404] },
  { key: "DELETE /api/admin/customers/{id}/addresses/{address}", needs: "customers.edit", url: (w) => `/api/admin/customers/${w.customerId}/addresses/2147483647`, ok: [404] },
  { key: "POST /api/admin/customers/{id}/password-reset", needs: "customers.manage", url: (w) => `/api/admin/customers/${w.customerId}/password-reset` },
  { key: "POST /api/admin/customers/{id}/block", needs: "customers.manage", url: (w) => `/api/admin/customers/${w.blockeeId}/block`, body: () => ({ reason: "Matrix check" }), ok: [200, 409] },
  { key: "POST /api/admin/customers/{id}/unblock", needs: "customers.manage", url: (w) => `/api/admin/customers/${w.blockeeId}/unblock`, ok: [200, 409] },

  // The trade desk (trade/desk/routes.ts): lists open; on an account, invoice, remittance or credit note no one has, 404 after the door.
  { key: "GET /api/admin/trade/accounts", needs: TRADE_DESK, url: () => "/api/admin/trade/accounts?limit=2" },
  { key: "GET /api/admin/trade/accounts/{id}", needs: TRADE_DESK, url: () => NO_TRADE_ACCOUNT, ok: [404] },
  { key: "PATCH /api/admin/trade/accounts/{id}", needs: "trade.manage", url: () => NO_TRADE_ACCOUNT, body: () => ({ terms_days: 30 }), ok: [404] },
  { key: "POST /api/admin/trade/accounts/{id}/hold", needs: "trade.manage", url: () => `${NO_TRADE_ACCOUNT}/hold`, body: () => ({ reason: "Matrix" }), ok: [404] },
  { key: "POST /api/admin/trade/accounts/{id}/release", needs: "trade.manage", url: () => `${NO_TRADE_ACCOUNT}/release`, ok: [404] },
  { key: "POST /api/admin/trade/accounts/{id}/notes", needs: "trade.manage", url: () => `${NO_TRADE_ACCOUNT}/notes`, body: () => ({ body: "Matrix" }), ok: [404] },
  { key: "POST /api/admin/trade/accounts/{id}/payments", needs: "invoices.manage", url: () => `${NO_TRADE_ACCOUNT}/payments`, body: () => ({ amount: 1, method: "bacs", allocations: [] }), ok: [404] },
  { key: "POST /api/admin/trade/accounts/{id}/credit-allocations", needs: "invoices.manage", url: () => `${NO_TRADE_ACCOUNT}/credit-allocations`, body: () => ({ allocations: [{ invoice_number: "INV-999999", amount: 1 }] }), ok: [404] },
  { key: "POST /api/admin/trade/remittances/{reference}/confirm", needs: "invoices.manage", url: () => "/api/admin/trade/remittances/REM-999999/confirm", body: () => ({}), ok: [404] },
  { key: "GET /api/admin/trade/invoices/{number}", needs: TRADE_DESK, url: () => "/api/admin/trade/invoices/INV-999999", ok: [404] },
  { key: "POST /api/admin/trade/invoices/{number}/credit-notes", needs: "invoices.manage", url: () => "/api/admin/trade/invoices/INV-999999/credit-notes", body: () => ({ reason: "Matrix", whole: true }), ok: [404] },
  { key: "GET /api/admin/trade/credit-notes/{file}", needs: TRADE_DESK, url: () => "/api/admin/trade/credit-notes/CN-999999.pdf", ok: [404] },
  { key: "GET /api/admin/trade/applications", needs: "trade.manage", url: () => "/api/admin/trade/applications" },
  // Statements (trade/invoices/statement-routes.ts): on an account no one has, 404 after the door, nothing sent; the aged-debt report opens.
  { key: "GET /api/admin/trade/accounts/{id}/statement", needs: "invoices.manage", url: () => `${NO_TRADE_ACCOUNT}/statement?month=2026-01`, ok: [404] },
  { key: "GET /api/admin/trade/accounts/{id}/statements/{month}.pdf", needs: "invoices.manage", url: () => `${NO_TRADE_ACCOUNT}/statements/2026-01.pdf`, ok: [404] },
  { key: "POST /api/admin/trade/accounts/{id}/statements/{month}/email", needs: "invoices.manage", url: () => `${NO_TRADE_ACCOUNT}/statements/2026-01/email`, body: () => ({}), ok: [404] },
  { key: "GET /api/admin/trade/aged-debt", needs: "invoices.manage", url: () => "/api/admin/trade/aged-debt" },
  { key: "GET /api/admin/trade/aged-debt.csv", needs: "invoices.manage", url: () => "/api/admin/trade/aged-debt.csv" },
  { key: "POST /api/admin/trade/applications/{id}/approve", needs: "trade.manage", url: () => "/api/admin/trade/applications/2147483647/approve", body: () => ({ credit_limit: 1, terms_days: 30, discount_percent: 0 }), ok: [404] },
  { key: "POST /api/admin/trade/applications/{id}/decline", needs: "trade.manage", url: () => "/api/admin/trade/applications/2147483647/decline", body: () => ({ reason: "Matrix" }), ok: [404] },
  { key: "POST /api/admin/trade/applications/{id}/request-info", needs: "trade.manage", url: () => "/api/admin/trade/applications/2147483647/request-info", body: () => ({ message: "Matrix" }), ok: [404] },
];

/** A product's SKU and a hire item's slug for the photos' rows: nothing refused may change their photos. */
/** A transfer asked for and never sent, for the transfer screen's rows. */
async function matrixTransfer(): Promise<number> {
  const db = shop.database.db;
  const found = (await db.execute(sql`select id from stock_transfers where note = 'Matrix' limit 1`)) as unknown as { rows: { id: number }[] };
  if (found.rows[0]) return found.rows[0].id;
  const made = (await db.execute(sql`insert into stock_transfers (from_branch_id, to_branch_id, note) values (1, 2, 'Matrix') returning id`)) as unknown as { rows: { id: number }[] };
  await db.execute(sql`insert into stock_transfer_lines (transfer_id, variant_id, quantity) select ${made.rows[0]!.id}, id, 1 from product_variants order by id limit 1`);
  return made.rows[0]!.id;
}
async function matrixSku(): Promise<string> {
  const [row] = await shop.database.db.select({ sku: products.sku }).from(products).orderBy(asc(products.id)).limit(1);
  return row!.sku;
}
/** The hire catalogue's rows' item (not the photos' one), its hire category and first unit: each write leaves them as they were. */
async function matrixHireItem() {
  const db = shop.database.db;
  const [item] = await db.select({ id: hireItems.id, slug: hireItems.slug, name: hireItems.name, categoryId: hireItems.hireCategoryId }).from(hireItems).orderBy(asc(hireItems.id)).offset(1).limit(1);
  const units = (await db.execute(sql`select id, serial_number from hire_units where hire_item_id = ${item!.id} order by id limit 1`)) as unknown as { rows: { id: number; serial_number: string }[] };
  return { ...item!, unitId: units.rows[0]!.id, serialNumber: units.rows[0]!.serial_number };
}
async function matrixHireSlug(): Promise<string> {
  const [row] = await shop.database.db.select({ slug: hireItems.slug }).from(hireItems).orderBy(asc(hireItems.id)).limit(1);
  return row!.slug;
}

const API_KEY = /^(GET|POST|PUT|PATCH|DELETE) (\/api\/admin\/\S*)$/;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const isApiRow = (row: Row) => API_KEY.test(row.key);
const SCREEN_ROWS = ROWS.filter((r) => !isApiRow(r));
const API_ROWS = ROWS.filter(isApiRow);

/** Every back-office route in the route config (pages and resource routes alike), by its full path, with its module's source; not the 404 page for unknown paths under /admin. */
function adminRoutes(entries: RouteConfigEntry[], parent = ""): { key: string; source: string }[] {
  return entries.flatMap((entry) => {
    const full = entry.path === undefined ? parent : [parent, entry.path].filter(Boolean).join("/");
    const own = (full === "admin" || full.startsWith("admin/")) && !full.endsWith("*") ? [{ key: full, source: readFileSync(path.join(import.meta.dirname, "../app", entry.file), "utf8") }] : [];
    return [...own, ...adminRoutes(entry.children ?? [], full)];
  });
}
/** A route that takes form posts on the server. */
const takesPosts = (source: string) => /^export (async )?function action\b/m.test(source);

/** The same screen as a client-side navigation asks for it (React Router's single fetch). */
function dataUrlOf(url: string): string {
  const u = new URL(url, "http://shop");
  return `${u.pathname.endsWith("/") ? `${u.pathname}_` : u.pathname}.data${u.search}`;
}
const signInUrlFor = (url: string) => `/admin/login?${new URLSearchParams({ redirect: url })}`;
/** A redirect reaches a navigation as a 202 carrying it. */
const asData = (status: number) => (status === 302 ? 202 : status);

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

function send(c: Client, method: Method, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return c.browser.request(method, url, body, { headers: { ...headers, ...(c.bearer ? { authorization: `Bearer ${c.bearer}` } : {}) } });
}

const staffEmail = (role: StaffRole) => DEMO_STAFF.find((m) => m.role === role)!.email;

/** A member's own session in a browser of its own. */
async function signedInMember(role: StaffRole): Promise<Client> {
  const browser = new TestBrowser(shop.app, nextIp());
  await browser.staffSignIn(staffEmail(role), PASSWORD);
  return { browser };
}

/** A guest's order by bank transfer, awaiting payment. */
async function placeOrder(w: World, as?: TestBrowser, email = "matrix.guest@example.co.uk", line1 = "3 Plain Street"): Promise<string> {
  const b = as ?? new TestBrowser(shop.app, nextIp());
  if (!as) await b.csrf();
  const added = await b.post("/api/basket", { product_id: w.productId, quantity: 1 });
  expect(added.statusCode, added.body.slice(0, 300)).toBeLessThan(300);
  const placed = await b.post("/api/checkout", checkoutBody(email, line1));
  expect(placed.statusCode, placed.body.slice(0, 300)).toBe(201);
  return placed.json().order_number as string;
}

async function orderStatus(number: string): Promise<string | undefined> {
  const [row] = await shop.database.db.select({ status: orders.status }).from(orders).where(eq(orders.number, number));
  return row?.status;
}

/**
 * What a back-office write would change: the audit log, the mail queued, every
 * order's status and timeline, the staff and their tokens, set-up links and
 * saved filters, blocked customers and their reset links.
 */
async function fingerprint(): Promise<Record<string, unknown>> {
  const result = (await shop.database.db.execute(sql`
    select
      (select count(*)::int from audit_log) as audit,
      (select count(*)::int from mail_outbox) as mail,
      (select count(*)::int from order_status_history) as history,
      (select md5(coalesce(string_agg(id || ':' || status, ',' order by id), '')) from orders) as orders,
      (select md5(coalesce(string_agg(concat_ws(':', id, role, refund_limit_pence, removed_at, password_hash, totp_secret, totp_pending_secret, updated_at), ',' order by id), '')) from staff) as staff,
      (select md5(coalesce(string_agg(concat_ws(':', id, token_hash, used_at), ',' order by id), '')) from staff_setup_tokens) as setup_links,
      (select md5(coalesce(string_agg(concat_ws(':', id, revoked_at), ',' order by id), '')) from staff_api_tokens) as tokens,
      (select md5(coalesce(string_agg(concat_ws(':', id, name, query), ',' order by id), '')) from staff_filter_presets) as presets,
      (select md5(coalesce(string_agg(concat_ws(':', id, blocked_at), ',' order by id), '')) from users) as blocked,
      (select count(*)::int from password_reset_tokens) as resets,
      (select md5(coalesce(string_agg(concat_ws(':', id, sku, name, slug, status, price_pence, vat_rate, stock, reorder_level, updated_at), ',' order by id), '')) from products) as products,
      (select count(*)::int from stock_movements) as movements,
      (select md5(coalesce(string_agg(concat_ws(':', id, status, refunded, received_at), ',' order by id), '')) from returns) as returns,
      (select md5(coalesce(string_agg(concat_ws(':', id, name, path, position, parent_id), ',' order by id), '')) from categories) as categories,
      (select md5(coalesce(string_agg(concat_ws(':', id, name, slug), ',' order by id), '')) from manufacturers) as brands,
      (select md5(coalesce(string_agg(concat_ws(':', id, code, status, value, updated_at), ',' order by id), '')) from promotions) as promotions,
      (select md5(coalesce(string_agg(concat_ws(':', q.id, q.status, q.revision, q.valid_until, q.updated_at, l.unit_price, l.quantity), ',' order by q.id, l.id), '')) from quotes q left join quote_lines l on l.quote_id = q.id) as quotes
  `)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows[0]!;
}

function expectNoStore(res: LightMyRequestResponse, where: string): void {
  expect(String(res.headers["cache-control"] ?? ""), `${where}: cache-control`).toMatch(/\bno-store\b/);
}
function expectNoSecrets(w: World, res: LightMyRequestResponse, where: string): void {
  for (const secret of w.secrets) expect(res.body, `${where} was refused but shows "${secret}"`).not.toContain(secret);
}

/** A page (or a document's form post) as the outcome says. */
function expectPage(res: LightMyRequestResponse, url: string, outcome: Outcome, ok: number[], where: string): void {
  const said = `${where}: ${res.statusCode} ${String(res.headers.location ?? "")} ${res.body.slice(0, 200)}`;
  if (outcome === "open") {
    expect(ok, said).toContain(res.statusCode);
  } else if (outcome === "sign in") {
    expect(res.statusCode, said).toBe(302);
    const to = new URL(String(res.headers.location), "http://shop");
    expect(to.pathname, said).toBe("/admin/login");
    expect(to.searchParams.get("redirect"), said).toBe(url);
  } else {
    expect(res.statusCode, said).toBe(403);
  }
}

/** A navigation's data (or its form post) says the same: the data, the sign-in redirect in the payload (202), or 403. */
function expectData(res: LightMyRequestResponse, url: string, outcome: Outcome, ok: number[], where: string): void {
  const said = `${where}: ${res.statusCode} ${res.body.slice(0, 200)}`;
  if (outcome === "open") {
    expect(ok.map(asData), said).toContain(res.statusCode);
  } else if (outcome === "sign in") {
    // A loader's redirect comes as ["SingleFetchRedirect",1,…], an action's as the payload itself: both name it.
    expect(res.statusCode, said).toBe(202);
    expect(res.body, said).toContain(`"redirect",${JSON.stringify(signInUrlFor(url))}`);
  } else {
    expect(res.statusCode, said).toBe(403);
  }
}

describe("the back office's authorisation matrix", () => {
  const w = {} as World;

  beforeAll(async () => {
    const db = shop.database.db;
    const [product] = await db.select({ id: products.id, sku: products.sku, name: products.name }).from(products).orderBy(asc(products.id)).limit(1);
    await db.update(products).set({ heavy: false }).where(eq(products.id, product!.id));
    await db.transaction((tx) => countSoleVariantsTo(tx as unknown as Db, [{ productId: product!.id, counted: 100_000 }], "Matrix stock"));
    w.productId = product!.id;
    w.productSku = product!.sku;
    w.productName = product!.name;
    const [category] = await db.select({ id: categories.id, name: categories.name }).from(categories).orderBy(asc(categories.id)).limit(1);
    const [brand] = await db.select({ id: manufacturers.id, name: manufacturers.name }).from(manufacturers).orderBy(asc(manufacturers.id)).limit(1);
    w.categoryId = category!.id;
    w.categoryName = category!.name;
    w.brandId = brand!.id;
    w.brandName = brand!.name;

    const clients: Record<string, Client> = {};
    clients.guest = { browser: new TestBrowser(shop.app, nextIp()) };
    const customer = new TestBrowser(shop.app, nextIp());
    await customer.signIn("customer@example.com", PASSWORD);
    clients.customer = { browser: customer };
    // The same customer's bearer token, from a client that keeps no cookies.
    const apiClient = new TestBrowser(shop.app, nextIp());
    await apiClient.csrf();
    const login = await apiClient.post("/api/auth/login", { email: "customer@example.com", password: PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    clients["customer by bearer token"] = { browser: new TestBrowser(shop.app, nextIp()), bearer: login.json().token as string };
    const trade = new TestBrowser(shop.app, nextIp());
    await trade.signIn("trade@example.com", PASSWORD);
    clients["trade owner"] = { browser: trade };
    for (const role of STAFF_ROLES) clients[role] = await signedInMember(role);
    const owner = clients.owner!.browser;

    // The owner's staff API token of each role, each acting alone by its bearer value.
    for (const role of STAFF_ROLES) {
      const made = await owner.post("/api/admin/tokens", { name: `Matrix ${role}`, role });
      expect(made.statusCode, made.body).toBe(201);
      clients[`${role} API token`] = { browser: new TestBrowser(shop.app, nextIp()), bearer: made.json().token as string };
    }
    const spare = await owner.post("/api/admin/tokens", { name: "Matrix spare", role: "warehouse" });
    expect(spare.statusCode, spare.body).toBe(201);
    w.spareTokenId = spare.json().id;
    w.clients = clients;

    // The data: a customer of their own, with an order from their own address.
    const secret = new TestBrowser(shop.app, nextIp());
    await secret.csrf();
    const registered = await secret.post("/api/auth/register", { firstname: SECRET.firstname, lastname: SECRET.lastname, email: SECRET.email, password: CUSTOMER_PASSWORD, password_confirmation: CUSTOMER_PASSWORD });
    expect(registered.statusCode, registered.body).toBe(201);
    w.customerId = registered.json().user.id;
    w.orderNumber = await placeOrder(w, secret, SECRET.email, SECRET.line1);
    const blockee = new TestBrowser(shop.app, nextIp());
    await blockee.csrf();
    const blockeeRes = await blockee.post("/api/auth/register", { firstname: "Bathsheba", lastname: "Blockley", email: "bathsheba.blockley@example.co.uk", password: CUSTOMER_PASSWORD, password_confirmation: CUSTOMER_PASSWORD });
    expect(blockeeRes.statusCode, blockeeRes.body).toBe(201);
    w.blockeeId = blockeeRes.json().user.id;

    // Invited members: one to set up (the public screens), one to remove, one to change.
    const invite = async (email: string, name: string) => {
      const res = await owner.post("/api/admin/staff", { email, name, role: "sales" });
      expect(res.statusCode, res.body).toBe(201);
      return { id: res.json().staff.id as number, setupToken: String(res.json().setup_url).split("/").pop()! };
    };
    w.invitee = await invite(SECRET.invitee, "Quentin Matrix");
    w.leaverId = (await invite("lorna.leaver@staff.example.com", "Lorna Leaver")).id;
    w.relinkId = (await invite("rhys.relink@staff.example.com", "Rhys Relink")).id;

    const preset = await owner.post("/api/admin/presets", { screen: "customers", name: "Matrix owner's own", query: "q=Quarrendon" });
    expect(preset.statusCode, preset.body).toBe(201);
    w.presetId = preset.json().id;

    const promotion = await owner.post("/api/admin/promotions", { code: "MATRIX10", name: "Matrix", kind: "percent", value: 10 });
    expect(promotion.statusCode, promotion.body).toBe(201);
    w.promotionId = promotion.json().data.id;

    const quote = await owner.post("/api/admin/quotes", { customer_email: SECRET.email, lines: [{ sku: w.productSku, quantity: 2 }] });
    expect(quote.statusCode, quote.body).toBe(201);
    w.quoteNumber = quote.json().data.number;
    w.quoteLineId = quote.json().data.lines[0].id;
    await db.update(quotes).set({ validUntil: "2020-01-01" }).where(eq(quotes.number, w.quoteNumber));

    // Two returns of a guest's delivered order (written as the customer's request and the desk's receipt leave them): one asked for, one received.
    const returned = await placeOrder(w);
    const [delivered] = await db.update(orders).set({ status: "completed" }).where(eq(orders.number, returned)).returning({ id: orders.id });
    const [line] = await db.select({ id: orderLines.id }).from(orderLines).where(eq(orderLines.orderId, delivered!.id));
    const made = await db
      .insert(returns)
      .values([
        { orderId: delivered!.id, status: "requested", method: "post" },
        { orderId: delivered!.id, status: "received", method: "post", receivedAt: new Date() },
      ])
      .returning({ id: returns.id, number: returns.number });
    await db.insert(returnLines).values([
      { returnId: made[0]!.id, orderLineId: line!.id, quantity: 1, reason: "faulty" },
      { returnId: made[1]!.id, orderLineId: line!.id, quantity: 1, reason: "faulty", received: 1 },
    ]);
    w.returnNumber = made[0]!.number;
    w.receivedReturnNumber = made[1]!.number;
    w.returnLineId = line!.id;

    w.secrets = [SECRET.email, SECRET.line1, SECRET.lastname, SECRET.invitee, "owner@example.com"];
  }, 120_000);

  it("has a row for every /admin screen in app/routes.ts and every /api/admin operation in the OpenAPI document, and a form post for every screen with an action", async () => {
    const screens = adminRoutes(routes);
    expect(screens.length, "back-office routes in app/routes.ts").toBeGreaterThan(5);
    const operations = (await apiOperations(shop.app)).filter((op) => op.path.startsWith("/api/admin/")).map((op) => `${op.method} ${op.path}`);
    expect(operations.length, "operations under /api/admin in the OpenAPI document").toBeGreaterThan(5);
    const keys = ROWS.map((r) => r.key);
    const missing = [...screens.map((s) => s.key), ...operations].filter((k) => !keys.includes(k));
    expect(missing, `add a row to server/admin-access.test.ts for: ${missing.join(", ")}`).toEqual([]);
    const stale = keys.filter((k) => !screens.some((s) => s.key === k) && !operations.includes(k));
    expect(stale, `rows for screens or operations that no longer exist: ${stale.join(", ")}`).toEqual([]);
    expect(new Set(keys).size, "one row each").toBe(keys.length);
    const posting = screens.filter((s) => takesPosts(s.source)).map((s) => s.key);
    const withPosts = SCREEN_ROWS.filter((r) => r.posts?.length).map((r) => r.key);
    const unposted = posting.filter((k) => !withPosts.includes(k));
    expect(unposted, `screens with an action and no form post in their row: ${unposted.join(", ")}`).toEqual([]);
    expect(withPosts.filter((k) => !posting.includes(k)), "form posts for screens without an action").toEqual([]);
    // Every permission a row names is one of the table's (the type says so; a typo'd cast would not).
    for (const row of ROWS) for (const needs of [row.needs, ...(row.posts ?? []).map((p) => p.needs)]) expect(needs === "staff" || needs === "public" || STAFF_ROLES.some((r) => allows(r, needs)), `${row.key}: ${String(needs)}`).toBe(true);
  });

  describe("screens", () => {
    for (const row of SCREEN_ROWS) {
      it.each(ACTOR_NAMES)(`${row.key} as %s: its page and its navigation data`, async (name) => {
        const actor = actorNamed(name);
        const c = w.clients[name]!;
        const url = await row.url(w);
        const outcome = outcomeOf(row.needs, actor, "screen");
        const ok = row.ok ?? [200];
        const page = await send(c, "GET", url);
        expectPage(page, url, outcome, ok, `GET ${url} as ${name}`);
        if (outcome === "open" && page.statusCode === 200) expect(page.headers["content-type"]).toMatch(/^text\/html/);
        const data = await send(c, "GET", dataUrlOf(url));
        expectData(data, url, outcome, ok, `GET ${dataUrlOf(url)} as ${name}`);
        for (const [res, at] of [
          [page, url],
          [data, dataUrlOf(url)],
        ] as const) {
          expectNoStore(res, `GET ${at} as ${name}`);
          if (outcome !== "open") expectNoSecrets(w, res, `GET ${at} as ${name}`);
        }
      });

      for (const post of row.posts ?? []) {
        it.each(ACTOR_NAMES)(`${row.key}: a form post (${post.what}) as %s, from the page and from its navigation`, async (name) => {
          const actor = actorNamed(name);
          const outcome = outcomeOf(post.needs, actor, "screen");
          for (const navigation of [false, true]) {
            const c = post.endsSession && actor.kind === "member" ? await signedInMember(actor.role!) : w.clients[name]!;
            const { url = await row.url(w), fields, verify } = await post.form(w);
            const target = navigation ? dataUrlOf(url) : url;
            const where = `POST ${target} (${post.what}) as ${name}`;
            const before = outcome === "open" ? null : await fingerprint();
            // As a browser sends it from the page itself.
            const res = await send(c, "POST", target, new URLSearchParams(fields).toString(), { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" });
            if (navigation) expectData(res, url, outcome, post.ok, where);
            else expectPage(res, url, outcome, post.ok, where);
            expectNoStore(res, where);
            if (outcome === "open" && verify && actor.role) await verify(actor.role);
            if (before) {
              expectNoSecrets(w, res, where);
              expect(await fingerprint(), `${where} was refused but changed something`).toEqual(before);
            }
          }
        });
      }
    }
  });

  describe("the API", () => {
    for (const row of API_ROWS) {
      const method = API_KEY.exec(row.key)![1] as Method;
      it.each(ACTOR_NAMES)(`${row.key} as %s`, async (name) => {
        const actor = actorNamed(name);
        const outcome = outcomeOf(row.needs, actor, "api", row.sessionOnly);
        const c = row.endsSession && actor.kind === "member" ? await signedInMember(actor.role!) : w.clients[name]!;
        // A sensitive action needs the password within 5 minutes: an allowed member has just given it.
        if (outcome === "open" && row.sessionOnly && actor.kind === "member") {
          const again = await send(c, "POST", "/api/admin/auth/reauthenticate", { password: PASSWORD });
          expect(again.statusCode, again.body).toBe(204);
        }
        const url = await row.url(w);
        const body = await row.body?.(w);
        const before = method === "GET" || outcome === "open" ? null : await fingerprint();
        const res = await send(c, method, url, body);
        const where = `${method} ${url} as ${name}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (outcome === "open") {
          expect([401, 403], where).not.toContain(res.statusCode);
          expect(row.ok ?? (method === "GET" ? [200] : [200, 201, 204]), where).toContain(res.statusCode);
          if (row.verify && actor.role) row.verify(res, actor.role);
        } else {
          expect(res.statusCode, where).toBe(outcome === "sign in" ? 401 : 403);
          expect(String(res.headers["content-type"]), where).toMatch(/json/);
          expectNoSecrets(w, res, where);
          if (before) expect(await fingerprint(), `${where}: refused but changed something`).toEqual(before);
        }
        expectNoStore(res, where);
      });
    }
  });

  // Who before what (issue 33): a guest's request with a body that is not even JSON is refused as a guest, never read.
  describe("the API checks who asks before it reads the body", () => {
    for (const row of API_ROWS.filter((r) => r.needs !== "public" && API_KEY.exec(r.key)![1] !== "GET")) {
      it(`${row.key}: a guest's malformed body is 401`, async () => {
        const method = API_KEY.exec(row.key)![1] as Method;
        const res = await shop.app.inject({ method, url: await row.url(w), payload: "{not json", headers: { "content-type": "application/json" } });
        expect(res.statusCode, `${row.key}: ${res.body.slice(0, 200)}`).toBe(401);
        expect(res.json()).toEqual({ message: "Sign in to the back office." });
      });
    }
    // And a member whose role may not pass the door (or a token where only a session will do) is refused for it, the body unread.
    for (const row of API_ROWS.filter((r) => r.needs !== "public" && API_KEY.exec(r.key)![1] !== "GET")) {
      const door = row.door ?? row.needs;
      const refused = ACTORS.filter((a) => (a.kind === "member" || a.kind === "token") && outcomeOf(door, a, "api", row.sessionOnly) === "forbidden");
      if (!refused.length) continue;
      it(`${row.key}: a malformed body from ${refused.map((a) => a.name).join(", ")} is 403`, async () => {
        const method = API_KEY.exec(row.key)![1] as Method;
        const url = await row.url(w);
        for (const actor of refused) {
          const client = w.clients[actor.name]!;
          const res = await send(client, method, url, "{not json", { "content-type": "application/json" });
          expect(res.statusCode, `${actor.name}: ${res.body.slice(0, 200)}`).toBe(403);
        }
      });
    }
  });

  it("shows an allowed member the data, so the refused answers' silence means something", async () => {
    const owner = w.clients.owner!;
    expect((await send(owner, "GET", `/admin/orders/${w.orderNumber}`)).body).toContain(SECRET.email);
    expect((await send(owner, "GET", `/admin/customers/${w.customerId}`)).body).toContain(SECRET.email);
    expect((await send(owner, "GET", "/admin/staff")).body).toContain(SECRET.invitee);
    expect((await send(w.clients.sales!, "GET", `/api/admin/customers/${w.customerId}`)).body).toContain(SECRET.lastname);
    expect((await send(w.clients["accounts API token"]!, "GET", `/api/admin/orders/${w.orderNumber}`)).body).toContain(SECRET.line1);
    expect((await send(owner, "GET", "/api/admin/staff")).body).toContain("owner@example.com");
  });

  it("leaves the secret customer's order where it was: awaiting payment, moved by no one", async () => {
    const res = await send(w.clients.owner!, "GET", `/api/admin/orders/${w.orderNumber}`);
    expect(res.json().status).toBe("awaiting_payment");
  });
});
