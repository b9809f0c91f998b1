// The orders desk's service (server/modules/orders/admin.ts), driven with
// StaffActor objects built here: the list and its filters, keyset pages, the
// tabs' counts, the CSV export, and an order's page for each role. Moving
// orders on is admin-moves.test.ts's; the shop both use is admin-fixture.ts.
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "../../http-errors.ts";
import { type AdminOrderFilters, EXPORT_BATCH } from "./admin-list.ts";
import { orderAddresses, orderLines, orders } from "./schema.ts";
import { as, db, desk, makeOrder, numbers, refusal, shahId, stockA, stockB, ursulaId, setUpOrdersDesk } from "./admin-fixture.ts";

setUpOrdersDesk();

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

/** The export read as a spreadsheet would: quotes and doubled quotes, a row a line. */
const parseCsv = (text: string): string[][] => parse(text);

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

