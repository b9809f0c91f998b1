// The orders desk's service (server/modules/orders/admin.ts), driven with
// StaffActor objects built here: the list and its filters, keyset pages, the
// tabs' counts, the CSV export, an order's page for each role, and the moves
// with their timeline, audit entry, stock and email in one transaction.
import { londonDate } from "../hire/calendar.ts";
import { Readable } from "node:stream";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { auditLog } from "../audit/schema.ts";
import { users } from "../auth/schema.ts";
import { branches } from "../branches/schema.ts";
import { products } from "../catalog/schema.ts";
import { deliveryMethods } from "../delivery/schema.ts";
import type { Outbox } from "../auth/service.ts";
import { mailOutbox, mailOutboxAttachments } from "../mail/schema.ts";
import { createMailService } from "../mail/service.ts";
import type { StaffActor } from "../staff/actor.ts";
import { STAFF_ROLES, type StaffRole } from "../staff/permissions.ts";
import { staff } from "../staff/schema.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { type AdminOrderService, createAdminOrderService } from "./admin.ts";
import { type AdminOrderFilters, EXPORT_BATCH } from "./admin-list.ts";
import { type OrderStatus, orderAddresses, orderLines, orderStatusHistory, orders } from "./schema.ts";
import { createOrderService } from "./service.ts";

let database: TestDatabase;
let db: Db;
let desk: AdminOrderService;
const as = {} as Record<StaffRole, StaffActor>;

/** The shop's own outbox: rows (and attachments) in the caller's transaction; nothing here sends them. */
const outbox = {
  enqueue: (tx: Db, m: Parameters<Outbox["enqueue"]>[1]) =>
    createMailService(tx, { transport: { send: () => Promise.reject(new Error("not sent in these tests")), close: () => {} }, from: "shop@example.com", log: { info: () => {}, warn: () => {}, error: () => {} } }).enqueue(tx, m),
};
const shop = {
  appName: "Tradecounter",
  publicUrl: "http://shop.test",
  shopEmail: "shop@example.com",
  branchAddress: ["Unit 4, Canal Wharf", "Leeds", "LS11 5PS"],
  shop: { name: "Tradecounter", email: "shop@example.com", address: ["Unit 4, Canal Wharf", "Leeds", "LS11 5PS"], vatNumber: "" },
};

let stockA: number;
let stockB: number;
let ursulaId: number;
let shahId: number;

interface OrderSpec {
  status: OrderStatus;
  email?: string;
  phone?: string;
  method?: "standard" | "collect";
  payment?: "bank_transfer" | "pay_on_collection" | "pay_on_account";
  delivery?: { name: string; postcode: string } | null;
  billing?: { name: string; postcode: string } | null;
  userId?: number | null;
  trade?: boolean;
  createdAt?: Date;
  lines?: { productId: number | null; quantity: number; unitPrice?: number }[];
  carrier?: string;
  number?: string;
}

/** An order written straight to the tables, as checkout leaves one: lines, addresses and its first timeline entry. */
async function makeOrder(spec: OrderSpec): Promise<{ id: number; number: string }> {
  const lines = spec.lines ?? [{ productId: stockA, quantity: 1 }];
  let subtotal = 0;
  let vat = 0;
  const priced = lines.map((l) => {
    const unitPrice = l.unitPrice ?? 1000;
    const lineTotal = unitPrice * l.quantity;
    const lineVat = Math.round(lineTotal * 0.2);
    subtotal += lineTotal;
    vat += lineVat;
    return { ...l, unitPrice, lineTotal, lineVat };
  });
  const collect = spec.method === "collect";
  const delivery = collect ? 0 : 695;
  const [row] = await db
    .insert(orders)
    .values({
      number: spec.number ?? `pending-${crypto.randomUUID()}`,
      userId: spec.userId ?? null,
      email: spec.email ?? "someone@example.com",
      phone: spec.phone ?? "0113 496 0000",
      status: spec.status,
      deliveryMethod: collect ? "collect" : "standard",
      deliveryName: collect ? "Click & collect" : "Standard delivery",
      subtotal,
      vat,
      delivery,
      total: subtotal + vat + delivery,
      paymentMethod: spec.payment ?? "bank_transfer",
      tradeAccountId: spec.trade ? shahId : null,
      carrier: spec.carrier ?? null,
      createdAt: spec.createdAt ?? new Date(),
    })
    .returning({ id: orders.id });
  const number = spec.number ?? `TC-${String(row!.id).padStart(6, "0")}`;
  if (!spec.number) await db.update(orders).set({ number }).where(eq(orders.id, row!.id));
  await db.insert(orderLines).values(
    priced.map((l, i) => ({ orderId: row!.id, productId: l.productId, variantId: l.productId === null ? null : sql<number>`(select id from product_variants where product_id = ${l.productId})`, sku: `SKU-${i}`, name: `Line ${i}`, slug: `line-${i}`, quantity: l.quantity, unitPrice: l.unitPrice, vatRate: 20, lineTotal: l.lineTotal, lineVat: l.lineVat })),
  );
  const address = (kind: string, a: { name: string; postcode: string }) => ({ orderId: row!.id, kind, name: a.name, line1: "1 High Street", town: "Leeds", postcode: a.postcode });
  const delivered = spec.delivery === undefined ? (collect ? null : { name: "Pat Person", postcode: "LS1 1AB" }) : spec.delivery;
  const addresses = [...(delivered ? [address("delivery", delivered)] : []), ...(spec.billing ? [address("billing", spec.billing)] : delivered ? [address("billing", delivered)] : [])];
  if (addresses.length) await db.insert(orderAddresses).values(addresses);
  await db.insert(orderStatusHistory).values({ orderId: row!.id, status: spec.status, note: "Order placed." });
  return { id: row!.id, number };
}

