import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { tableOutbox } from "../../test/outbox.ts";
import { DEMO_TRADE } from "../../db/seed/index.ts";
import { mailOutbox } from "../mail/schema.ts";
import { COMPANY_NUMBER, GB_VAT_NUMBER } from "./contract.ts";
import { unitPence } from "./pricing.ts";
import { type TradeService, createTradeService } from "./service.ts";

const shop = testShopForFile();
let trade: TradeService;
beforeAll(async () => {
  // Staff's door (the CLI) on the same database; mail goes to the outbox table.
  const mail = tableOutbox;
  trade = createTradeService(shop().database.db, { mail, appName: "Tradecounter", publicUrl: "http://shop.test", shopEmail: shop().config.shopEmail });
});

let n = 0;
async function signedUp() {
  n += 1;
  const browser = new TestBrowser(shop().app);
  const email = `trade.${n}.${Date.now()}@example.co.uk`;
  await browser.csrf();
  const res = await browser.register("Dana", "Fitter", email);
  expect(res.statusCode).toBe(201);
  return { browser, email };
}

async function signedIn(email: string, password: string) {
  const browser = new TestBrowser(shop().app);
  await browser.csrf();
  expect((await browser.post("/api/auth/login", { email, password })).statusCode).toBe(200);
  return browser;
}

const application = {
  company_name: "Fitter & Sons",
  company_type: "limited_company",
  company_number: "sc 123456",
  vat_number: "gb 123 4567 89",
  trade: "Plumber",
  line1: "1 Park Row",
  town: "Leeds",
  postcode: "ls14ap",
  phone: "0113 496 0123",
  accounts_email: "Accounts@Fitter.example.com",
  expected_monthly_spend: 2500,
  requested_credit_limit: 5000,
};

describe("formats", () => {
  it.each(["01234567", "SC123456", "NI012345"])("accepts the Companies House number %s", (v) => expect(COMPANY_NUMBER.test(v)).toBe(true));
  it.each(["1234567", "S1234567", "SC1234567", "ABC12345"])("refuses the Companies House number %s", (v) => expect(COMPANY_NUMBER.test(v)).toBe(false));
  it.each(["GB123456789", "GB123456789012", "GBGD001", "GBHA599"])("accepts the VAT number %s", (v) => expect(GB_VAT_NUMBER.test(v)).toBe(true));
  it.each(["GB12345678", "FR12345678901", "GB1234567890", "GBGD500"])("refuses the VAT number %s", (v) => expect(GB_VAT_NUMBER.test(v)).toBe(false));
  it("works the trade price on the ex-VAT price, half-up to the penny", () => {
    expect(unitPence(1000, { discountBasisPoints: 1000 })).toBe(900);
    expect(unitPence(1005, { discountBasisPoints: 1000 })).toBe(905); // 904.5 rounds up
    expect(unitPence(999, { discountBasisPoints: 0 })).toBe(999);
  });
});

