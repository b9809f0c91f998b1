// A trade account's sites (issue 32): kept by owners and admins, chosen at
// checkout on account with each site's PO rule, carried onto the order, its
// invoice and a quote's order, and the company's invoices, statements and
// order history read one site at a time.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../../test/app.ts";
import type { TestBrowser } from "../../../test/browser.ts";
import { readPdf } from "../../../test/pdf.ts";
import { oneVariantProduct } from "../../../test/products.ts";
import { orderLines, orders } from "../../orders/schema.ts";
import { quotes } from "../../quotes/schema.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { demoStaffBrowsers } from "../credit/ledger-fixtures.ts";
import { issueCreditNote, recordPayment } from "../credit/ledger.ts";
import { SITE_MESSAGES } from "./sites.ts";
import { isoDay, tradeFixtures } from "../test-fixtures.ts";

const shop = testShopForFile();

const { company, invoiceFor, signedUp } = tradeFixtures(shop);
type Company = Awaited<ReturnType<typeof company>>;

const MILL_LANE = { name: "Mill Lane extension", line1: "14 Mill Lane", town: "Leeds", postcode: "ls6 3aa", contact_name: "Ravi", contact_phone: "07700 900456" };
const QUARRY = { name: "Quarry Hill flats", line1: "Plot 2, Quarry Hill", town: "Leeds", postcode: "LS2 7EQ", po_required: true, po_prefix: "qh-" };

async function addSite(b: TestBrowser, body: Record<string, unknown>): Promise<{ id: number; name: string }> {
  const res = await b.post("/api/trade/sites", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

let nth = 40;
/** A basket of one line (£10.00 ex VAT) in this browser. */
async function oneLine(b: TestBrowser): Promise<void> {
  const p = await oneVariantProduct(shop().database.db, ++nth, 50, 1000);
  expect((await b.post("/api/basket", { product_id: p.id, quantity: 1 })).statusCode).toBe(200);
}

const onAccount = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  phone: "0113 496 0000",
  delivery_method: "standard",
  delivery_address: { name: "Test Recipient", line_1: "14 Mill Lane", town: "Leeds", postcode: "LS6 3AA" },
  payment_method: "pay_on_account",
  ...extra,
});

describe("keeping sites", () => {
  let c: Company;
  beforeAll(async () => {
    c = await company("Sites Keeping Ltd");
  });

  it("owners and admins add, change and archive them; every member reads them; names are unique among live sites", async () => {
    const mill = await addSite(c.owner.browser, MILL_LANE);
    const quarry = await addSite(c.admin.browser, QUARRY);
    const listed = await c.buyer.browser.get("/api/trade/sites");
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ can_manage: false, data: [{ name: "Mill Lane extension", postcode: "LS6 3AA", contact_name: "Ravi" }, { name: "Quarry Hill flats", po_required: true, po_prefix: "QH-" }] });
    expect((await c.owner.browser.get("/api/trade/sites")).json().can_manage).toBe(true);

    const twin = await c.owner.browser.post("/api/trade/sites", { ...MILL_LANE, name: "mill lane EXTENSION" });
    expect(twin.statusCode).toBe(422);
    expect(twin.json().errors.name).toEqual([SITE_MESSAGES.duplicate("mill lane EXTENSION")]);
    const bad = await c.owner.browser.post("/api/trade/sites", { name: "", line1: "", town: "Leeds", postcode: "nowhere", po_prefix: "HX 1" });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["line1", "name", "po_prefix", "postcode"]);

    // Buyers and accounts users read but do not change; nobody outside the company finds it.
    expect((await c.buyer.browser.patch(`/api/trade/sites/${mill.id}`, { contact_name: "x" })).statusCode).toBe(404);
    expect((await c.accounts.browser.post("/api/trade/sites", { ...MILL_LANE, name: "Other" })).statusCode).toBe(404);
    const stranger = await company("Sites Stranger Ltd");
    expect((await stranger.owner.browser.patch(`/api/trade/sites/${mill.id}`, { contact_name: "x" })).statusCode).toBe(404);
    expect((await (await signedUp("plain")).browser.get("/api/trade/sites")).statusCode).toBe(404);

    const changed = await c.admin.browser.patch(`/api/trade/sites/${quarry.id}`, { contact_name: "Dan", po_prefix: "" });
    expect(changed.json().data).toMatchObject({ contact_name: "Dan", po_prefix: "", po_required: true });
    // Archived: listed last, and its name is free again.
    expect((await c.owner.browser.patch(`/api/trade/sites/${mill.id}`, { archived: true })).json().data.archived).toBe(true);
    expect((await c.owner.browser.get("/api/trade/sites")).json().data.map((s: { name: string }) => s.name)).toEqual(["Quarry Hill flats", "Mill Lane extension"]);
    await addSite(c.owner.browser, MILL_LANE);
    expect((await c.owner.browser.patch(`/api/trade/sites/${mill.id}`, { archived: false })).statusCode).toBe(422);

    // The trade desk sees them on the account.
    const staff = await demoStaffBrowsers(shop().app, 121);
    const desk = await staff.accounts.get(`/api/admin/trade/accounts/${c.accountId}`);
    expect(desk.json().data.sites.map((s: { name: string; archived: boolean }) => [s.name, s.archived])).toEqual([
      ["Mill Lane extension", false],
      ["Quarry Hill flats", false],
      ["Mill Lane extension", true],
    ]);
  });
});

