// The company's invoices (issue 7): who sees them, filters, search, totals,
// keyset pages, the detail, and the PDF parsed back.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../../test/app.ts";
import type { TestBrowser } from "../../../test/browser.ts";
import { readPdf, row } from "../../../test/pdf.ts";
import { orderLines } from "../../orders/schema.ts";
import { tradeAccounts } from "../schema.ts";
import { ACTORS, type Actor, isoDay, tradeFixtures } from "../test-fixtures.ts";
import { issueCreditNote } from "../credit/ledger.ts";

const shop = testShopForFile();

const { signedUp, company, invoiceFor, guest } = tradeFixtures(shop);

const SEES: Record<Actor, number> = { guest: 401, customer: 404, owner: 200, admin: 200, buyer: 404, accounts: 200, "other owner": 404 };

describe("trade invoices", () => {
  let a: Awaited<ReturnType<typeof company>>;
  let other: Awaited<ReturnType<typeof company>>;
  let as: Record<Actor, TestBrowser>;
  let overdue: Awaited<ReturnType<typeof invoiceFor>>;
  let current: Awaited<ReturnType<typeof invoiceFor>>;
  let pending: Awaited<ReturnType<typeof invoiceFor>>;
  let paid: Awaited<ReturnType<typeof invoiceFor>>;
  let theirs: Awaited<ReturnType<typeof invoiceFor>>;

  beforeAll(async () => {
    a = await company("Fitter & (Sons) Ltd");
    other = await company("Other Builders Ltd");
    as = { guest: await guest(), customer: (await signedUp("customer")).browser, owner: a.owner.browser, admin: a.admin.browser, buyer: a.buyer.browser, accounts: a.accounts.browser, "other owner": other.owner.browser };
    overdue = await invoiceFor(a.accountId, a.buyer.id, { po: "PO-ALPHA-1", invoiceDate: isoDay(-45), dueDate: isoDay(-15), lines: [{ name: "Copper pipe 15mm", qty: 10, unit: 1250, rate: 20 }] });
    current = await invoiceFor(a.accountId, a.buyer.id, {
      po: "PO-BETA-2",
      invoiceDate: isoDay(0),
      dueDate: isoDay(30),
      lines: [
        { name: "Boiler", qty: 1, unit: 100000, rate: 20 },
        { name: "Safety boots", qty: 2, unit: 2500, rate: 5 },
      ],
      delivery: 995,
    });
    pending = await invoiceFor(a.accountId, a.buyer.id, { po: "PO-GAMMA-3", status: "payment_pending", invoiceDate: isoDay(-40), dueDate: isoDay(-10), lines: [{ name: "Radiator", qty: 3, unit: 4000, rate: 20 }] });
    paid = await invoiceFor(a.accountId, a.buyer.id, { po: "ALPHA-PAID", status: "paid", invoiceDate: isoDay(-90), dueDate: isoDay(-60), lines: [{ name: "Valve", qty: 4, unit: 799, rate: 20 }] });
    theirs = await invoiceFor(other.accountId, other.buyer.id, { po: "PO-ALPHA-9", invoiceDate: isoDay(-45), dueDate: isoDay(-15), lines: [{ name: "Sand", qty: 1, unit: 500, rate: 20 }] });
  });

  describe("authorisation matrix", () => {
    it.each(ACTORS)("GET /api/trade/invoices as %s", async (actor) => {
      const res = await as[actor].get("/api/trade/invoices");
      expect(res.statusCode).toBe(actor === "other owner" ? 200 : SEES[actor]);
      if (res.statusCode !== 200) return;
      const numbers = (res.json().data as { number: string }[]).map((i) => i.number);
      expect(numbers).toEqual(actor === "other owner" ? [theirs.number] : [paid, pending, current, overdue].map((i) => i.number));
      expect(res.headers["cache-control"]).toBe("private, no-store");
    });

    it.each(ACTORS)("GET /api/trade/invoices/{id} as %s", async (actor) => {
      const res = await as[actor].get(`/api/trade/invoices/${current.id}`);
      expect(res.statusCode).toBe(SEES[actor]);
      if (res.statusCode === 200) expect(res.json().data.number).toBe(current.number);
    });

    it.each(ACTORS)("GET /api/trade/invoices/{id}/pdf as %s", async (actor) => {
      const res = await as[actor].get(`/api/trade/invoices/${current.id}/pdf`);
      expect(res.statusCode).toBe(SEES[actor]);
      if (res.statusCode === 200) expect(res.headers["content-type"]).toBe("application/pdf");
      else expect(res.headers["content-type"]).toMatch(/json/);
    });

    it("another company's invoice id, and one that does not exist, are 404 for an owner", async () => {
      for (const url of [`/api/trade/invoices/${theirs.id}`, `/api/trade/invoices/${theirs.id}/pdf`, "/api/trade/invoices/2147483000", "/api/trade/invoices/2147483000/pdf"]) {
        expect((await a.owner.browser.get(url)).statusCode).toBe(404);
      }
    });

    it("a declined company's users see nothing", async () => {
      const declined = await company("Declined Ltd");
      await shop().database.db.update(tradeAccounts).set({ state: "declined" }).where(eq(tradeAccounts.id, declined.accountId));
      expect((await declined.owner.browser.get("/api/trade/invoices")).statusCode).toBe(404);
    });
  });

  describe("filters, search and totals", () => {
    const list = async (query: string) => {
      const res = await a.accounts.browser.get(`/api/trade/invoices${query}`);
      expect(res.statusCode).toBe(200);
      return res.json() as { data: { number: string; overdue: boolean; status: string }[]; totals: { count: number; total: number; outstanding: number; overdue: number }; next_cursor: number | null };
    };

    it("all: every invoice, newest first, with totals over them", async () => {
      const body = await list("?status=all");
      expect(body.data.map((i) => i.number)).toEqual([paid, pending, current, overdue].map((i) => i.number));
      expect(body.totals).toEqual({
        count: 4,
        total: paid.total + pending.total + current.total + overdue.total,
        outstanding: pending.total + current.total + overdue.total,
        overdue: pending.total + overdue.total,
      });
      expect(body.next_cursor).toBeNull();
    });

    it("unpaid: unpaid and payment pending", async () => {
      const body = await list("?status=unpaid");
      expect(body.data.map((i) => i.number)).toEqual([pending, current, overdue].map((i) => i.number));
      expect(body.totals.total).toBe(pending.total + current.total + overdue.total);
    });

    it("overdue: not paid and past the due date", async () => {
      const body = await list("?status=overdue");
      expect(body.data.map((i) => i.number)).toEqual([pending, overdue].map((i) => i.number));
      expect(body.data.every((i) => i.overdue)).toBe(true);
      expect(body.totals).toMatchObject({ count: 2, total: pending.total + overdue.total, overdue: pending.total + overdue.total });
    });

    it("paid", async () => {
      const body = await list("?status=paid");
      expect(body.data.map((i) => i.number)).toEqual([paid.number]);
      expect(body.totals).toEqual({ count: 1, total: paid.total, outstanding: 0, overdue: 0 });
    });

    it("searches by invoice number or PO reference, only within the company", async () => {
      expect((await list(`?q=${current.number}`)).data.map((i) => i.number)).toEqual([current.number]);
      expect((await list(`?q=${current.number.toLowerCase()}`)).data.map((i) => i.number)).toEqual([current.number]);
      const alpha = await list("?q=alpha");
      expect(alpha.data.map((i) => i.number)).toEqual([paid.number, overdue.number]);
      expect(alpha.totals.total).toBe(paid.total + overdue.total);
      expect((await list("?q=alpha&status=unpaid")).data.map((i) => i.number)).toEqual([overdue.number]);
      expect((await list("?q=%25")).data).toEqual([]);
      expect((await list("?q=PO-ALPHA-9")).data).toEqual([]);
    });

    it("pages by keyset; totals stay those of the whole match", async () => {
      const first = await list("?limit=3");
      expect(first.data.map((i) => i.number)).toEqual([paid, pending, current].map((i) => i.number));
      expect(first.totals.count).toBe(4);
      expect(first.next_cursor).toBe(current.id);
      const second = await list(`?limit=3&after=${first.next_cursor}`);
      expect(second.data.map((i) => i.number)).toEqual([overdue.number]);
      expect(second.next_cursor).toBeNull();
    });

    it("refuses a bad filter or page size", async () => {
      expect((await a.owner.browser.get("/api/trade/invoices?status=late")).statusCode).toBe(422);
      expect((await a.owner.browser.get("/api/trade/invoices?limit=1000")).statusCode).toBe(422);
    });
  });

  describe("one invoice", () => {
    it("shows lines, VAT breakdown, both parties' details and VAT numbers, due date and status", async () => {
      const res = await a.admin.browser.get(`/api/trade/invoices/${current.id}`);
      expect(res.statusCode).toBe(200);
      const inv = res.json().data;
      expect(inv).toMatchObject({
        number: current.number,
        order_number: current.orderNumber,
        po_reference: "PO-BETA-2",
        invoice_date: isoDay(0),
        due_date: isoDay(30),
        status: "unpaid",
        overdue: false,
        subtotal: 105000,
        vat: 20250,
        delivery: 995,
        total: 126245,
        paid_at: null,
      });
      expect(inv.lines).toEqual([
        { sku: "SKU-0", name: "Boiler", quantity: 1, unit: "each", unit_price: 100000, vat_rate: 20, discount: 0, line_total: 100000, line_vat: 20000 },
        { sku: "SKU-1", name: "Safety boots", quantity: 2, unit: "each", unit_price: 2500, vat_rate: 5, discount: 0, line_total: 5000, line_vat: 250 },
      ]);
      expect(inv.vat_breakdown).toEqual([
        { rate: 20, net: 100000, vat: 20000 },
        { rate: 5, net: 5000, vat: 250 },
      ]);
      expect(inv.shop.name).toBeTruthy();
      expect(inv.shop.vat_number).toMatch(/^GB/);
      expect(inv.company).toMatchObject({ name: "Fitter & (Sons) Ltd", company_number: "01234567", vat_number: "GB123456789", terms_days: 30 });
      expect(inv.company.address).toEqual(["1 Park Row", "Leeds", "LS1 4AP"]);
    });

    it("an overdue invoice says so", async () => {
      const inv = (await a.owner.browser.get(`/api/trade/invoices/${overdue.id}`)).json().data;
      expect(inv).toMatchObject({ status: "unpaid", overdue: true });
    });
  });

  describe("PDF", () => {
    // Read back with poppler as a person would see it (server/test/pdf.ts): rows are their cells on one line.
    it("is a real PDF, an attachment, that reads back with the invoice number, parties, lines and totals", async () => {
      const res = await a.owner.browser.get(`/api/trade/invoices/${current.id}/pdf`);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.headers["content-disposition"]).toBe(`attachment; filename="${current.number}.pdf"`);
      expect(res.rawPayload.subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");
      const { text, info } = await readPdf(res.rawPayload);
      expect(info).toMatchObject({ Title: `Invoice ${current.number}`, Producer: "PDFKit", Pages: "1" });
      expect(text).toContain(current.number);
      expect(text).toContain("Fitter & (Sons) Ltd");
      expect(text).toContain("VAT number: GB123456789");
      expect(text).toContain(`Due date: ${isoDay(30)}`);
      expect(text).toContain("PO reference: PO-BETA-2");
      expect(text).toMatch(row("Boiler", "SKU-0", "1", "\u00a31,000.00", "20%", "\u00a31,000.00"));
      expect(text).toMatch(row("Safety boots", "SKU-1", "2", "\u00a325.00", "5%", "\u00a350.00"));
      // The VAT breakdown: rate, net, VAT.
      expect(text).toMatch(row("20%", "\u00a31,000.00", "\u00a3200.00"));
      expect(text).toMatch(row("5%", "\u00a350.00", "\u00a32.50"));
      expect(text).toMatch(row("Goods ex VAT:", "\u00a31,050.00"));
      expect(text).toMatch(row("VAT:", "\u00a3202.50"));
      expect(text).toMatch(row("Delivery inc VAT:", "\u00a39.95"));
      expect(text).toMatch(row("Total:", "\u00a31,262.45"));
      expect(text).toContain("Status: Unpaid");
      expect(text).toContain(`Please pay by ${isoDay(30)} quoting ${current.number}.`);
      expect(text).toMatch(/Page 1 of 1/);
    });

    it("shows what a promotion took off each line, ex VAT, in a column of its own only when one did", async () => {
      const promo = await invoiceFor(a.accountId, a.buyer.id, { invoiceDate: isoDay(0), dueDate: isoDay(30), lines: [{ name: "Work gloves", qty: 3, unit: 400, rate: 20 }, { name: "Sealant", qty: 1, unit: 500, rate: 20 }] });
      // Three for two: one pair free, the line's total after it (as checkout writes a discounted line).
      await shop().database.db.update(orderLines).set({ discount: 400, lineTotal: 800, lineVat: 160 }).where(sql`${orderLines.orderId} = (select order_id from trade_invoices where id = ${promo.id}) and ${orderLines.name} = 'Work gloves'`);
      const { text } = await readPdf((await a.owner.browser.get(`/api/trade/invoices/${promo.id}/pdf`)).rawPayload);
      expect(text).toMatch(row("Item", "SKU", "Qty", "Unit ex VAT", "Discount", "VAT", "Total ex VAT"));
      expect(text).toMatch(row("Work gloves", "SKU-0", "3", "\u00a34.00", "-\u00a34.00", "20%", "\u00a38.00"));
      expect(text).toMatch(row("Sealant", "SKU-1", "1", "\u00a35.00", "20%", "\u00a35.00"));
      expect((await a.owner.browser.get(`/api/trade/invoices/${promo.id}`)).json().data.lines[0]).toMatchObject({ discount: 400, line_total: 800 });
      expect((await readPdf((await a.owner.browser.get(`/api/trade/invoices/${current.id}/pdf`)).rawPayload)).text).not.toContain("Discount");
    });

    it("credits a discounted line's discount with it, shared by quantity, and a credit note's PDF shows it per line", async () => {
      const promo = await invoiceFor(a.accountId, a.buyer.id, { invoiceDate: isoDay(0), dueDate: isoDay(30), lines: [{ name: "Work gloves", qty: 3, unit: 400, rate: 20 }, { name: "Sealant", qty: 1, unit: 500, rate: 20 }] });
      // Three for two: £4.00 off the line, £8.00 left, shared over three pairs as 267 + 267 + 266 pence of net and 133 + 133 + 134 of discount.
      const [gloves] = await shop().database.db
        .update(orderLines)
        .set({ discount: 400, lineTotal: 800, lineVat: 160 })
        .where(sql`${orderLines.orderId} = (select order_id from trade_invoices where id = ${promo.id}) and ${orderLines.name} = 'Work gloves'`)
        .returning({ id: orderLines.id });
      const source = `order_line:${gloves!.id}`;
      const first = await issueCreditNote(shop().database.db, { invoiceId: promo.id, reason: "One pair back", lines: [{ source, quantity: 1 }] });
      const rest = await issueCreditNote(shop().database.db, { invoiceId: promo.id, reason: "The rest back", whole: true });
      const [one] = first.lines;
      expect(one).toMatchObject({ quantity: 1, net: 267, discount: 133 });
      const restGloves = rest.lines.find((l) => l.source === source)!;
      expect(restGloves).toMatchObject({ quantity: 2, net: 533, discount: 267 });
      expect(rest.lines.find((l) => l.source !== source)).toMatchObject({ discount: 0 });

      const { text } = await readPdf((await a.owner.browser.get(`/api/trade/credit-notes/${first.creditNote.number}/pdf`)).rawPayload);
      expect(text).toMatch(row("Item", "Qty", "Discount", "Net", "VAT"));
      expect(text).toMatch(row("Work gloves (SKU-0)", "1", "-\u00a31.33", "\u00a32.67", "\u00a30.53"));
      expect((await readPdf((await a.owner.browser.get(`/api/trade/credit-notes/${rest.creditNote.number}/pdf`)).rawPayload)).text).toMatch(row("Sealant (SKU-1)", "1", "\u00a35.00", "\u00a31.00"));
    });

    it("an overdue invoice's PDF says overdue; a paid one says paid", async () => {
      expect((await readPdf((await a.owner.browser.get(`/api/trade/invoices/${overdue.id}/pdf`)).rawPayload)).text).toContain("Status: Overdue");
      expect((await readPdf((await a.owner.browser.get(`/api/trade/invoices/${paid.id}/pdf`)).rawPayload)).text).toContain("Status: Paid");
    });

    it("shows curly quotes and dashes (Helvetica has them in WinAnsi), and what it lacks as ?", async () => {
      const odd = await invoiceFor(a.accountId, a.buyer.id, { po: "PO\u2013K\u2019s \u2603", invoiceDate: isoDay(0), dueDate: isoDay(30), lines: [{ name: "Dave\u2019s (best) \\ valve", qty: 1, unit: 100, rate: 20 }] });
      const { text } = await readPdf((await a.owner.browser.get(`/api/trade/invoices/${odd.id}/pdf`)).rawPayload);
      expect(text).toContain("PO reference: PO\u2013K\u2019s ?");
      expect(text).toMatch(row("Dave\u2019s (best) \\ valve", "SKU-0"));
    });

    it("runs onto more pages for a long invoice, the header row on each, every line once, the totals at the end with the last line", async () => {
      const long = await invoiceFor(a.accountId, a.buyer.id, { invoiceDate: isoDay(0), dueDate: isoDay(30), lines: Array.from({ length: 70 }, (_, i) => ({ name: `Fitting ${i}`, qty: 1, unit: 100, rate: 20 })) });
      const { pages, text, info } = await readPdf((await a.owner.browser.get(`/api/trade/invoices/${long.id}/pdf`)).rawPayload);
      expect(pages.length).toBeGreaterThanOrEqual(2);
      expect(info.Pages).toBe(String(pages.length));
      pages.forEach((page, i) => {
        expect(page).toMatch(row("Item", "SKU", "Qty", "Unit ex VAT", "VAT", "Total ex VAT"));
        expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
      });
      const printed = [...text.matchAll(/^ *Fitting (\d+) +SKU-(\d+) +1 +\u00a31\.00 +20% +\u00a31\.00 *$/gm)].map((m) => Number(m[1]));
      expect(printed).toEqual(Array.from({ length: 70 }, (_, i) => i));
      // The totals are never on a page alone: the last line goes over with them.
      expect(pages.at(-1)).toMatch(row("Fitting 69", "SKU-69"));
      expect(pages.at(-1)).toMatch(row("Total:", "\u00a384.00"));
    });
  });
});