describe("POST /api/trade/setup", () => {
  it("is documented in the OpenAPI document with the other trade routes", async () => {
    const doc = (await shop().app.inject({ method: "GET", url: "/api/openapi.json" })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(doc.paths["/api/trade/setup"]?.post).toBeDefined();
    expect(doc.paths["/api/trade/dashboard"]?.get).toBeDefined();
    expect(doc.paths["/api/trade/price-display"]?.put).toBeDefined();
  });

  it("answers 401 for a guest, and the dashboard too", async () => {
    const guest = new TestBrowser(shop().app);
    await guest.csrf();
    const res = await guest.post("/api/trade/setup", application);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: "Unauthenticated." });
    expect((await guest.get("/api/trade/dashboard")).statusCode).toBe(401);
  });

  it("answers 404 on the dashboard for a user without a trade account", async () => {
    const { browser } = await signedUp();
    expect((await browser.get("/api/trade/dashboard")).statusCode).toBe(404);
  });

  it("says what is wrong with each field", async () => {
    const { browser } = await signedUp();
    const res = await browser.post("/api/trade/setup", {
      company_type: "limited_company",
      vat_number: "FR123",
      postcode: "nope",
      phone: "12",
      accounts_email: "not-an-email",
      expected_monthly_spend: -1,
      requested_credit_limit: 12.345,
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json() as { errors: Record<string, string[]> };
    expect(errors).toMatchObject({
      company_name: ["Enter the company name."],
      company_number: ["Enter the Companies House number: it is required for a limited company."],
      vat_number: ["Enter a GB VAT number, e.g. GB123456789."],
      trade: ["Enter your trade, e.g. builder or electrician."],
      line1: ["Enter the first line of the business address."],
      town: ["Enter the town or city."],
      postcode: ["Enter a valid UK postcode."],
      phone: ["Enter a valid phone number."],
      accounts_email: ["Enter a valid email address."],
      expected_monthly_spend: ["The expected monthly spend cannot be negative."],
      requested_credit_limit: ["The requested credit limit can have at most 2 decimals."],
    });
    const bad = await browser.post("/api/trade/setup", { ...application, company_type: "charity", company_number: "123" });
    expect(bad.json().errors.company_type).toEqual(["Choose sole trader, partnership or limited company."]);
    const wrongNumber = await browser.post("/api/trade/setup", { ...application, company_number: "12345" });
    expect(wrongNumber.json().errors.company_number).toEqual(["Enter the 8-character Companies House number, e.g. 01234567 or SC123456."]);
  });

  // Found by the hostile-input tests (issue 9): the limited-company check read a field of a null body and answered 500.
  it.each([
    ["no body", undefined],
    ["a JSON null", "null"],
    ["a JSON number", "7"],
    ["a JSON array", "[]"],
  ])("answers 422, not 500, to %s", async (_what, payload) => {
    const { browser } = await signedUp();
    const res = await browser.request("POST", "/api/trade/setup", payload, payload === undefined ? {} : { headers: { "content-type": "application/json" } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: expect.any(String), errors: expect.any(Object) });
  });

  it("needs no Companies House number from a sole trader, nor a VAT number", async () => {
    const { browser } = await signedUp();
    const { company_number: _n, vat_number: _v, ...rest } = application;
    const res = await browser.post("/api/trade/setup", { ...rest, company_type: "sole_trader" });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ company_type: "sole_trader", company_number: null, vat_number: null, state: "pending" });
  });

  it("makes a pending account with the applicant as owner, normalised, and emails them and the trade desk", async () => {
    const { browser, email } = await signedUp();
    const res = await browser.post("/api/trade/setup", { ...application, state: "approved", discount_percent: 50, credit_limit: 1e6 });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      company_number: "SC123456",
      vat_number: "GB123456789",
      address: { line1: "1 Park Row", town: "Leeds", postcode: "LS1 4AP" },
      accounts_email: "accounts@fitter.example.com",
      expected_monthly_spend: 2500,
      requested_credit_limit: 5000,
      state: "pending",
      credit_limit: 0,
      discount_percent: 0,
      role: "owner",
      prices_inc_vat: false,
    });
    expect((await browser.get("/api/trade/dashboard")).json().data.id).toBe(data.id);
    const me = (await browser.get("/api/user")).json() as { user?: unknown };
    expect(me.user ?? me).toMatchObject({ is_trade: true, trade_account_id: data.id });
    const mails = await shop().database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mails.map((m) => m.subject)).toContain("Your trade account application");
    const [staff] = await shop().database.db.select().from(mailOutbox).where(eq(mailOutbox.to, shop().config.shopEmail)).orderBy(desc(mailOutbox.id)).limit(1);
    expect(staff!.subject).toBe("Trade application: Fitter & Sons");
  });

  it("refuses to apply again while pending or approved; after a decline the user may apply again", async () => {
    const { browser, email } = await signedUp();
    expect((await browser.post("/api/trade/setup", application)).statusCode).toBe(201);
    const again = await browser.post("/api/trade/setup", application);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("Your trade account application is already being reviewed. We will email you when it is decided.");
    await trade.decide(email, "approve", { creditLimit: 1000, termsDays: 30, discountPercent: 5 });
    expect((await browser.post("/api/trade/setup", application)).json().message).toBe("You already have an approved trade account.");
    await trade.decide(email, "suspend");
    expect((await browser.post("/api/trade/setup", application)).statusCode).toBe(409);

    const other = await signedUp();
    await other.browser.post("/api/trade/setup", application);
    await trade.decide(other.email, "decline");
    expect((await other.browser.get("/api/trade/dashboard")).json().data.state).toBe("declined");
    const retry = await other.browser.post("/api/trade/setup", application);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().data.state).toBe("pending");
  });
});

describe("staff decisions", () => {
  it("approves with limit, terms and discount, and emails the owner", async () => {
    const { browser, email } = await signedUp();
    await browser.post("/api/trade/setup", application);
    const done = await trade.decide(email.toUpperCase(), "approve", { creditLimit: 5000, termsDays: 30, discountPercent: 10 });
    expect(done).toMatchObject({ state: "approved", credit_limit: 5000, terms_days: 30, discount_percent: 10 });
    const [mail] = await shop().database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.id)).limit(1);
    expect(mail!.subject).toBe("Trade account: approved");
    expect(mail!.text).toContain("Credit limit £5000.00, payment terms 30 days, trade discount 10%");
  });

  it("refuses bad terms, unknown owners and decisions out of turn", async () => {
    const { browser, email } = await signedUp();
    await browser.post("/api/trade/setup", application);
    await expect(trade.decide(email, "approve", { creditLimit: -1, termsDays: 400, discountPercent: 100 })).rejects.toMatchObject({
      errors: { credit_limit: expect.any(Array), terms: expect.any(Array), discount: expect.any(Array) },
    });
    await expect(trade.decide("nobody@example.com", "decline")).rejects.toMatchObject({ statusCode: 404 });
    await expect(trade.decide(email, "suspend")).rejects.toMatchObject({ statusCode: 409, message: `The trade account of ${email} is pending; it cannot be suspended.` });
  });
});

