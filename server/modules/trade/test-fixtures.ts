// People, companies and invoices for the trade tests, made straight in the
// database (as staff decisions and checkout would leave them) so each test
// file sets up only what it asserts about.
import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import type { TestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { users } from "../auth/schema.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { type InvoiceStatus, tradeInvoices } from "./invoices/invoice-schema.ts";
import { payment } from "./credit/ledger-fixtures.ts";
import { type TradeRole, tradeAccounts, tradeMembers } from "./schema.ts";

export const PASSWORD = "a long enough secret";

export interface Person {
  browser: TestBrowser;
  email: string;
  id: number;
}

/** The actors of the trade authorisation matrices. */
export type Actor = "guest" | "customer" | "owner" | "admin" | "buyer" | "accounts" | "other owner";
export const ACTORS: Actor[] = ["guest", "customer", "owner", "admin", "buyer", "accounts", "other owner"];

/** A calendar day in Europe/London, `offsetDays` from today, as `YYYY-MM-DD`. */
export function isoDay(offsetDays: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offsetDays);
  return d.toISOString().slice(0, 10);
}

/** Bound to the test file's shop, which exists only once its beforeAll has run. */
export function tradeFixtures(shopOf: () => TestShop) {
  const db = () => shopOf().database.db;
  let n = 0;
  let orderSeq = 0;
  const freshEmail = (who: string) => `${who}.${(n += 1)}.${Date.now()}@example.co.uk`;

  /** A registered, signed-in customer, each from an address of its own (the sign-up limit is per address). */
  async function signedUp(who = "user", email = freshEmail(who)): Promise<Person> {
    const browser = new TestBrowser(shopOf().app, `198.51.${100 + Math.floor(n / 250)}.${n % 250}`);
    await browser.csrf();
    const res = await browser.register(who, "Fitter", email, PASSWORD);
    expect(res.statusCode).toBe(201);
    const [row] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
    return { browser, email, id: row!.id };
  }

  async function join(person: Person, accountId: number, role: TradeRole): Promise<void> {
    await db().insert(tradeMembers).values({ tradeAccountId: accountId, userId: person.id, role });
    await db().update(users).set({ tradeAccountId: accountId }).where(eq(users.id, person.id));
  }

  /** An approved limited company (£10,000 limit, 30 days) with one user in each role. */
  async function company(name = `Fitters ${n + 1} Ltd`) {
    const [account] = await db()
      .insert(tradeAccounts)
      .values({
        companyName: name,
        companyType: "limited_company",
        companyNumber: "01234567",
        vatNumber: "GB123456789",
        trade: "Plumber",
        line1: "1 Park Row",
        town: "Leeds",
        postcode: "LS1 4AP",
        phone: "0113 496 0123",
        accountsEmail: "accounts@fitters.example.com",
        expectedMonthlySpend: 0,
        requestedCreditLimit: 0,
        state: "approved",
        creditLimit: 1_000_000,
        termsDays: 30,
      })
      .returning();
    const members = {} as Record<TradeRole, Person>;
    for (const role of ["owner", "admin", "buyer", "accounts"] as const) {
      members[role] = await signedUp(role);
      await join(members[role], account!.id, role);
    }
    return { accountId: account!.id, ...members };
  }

  /**
   * An order paid on account and its invoice, consistent as checkout writes them:
   * lines at £x ex VAT, VAT per line, order and invoice totals the sum of the
   * lines; the account's balance carries what is not yet paid. A `paid`
   * invoice was paid in full by a payment received on its invoice date, so the
   * ledger's sums hold (ADR 0040).
   */
  async function invoiceFor(
    accountId: number,
    buyerId: number,
    opts: { po?: string; status?: InvoiceStatus; invoiceDate: string; dueDate: string; lines: { name: string; qty: number; unit: number; rate: number }[]; delivery?: number; siteId?: number },
  ) {
    orderSeq += 1;
    const lines = opts.lines.map((l) => ({ ...l, lineTotal: l.qty * l.unit, lineVat: Math.round((l.qty * l.unit * l.rate) / 100) }));
    const subtotal = lines.reduce((s, l) => s + l.lineTotal, 0);
    const vat = lines.reduce((s, l) => s + l.lineVat, 0);
    const delivery = opts.delivery ?? 0;
    const total = subtotal + vat + delivery;
    const [order] = await db()
      .insert(orders)
      .values({ number: `TC-INV-${Date.now()}-${orderSeq}`, userId: buyerId, email: "buyer@example.com", status: "processing", deliveryMethod: "standard", deliveryName: "Standard", subtotal, vat, delivery, total, paymentMethod: "pay_on_account", poReference: opts.po ?? "", siteId: opts.siteId ?? null })
      .returning();
    await db().insert(orderLines).values(lines.map((l, i) => ({ orderId: order!.id, sku: `SKU-${i}`, name: l.name, slug: `item-${i}`, quantity: l.qty, unitPrice: l.unit, vatRate: l.rate, lineTotal: l.lineTotal, lineVat: l.lineVat })));
    const status = opts.status ?? "unpaid";
    const [invoice] = await db()
      .insert(tradeInvoices)
      .values({ number: `pending-${order!.id}`, tradeAccountId: accountId, orderId: order!.id, invoiceDate: opts.invoiceDate, dueDate: opts.dueDate, subtotal, vat, delivery, total, poReference: opts.po ?? "", siteId: opts.siteId ?? null, status, paidAt: status === "paid" ? new Date() : null })
      .returning();
    const number = `INV-${String(invoice!.id).padStart(6, "0")}`;
    await db().update(tradeInvoices).set({ number }).where(eq(tradeInvoices.id, invoice!.id));
    await db().update(tradeAccounts).set({ balance: sql`${tradeAccounts.balance} + ${total}` }).where(eq(tradeAccounts.id, accountId));
    if (status === "paid") await payment(db(), accountId, opts.invoiceDate, total, [{ invoiceId: invoice!.id, amount: total }]);
    return { id: invoice!.id, number, total, subtotal, vat, delivery, orderId: order!.id, orderNumber: order!.number };
  }

  /** A guest with the request-forgery cookie, so a refusal is about who they are, not the missing token. */
  async function guest(): Promise<TestBrowser> {
    const browser = new TestBrowser(shopOf().app, "198.51.100.251");
    await browser.csrf();
    return browser;
  }

  return { freshEmail, signedUp, join, company, invoiceFor, guest };
}