describe("ordering for a site", () => {
  let c: Company;
  let mill: { id: number };
  let quarry: { id: number };
  beforeAll(async () => {
    c = await company("Sites Ordering Ltd");
    mill = await addSite(c.owner.browser, MILL_LANE);
    quarry = await addSite(c.owner.browser, QUARRY);
  });

  it("on account: offers the sites, needs one, holds to its PO rule, and carries it onto the order and its invoice", async () => {
    const b = c.buyer.browser;
    await oneLine(b);
    const options = (await b.get("/api/checkout/delivery-options")).json().data.payment as { id: string; sites?: { name: string }[] }[];
    expect(options.find((p) => p.id === "pay_on_account")?.sites?.map((s) => s.name)).toEqual(["Mill Lane extension", "Quarry Hill flats"]);

    const none = await b.post("/api/checkout", onAccount(c.buyer.email));
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.site_id).toEqual([SITE_MESSAGES.choose]);
    const noPo = await b.post("/api/checkout", onAccount(c.buyer.email, { site_id: quarry.id }));
    expect(noPo.json().errors.po_reference).toEqual([SITE_MESSAGES.poRequired("Quarry Hill flats")]);
    const wrongPo = await b.post("/api/checkout", onAccount(c.buyer.email, { site_id: quarry.id, po_reference: "PO-77" }));
    expect(wrongPo.json().errors.po_reference).toEqual([SITE_MESSAGES.poPrefix("Quarry Hill flats", "QH-")]);
    const stranger = await company("Sites Other Ltd");
    const theirs = await addSite(stranger.owner.browser, { ...MILL_LANE, name: "Their yard" });
    expect((await b.post("/api/checkout", onAccount(c.buyer.email, { site_id: theirs.id }))).json().errors.site_id).toEqual([SITE_MESSAGES.notYours]);
    // Nothing was placed by any refusal.
    expect(await shop().database.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, c.buyer.id))).toEqual([]);

    const placed = await b.post("/api/checkout", onAccount(c.buyer.email, { site_id: quarry.id, po_reference: "qh-0042" }));
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = placed.json().order_id as number;
    const [order] = await shop().database.db.select({ siteId: orders.siteId }).from(orders).where(eq(orders.id, orderId));
    const [invoice] = await shop().database.db.select({ id: tradeInvoices.id, siteId: tradeInvoices.siteId }).from(tradeInvoices).where(eq(tradeInvoices.orderId, orderId));
    expect(order!.siteId).toBe(quarry.id);
    expect(invoice!.siteId).toBe(quarry.id);
    expect((await b.get(`/api/account/orders/${orderId}`)).json().data.site).toEqual({ id: quarry.id, name: "Quarry Hill flats" });
    const pdf = await readPdf(Buffer.from((await c.owner.browser.get(`/api/trade/invoices/${invoice!.id}/pdf`)).rawPayload));
    expect(pdf.text).toContain("Site: Quarry Hill flats");
  });

  it("by card or bank transfer a site is optional, and an archived one is refused", async () => {
    const b = c.admin.browser;
    await oneLine(b);
    const plain = await b.post("/api/checkout", onAccount(c.admin.email, { payment_method: "bank_transfer" }));
    expect(plain.statusCode, plain.body).toBe(201);
    await oneLine(b);
    expect((await b.patch(`/api/trade/sites/${mill.id}`, { archived: true })).statusCode).toBe(200);
    const archived = await b.post("/api/checkout", onAccount(c.admin.email, { payment_method: "bank_transfer", site_id: mill.id }));
    expect(archived.json().errors.site_id).toEqual([SITE_MESSAGES.notYours]);
    expect((await b.patch(`/api/trade/sites/${mill.id}`, { archived: false })).statusCode).toBe(200);
    const forMill = await b.post("/api/checkout", onAccount(c.admin.email, { payment_method: "bank_transfer", site_id: mill.id }));
    expect(forMill.statusCode, forMill.body).toBe(201);

    // The history, one site at a time.
    const all = (await b.get("/api/account/orders")).json();
    expect(all.data.map((o: { site: string | null }) => o.site)).toEqual(["Mill Lane extension", null]);
    const one = (await b.get(`/api/account/orders?site=${mill.id}`)).json();
    expect(one).toMatchObject({ total: 1, data: [{ id: forMill.json().order_id, site: "Mill Lane extension" }] });
  });

  it("a quote asked for a site makes its order for that site", async () => {
    const b = c.owner.browser;
    await oneLine(b);
    const other = await company("Sites Quote Stranger Ltd");
    const foreign = await addSite(other.owner.browser, { ...MILL_LANE, name: "Foreign" });
    expect((await b.post("/api/quotes", { site_id: foreign.id })).json().errors.site_id).toEqual([SITE_MESSAGES.notYours]);
    const asked = await b.post("/api/quotes", { site_id: mill.id, notes: "For the extension" });
    expect(asked.statusCode, asked.body).toBe(201);
    const number = asked.json().data.number as string;
    expect((await b.get(`/api/quotes/${number}`)).json().data.site).toEqual({ id: mill.id, name: "Mill Lane extension" });
    // Sent as staff would (the desk's own tests price it through the API).
    await shop().database.db.update(quotes).set({ status: "sent", validUntil: isoDay(10), sentAt: new Date() }).where(eq(quotes.number, number));
    const accepted = await b.post(`/api/quotes/${number}/accept`, { delivery_method: "collect", collector_name: "Test Collector", payment_method: "pay_on_account" });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const [order] = await shop().database.db.select({ siteId: orders.siteId }).from(orders).where(eq(orders.id, accepted.json().order_id));
    expect(order!.siteId).toBe(mill.id);
  });
});

