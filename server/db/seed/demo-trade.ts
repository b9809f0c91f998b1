import { asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { incVat } from "../../modules/catalog/products/products.ts";
import { unitPence } from "../../modules/trade/pricing.ts";
import { type InvoiceStatus, tradeInvoices } from "../../modules/trade/invoices/invoice-schema.ts";
import { tradePaymentAllocations, tradePayments } from "../../modules/trade/credit/ledger-schema.ts";
import { type TradeRole, tradeAccounts, tradeMembers } from "../../modules/trade/schema.ts";
import { tradeSites } from "../../modules/trade/accounts/sites-schema.ts";
import { orderAddresses, orderLines, orderStatusHistory, orders } from "../../modules/orders/schema.ts";
import { products, users } from "../schema.ts";

/** The demo trade account's owner; an approved account with 10% off. Demo seed only, never production. */
export const DEMO_TRADE = { email: "trade@example.com", password: "demo-password-2026", firstname: "Priya", lastname: "Shah" };

/** The owner's colleagues, with the same demo password. Demo seed only. */
export const DEMO_TRADE_USERS: { email: string; firstname: string; lastname: string; role: TradeRole }[] = [
  { email: "admin@example.com", firstname: "Marcus", lastname: "Bell", role: "admin" },
  { email: "buyer@example.com", firstname: "Tom", lastname: "Reid", role: "buyer" },
  { email: "accounts@example.com", firstname: "Helen", lastname: "Okafor", role: "accounts" },
];

export const DEMO_TRADE_TERMS = { creditLimitPence: 1_000_000, termsDays: 30, discountBasisPoints: 1000 } as const;

const DAY = 86_400_000;
const ADDRESS = { name: "Shah Building Services Ltd", line1: "Unit 4, Canal Wharf", town: "Leeds", postcode: "LS1 4AP" };
const DELIVERY = {
  collect: { name: "Click & collect", pence: 0 },
  standard: { name: "Standard delivery", pence: 0 },
  next_day: { name: "Next working day", pence: 1295 },
} as const;
type DeliveryCode = keyof typeof DELIVERY;

/** A small deterministic generator (mulberry32), so the demo is the same on every fresh start. */
function generator(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n);
  };
}

/** `YYYY-MM-DD` of a moment in Europe/London. */
const londonDate = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** When the demo's orders were placed: four a month for the last 12 London months, never in the future. */
export function demoOrderTimes(now: Date): Date[] {
  const times: Date[] = [];
  for (let k = 11; k >= 0; k -= 1) {
    for (const day of [3, 10, 17, 24]) {
      // 10:00 UTC is the same calendar day in London, summer or winter.
      const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k, day, 10));
      if (at.getTime() < now.getTime() - 2 * DAY) times.push(at);
    }
  }
  // Something placed today, so the newest invoice is fresh.
  times.push(new Date(now.getTime() - 60 * 60 * 1000));
  return times;
}

interface PlannedOrder {
  key: string;
  userId: number;
  email: string;
  placedAt: Date;
  status: string;
  paymentMethod: "pay_on_account" | "bank_transfer" | "pay_on_collection";
  delivery: DeliveryCode;
  poReference: string;
  lines: { productId: number; sku: string; name: string; slug: string; quantity: number; unitPrice: number; vatRate: number; lineTotal: number; lineVat: number }[];
  subtotal: number;
  vat: number;
  total: number;
  invoice: { status: InvoiceStatus; invoiceDate: string; dueDate: string; paidAt: Date | null } | null;
  /** The company's site it was for (issue 32); none before the company kept sites. */
  siteId?: number | null;
}

/** The demo company's two jobs on the go: orders on account for the last three months name one of them. */
export const DEMO_TRADE_SITES = [
  { name: "14 Mill Lane extension", line1: "14 Mill Lane", line2: "Headingley", town: "Leeds", postcode: "LS6 3AA", contactName: "Ravi Shah", contactPhone: "07700 900456", poRequired: false, poPrefix: "" },
  { name: "Kirkstall Road flats", line1: "Plot 2, Kirkstall Road", line2: "", town: "Leeds", postcode: "LS4 2AA", contactName: "Dan Price", contactPhone: "07700 900789", poRequired: true, poPrefix: "KR-" },
] as const;

