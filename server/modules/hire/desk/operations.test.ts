// The hire desk's operations over HTTP, signed in as the demo staff (issue
// 21): approve (with changed dates and a reason), decline and propose dates,
// each emailed; hand over a chosen unit with the agreement PDF; off-hire by
// phone with its reference; return two days late with a cleaning charge,
// charged to the off-hire date where there is one; service; settlement on a
// trade invoice or as arranged; the customer's view; states refused with 409
// and every role but the hire desk's refused with 403.
import { and, desc, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile, servicesOf } from "../../../test/app.ts";
import { TestBrowser } from "../../../test/browser.ts";
import { readPdf } from "../../../test/pdf.ts";
import { auditLog } from "../../audit/schema.ts";
import { mailOutbox, mailOutboxAttachments } from "../../mail/schema.ts";
import type { StaffRole } from "../../staff/permissions.ts";
import { tradeInvoices } from "../../trade/invoices/invoice-schema.ts";
import { tradeAccounts } from "../../trade/schema.ts";
import { tradeFixtures } from "../../trade/test-fixtures.ts";
import { addDays, londonDate } from "../pricing.ts";
import { hireAllocations, hireCategories, hireItems, hireRequests, hireUnits } from "../schema.ts";
import { staffBrowsers } from "../../../test/staff-browsers.ts";

const shop = testShopForFile();
let ip = 1;
const as = {} as Record<StaffRole | "guest", TestBrowser>;
const db = () => shop().database.db;
const day = (n: number) => addDays(londonDate(), n);
const { company } = tradeFixtures(shop);

beforeAll(async () => {
  Object.assign(as, await staffBrowsers(shop().app, () => `198.51.107.${ip++}`));
}, 120_000);

/** A hire item of the test's own: £10 a day, £15 a weekend, £40 a week, £50 deposit, with units `<prefix>-1`…. */
async function fleet(prefix: string, units: number) {
  const [category] = await db().select().from(hireCategories).limit(1);
  const [item] = await db()
    .insert(hireItems)
    .values({ slug: prefix.toLowerCase(), name: `Breaker ${prefix}`, hireCategoryId: category!.id, dayRate: 1000, weekendRate: 1500, weekRate: 4000, deposit: 5000 })
    .returning();
  const rows = await db()
    .insert(hireUnits)
    .values(Array.from({ length: units }, (_, i) => ({ hireItemId: item!.id, assetNumber: `${prefix}-${i + 1}` })))
    .returning();
  return { item: item!, units: rows };
}

/** A hire request made as a customer makes one, from `browser` (a new guest by default). */
async function request(itemId: number, start: string, end: string, browser?: TestBrowser, email = "hana.hirer@example.co.uk") {
  const b = browser ?? new TestBrowser(shop().app, `198.51.108.${ip++ % 250}`);
  if (!browser) await b.csrf();
  const added = await b.post("/api/hire-basket", { hire_item_id: itemId, quantity: 1, start_date: start, end_date: end });
  expect(added.statusCode, added.body).toBe(200);
  const made = await b.post("/api/hire-requests", { name: "Hana Hirer", email, phone: "07700 900222", company: "", fulfilment: "collection" });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().number as string;
}