describe("reading by site", () => {
  it("invoices filter by site, and a site's statement holds its invoices, their credit and the payments set against them", async () => {
    const c = await company("Sites Statement Ltd");
    const mill = await addSite(c.owner.browser, MILL_LANE);
    const month = isoDay(0).slice(0, 7);
    const line = (qty: number, unit: number) => [{ name: "Joist hanger", qty, unit, rate: 20 }];
    const forMill = await invoiceFor(c.accountId, c.buyer.id, { siteId: mill.id, po: "PO-MILL", invoiceDate: isoDay(0), dueDate: isoDay(30), lines: line(2, 5_000) });
    const elsewhere = await invoiceFor(c.accountId, c.buyer.id, { po: "PO-ELSEWHERE", invoiceDate: isoDay(0), dueDate: isoDay(30), lines: line(1, 5_000) });
    // One payment for both: £50 of it to the Mill Lane invoice; a credit note for one of its two hangers (£60), and one for the other invoice.
    await recordPayment(shop().database.db, { accountId: c.accountId, amount: 12_000, receivedOn: isoDay(0), method: "bacs", reference: "BACS 77", allocations: [{ invoiceId: forMill.id, amount: 5_000 }, { invoiceId: elsewhere.id, amount: 6_000 }] });
    const [hanger] = await shop().database.db.select({ id: orderLines.id }).from(orderLines).where(eq(orderLines.orderId, forMill.orderId));
    const credited = await issueCreditNote(shop().database.db, { invoiceId: forMill.id, reason: "One hanger came back", lines: [{ source: `order_line:${hanger!.id}`, quantity: 1 }] });
    const otherCredit = await issueCreditNote(shop().database.db, { invoiceId: elsewhere.id, reason: "Short", whole: true });

    const listed = (await c.accounts.browser.get(`/api/trade/invoices?site=${mill.id}`)).json();
    expect(listed.data.map((i: { number: string }) => i.number)).toEqual([forMill.number]);
    expect(listed.data[0].site).toEqual({ id: mill.id, name: "Mill Lane extension" });
    expect(listed.totals).toMatchObject({ count: 1, total: 12_000, outstanding: 1_000 });

    const whole = await readPdf(Buffer.from((await c.accounts.browser.get(`/api/trade/statement.pdf?month=${month}&site=`)).rawPayload));
    expect(whole.text).toContain(elsewhere.number);
    const res = await c.accounts.browser.get(`/api/trade/statement.pdf?month=${month}&site=${mill.id}`);
    expect(res.statusCode).toBe(200);
    const site = await readPdf(Buffer.from(res.rawPayload));
    expect(site.text).toContain("Site: Mill Lane extension");
    expect(site.text).toContain(forMill.number);
    expect(site.text).not.toContain(elsewhere.number);
    expect(site.text).not.toContain(otherCredit.creditNote.number);
    // The £50 of the payment set against the site's invoice, not the whole £120, and its credit note: £120.00 less £60.00 less £50.00 leaves £10.00.
    expect(site.text).toMatch(new RegExp(`Credit note\\s+${credited.creditNote.number}\\s+Against ${forMill.number}\\s+£60\\.00\\s+£60\\.00`));
    expect(site.text).toMatch(/Payment\s+PAY-\d+\s+Bacs BACS 77\s+£50\.00\s+£10\.00/);
    expect(site.text).toMatch(/Balance at .*: £10\.00/);

    // Another company's site is no one's here.
    const other = await company("Sites Statement Other Ltd");
    const theirs = await addSite(other.owner.browser, { ...MILL_LANE, name: "Theirs" });
    expect((await c.accounts.browser.get(`/api/trade/statement.pdf?month=${month}&site=${theirs.id}`)).statusCode).toBe(404);
    expect((await c.accounts.browser.get(`/api/trade/invoices?site=${theirs.id}`)).json().data).toEqual([]);
  });
});