/** The first `limit` products (by id) at most `maxPence` ex VAT: what the demo companies' orders are made of. */
function demoStock(tx: Db, maxPence: number, limit: number) {
  return tx
    .select({ id: products.id, sku: products.sku, name: products.name, slug: products.slug, pricePence: products.pricePence, vatRate: products.vatRate })
    .from(products)
    .where(lte(products.pricePence, maxPence))
    .orderBy(asc(products.id))
    .limit(limit);
}
type DemoProduct = Awaited<ReturnType<typeof demoStock>>[number];

/** An order line of `quantity` at `unitPrice` (pence ex VAT), its VAT at the product's rate. */
function demoLine(p: DemoProduct, unitPrice: number, quantity: number): PlannedOrder["lines"][number] {
  const lineTotal = unitPrice * quantity;
  return { productId: p.id, sku: p.sku, name: p.name, slug: p.slug, quantity, unitPrice, vatRate: p.vatRate, lineTotal, lineVat: incVat(lineTotal, p.vatRate) - lineTotal };
}

/** A demo company's owner with the demo password; undefined when the email is taken, i.e. the demo was seeded before. */
async function insertDemoOwner(tx: Db, who: { email: string; firstname: string; lastname: string }, phone: string, passwordHash: string): Promise<{ id: number } | undefined> {
  const [owner] = await tx
    .insert(users)
    .values({ email: who.email, firstname: who.firstname, lastname: who.lastname, phone, passwordHash })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return owner;
}

/** A demo limited company approved for the credit it asked for; its id. */
async function insertApprovedAccount(
  tx: Db,
  company: Omit<typeof tradeAccounts.$inferInsert, "companyType" | "requestedCreditLimit" | "state"> & { creditLimit: number },
): Promise<number> {
  const [account] = await tx
    .insert(tradeAccounts)
    .values({ ...company, companyType: "limited_company", requestedCreditLimit: company.creditLimit, state: "approved" })
    .returning({ id: tradeAccounts.id });
  return account!.id;
}

/**
 * The demo trade account: Shah Building Services, approved with 10% off, a
 * £10,000 limit and 30 days' terms, four users, and a year of orders with
 * their lines, most on account with invoices — paid, unpaid and one overdue,
 * so the dashboard has every state to show. Dates are relative to now so the
 * demo stays fresh. A handful of bulk inserts, as the seed runs at every fresh start.
 */