const stockOf = async (id: number) => (await db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const numbers = (page: { data: { number: string }[] }) => page.data.map((o) => o.number);
const mailTo = (to: string) => db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(asc(mailOutbox.id));
const auditOf = (number: string) => db.select().from(auditLog).where(and(eq(auditLog.entity, "order"), eq(auditLog.entityId, number))).orderBy(asc(auditLog.id));

async function refusal(promise: Promise<unknown> | (() => unknown)): Promise<HttpError | ValidationError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    if (error instanceof HttpError || error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  desk = createAdminOrderService(db, { mail: outbox, ...shop });
  await db.insert(deliveryMethods).values([
    { code: "standard", name: "Standard delivery", kind: "delivery", price: 695 },
    { code: "collect", name: "Click & collect", kind: "collect", price: 0 },
  ]);
  const made = await db
    .insert(products)
    .values([
      { sku: "DESK-A", slug: "desk-a", name: "Claw hammer", pricePence: 1000, stock: 10 },
      { sku: "DESK-B", slug: "desk-b", name: "Spirit level", pricePence: 2000, stock: 5 },
    ])
    .returning({ id: products.id });
  [stockA, stockB] = [made[0]!.id, made[1]!.id];
  for (const role of STAFF_ROLES) {
    const [member] = await db.insert(staff).values({ email: `${role}@desk.example.com`, name: `${role[0]!.toUpperCase()}${role.slice(1)} Member`, role }).returning();
    as[role] = { staffId: member!.id, name: member!.name, email: member!.email, role, via: "screen" };
  }
  const [ursula] = await db.insert(users).values({ email: "ursula@example.com", firstname: "Ursula", lastname: "Account", passwordHash: "x" }).returning({ id: users.id });
  ursulaId = ursula!.id;
  const [shah] = await db
    .insert(tradeAccounts)
    .values({ companyName: "Shah Building Services Ltd", companyType: "limited_company", companyNumber: "01234567", trade: "Builder", line1: "1 Yard", town: "Leeds", postcode: "LS1 4AP", phone: "0113 496 0001", accountsEmail: "accounts@shah.example.com", expectedMonthlySpend: 100_000, requestedCreditLimit: 500_000 })
    .returning({ id: tradeAccounts.id });
  shahId = shah!.id;
}, 60_000);
afterAll(() => database?.destroy());