const show = async (number: string) => {
  const res = await as.hire.get(`/api/admin/hire/requests/${number}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const lastMail = async (to: string, subject: string) =>
  (await db().select().from(mailOutbox).where(and(eq(mailOutbox.to, to), like(mailOutbox.subject, `%${subject}%`))).orderBy(desc(mailOutbox.id)).limit(1))[0];

describe("a hire from request to final charges", () => {
  it("approves, hands out unit 2, off-hires by phone, takes it back late with a cleaning charge, and settles", async () => {
    const { item } = await fleet("JRN", 3);
    const email = "journey.hirer@example.co.uk";
    // A Tuesday-to-Thursday hire, two weeks ahead.
    let start = day(14);
    while (new Date(`${start}T12:00:00Z`).getUTCDay() !== 2) start = addDays(start, 1);
    const number = await request(item.id, start, addDays(start, 2), undefined, email);

    let detail = await show(number);
    expect(detail).toMatchObject({ status: "pending", status_label: "Waiting", moves: { approve: true, hand_over: false }, customer: { email, trade_account: null } });
    expect(detail.lines[0].units).toMatchObject([{ asset_number: "JRN-1", kind: "hold", state: "booked" }]);

    // A wrong state is a 409 in plain words.
    const early = await as.hire.post(`/api/admin/hire/requests/${number}/handovers`, { allocation_id: detail.lines[0].units[0].allocation_id, asset_number: "JRN-2", condition: "Good", id_checked: false });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(`Hire request ${number} is waiting, so it cannot be handed over.`);

    const approved = await as.hire.post(`/api/admin/hire/requests/${number}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ number, status: "confirmed" });
    expect((await lastMail(email, `${number}: confirmed`))!.text).toContain("is approved");

    // Hand out unit 2 instead of the unit booked, with ID seen.
    detail = await show(number);
    const allocation = detail.lines[0].units[0].allocation_id;
    expect(detail.lines[0].free_units.map((u: { asset_number: string }) => u.asset_number)).toEqual(["JRN-2", "JRN-3"]);
    const missingId = await as.hire.post(`/api/admin/hire/requests/${number}/handovers`, { allocation_id: allocation, asset_number: "JRN-2", condition: "", id_checked: true });
    expect(missingId.statusCode).toBe(422);
    expect(Object.keys(missingId.json().errors).sort()).toEqual(["condition"]);
    const noType = await as.hire.post(`/api/admin/hire/requests/${number}/handovers`, { allocation_id: allocation, asset_number: "JRN-2", condition: "Clean, chisel sharp", id_checked: true });
    expect(noType.json().errors).toEqual({ id_type: ["Say which ID was checked."] });
    const out = await as.hire.post(`/api/admin/hire/requests/${number}/handovers`, { allocation_id: allocation, asset_number: "jrn-2", condition: "Clean, chisel sharp", accessories: "Two chisels, case", id_checked: true, id_type: "Driving licence" });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ status: "out", asset_number: "JRN-2", agreement_number: expect.stringMatching(/^HA-\d{6}$/) });
    const [alloc] = await db().select().from(hireAllocations).where(eq(hireAllocations.id, allocation));
    const [unit2] = await db().select().from(hireUnits).where(eq(hireUnits.assetNumber, "JRN-2"));
    expect(alloc).toMatchObject({ kind: "out", unitId: unit2!.id, releasedAt: null });
    const handover = out.json().handover_id as number;

    // The agreement: printed by the desk, and linked in the customer's email.
    const pdf = await as.hire.get(`/api/admin/hire/requests/${number}/handovers/${handover}/agreement.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const agreementMail = await lastMail(email, "Hire agreement");
    // Attached as well, to sign and keep: the same agreement the desk prints.
    const agreementNumber = out.json().agreement_number as string;
    expect(agreementMail!.text).toContain("Your hire agreement is attached as a PDF");
    const files = await db().select().from(mailOutboxAttachments).where(eq(mailOutboxAttachments.outboxId, agreementMail!.id));
    expect(files.map((f) => [f.filename, f.contentType])).toEqual([[`${agreementNumber}.pdf`, "application/pdf"]]);
    const attached = Buffer.from(files[0]!.content);
    expect(attached.subarray(0, 4).toString("latin1")).toBe("%PDF");
    expect((await readPdf(attached)).text).toContain(agreementNumber);
    const link = /\/api\/hire-agreements\/[A-Za-z0-9_-]+/.exec(agreementMail!.text)![0];
    const byLink = await as.guest.get(link);
    expect(byLink.statusCode).toBe(200);
    expect(byLink.headers["content-type"]).toBe("application/pdf");
    expect((await as.guest.get("/api/hire-agreements/not-a-token")).statusCode).toBe(404);

    // The customer calls on the booked return day to off-hire; collected two days later with cleaning needed.
    const offHire = await as.hire.post(`/api/admin/hire/requests/${number}/off-hire`, { date: addDays(start, 2), note: "Called at 9:10" });
    expect(offHire.statusCode, offHire.body).toBe(200);
    expect(offHire.json()).toMatchObject({ status: "off_hired", references: [`OH-${String(handover).padStart(6, "0")}`] });
    expect((await lastMail(email, "Off-hire confirmed"))!.text).toContain(`OH-${String(handover).padStart(6, "0")}`);
    expect((await as.hire.post(`/api/admin/hire/requests/${number}/off-hire`, {})).statusCode).toBe(409);

    const back = await as.hire.post(`/api/admin/hire/requests/${number}/handovers/${handover}/return`, {
      returned_on: addDays(start, 4),
      condition: "Muddy",
      charges: [{ kind: "cleaning", reason: "Returned caked in mud", amount: 25 }],
      service_days: 2,
      service_reason: "Clean and check",
    });
    expect(back.statusCode, back.body).toBe(200);
    // Charged to the off-hire date: two days at £10, nothing late.
    expect(back.json()).toMatchObject({ status: "returned", hire: 2000, hire_days: 2, late: 0, late_days: 0 });
    const [service] = await db().select().from(hireAllocations).where(and(eq(hireAllocations.unitId, unit2!.id), eq(hireAllocations.kind, "service")));
    expect(service).toMatchObject({ note: "Clean and check", period: `[${addDays(start, 4)},${addDays(start, 6)})`, releasedAt: null });

    detail = await show(number);
    expect(detail.charges.map((c: { kind: string; total: number }) => [c.kind, c.total])).toEqual([
      ["hire", 24],
      ["cleaning", 30],
    ]);
    expect(detail.final_total).toBe(54);
    expect(detail.lines[0].units[0]).toMatchObject({ state: "returned", handover: { off_hire_reference: `OH-${String(handover).padStart(6, "0")}`, condition_in: "Muddy", id_type: "Driving licence" } });
    expect(detail.settle_methods).toContain("arranged");

    const settled = await as.hire.post(`/api/admin/hire/requests/${number}/settle`, { method: "arranged", note: "Pays cash at collection" });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json()).toMatchObject({ status: "completed", settlement: "arranged", final_total: 5400, due: 5400 });
    expect((await lastMail(email, "Final charges"))!.text).toContain("Returned caked in mud");
    expect((await as.hire.post(`/api/admin/hire/requests/${number}/settle`, {})).statusCode).toBe(409);

    // Every step is in the audit log under the request's number, as the member who did it.
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.entity, "hire_request"), eq(auditLog.entityId, number))).orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toEqual(["hire_request.confirm", "hire_request.handed_over", "hire_request.off_hired", "hire_request.returned", "hire_request.settled"]);
    expect(new Set(audit.map((a) => a.staffName)).size).toBe(1);
  });

  it("charges late days when a unit comes back past its booked return without an off-hire", async () => {
    const { item } = await fleet("LATE", 1);
    let start = day(21);
    while (new Date(`${start}T12:00:00Z`).getUTCDay() !== 2) start = addDays(start, 1);
    const number = await request(item.id, start, addDays(start, 2));
    await as.hire.post(`/api/admin/hire/requests/${number}/approve`, {});
    const allocation = (await show(number)).lines[0].units[0].allocation_id;
    const out = await as.hire.post(`/api/admin/hire/requests/${number}/handovers`, { allocation_id: allocation, asset_number: "LATE-1", condition: "Good", id_checked: false });
    const back = await as.hire.post(`/api/admin/hire/requests/${number}/handovers/${out.json().handover_id}/return`, { returned_on: addDays(start, 4), condition: "Good" });
    expect(back.json()).toMatchObject({ status: "returned", hire: 2000, late: 2000, late_days: 2 });
    const detail = await show(number);
    expect(detail.charges.map((c: { kind: string; net: number }) => [c.kind, c.net])).toEqual([
      ["hire", 20],
      ["late", 20],
    ]);
    // The command line's hire:complete settles a returned hire as arranged, through the same transition table.
    const services = servicesOf(shop());
    expect(await services.hireRequests.decide(number, "complete", await services.staff.systemActor())).toEqual({ number, status: "completed" });
    const [row] = await db().select().from(hireRequests).where(eq(hireRequests.number, number));
    expect(row).toMatchObject({ status: "completed", settlement: "arranged", finalTotal: 4800 });
    await expect(services.hireRequests.decide(number, "complete")).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe("decisions", () => {
  it("approves with other dates and a reason, moving the booking; refuses a change without a reason", async () => {
    const { item, units } = await fleet("MOVE", 2);
    const email = "mover@example.co.uk";
    const number = await request(item.id, day(30), day(32), undefined, email);
    const line = (await show(number)).lines[0];
    const noReason = await as.hire.post(`/api/admin/hire/requests/${number}/approve`, { lines: [{ line_id: line.id, start_date: day(31), end_date: day(38) }] });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors.reason).toBeDefined();
    const ok = await as.hire.post(`/api/admin/hire/requests/${number}/approve`, { reason: "The earlier days are booked", lines: [{ line_id: line.id, start_date: day(31), end_date: day(38), asset_numbers: ["MOVE-2"] }] });
    expect(ok.statusCode, ok.body).toBe(200);
    const detail = await show(number);
    expect(detail.lines[0]).toMatchObject({ start_date: day(31), end_date: day(38), days: 7, hire_cost: 40 });
    expect(detail.lines[0].units).toMatchObject([{ unit_id: units[1]!.id, kind: "booking", start_date: day(31), end_date: day(38) }]);
    expect(detail).toMatchObject({ hire_cost: 40, decision_reason: "The earlier days are booked" });
    const mail = await lastMail(email, `${number}: confirmed`);
    expect(mail!.text).toContain("The earlier days are booked");
    expect(mail!.text).toContain(`${day(31)} to ${day(38)}`);
  });

  it("declines with a reason, freeing the units; proposes other dates keeping the request waiting", async () => {
    const { item } = await fleet("DEC", 1);
    const number = await request(item.id, day(40), day(41), undefined, "decliner@example.co.uk");
    expect((await as.hire.post(`/api/admin/hire/requests/${number}/decline`, { reason: "" })).statusCode).toBe(422);
    const declined = await as.hire.post(`/api/admin/hire/requests/${number}/decline`, { reason: "Out for repair that week" });
    expect(declined.json()).toMatchObject({ status: "declined" });
    expect((await lastMail("decliner@example.co.uk", `${number}: declined`))!.text).toContain("Why: Out for repair that week");
    expect((await db().select().from(hireAllocations).innerJoin(hireUnits, eq(hireUnits.id, hireAllocations.unitId)).where(and(eq(hireUnits.hireItemId, item.id)))).every((r) => r.hire_allocations.releasedAt !== null)).toBe(true);

    const other = await request(item.id, day(50), day(51), undefined, "proposed@example.co.uk");
    const [before] = await db().select().from(hireRequests).where(eq(hireRequests.number, other));
    const proposed = await as.hire.post(`/api/admin/hire/requests/${other}/propose`, { start_date: day(52), end_date: day(53), message: "It is free two days later." });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const [after] = await db().select().from(hireRequests).where(eq(hireRequests.number, other));
    expect(after).toMatchObject({ status: "pending", proposedStartDate: day(52), proposedEndDate: day(53) });
    expect(after!.holdExpiresAt.getTime()).toBeGreaterThanOrEqual(before!.holdExpiresAt.getTime());
    expect((await lastMail("proposed@example.co.uk", "other dates"))!.text).toContain(`${day(52)} to ${day(53)}`);
    expect((await as.hire.post(`/api/admin/hire/requests/${other}/propose`, { start_date: day(-3), end_date: day(1) })).statusCode).toBe(422);
  });
});

describe("a trade customer's hire", () => {
  it("goes on an invoice on the account, its balance raised by the charges", async () => {
    const { item } = await fleet("TRD", 1);
    const firm = await company("Hire Takers Ltd");
    const number = await request(item.id, day(60), day(61), firm.buyer.browser, firm.buyer.email);
    expect((await show(number)).customer.trade_account).toMatchObject({ company_name: "Hire Takers Ltd" });
    await as.hire.post(`/api/admin/hire/requests/${number}/approve`, {});
    const allocation = (await show(number)).lines[0].units[0].allocation_id;
    const out = await as.hire.post(`/api/admin/hire/requests/${number}/handovers`, { allocation_id: allocation, asset_number: "TRD-1", condition: "Good", id_checked: false });
    await as.hire.post(`/api/admin/hire/requests/${number}/handovers/${out.json().handover_id}/return`, { returned_on: day(61), condition: "Good", charges: [{ kind: "damage", reason: "Cracked handle", amount: "12.50" }] });
    expect((await as.hire.post(`/api/admin/hire/requests/${number}/settle`, { method: "arranged" })).statusCode).toBe(422);
    const [accountBefore] = await db().select().from(tradeAccounts).where(eq(tradeAccounts.id, firm.accountId));
    const settled = await as.hire.post(`/api/admin/hire/requests/${number}/settle`, {});
    expect(settled.statusCode, settled.body).toBe(200);
    // £10 hire + £12.50 damage, each with 20% VAT: £27.
    expect(settled.json()).toMatchObject({ status: "completed", settlement: "account", final_total: 2700, invoice_number: expect.stringMatching(/^INV-\d{6}$/) });
    const [invoice] = await db().select().from(tradeInvoices).where(eq(tradeInvoices.number, settled.json().invoice_number));
    expect(invoice).toMatchObject({ tradeAccountId: firm.accountId, orderId: null, subtotal: 2250, vat: 450, delivery: 0, total: 2700, status: "unpaid" });
    const [accountAfter] = await db().select().from(tradeAccounts).where(eq(tradeAccounts.id, firm.accountId));
    expect(accountAfter!.balance - accountBefore!.balance).toBe(2700);

    // The company's invoice shows the hire's charges as its lines, and prints.
    const shown = await firm.owner.browser.get(`/api/trade/invoices/${invoice!.id}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toMatchObject({ order_id: null, order_number: number, total: 2700, vat_breakdown: [{ rate: 20, net: 2250, vat: 450 }] });
    expect(shown.json().data.lines.map((l: { sku: string; line_total: number }) => [l.sku, l.line_total])).toEqual([
      ["HIRE", 1000],
      ["DAMAGE", 1250],
    ]);
    const listed = (await firm.owner.browser.get("/api/trade/invoices")).json().data.map((i: { number: string }) => i.number);
    expect(listed).toContain(invoice!.number);
    const printed = await firm.owner.browser.get(`/api/trade/invoices/${invoice!.id}/pdf`);
    expect(printed.statusCode).toBe(200);
    expect(printed.headers["content-type"]).toBe("application/pdf");

    // The customer sees it on their account.
    const mine = (await firm.buyer.browser.get("/api/account/hire-requests")).json().data.find((r: { number: string }) => r.number === number);
    expect(mine).toMatchObject({ status: "completed", final_total: 27, settlement: "account", invoice_number: invoice!.number });
    expect(mine.charges.map((c: { kind: string }) => c.kind)).toEqual(["hire", "damage"]);
  });
});