export async function seedDemoTrade(tx: Db, passwordHash: string, now = new Date()): Promise<void> {
  const owner = await insertDemoOwner(tx, DEMO_TRADE, "0113 496 0000", passwordHash);
  if (!owner) return;
  const colleagues = await tx
    .insert(users)
    .values(DEMO_TRADE_USERS.map((u) => ({ email: u.email, firstname: u.firstname, lastname: u.lastname, phone: "0113 496 0000", passwordHash })))
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  const accountId = await insertApprovedAccount(tx, {
    companyName: "Shah Building Services Ltd",
    companyNumber: "09876543",
    vatNumber: "GB123456789",
    trade: "General builder",
    line1: ADDRESS.line1,
    town: ADDRESS.town,
    postcode: ADDRESS.postcode,
    phone: "0113 496 0000",
    accountsEmail: "accounts@shah-building.example.com",
    expectedMonthlySpend: 250_000,
    creditLimit: DEMO_TRADE_TERMS.creditLimitPence,
    termsDays: DEMO_TRADE_TERMS.termsDays,
    discountBasisPoints: DEMO_TRADE_TERMS.discountBasisPoints,
    decidedAt: new Date(now.getTime() - 400 * DAY),
    createdAt: new Date(now.getTime() - 405 * DAY),
  });
  const members = [
    { userId: owner.id, role: "owner" as TradeRole, email: DEMO_TRADE.email },
    ...colleagues.map((c) => ({ userId: c.id, role: DEMO_TRADE_USERS.find((u) => u.email === String(c.email))!.role, email: String(c.email) })),
  ];
  await tx.insert(tradeMembers).values(members.map((m) => ({ tradeAccountId: accountId, userId: m.userId, role: m.role })));
  await tx.update(users).set({ tradeAccountId: accountId }).where(inArray(users.id, members.map((m) => m.userId)));

  const sitesFrom = new Date(now.getTime() - 92 * DAY);
  const sites = await tx
    .insert(tradeSites)
    .values(DEMO_TRADE_SITES.map((s) => ({ ...s, tradeAccountId: accountId, createdAt: sitesFrom })))
    .returning({ id: tradeSites.id });

  // Buyers are the owner, the admin and the buyer; the accounts user only pays.
  const buyers = members.filter((m) => m.role !== "accounts");
  const stock = await demoStock(tx, 27_500, 60);
  if (stock.length === 0) return;
  const pick = generator(2026);
  const today = londonDate(now);
  const times = demoOrderTimes(now);
  // Every seventh order is paid another way (and the first of those was cancelled); the rest are on account.
  const onAccountAt = (i: number) => i % 7 !== 3;
  // The order on account nearest 45 days old stays unpaid: about 15 days overdue.
  const distance = (i: number) => Math.abs(now.getTime() - times[i]!.getTime() - 45 * DAY);
  const overdueIndex = times.reduce((best, _t, i) => (onAccountAt(i) && distance(i) < distance(best) ? i : best), 0);
  const prices = { discountBasisPoints: DEMO_TRADE_TERMS.discountBasisPoints };

  const planned: PlannedOrder[] = times.map((placedAt, i) => {
    const buyer = buyers[pick(buyers.length)]!;
    const lines = Array.from({ length: 2 + pick(3) }, () => stock[pick(stock.length)]!)
      .filter((p, j, all) => all.findIndex((q) => q.id === p.id) === j)
      .map((p) => {
        const unitPrice = unitPence(p.pricePence, prices);
        // At most 4 lines of about £250 ex VAT: even six unpaid orders stay inside the £10,000 limit.
        const quantity = Math.max(1, Math.min(1 + pick(12), Math.floor(25_000 / Math.max(unitPrice, 1))));
        return demoLine(p, unitPrice, quantity);
      });
    const subtotal = lines.reduce((s, l) => s + l.lineTotal, 0);
    const vat = lines.reduce((s, l) => s + l.lineVat, 0);
    const delivery: DeliveryCode = (["collect", "standard", "next_day"] as const)[pick(3)]!;
    const total = subtotal + vat + DELIVERY[delivery].pence;
    const ageDays = (now.getTime() - placedAt.getTime()) / DAY;
    const onAccount = onAccountAt(i);
    const invoiceDate = londonDate(placedAt);
    const dueDate = addDays(invoiceDate, DEMO_TRADE_TERMS.termsDays);
    const invoiceStatus: InvoiceStatus = dueDate >= today || i === overdueIndex ? "unpaid" : "paid";
    const status = !onAccount && i === 3 ? "cancelled" : ageDays < 3 ? "processing" : ageDays < 8 ? "dispatched" : "completed";
    return {
      key: `demo-trade-${i}`,
      userId: buyer.userId,
      email: buyer.email,
      placedAt,
      status,
      paymentMethod: onAccount ? "pay_on_account" : delivery === "collect" ? "pay_on_collection" : "bank_transfer",
      delivery,
      // Orders on account since the company kept sites name one, in turn, with a PO each site's rule takes.
      siteId: onAccount && placedAt >= sitesFrom ? sites[i % 2]!.id : null,
      poReference: onAccount ? (placedAt >= sitesFrom && i % 2 === 1 ? `KR-${String(1040 + i)}` : `SBS-${String(1040 + i)}`) : "",
      lines,
      subtotal,
      vat,
      total,
      invoice: onAccount ? { status: invoiceStatus, invoiceDate, dueDate, paidAt: invoiceStatus === "paid" ? new Date(Date.parse(`${dueDate}T12:00:00Z`) - 3 * DAY) : null } : null,
    };
  });

  await insertOrders(tx, accountId, planned);
}