describe("the orders desk's list", () => {
  // Seven orders in March 2025, one of each status, and two just outside it.
  const march: AdminOrderFilters = { from: "2025-03-01", to: "2025-03-31" };
  const w = {} as Record<"A" | "B" | "C" | "D" | "E" | "F" | "G" | "H" | "I", string>;
  beforeAll(async () => {
    const at = (day: number) => new Date(Date.UTC(2025, 2, day, 10));
    w.A = (await makeOrder({ status: "awaiting_payment", email: "alma@example.com", delivery: { name: "Alma Ashdown", postcode: "LS1 4AP" }, createdAt: at(2), lines: [{ productId: stockA, quantity: 2 }, { productId: stockB, quantity: 1 }] })).number;
    w.B = (await makeOrder({ status: "paid", email: "Bob@Builders.example.com", delivery: { name: "Bob Builder", postcode: "SW1A 1AA" }, trade: true, createdAt: at(5) })).number;
    w.C = (await makeOrder({ status: "processing", email: "ursula@example.com", method: "collect", payment: "pay_on_collection", userId: ursulaId, createdAt: at(8) })).number;
    w.D = (await makeOrder({ status: "dispatched", email: "dee@example.com", payment: "pay_on_account", delivery: { name: "Dee Dyer", postcode: "M1 1AE" }, trade: true, carrier: "DPD", createdAt: at(11) })).number;
    w.E = (await makeOrder({ status: "ready_for_collection", email: "eve@example.com", method: "collect", billing: { name: "Eve Evans", postcode: "LS6 2AB" }, createdAt: at(14) })).number;
    w.F = (await makeOrder({ status: "completed", email: "fred@example.com", delivery: { name: "Fred Fish", postcode: "IV2 3AB" }, createdAt: at(17) })).number;
    w.G = (await makeOrder({ status: "cancelled", email: "gail@example.com", delivery: { name: "Gail Green", postcode: "BT1 1AA" }, createdAt: at(20) })).number;
    // 00:30 on 1 April in London (British Summer Time), and 23:59 on 28 February (GMT).
    w.H = (await makeOrder({ status: "paid", email: "hal@example.com", createdAt: new Date("2025-03-31T23:30:00Z") })).number;
    w.I = (await makeOrder({ status: "paid", email: "ida@example.com", createdAt: new Date("2025-02-28T23:59:00Z") })).number;
  });

  it("shows every order newest first, with the summary the list needs", async () => {
    const page = await desk.list(as.owner, march);
    expect(numbers(page)).toEqual([w.G, w.F, w.E, w.D, w.C, w.B, w.A]);
    expect(page.next_cursor).toBeNull();
    expect(page.data.find((o) => o.number === w.A)).toEqual({
      number: w.A,
      status: "awaiting_payment",
      status_label: "Awaiting payment",
      created_at: "2025-03-02T10:00:00.000Z",
      name: "Alma Ashdown",
      postcode: "LS1 4AP",
      fulfilment: "delivery",
      delivery_method: "standard",
      delivery_method_name: "Standard delivery",
      lines: 2,
      items: 3,
      trade: false,
      email: "alma@example.com",
      payment_method: "bank_transfer",
      total: 42.95,
    });
    // A collection order without an address takes its account's name.
    expect(page.data.find((o) => o.number === w.C)).toMatchObject({ name: "Ursula Account", postcode: null, fulfilment: "collection" });
  });

  it("filters by status, payment method, delivery or collection, and trade", async () => {
    expect(numbers(await desk.list(as.owner, { ...march, status: "paid" }))).toEqual([w.B]);
    expect(numbers(await desk.list(as.owner, { ...march, status: "cancelled" }))).toEqual([w.G]);
    expect(numbers(await desk.list(as.owner, { ...march, payment_method: "pay_on_collection" }))).toEqual([w.C]);
    expect(numbers(await desk.list(as.owner, { ...march, payment_method: "pay_on_account" }))).toEqual([w.D]);
    expect(numbers(await desk.list(as.owner, { ...march, fulfilment: "collection" }))).toEqual([w.E, w.C]);
    expect(numbers(await desk.list(as.owner, { ...march, fulfilment: "delivery" }))).toEqual([w.G, w.F, w.D, w.B, w.A]);
    expect(numbers(await desk.list(as.owner, { ...march, trade: "yes" }))).toEqual([w.D, w.B]);
    expect(numbers(await desk.list(as.owner, { ...march, trade: "no" }))).toEqual([w.G, w.F, w.E, w.C, w.A]);
    expect(numbers(await desk.list(as.owner, { ...march, trade: "yes", status: "dispatched" }))).toEqual([w.D]);
  });

  it("filters by London calendar days, across the clock change", async () => {
    expect(numbers(await desk.list(as.owner, { from: "2025-04-01", to: "2025-04-01" }))).toEqual([w.H]);
    expect(numbers(await desk.list(as.owner, { from: "2025-02-28", to: "2025-02-28" }))).toEqual([w.I]);
    expect(numbers(await desk.list(as.owner, { from: "2025-03-20", to: "2025-03-31" }))).toEqual([w.G]);
    const bad = await refusal(desk.list(as.owner, { from: "2025-02-30" }));
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).errors).toEqual({ from: ["Enter the first day as YYYY-MM-DD."] });
  });

  it("searches by order number (exact, its start, or its digits), email, name and postcode", async () => {
    const search = async (q: string, actor = as.owner) => numbers(await desk.list(actor, { ...march, q }));
    expect(await search(w.D)).toEqual([w.D]);
    expect(await search(w.D.toLowerCase())).toEqual([w.D]);
    expect(await search(String(Number(w.D.slice(3))))).toEqual([w.D]);
    // Every March order's number starts "TC-0000".
    expect(await search("TC-0000")).toHaveLength(7);
    expect(await search("bob@builders.example.com")).toEqual([w.B]);
    expect(await search("BOB@builders")).toEqual([w.B]);
    expect(await search("ashdown")).toEqual([w.A]);
    expect(await search("Ursula Account")).toEqual([w.C]);
    expect(await search("Eve")).toEqual([w.E]);
    expect(await search("ls14ap")).toEqual([w.A]);
    expect(await search("  sw1a   1aa ")).toEqual([w.B]);
    expect(await search("m1")).toEqual([w.D]);
    expect(await search("LS6 2AB")).toEqual([w.E]);
    expect(await search("nobody at all")).toEqual([]);
    // LIKE's wildcards are only characters.
    expect(await search("%")).toEqual([]);
    expect(await search("_")).toEqual([]);
  });

  it("keeps the warehouse to the delivery address: no email, no prices, no billing details searched", async () => {
    const page = await desk.list(as.warehouse, march);
    for (const o of page.data) {
      expect(o).not.toHaveProperty("email");
      expect(o).not.toHaveProperty("total");
      expect(o).not.toHaveProperty("payment_method");
    }
    expect(page.data.find((o) => o.number === w.C)!.name).toBe("");
    const search = async (q: string) => numbers(await desk.list(as.warehouse, { ...march, q }));
    expect(await search("bob@builders")).toEqual([]);
    expect(await search("Ursula")).toEqual([]);
    expect(await search("LS6 2AB")).toEqual([]);
    expect(await search("Alma")).toEqual([w.A]);
    expect(await search("LS1 4AP")).toEqual([w.A]);
    // Sales sees customers but not everything: the role has both.
    expect((await desk.list(as.sales, { ...march, status: "paid" })).data[0]).toMatchObject({ email: "Bob@Builders.example.com", total: expect.any(Number) });
    await expect(desk.list(as.hire, march)).rejects.toThrow("Your role does not allow this.");
  });

  it("pages with an opaque keyset cursor, with no order twice and none missed", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await desk.list(as.owner, { ...march, limit: 2, cursor });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...numbers(page));
      cursor = page.next_cursor ?? undefined;
      if (cursor) expect(cursor).not.toMatch(/^\d+$/);
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual([w.G, w.F, w.E, w.D, w.C, w.B, w.A]);
    const bad = await refusal(desk.list(as.owner, { cursor: "not-a-cursor" }));
    expect(bad).toBeInstanceOf(ValidationError);
  });

  it("sorts oldest first too, with its own keyset pages", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await desk.list(as.owner, { ...march, sort: "oldest", limit: 3, cursor });
      seen.push(...numbers(page));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([w.A, w.B, w.C, w.D, w.E, w.F, w.G]);
  });

  it("counts the orders of each status for the same filters, status aside", async () => {
    expect(await desk.statusCounts(as.owner, { ...march, status: "paid" })).toEqual({
      awaiting_payment: 1,
      paid: 1,
      processing: 1,
      dispatched: 1,
      ready_for_collection: 1,
      completed: 1,
      cancelled: 1,
    });
    expect(await desk.statusCounts(as.owner, { ...march, trade: "yes" })).toMatchObject({ paid: 1, dispatched: 1, awaiting_payment: 0, cancelled: 0 });
    expect(await desk.statusCounts(as.owner, { from: "2025-02-28", to: "2025-04-01" })).toMatchObject({ paid: 3, processing: 1, cancelled: 1 });
    expect(await desk.statusCounts(as.owner, { ...march, q: "Bob" })).toMatchObject({ paid: 1, processing: 0, dispatched: 0 });
  });
});

