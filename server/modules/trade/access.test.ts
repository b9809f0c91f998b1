// The authorisation matrix over every trade route (issue 7): the routes are
// read from the server's own OpenAPI document, so a trade route added without
// a row here fails the first test. Each row gives the status for each actor:
// a guest, a plain customer, each role of company A, and the owner of company
// B. A 200 for B's owner is B's own data: no answer to anyone outside A may
// carry anything of A's.
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import type { TestBrowser } from "../../test/browser.ts";
import { apiOperations } from "../../test/openapi.ts";
import { mailOutbox } from "../mail/schema.ts";
import { issueCreditNote } from "./credit/ledger.ts";
import { tradeSites } from "./accounts/sites-schema.ts";
import { ACTORS, type Actor, isoDay, tradeFixtures } from "./test-fixtures.ts";

const shop = testShopForFile();

const { freshEmail, signedUp, join, company, invoiceFor, guest } = tradeFixtures(shop);

type Company = Awaited<ReturnType<typeof company>>;
interface World {
  a: Company;
  b: Company;
  as: Record<Actor, TestBrowser>;
  invoiceId: number;
  /** One of company A's sites. */
  siteId: number;
  /** Strings that only company A's answers may contain. */
  secrets: string[];
}

const A_NAME = "Matrix Alpha Joinery Ltd";
const application = {
  company_name: "Matrix Applicant",
  company_type: "sole_trader",
  trade: "Roofer",
  line1: "3 Kirkgate",
  town: "Leeds",
  postcode: "LS2 7DJ",
  phone: "0113 496 0456",
  accounts_email: "accounts@applicant.example.com",
  expected_monthly_spend: 1000,
  requested_credit_limit: 2000,
};

