// Trade companies, members and invoices for API tests, written as checkout and
// staff would write them (shared by the invoice and invoice-payment tests).
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { users } from "../modules/auth/schema.ts";
import { orderLines, orders } from "../modules/orders/schema.ts";
import { type InvoiceStatus, tradeInvoices } from "../modules/trade/invoice-schema.ts";
import { type TradeRole, tradeAccounts, tradeMembers } from "../modules/trade/schema.ts";
import type { TestShop } from "./app.ts";
import { TestBrowser } from "./browser.ts";

const PASSWORD = "a long enough secret";
let n = 0;

export interface Person {
  browser: TestBrowser;
  email: string;
  id: number;
}

/** A registered, signed-in user with a browser of their own. */
export async function signedUp(shop: TestShop, who: string): Promise<Person> {
  n += 1;
  const email = `${who}.${n}.${Date.now()}@example.co.uk`;
  const browser = new TestBrowser(shop.app, `198.51.100.${n % 250}`);
  await browser.csrf();
  const res = await browser.post("/api/auth/register", { firstname: who, lastname: "Fitter", email, password: PASSWORD, password_confirmation: PASSWORD });
  expect(res.statusCode).toBe(201);
  const [row] = await shop.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { browser, email, id: row!.id };
}

export type Company = { accountId: number } & Record<TradeRole, Person>;

/** An approved company with one user in each role. */
export async function company(shop: TestShop, name: string): Promise<Company> {
  const db = shop.database.db;
  const [account] = await db
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
    members[role] = await signedUp(shop, role);
    await db.insert(tradeMembers).values({ tradeAccountId: account!.id, userId: members[role].id, role });
    await db.update(users).set({ tradeAccountId: account!.id }).where(eq(users.id, members[role].id));
  }
  return { accountId: account!.id, ...members };
}

/** Today in Europe/London plus some days, as `YYYY-MM-DD`. */
export function isoDay(offsetDays: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offsetDays);
  return d.toISOString().slice(0, 10);
}

let orderSeq = 0;
/**
 * An order paid on account and its invoice, consistent as checkout writes them:
 * lines at £x ex VAT, VAT per line, order and invoice totals the sum of the lines.
 * Raises the account's balance by the total unless the invoice is paid.
 */
export async function invoiceFor(
  shop: TestShop,
  accountId: number,
  buyerId: number,
  opts: { po?: string; status?: InvoiceStatus; invoiceDate: string; dueDate: string; lines: { name: string; qty: number; unit: number; rate: number }[]; delivery?: number },
) {
  const db = shop.database.db;
  orderSeq += 1;
  const lines = opts.lines.map((l) => ({ ...l, lineTotal: l.qty * l.unit, lineVat: Math.round((l.qty * l.unit * l.rate) / 100) }));
  const subtotal = lines.reduce((s, l) => s + l.lineTotal, 0);
  const vat = lines.reduce((s, l) => s + l.lineVat, 0);
  const delivery = opts.delivery ?? 0;
  const total = subtotal + vat + delivery;
  const [order] = await db
    .insert(orders)
    .values({ number: `TC-INV-${Date.now()}-${orderSeq}`, userId: buyerId, email: "buyer@example.com", status: "processing", deliveryMethod: "standard", deliveryName: "Standard", subtotal, vat, delivery, total, paymentMethod: "pay_on_account", poReference: opts.po ?? "" })
    .returning();
  await db.insert(orderLines).values(lines.map((l, i) => ({ orderId: order!.id, sku: `SKU-${i}`, name: l.name, slug: `item-${i}`, quantity: l.qty, unitPrice: l.unit, vatRate: l.rate, lineTotal: l.lineTotal, lineVat: l.lineVat })));
  const [invoice] = await db
    .insert(tradeInvoices)
    .values({ number: `pending-${order!.id}`, tradeAccountId: accountId, orderId: order!.id, invoiceDate: opts.invoiceDate, dueDate: opts.dueDate, subtotal, vat, delivery, total, poReference: opts.po ?? "", status: opts.status ?? "unpaid", paidAt: opts.status === "paid" ? new Date() : null })
    .returning();
  const number = `INV-${String(invoice!.id).padStart(6, "0")}`;
  await db.update(tradeInvoices).set({ number }).where(eq(tradeInvoices.id, invoice!.id));
  if (opts.status !== "paid") {
    const [account] = await db.select({ balance: tradeAccounts.balance }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId));
    await db.update(tradeAccounts).set({ balance: account!.balance + total }).where(eq(tradeAccounts.id, accountId));
  }
  return { id: invoice!.id, number, total, subtotal, vat, delivery, orderNumber: order!.number };
}