describe("service and who may do what", () => {
  it("sends a unit to service, refusing dates it is booked", async () => {
    const { item, units } = await fleet("SVC", 1);
    const sent = await as.hire.post(`/api/admin/hire/units/${units[0]!.id}/service`, { days: 3, reason: "New blade" });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ asset_number: "SVC-1", from: day(0), to: day(3) });
    // The customer cannot have it those days.
    const quote = (await as.guest.get(`/api/hire/${item.slug}/quote?start_date=${day(1)}&end_date=${day(2)}`)).json().data;
    expect(quote.available).toBe(0);
    const clash = await as.hire.post(`/api/admin/hire/units/${units[0]!.id}/service`, { days: 2, reason: "Again", from: day(1) });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toContain("already in service");
    expect((await as.hire.post(`/api/admin/hire/units/${units[0]!.id}/service`, { days: 0, reason: "" })).statusCode).toBe(422);
  });

  it("lets the hire desk, managers and owners act; sales, warehouse and accounts get 403; guests 401", async () => {
    const { item } = await fleet("ROLE", 1);
    const number = await request(item.id, day(70), day(71));
    for (const role of ["sales", "warehouse", "accounts"] as const) {
      expect((await as[role].get(`/api/admin/hire/requests/${number}`)).statusCode, role).toBe(403);
      expect((await as[role].post(`/api/admin/hire/requests/${number}/approve`, {})).statusCode, role).toBe(403);
      expect((await as[role].post(`/api/admin/hire/requests/${number}/decline`, { reason: "No" })).statusCode, role).toBe(403);
      expect((await as[role].post(`/api/admin/hire/units/1/service`, { days: 1, reason: "x" })).statusCode, role).toBe(403);
    }
    expect((await as.guest.get(`/api/admin/hire/requests/${number}`)).statusCode).toBe(401);
    expect((await as.manager.get(`/api/admin/hire/requests/${number}`)).statusCode).toBe(200);
    expect((await as.owner.post(`/api/admin/hire/requests/${number}/approve`, {})).statusCode).toBe(200);
    expect((await as.hire.get("/api/admin/hire/requests/HR-999999")).statusCode).toBe(404);
  });
});