/** An open invitation from company A, to a fresh address. */
async function invitation(w: World): Promise<{ id: number; email: string; token: string }> {
  const email = freshEmail("invitee");
  const res = await w.a.owner.browser.post("/api/trade/users/invite", { email, role: "buyer" });
  expect(res.statusCode).toBe(201);
  const [mail] = await shop().database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
  const token = decodeURIComponent(/token=([^\s"&<>)]+)/.exec(mail!.text)![1]!);
  return { id: res.json().data.id as number, email, token };
}

/** Company A's members and everyone else, by what each may do. */
const MEMBERS_200 = { guest: 401, customer: 404, owner: 200, admin: 200, buyer: 200, accounts: 200, "other owner": 200 } as const;
const MANAGERS = (ok: number) => ({ guest: 401, customer: 404, owner: ok, admin: ok, buyer: 404, accounts: 404, "other owner": 404 }) as const;
const INVOICE_READERS = { guest: 401, customer: 404, owner: 200, admin: 200, buyer: 404, accounts: 200, "other owner": 404 } as const;

interface Row {
  /** As the OpenAPI document names it. */
  route: string;
  expect: Record<Actor, number>;
  /** Makes the request as `actor`; may set up what it needs first (a fresh target per actor). */
  call: (w: World, actor: Actor) => Promise<LightMyRequestResponse>;
}

/** One of company A's credit notes (the trade desk's ledger), made once. */
let creditNoteNumber: string | undefined;
async function creditNote(w: World): Promise<string> {
  if (!creditNoteNumber) {
    const invoice = await invoiceFor(w.a.accountId, w.a.buyer.id, { invoiceDate: isoDay(0), dueDate: isoDay(30), lines: [{ name: "Pine batten", qty: 2, unit: 300, rate: 20 }] });
    creditNoteNumber = (await issueCreditNote(shop().database.db, { invoiceId: invoice.id, reason: "Matrix", whole: true })).creditNote.number;
  }
  return creditNoteNumber;
}

const ROWS: Row[] = [
  {
    route: "POST /api/trade/setup",
    // Anyone signed in may apply; a member of a live account already has one.
    expect: { guest: 401, customer: 201, owner: 409, admin: 409, buyer: 409, accounts: 409, "other owner": 409 },
    // The customer who applies is one of their own: the shared customer must stay without an account.
    call: async (w, actor) => (actor === "customer" ? (await signedUp("applicant")).browser : w.as[actor]).post("/api/trade/setup", application),
  },
  { route: "GET /api/trade/dashboard", expect: MEMBERS_200, call: (w, actor) => w.as[actor].get("/api/trade/dashboard") },
  { route: "PUT /api/trade/price-display", expect: MEMBERS_200, call: (w, actor) => w.as[actor].put("/api/trade/price-display", { prices_inc_vat: false }) },
  { route: "GET /api/trade/users", expect: { ...MANAGERS(200), "other owner": 200 }, call: (w, actor) => w.as[actor].get("/api/trade/users") },
  {
    route: "POST /api/trade/users/invite",
    // B's owner invites into B, never into A.
    expect: { ...MANAGERS(201), "other owner": 201 },
    call: (w, actor) => w.as[actor].post("/api/trade/users/invite", { email: freshEmail("matrix"), role: "buyer" }),
  },
  { route: "PUT /api/trade/users/{id}", expect: MANAGERS(200), call: (w, actor) => w.as[actor].put(`/api/trade/users/${w.a.buyer.id}`, { role: "buyer" }) },
  {
    route: "DELETE /api/trade/users/{id}",
    expect: MANAGERS(204),
    call: async (w, actor) => {
      const target = await signedUp("leaver");
      await join(target, w.a.accountId, "buyer");
      return w.as[actor].delete(`/api/trade/users/${target.id}`);
    },
  },
  {
    route: "POST /api/trade/invitations/{id}/resend",
    expect: MANAGERS(200),
    call: async (w, actor) => w.as[actor].post(`/api/trade/invitations/${(await invitation(w)).id}/resend`),
  },
  {
    route: "DELETE /api/trade/invitations/{id}",
    expect: MANAGERS(204),
    call: async (w, actor) => w.as[actor].delete(`/api/trade/invitations/${(await invitation(w)).id}`),
  },
  {
    route: "POST /api/trade/invitations/accept",
    // Someone else's invitation: the token alone is not enough, it must be the signed-in user's own email.
    expect: { guest: 401, customer: 403, owner: 403, admin: 403, buyer: 403, accounts: 403, "other owner": 403 },
    call: async (w, actor) => w.as[actor].post("/api/trade/invitations/accept", { token: (await invitation(w)).token }),
  },
  { route: "GET /api/trade/invoices", expect: { ...INVOICE_READERS, "other owner": 200 }, call: (w, actor) => w.as[actor].get("/api/trade/invoices") },
  { route: "GET /api/trade/invoices/{id}", expect: INVOICE_READERS, call: (w, actor) => w.as[actor].get(`/api/trade/invoices/${w.invoiceId}`) },
  { route: "GET /api/trade/invoices/{id}/pdf", expect: INVOICE_READERS, call: (w, actor) => w.as[actor].get(`/api/trade/invoices/${w.invoiceId}/pdf`) },
  { route: "GET /api/trade/credit-notes", expect: { ...INVOICE_READERS, "other owner": 200 }, call: (w, actor) => w.as[actor].get("/api/trade/credit-notes") },
  { route: "GET /api/trade/credit-notes/{number}/pdf", expect: INVOICE_READERS, call: async (w, actor) => w.as[actor].get(`/api/trade/credit-notes/${await creditNote(w)}/pdf`) },
  // Each company's own statement: the other company's owner gets theirs.
  { route: "GET /api/trade/statement.pdf", expect: { ...INVOICE_READERS, "other owner": 200 }, call: (w, actor) => w.as[actor].get(`/api/trade/statement.pdf?month=${isoDay(0).slice(0, 7)}`) },
  {
    route: "POST /api/trade/invoices/pay",
    expect: { ...INVOICE_READERS, owner: 201, admin: 201, accounts: 201 },
    call: async (w, actor) => {
      const invoice = await invoiceFor(w.a.accountId, w.a.buyer.id, { invoiceDate: isoDay(0), dueDate: isoDay(30), lines: [{ name: "Pine batten", qty: 5, unit: 300, rate: 20 }] });
      return w.as[actor].post("/api/trade/invoices/pay", { invoice_ids: [invoice.id] });
    },
  },
  { route: "GET /api/trade/remittances", expect: { ...INVOICE_READERS, "other owner": 200 }, call: (w, actor) => w.as[actor].get("/api/trade/remittances") },
  // Sites (issue 32): every member reads them; owners and admins keep them, each owner their own company's.
  { route: "GET /api/trade/sites", expect: MEMBERS_200, call: (w, actor) => w.as[actor].get("/api/trade/sites") },
  {
    route: "POST /api/trade/sites",
    expect: { ...MANAGERS(201), "other owner": 201 },
    call: (w, actor) => w.as[actor].post("/api/trade/sites", { name: `Matrix site ${actor}`, line1: "2 Wharf Street", town: "Leeds", postcode: "LS2 7EQ" }),
  },
  { route: "PATCH /api/trade/sites/{id}", expect: MANAGERS(200), call: (w, actor) => w.as[actor].patch(`/api/trade/sites/${w.siteId}`, { contact_name: `Set by ${actor}` }) },
];

describe("authorisation matrix over every trade route", () => {
  const w = {} as World;
  beforeAll(async () => {
    w.a = await company(A_NAME);
    w.b = await company("Matrix Beta Builders Ltd");
    w.as = {
      guest: await guest(),
      customer: (await signedUp("customer")).browser,
      owner: w.a.owner.browser,
      admin: w.a.admin.browser,
      buyer: w.a.buyer.browser,
      accounts: w.a.accounts.browser,
      "other owner": w.b.owner.browser,
    };
    const invoice = await invoiceFor(w.a.accountId, w.a.buyer.id, { po: "PO-MATRIX-A", invoiceDate: isoDay(-3), dueDate: isoDay(27), lines: [{ name: "Oak sill", qty: 2, unit: 4500, rate: 20 }] });
    w.invoiceId = invoice.id;
    const [site] = await shop().database.db.insert(tradeSites).values({ tradeAccountId: w.a.accountId, name: "Alpha Quarry Yard", line1: "1 Quarry Lane", town: "Leeds", postcode: "LS1 4AP" }).returning();
    w.siteId = site!.id;
    w.secrets = [A_NAME, w.a.owner.email, w.a.admin.email, w.a.buyer.email, w.a.accounts.email, invoice.number, "PO-MATRIX-A", "Alpha Quarry Yard"];
  });

  it("has a row for every trade route the server serves", async () => {
    const served = (await apiOperations(shop().app))
      .filter((op) => op.path.startsWith("/api/trade/"))
      .map((op) => `${op.method} ${op.path}`)
      .sort();
    expect(served.length).toBeGreaterThan(0);
    expect(ROWS.map((r) => r.route).sort()).toEqual(served);
  });

  for (const row of ROWS) {
    it.each(ACTORS)(`${row.route} as %s`, async (actor) => {
      const res = await row.call(w, actor);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(row.expect[actor]);
      if (res.statusCode >= 400) {
        // Refusals say little: JSON with a message, nothing of the company.
        expect(res.headers["content-type"]).toMatch(/json/);
      }
      const insider = ["owner", "admin", "buyer", "accounts"].includes(actor) && res.statusCode < 300;
      if (!insider) for (const secret of w.secrets) expect(res.body, `${actor} must not see "${secret}"`).not.toContain(secret);
      // Nothing of a company's may sit in a shared cache.
      if (res.statusCode < 300 && row.route.startsWith("GET")) expect(res.headers["cache-control"]).toBe("private, no-store");
    });
  }
});