/** A CSV reader for the tests (quotes and doubled quotes), so the export is read as a spreadsheet would. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\n") {
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

async function readAll(stream: Readable): Promise<{ text: string; chunks: number }> {
  let text = "";
  let chunks = 0;
  for await (const chunk of stream) {
    text += chunk.toString();
    chunks++;
  }
  return { text, chunks };
}

describe("the CSV export", () => {
  const COUNT = EXPORT_BATCH + 23;
  beforeAll(async () => {
    // Orders on one June day of 2024, written in bulk: more than one batch of the export.
    const day = new Date("2024-06-10T09:00:00Z");
    const made = await db
      .insert(orders)
      .values(
        Array.from({ length: COUNT }, (_, i) => ({
          number: `TC-${900_000 + i}`,
          email: `csv-${i}@example.com`,
          status: i % 2 ? "paid" : "processing",
          deliveryMethod: "standard",
          deliveryName: "Standard delivery",
          subtotal: 1000 + i,
          vat: 200,
          delivery: 695,
          total: 1895 + i,
          paymentMethod: "bank_transfer",
          createdAt: new Date(day.getTime() + i * 1000),
        })),
      )
      .returning({ id: orders.id, number: orders.number });
    await db.insert(orderLines).values(made.map((o) => ({ orderId: o.id, productId: stockA, sku: "DESK-A", name: "Claw hammer", slug: "desk-a", quantity: 3, unitPrice: 1000, vatRate: 20, lineTotal: 3000, lineVat: 600 })));
    await db.insert(orderAddresses).values(made.map((o, i) => ({ orderId: o.id, kind: "delivery", name: i === 0 ? "=HYPERLINK(\"http://evil.example\")" : `Name, ${i}`, line1: "1 Mill Lane", town: "Leeds", postcode: "LS6 1AB" })));
  });

  it("streams every filtered order, newest first, as CSV a spreadsheet reads", async () => {
    const stream = desk.exportCsv(as.owner, { from: "2024-06-10", to: "2024-06-10" });
    expect(stream).toBeInstanceOf(Readable);
    const { text, chunks } = await readAll(stream);
    expect(chunks).toBeGreaterThan(1);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual(["Order", "Placed (London)", "Status", "Name", "Email", "Postcode", "Fulfilment", "Delivery method", "Payment", "Lines", "Items", "Goods ex VAT", "VAT", "Delivery", "Total", "Trade account", "Carrier", "Tracking number"]);
    expect(rows).toHaveLength(COUNT);
    const orderNumbers = rows.map((r) => r[0]);
    expect(new Set(orderNumbers).size).toBe(COUNT);
    expect(orderNumbers[0]).toBe(`TC-${900_000 + COUNT - 1}`);
    expect(orderNumbers.at(-1)).toBe("TC-900000");
    const last = `TC-${900_000 + COUNT - 1}`;
    // 09:00 UTC is 10:00 in London in June.
    expect(rows[0]).toEqual([last, expect.stringMatching(/^2024-06-10 10:0\d$/), COUNT % 2 === 0 ? "Paid" : "Processing", `Name, ${COUNT - 1}`, `csv-${COUNT - 1}@example.com`, "LS6 1AB", "Delivery", "Standard delivery", "Bank transfer", "1", "3", ((1000 + COUNT - 1) / 100).toFixed(2), "2.00", "6.95", ((1895 + COUNT - 1) / 100).toFixed(2), "", "", ""]);
    // A cell that a spreadsheet would run as a formula is defused.
    expect(rows.at(-1)![3]).toBe("'=HYPERLINK(\"http://evil.example\")");
  });

  it("exports the filters' orders only, and only for a role with orders.export", async () => {
    const { text } = await readAll(desk.exportCsv(as.accounts, { from: "2024-06-10", to: "2024-06-10", status: "paid", q: "csv-1" }));
    const rows = parseCsv(text.slice(1)).slice(1);
    // csv-1, csv-11, csv-13, … csv-199, csv-1xx: the paid ones (odd) whose email starts csv-1.
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r[2] === "Paid" && r[4]!.startsWith("csv-1"))).toBe(true);
    expect(() => desk.exportCsv(as.warehouse, {})).toThrow("Your role does not allow this.");
    expect(() => desk.exportCsv(as.owner, { from: "yesterday" })).toThrow(ValidationError);
  });
});

describe("an order's page", () => {
  let a: { number: string };
  let collection: { number: string };
  beforeAll(async () => {
    a = await makeOrder({ status: "awaiting_payment", email: "page@example.com", phone: "07700 900123", delivery: { name: "Dora Delivery", postcode: "LS1 4AP" }, billing: { name: "Bill Payer", postcode: "SW1A 2AA" }, trade: true, userId: ursulaId, lines: [{ productId: stockA, quantity: 2, unitPrice: 1250 }] });
    collection = await makeOrder({ status: "processing", method: "collect", payment: "pay_on_collection" });
  });

  it("shows the lines, totals with VAT, addresses, payment, customer, timeline and actions", async () => {
    const order = await desk.detail(as.owner, a.number.toLowerCase());
    expect(order).toMatchObject({
      number: a.number,
      status: "awaiting_payment",
      status_label: "Awaiting payment",
      fulfilment: "delivery",
      carrier: null,
      tracking_number: null,
      tracking_url: null,
      lines: [{ product_id: stockA, quantity: 2, unit_price: 15, unit_price_ex_vat: 12.5, vat_rate: 20, line_total: 30, line_total_ex_vat: 25 }],
      totals: { subtotal: 25, vat: 5, delivery: 6.95, total: 36.95 },
      payment: { method: "bank_transfer", label: "Bank transfer", po_reference: "" },
      addresses: { delivery: { name: "Dora Delivery", postcode: "LS1 4AP" }, billing: { name: "Bill Payer", postcode: "SW1A 2AA" } },
      customer: { user_id: ursulaId, guest: false, name: "Ursula Account", email: "page@example.com", account_email: "ursula@example.com", phone: "07700 900123", trade_account: { id: shahId, company_name: "Shah Building Services Ltd" } },
      history: [{ kind: "status", status: "awaiting_payment", label: "Awaiting payment", note: "Order placed.", staff: null }],
    });
    expect(order.actions.map((x) => x.to)).toEqual(["paid", "cancelled"]);
    await expect(desk.detail(as.owner, "TC-999999")).rejects.toMatchObject({ statusCode: 404 });
  });

  it("shows the warehouse what picking needs: no prices, no customer, only the delivery address", async () => {
    const order = await desk.detail(as.warehouse, a.number);
    expect(order).not.toHaveProperty("totals");
    expect(order).not.toHaveProperty("payment");
    expect(order).not.toHaveProperty("customer");
    expect(order.addresses).toEqual({ delivery: expect.objectContaining({ name: "Dora Delivery", postcode: "LS1 4AP" }) });
    expect(order.lines[0]).toEqual({ id: expect.any(Number), product_id: stockA, sku: "SKU-0", name: "Line 0", slug: "line-0", variant_id: expect.any(Number), options: {}, unit: "each", quantity: 2, cancelled_quantity: 0 });
    // Timestamps left out: one at 21:40:12.5 would read as a price.
    const text = JSON.stringify(order).replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, "");
    for (const secret of ["page@example.com", "07700 900123", "Bill Payer", "SW1A 2AA", "Ursula", "Shah", "12.5", "36.95"]) expect(text).not.toContain(secret);
    // Awaiting payment: nothing for the warehouse to do yet; once processing, it may dispatch.
    expect(order.actions).toEqual([]);
    expect((await desk.detail(as.warehouse, collection.number)).actions.map((x) => x.to)).toEqual(["ready_for_collection"]);
  });
});

describe("moving an order on", () => {
  it("writes the status, a timeline entry by the member, an audit entry and the customer's email", async () => {
    const o = await makeOrder({ status: "awaiting_payment", email: "move@example.com" });
    const before = (await db.select({ at: orders.updatedAt }).from(orders).where(eq(orders.number, o.number)))[0]!.at;
    const after = await desk.transition(as.accounts, o.number, { to: "paid", expected_status: "awaiting_payment" });
    expect(after.status).toBe("paid");
    expect(new Date(after.updated_at).getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(after.history.at(-1)).toMatchObject({ kind: "status", status: "paid", staff: { id: as.accounts.staffId, name: "Accounts Member" } });
    expect(await auditOf(o.number)).toEqual([
      expect.objectContaining({ staffId: as.accounts.staffId, staffName: "Accounts Member <accounts@desk.example.com>", via: "screen", action: "order.transition", before: { status: "awaiting_payment", paid_amount: null, paid_on: null, payment_reference: null }, after: { status: "paid", paid_amount: 18.95, paid_on: londonDate(), payment_reference: "" } }),
    ]);
    const mail = await mailTo("move@example.com");
    expect(mail.map((m) => m.subject)).toEqual([`Order ${o.number}: payment received`]);
    expect(mail[0]!.text).toContain("we have received your payment");
  });

  it("marking a bank transfer paid records the amount, the day and the reference, and refuses another amount unless confirmed (issue 34)", async () => {
    const o = await makeOrder({ status: "awaiting_payment", email: "receipt@example.com" });
    const today = londonDate();
    // The total is £18.95: £18.50 is refused, saying by how much, and nothing moves.
    const short = await refusal(desk.transition(as.accounts, o.number, { to: "paid", paid_amount: 18.5, paid_on: today, payment_reference: "BACS 4471" }));
    expect(short).toMatchObject({ statusCode: 422, errors: { paid_amount: ["£18.50 is less than the order's total of £18.95. Check the amount, or confirm it to record it anyway."] } });
    const future = await refusal(desk.transition(as.accounts, o.number, { to: "paid", paid_on: "2999-01-01" }));
    expect(future).toMatchObject({ statusCode: 422, errors: { paid_on: ["The payment cannot have arrived after today."] } });
    expect(await refusal(desk.transition(as.accounts, o.number, { to: "paid", paid_on: "2026-02-30" }))).toMatchObject({ errors: { paid_on: ["Enter the day the payment arrived as YYYY-MM-DD."] } });
    expect((await desk.detail(as.accounts, o.number)).status).toBe("awaiting_payment");

    const paid = await desk.transition(as.accounts, o.number, { to: "paid", paid_amount: 18.5, paid_on: "2026-11-02", payment_reference: "BACS 4471", amount_confirmed: true });
    expect(paid.status).toBe("paid");
    expect(paid.payment).toMatchObject({ paid_amount: 18.5, paid_on: "2026-11-02", reference: "BACS 4471" });
    expect(paid.history.at(-1)!.note).toBe("Payment of £18.50 received on 2 Nov 2026, reference BACS 4471. That is £0.45 less than the total.");
    expect((await auditOf(o.number)).at(-1)!.after).toMatchObject({ paid_amount: 18.5, paid_on: "2026-11-02", payment_reference: "BACS 4471" });
  });

  it("does all of it in one transaction: if the email cannot be queued, nothing changed", async () => {
    const o = await makeOrder({ status: "awaiting_payment", email: "atomic@example.com" });
    const broken = createAdminOrderService(db, {
      ...shop,
      mail: {
        enqueue: async () => {
          throw new Error("outbox unavailable");
        },
      },
    });
    await expect(broken.transition(as.owner, o.number, { to: "paid" })).rejects.toThrow("outbox unavailable");
    const [row] = await db.select().from(orders).where(eq(orders.number, o.number));
    expect(row!.status).toBe("awaiting_payment");
    expect(await db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id))).toHaveLength(1);
    expect(await auditOf(o.number)).toEqual([]);
  });

  it("dispatches with a carrier and tracking number, and emails the tracking link", async () => {
    const o = await makeOrder({ status: "processing", email: "parcel@example.com" });
    const missing = await refusal(desk.transition(as.warehouse, o.number, { to: "dispatched", carrier: "Royal Mail" }));
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as ValidationError).errors).toEqual({ tracking_number: ["Enter the tracking number."] });
    const done = await desk.transition(as.warehouse, o.number, { to: "dispatched", carrier: "Royal Mail", tracking_number: "AB123456789GB" });
    expect(done).toMatchObject({ status: "dispatched", carrier: "Royal Mail", tracking_number: "AB123456789GB", tracking_url: "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB" });
    expect(done.history.at(-1)!.note).toBe("Sent with Royal Mail, tracking number AB123456789GB.");
    const [mail] = await mailTo("parcel@example.com");
    expect(mail!.subject).toBe(`Order ${o.number} is on its way`);
    expect(mail!.text).toContain("Tracking number: AB123456789GB");
    expect(mail!.html).toContain('href="https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB"');
    expect((await auditOf(o.number))[0]).toMatchObject({ before: { status: "processing", carrier: null, tracking_number: null }, after: { status: "dispatched", carrier: "Royal Mail", tracking_number: "AB123456789GB" } });
    // The shop's own van has no tracking page.
    const van = await makeOrder({ status: "processing", email: "van@example.com" });
    expect((await desk.transition(as.owner, van.number, { to: "dispatched", carrier: "Own van", tracking_number: "RUN-7" })).tracking_url).toBeNull();
    expect((await mailTo("van@example.com"))[0]!.html).not.toContain("Track your delivery");
  });

  it("makes a collection ready with a collection code and its QR code, and hands it over only for that code, typed or scanned", async () => {
    const [wharf] = await db
      .insert(branches)
      .values({ slug: "canal-wharf", name: "Leeds, Canal Wharf", line1: "Unit 4, Canal Wharf", town: "Leeds", postcode: "LS11 5PS", services: ["collect"], holdDays: 5 })
      .returning({ id: branches.id });
    const o = await makeOrder({ status: "awaiting_payment", method: "collect", payment: "pay_on_collection", email: "collect@example.com" });
    await db.update(orders).set({ branchId: wharf!.id }).where(eq(orders.id, o.id));
    await desk.transition(as.warehouse, o.number, { to: "processing" });
    const ready = await desk.transition(as.warehouse, o.number, { to: "ready_for_collection" });
    expect(ready.actions.find((a) => a.to === "completed")!.requires).toEqual(["collection_code"]);
    const [row] = await db.select({ code: orders.collectionCode }).from(orders).where(eq(orders.id, o.id));
    const code = row!.code!;
    expect(code).toMatch(/^\d{6}$/);
    const [mail] = await mailTo("collect@example.com");
    expect(mail!.subject).toBe(`Order ${o.number} is ready to collect`);
    expect(mail!.text).toContain(`Your collection code: ${code}`);
    expect(mail!.text).toContain("Where: Leeds, Canal Wharf, Unit 4, Canal Wharf, Leeds, LS11 5PS");
    expect(mail!.text).toContain("pay £12.00 when you collect");
    expect(mail!.text).toMatch(/We keep it for you until \w+day \d+ \w+\./);
    expect(mail!.html).toContain("/branches/canal-wharf");
    // The QR code, a PNG, holds the order and its code.
    const [qr] = await db.select().from(mailOutboxAttachments).where(eq(mailOutboxAttachments.outboxId, mail!.id));
    expect(qr).toMatchObject({ filename: `collection-code-${o.number}.png`, contentType: "image/png" });
    expect(Buffer.from(qr!.content).subarray(1, 4).toString()).toBe("PNG");
    // No code, a wrong one, another order's scan: refused, still ready.
    expect(((await refusal(desk.transition(as.warehouse, o.number, { to: "completed" }))) as ValidationError).errors.collection_code).toEqual(["Enter the collection code the customer shows you (or scan its QR code)."]);
    const wrong = code === "000000" ? "111111" : "000000";
    expect(((await refusal(desk.transition(as.warehouse, o.number, { to: "completed", collection_code: wrong }))) as ValidationError).errors.collection_code![0]).toMatch(/^That is not the collection code for /);
    expect(await refusal(desk.transition(as.warehouse, o.number, { to: "completed", collection_code: `TC-999999/${code}` }))).toBeInstanceOf(ValidationError);
    expect((await desk.detail(as.warehouse, o.number)).status).toBe("ready_for_collection");
    // The scanner types what the QR code holds.
    const done = await desk.transition(as.warehouse, o.number, { to: "completed", collection_code: ` ${o.number.toLowerCase()}/${code} ` });
    expect(done.status).toBe("completed");
    expect(done.history.map((h) => h.status)).toEqual(["awaiting_payment", "processing", "ready_for_collection", "completed"]);
    // Picking and collection say nothing to the customer; the one email was "ready".
    expect(await mailTo("collect@example.com")).toHaveLength(1);
  });

  it("hands over a collection made ready before codes without one", async () => {
    const o = await makeOrder({ status: "ready_for_collection", method: "collect", email: "old-ready@example.com" });
    expect((await desk.detail(as.warehouse, o.number)).actions.find((a) => a.to === "completed")!.requires).toEqual([]);
    expect((await desk.transition(as.warehouse, o.number, { to: "completed" })).status).toBe("completed");
  });

  it("puts the stock back when it cancels, in the same transaction, and emails the reason", async () => {
    const [a0, b0] = [await stockOf(stockA), await stockOf(stockB)];
    const o = await makeOrder({ status: "paid", email: "cancel@example.com", lines: [{ productId: stockA, quantity: 3 }, { productId: stockB, quantity: 2 }, { productId: null, quantity: 4 }] });
    const noReason = await refusal(desk.transition(as.sales, o.number, { to: "cancelled", note: "  " }));
    expect((noReason as ValidationError).errors).toEqual({ note: ["Give the reason for cancelling."] });
    expect(await stockOf(stockA)).toBe(a0);
    const done = await desk.transition(as.sales, o.number, { to: "cancelled", note: "Out of stock at the supplier." });
    expect(done.status).toBe("cancelled");
    expect([await stockOf(stockA), await stockOf(stockB)]).toEqual([a0 + 3, b0 + 2]);
    const [mail] = await mailTo("cancel@example.com");
    expect(mail!.subject).toBe(`Order ${o.number} has been cancelled`);
    expect(mail!.text).toContain("Reason: Out of stock at the supplier.");
    expect(mail!.text).toContain("We will refund your payment");
    // Cancelled once: never again, and the stock is not put back twice.
    const again = await refusal(desk.transition(as.sales, o.number, { to: "cancelled", note: "Twice?" }));
    expect(again).toMatchObject({ statusCode: 409, message: `Order ${o.number} is already cancelled.` });
    expect([await stockOf(stockA), await stockOf(stockB)]).toEqual([a0 + 3, b0 + 2]);
  });

  it("refuses a move the table does not allow (409), a role without the permission (403), and a stale screen (409)", async () => {
    const o = await makeOrder({ status: "dispatched" });
    expect(await refusal(desk.transition(as.owner, o.number, { to: "paid" }))).toMatchObject({ statusCode: 409, message: `Order ${o.number} is dispatched; it cannot move to paid.` });
    expect(await refusal(desk.transition(as.owner, o.number, { to: "cancelled", note: "Too late" }))).toMatchObject({ statusCode: 409 });
    const unpaid = await makeOrder({ status: "awaiting_payment" });
    expect(await refusal(desk.transition(as.warehouse, unpaid.number, { to: "paid" }))).toMatchObject({ statusCode: 403 });
    expect(await refusal(desk.transition(as.accounts, unpaid.number, { to: "cancelled", note: "No" }))).toMatchObject({ statusCode: 403 });
    expect(await refusal(desk.transition(as.hire, unpaid.number, { to: "paid" }))).toMatchObject({ statusCode: 403 });
    // Someone else marked it paid while this member looked at "awaiting payment".
    await desk.transition(as.accounts, unpaid.number, { to: "paid" });
    expect(await refusal(desk.transition(as.sales, unpaid.number, { to: "cancelled", note: "Customer rang", expected_status: "awaiting_payment" }))).toMatchObject({
      statusCode: 409,
      message: `Order ${unpaid.number} changed while you were looking: it is now paid.`,
    });
    expect(await refusal(desk.transition(as.owner, "TC-999998", { to: "paid" }))).toMatchObject({ statusCode: 404 });
    expect(await refusal(desk.transition(as.owner, unpaid.number, { to: "teleported" as OrderStatus }))).toBeInstanceOf(ValidationError);
    // The refusals wrote nothing.
    expect((await auditOf(unpaid.number)).map((e) => e.action)).toEqual(["order.transition"]);
  });

  it("adds staff notes to the timeline, audited, never shown to the customer", async () => {
    const o = await makeOrder({ status: "processing", userId: ursulaId });
    const done = await desk.addNote(as.warehouse, o.number, "  Two boxes; the level is on the van.  ");
    expect(done.status).toBe("processing");
    expect(done.history.at(-1)).toMatchObject({ kind: "note", status: "processing", note: "Two boxes; the level is on the van.", staff: { id: as.warehouse.staffId, name: "Warehouse Member" } });
    expect((await auditOf(o.number)).map((e) => [e.action, e.after])).toEqual([["order.note", { note: "Two boxes; the level is on the van." }]]);
    await expect(desk.addNote(as.warehouse, o.number, " ")).rejects.toThrow(ValidationError);
    await expect(desk.addNote(as.hire, o.number, "Hello")).rejects.toMatchObject({ statusCode: 403 });
    const customer = await createOrderService(db).forUser(ursulaId, o.id);
    expect(customer!.history.map((h) => h.note)).toEqual(["Order placed."]);
    expect(JSON.stringify(customer)).not.toContain("Warehouse");
  });
});

// Two members acting on one order at once. PGlite runs one query at a time,
// so the race is real only on PostgreSQL:
// TEST_DATABASE_URL=postgres://… npx --no-install vitest run server/modules/orders
describe.skipIf(!process.env.TEST_DATABASE_URL)("two members at once (PostgreSQL)", () => {
  it("lets exactly one of dispatch and cancel win; the other is told the order changed", async () => {
    for (let round = 0; round < 6; round++) {
      const a0 = await stockOf(stockA);
      const o = await makeOrder({ status: "processing", email: `race-${round}@example.com`, lines: [{ productId: stockA, quantity: 2 }] });
      // Both start from the same screen: "processing".
      const results = await Promise.allSettled([
        desk.transition(as.warehouse, o.number, { to: "dispatched", carrier: "DPD", tracking_number: `RACE${round}`, expected_status: "processing" }),
        desk.transition(as.sales, o.number, { to: "cancelled", note: "Customer changed their mind", expected_status: "processing" }),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(HttpError);
      expect(lost[0]!.reason.statusCode).toBe(409);
      expect(lost[0]!.reason.message).toMatch(new RegExp(`^Order ${o.number} changed while you were looking: it is now (dispatched|cancelled)\\.$`));
      const [row] = await db.select().from(orders).where(eq(orders.id, o.id));
      const history = await db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, o.id)).orderBy(asc(orderStatusHistory.id));
      expect(history.map((h) => h.status)).toEqual(["processing", row!.status]);
      expect((await auditOf(o.number)).map((e) => (e.after as { status: string }).status)).toEqual([row!.status]);
      expect(await stockOf(stockA)).toBe(row!.status === "cancelled" ? a0 + 2 : a0);
      expect(await mailTo(`race-${round}@example.com`)).toHaveLength(1);
    }
  });

  it("puts the stock back once when two members cancel at once", async () => {
    const a0 = await stockOf(stockA);
    const o = await makeOrder({ status: "paid", lines: [{ productId: stockA, quantity: 4 }] });
    const results = await Promise.allSettled([
      desk.transition(as.owner, o.number, { to: "cancelled", note: "One" }),
      desk.transition(as.sales, o.number, { to: "cancelled", note: "Two" }),
      desk.transition(as.manager, o.number, { to: "cancelled", note: "Three" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await stockOf(stockA)).toBe(a0 + 4);
    const cancels = await db.select().from(orderStatusHistory).where(and(eq(orderStatusHistory.orderId, o.id), eq(orderStatusHistory.status, "cancelled")));
    expect(cancels).toHaveLength(1);
  });
});