/**
 * The planned orders with their lines, addresses, history and invoices, and
 * each paid invoice's payment, so that the balance is the invoices less the
 * payments, as the trade ledger keeps it (ADR 0040).
 */
async function insertOrders(tx: Db, accountId: number, planned: PlannedOrder[]): Promise<void> {
  const inserted = await tx
    .insert(orders)
    .values(
      planned.map((o) => ({
        number: o.key,
        userId: o.userId,
        email: o.email,
        phone: "0113 496 0000",
        status: o.status,
        deliveryMethod: o.delivery,
        deliveryName: DELIVERY[o.delivery].name,
        subtotal: o.subtotal,
        vat: o.vat,
        delivery: DELIVERY[o.delivery].pence,
        total: o.total,
        paymentMethod: o.paymentMethod,
        poReference: o.poReference,
        siteId: o.siteId ?? null,
        tradeAccountId: accountId,
        createdAt: o.placedAt,
      })),
    )
    .returning({ id: orders.id, key: orders.number });
  const idOf = new Map(inserted.map((r) => [r.key, r.id]));
  // Numbered from the id, as checkout does.
  await tx
    .update(orders)
    .set({ number: sql`'TC-' || lpad(${orders.id}::text, 6, '0')` })
    .where(inArray(orders.id, inserted.map((r) => r.id)));
  await tx.insert(orderLines).values(planned.flatMap((o) => o.lines.map((l) => ({ orderId: idOf.get(o.key)!, ...l }))));
  await tx.insert(orderAddresses).values(
    planned.flatMap((o) => [
      ...(o.delivery === "collect" ? [] : [{ orderId: idOf.get(o.key)!, kind: "delivery", ...ADDRESS }]),
      { orderId: idOf.get(o.key)!, kind: "billing", ...ADDRESS },
    ]),
  );
  await tx.insert(orderStatusHistory).values(planned.map((o) => ({ orderId: idOf.get(o.key)!, status: o.status, note: o.status === "cancelled" ? "Cancelled at the customer's request." : "Order placed.", createdAt: o.placedAt })));

  const invoiced = planned.filter((o) => o.invoice !== null);
  const invoices = await tx
    .insert(tradeInvoices)
    .values(
      invoiced.map((o) => ({
        number: o.key,
        tradeAccountId: accountId,
        orderId: idOf.get(o.key)!,
        invoiceDate: o.invoice!.invoiceDate,
        dueDate: o.invoice!.dueDate,
        subtotal: o.subtotal,
        vat: o.vat,
        delivery: DELIVERY[o.delivery].pence,
        total: o.total,
        poReference: o.poReference,
        siteId: o.siteId ?? null,
        status: o.invoice!.status,
        paidAt: o.invoice!.paidAt,
        paidAmount: o.invoice!.status === "paid" ? o.total : 0,
        createdAt: o.placedAt,
      })),
    )
    .returning({ id: tradeInvoices.id, number: tradeInvoices.number });
  await tx
    .update(tradeInvoices)
    .set({ number: sql`'INV-' || lpad(${tradeInvoices.id}::text, 6, '0')` })
    .where(inArray(tradeInvoices.id, invoices.map((r) => r.id)));
  // Each paid invoice was paid by bank transfer, in full, on the day it was paid.
  const paid = invoiced.map((o, i) => ({ o, invoiceId: invoices[i]!.id })).filter(({ o }) => o.invoice!.status === "paid" && o.total > 0);
  if (paid.length > 0) {
    const payments = await tx
      .insert(tradePayments)
      .values(
        paid.map(({ o, invoiceId }) => ({
          number: `demo-payment-${invoiceId}`,
          tradeAccountId: accountId,
          amount: o.total,
          method: "bacs" as const,
          reference: o.poReference,
          receivedOn: londonDate(o.invoice!.paidAt!),
          unallocated: 0,
          createdAt: o.invoice!.paidAt!,
        })),
      )
      .returning({ id: tradePayments.id });
    await tx.update(tradePayments).set({ number: sql`'PAY-' || lpad(${tradePayments.id}::text, 6, '0')` }).where(inArray(tradePayments.id, payments.map((p) => p.id)));
    await tx.insert(tradePaymentAllocations).values(paid.map(({ o, invoiceId }, i) => ({ paymentId: payments[i]!.id, invoiceId, amount: o.total, createdAt: o.invoice!.paidAt! })));
  }
  // What is owed: the invoices not yet paid. One overdue puts the account on hold, as the daily job would.
  const balance = invoiced.filter((o) => o.invoice!.status !== "paid").reduce((s, o) => s + o.total, 0);
  const today = londonDate(new Date());
  const overdue = invoiced.some((o) => o.invoice!.status !== "paid" && o.invoice!.dueDate < today);
  await tx
    .update(tradeAccounts)
    .set({ balance, ...(overdue ? { onHold: true, holdReason: "overdue", heldAt: new Date() } : {}) })
    .where(eq(tradeAccounts.id, accountId));
}