describe("trade prices", () => {
  async function productOf(browser: TestBrowser) {
    const list = (await browser.get("/api/products?per_page=3&sort=name")).json();
    const slug = list.items[0].slug as string;
    const one = (await browser.get(`/api/products/${slug}`)).json().data;
    return { list, one };
  }

  it("members of an approved account see the discount everywhere; consumers and others do not", async () => {
    const guest = new TestBrowser(shop().app);
    const retail = await productOf(guest);
    const consumer = await signedUp();
    const member = await signedUp();
    await member.browser.post("/api/trade/setup", application);

    // Pending: still retail.
    expect((await productOf(member.browser)).one.price).toBe(retail.one.price);

    await trade.decide(member.email, "approve", { creditLimit: 5000, termsDays: 30, discountPercent: 10 });
    const traded = await productOf(member.browser);
    const exVat = Math.round(retail.one.price_ex_vat * 100);
    const expectedEx = Math.floor((exVat * 9000 + 5000) / 10000);
    expect(traded.one.price_ex_vat).toBe(expectedEx / 100);
    expect(traded.one.price).toBe(Math.floor((expectedEx * (100 + retail.one.vat_rate) + 50) / 100) / 100);
    expect(traded.one).toMatchObject({ list_price: retail.one.price, list_price_ex_vat: retail.one.price_ex_vat });
    expect(traded.list.items[0].price_ex_vat).toBe(expectedEx / 100);
    expect(traded.one.related.every((r: { list_price?: number }) => r.list_price !== undefined)).toBe(true);

    // Consumers' answers are unchanged, field for field.
    expect(await productOf(consumer.browser)).toEqual(retail);
    expect(retail.one.list_price).toBeUndefined();

    // Basket and checkout totals follow.
    const productId = traded.one.id as number;
    const cart = (await member.browser.post("/api/basket", { product_id: productId, quantity: 2 })).json().cart;
    expect(cart.items[0]).toMatchObject({ unit_price_ex_vat: expectedEx / 100, line_total_ex_vat: (expectedEx * 2) / 100 });
    expect(cart.subtotal).toBe((expectedEx * 2) / 100);
    const consumerCart = (await consumer.browser.post("/api/basket", { product_id: productId, quantity: 2 })).json().cart;
    expect(consumerCart.subtotal).toBe((exVat * 2) / 100);

    const placed = await member.browser.post("/api/checkout", {
      email: member.email,
      phone: "0113 496 0123",
      delivery_method: "collect", collector_name: "Test Collector",
      payment_method: "pay_on_collection",
      expected_total: cart.total,
    });
    expect(placed.statusCode).toBe(201);
    expect(placed.json().total).toBe(cart.total);
    const { orderLines } = await import("../orders/schema.ts");
    const [line] = await shop().database.db.select().from(orderLines).where(eq(orderLines.orderId, placed.json().order_id));
    expect(line).toMatchObject({ unitPrice: expectedEx, lineTotal: expectedEx * 2 });

    // Suspended: back to retail.
    await trade.decide(member.email, "suspend");
    expect((await productOf(member.browser)).one.price).toBe(retail.one.price);
  });

  it("the demo trade owner sees 10% off, and answers are private", async () => {
    const browser = await signedIn(DEMO_TRADE.email, DEMO_TRADE.password);
    const guest = await productOf(new TestBrowser(shop().app));
    const res = await browser.get(`/api/products/${guest.one.slug}`);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.json().data.list_price_ex_vat).toBe(guest.one.price_ex_vat);
    expect((await browser.get("/api/trade/dashboard")).json().data).toMatchObject({ state: "approved", credit_limit: 10000, terms_days: 30, discount_percent: 10 });
  });

  it("a member's VAT view is remembered; a non-member gets 404", async () => {
    const browser = await signedIn(DEMO_TRADE.email, DEMO_TRADE.password);
    const res = await browser.put("/api/trade/price-display", { prices_inc_vat: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.prices_inc_vat).toBe(true);
    expect((await browser.get("/api/trade/dashboard")).json().data.prices_inc_vat).toBe(true);
    await browser.put("/api/trade/price-display", { prices_inc_vat: false });
    const { browser: other } = await signedUp();
    expect((await other.put("/api/trade/price-display", { prices_inc_vat: true })).statusCode).toBe(404);
    expect((await other.put("/api/trade/price-display", { prices_inc_vat: "yes" })).statusCode).toBe(422);
  });
});