/** A second demo company for the trade desk: three invoices on account, the oldest overdue, so it is on hold. Demo seed only. */
export const DEMO_JOINERY = { email: "joinery@example.com", firstname: "Dan", lastname: "Morgan", company: "Morgan Joinery Ltd" };

export async function seedDemoJoinery(tx: Db, passwordHash: string, now = new Date()): Promise<void> {
  const owner = await insertDemoOwner(tx, DEMO_JOINERY, "0161 496 0000", passwordHash);
  if (!owner) return;
  const accountId = await insertApprovedAccount(tx, {
    companyName: DEMO_JOINERY.company,
    companyNumber: "11223344",
    trade: "Joiner",
    line1: "2 Mill Lane",
    town: "Manchester",
    postcode: "M4 6BF",
    phone: "0161 496 0000",
    accountsEmail: "accounts@morgan-joinery.example.com",
    expectedMonthlySpend: 100_000,
    creditLimit: 500_000,
    termsDays: 30,
    decidedAt: new Date(now.getTime() - 120 * DAY),
    createdAt: new Date(now.getTime() - 121 * DAY),
  });
  await tx.insert(tradeMembers).values({ tradeAccountId: accountId, userId: owner.id, role: "owner" });
  await tx.update(users).set({ tradeAccountId: accountId }).where(eq(users.id, owner.id));
  const stock = await demoStock(tx, 10_000, 3);
  if (stock.length === 0) return;
  // 48 days old (18 days overdue on 30 days' terms), 20 and 6 days old.
  const planned = [48, 20, 6].map((age, i): PlannedOrder => {
    const p = stock[i % stock.length]!;
    const quantity = 2 + i;
    const line = demoLine(p, p.pricePence, quantity);
    const placedAt = new Date(now.getTime() - age * DAY);
    const invoiceDate = londonDate(placedAt);
    return {
      key: `demo-joinery-${i}`,
      userId: owner.id,
      email: DEMO_JOINERY.email,
      placedAt,
      status: "completed",
      paymentMethod: "pay_on_account",
      delivery: "collect",
      poReference: `MJ-${200 + i}`,
      lines: [line],
      subtotal: line.lineTotal,
      vat: line.lineVat,
      total: line.lineTotal + line.lineVat,
      invoice: { status: "unpaid", invoiceDate, dueDate: addDays(invoiceDate, 30), paidAt: null },
    };
  });
  await insertOrders(tx, accountId, planned);
}
