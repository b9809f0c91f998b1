// Hires taken by staff (issue 34), over HTTP as the demo staff: a walk-in and
// an account customer booked, priced by the rate card with the deposit,
// confirmed at once and recorded as booked by the member; a taken unit is a
// 409 naming the clash, every unit taken a 409, bad input a 422 naming the
// field; audited; the roles without the hire desk refused.
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "../../audit/schema.ts";
import { users } from "../../auth/schema.ts";
import { mailOutbox } from "../../mail/schema.ts";
import { staff } from "../../staff/schema.ts";
import { addDays, londonDate } from "../pricing.ts";
import { hireAllocations, hireRequestLines, hireRequests } from "../schema.ts";
import { testFleet } from "../test-fleet.ts";
import { staffTestShop } from "../../../test/staff-browsers.ts";

const { as, shop } = staffTestShop("198.51.120");
const db = () => shop().database.db;
const day = (n: number) => addDays(londonDate(), n);
const walkIn = { name: "Wes Walker", phone: "07700 900123" };

async function requestOf(number: string) {
  const [row] = await db().select().from(hireRequests).where(eq(hireRequests.number, number));
  return row!;
}

describe("POST /api/admin/hire/bookings", () => {
  it("books a walk-in on a chosen unit, priced by the rate card with the deposit, confirmed and recorded as the member's", async () => {
    const { item, units } = await testFleet(db(), { name: "Breaker BK", prefix: "BK", units: 2, deposit: 5000 });
    const res = await as.hire.post("/api/admin/hire/bookings", { hire_item: item.slug, unit_id: units[1]!.id, starts_on: day(7), ends_on: day(14), customer: walkIn });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: "confirmed", unit: { id: units[1]!.id, asset_number: "BK-2" }, starts_on: day(7), ends_on: day(14), hire_ex_vat: 40, vat: 8, deposit: 50 });
    expect(body.number).toMatch(/^HR-\d{6}$/);

    const request = await requestOf(body.number);
    const [member] = await db().select().from(staff).where(eq(staff.email, "hire@staff.example.com"));
    expect(request).toMatchObject({ status: "confirmed", name: "Wes Walker", phone: "07700 900123", email: "", userId: null, hireCost: 4000, vat: 800, deposit: 5000, createdByStaffId: member!.id });
    const [line] = await db().select().from(hireRequestLines).where(eq(hireRequestLines.requestId, request.id));
    const allocations = await db().select().from(hireAllocations).where(eq(hireAllocations.requestLineId, line!.id));
    expect(allocations).toHaveLength(1);
    expect(allocations[0]).toMatchObject({ unitId: units[1]!.id, kind: "booking", expiresAt: null, releasedAt: null });

    const audit = await db().select().from(auditLog).where(and(eq(auditLog.entity, "hire_request"), eq(auditLog.entityId, body.number))).orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toEqual(["hire_request.booked", "hire_request.confirm"]);
    expect(audit[0]!.after).toMatchObject({ customer: "Wes Walker (walk-in, 07700 900123)", hire: `Breaker BK, unit BK-2, ${day(7)} to ${day(14)}`, hire_ex_vat: 40, vat: 8, deposit: 50 });
    // No email given: nothing is sent to nobody.
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.to, ""))).toHaveLength(0);

    // The desk's request view, list and planner see it like any other approved request.
    const shown = await as.hire.get(`/api/admin/hire/requests/${body.number}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ number: body.number, status: "confirmed" });
  });

  it("books an account customer on the first free unit and emails them", async () => {
    const { item, units } = await testFleet(db(), { name: "Mixer BA", prefix: "BA", units: 1 });
    const [customer] = await db().insert(users).values({ email: "bea.account@example.co.uk", firstname: "Bea", lastname: "Account", phone: "07700 900555", passwordHash: "x" }).returning();
    const res = await as.manager.post("/api/admin/hire/bookings", { hire_item: item.slug, starts_on: day(2), ends_on: day(3), customer_id: customer!.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().unit.id).toBe(units[0]!.id);
    const request = await requestOf(res.json().number);
    expect(request).toMatchObject({ userId: customer!.id, name: "Bea Account", email: "bea.account@example.co.uk", phone: "07700 900555", status: "confirmed" });
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.to, "bea.account@example.co.uk")).orderBy(desc(mailOutbox.id)).limit(1);
    expect(mail!.subject).toBe(`Hire request ${request.number}: confirmed`);
  });

  it("refuses a unit already booked with a 409 naming the clash, and every unit taken with a 409", async () => {
    const { item, units } = await testFleet(db(), { name: "Saw BC", prefix: "BC", units: 1 });
    const first = await as.hire.post("/api/admin/hire/bookings", { hire_item: item.slug, unit_id: units[0]!.id, starts_on: day(5), ends_on: day(8), customer: walkIn });
    expect(first.statusCode, first.body).toBe(201);
    const clash = await as.hire.post("/api/admin/hire/bookings", { hire_item: item.slug, unit_id: units[0]!.id, starts_on: day(7), ends_on: day(9), customer: { name: "Cal Clash", phone: "07700 900999" } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(`Unit BC-1 is booked for ${first.json().number} (Wes Walker) from ${day(5)} until ${day(8)}. Choose another unit or other dates.`);
    const none = await as.hire.post("/api/admin/hire/bookings", { hire_item: item.slug, starts_on: day(6), ends_on: day(6), customer: walkIn });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(`Every unit of Saw BC is taken from ${day(6)} to ${day(6)}. Choose other dates.`);
    // The day it comes back is free again: [start, return).
    const after = await as.hire.post("/api/admin/hire/bookings", { hire_item: item.slug, unit_id: units[0]!.id, starts_on: day(8), ends_on: day(9), customer: walkIn });
    expect(after.statusCode, after.body).toBe(201);
  });

  it("names each bad field with a 422", async () => {
    const { item, units } = await testFleet(db(), { name: "Drill BD", prefix: "BD", units: 1 });
    const other = await testFleet(db(), { name: "Drill BE", prefix: "BE", units: 1 });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ hire_item: item.slug, starts_on: day(1), ends_on: day(2) }, "customer", "Choose a customer or enter a walk-in's name and phone."],
      [{ hire_item: item.slug, starts_on: day(1), ends_on: day(2), customer: { name: "", phone: "07700 900000" } }, "customer.name", "Enter the customer's name."],
      [{ hire_item: item.slug, starts_on: day(1), ends_on: day(2), customer: { name: "Nia", phone: "" } }, "customer.phone", "Enter the customer's phone number."],
      [{ hire_item: item.slug, starts_on: day(1), ends_on: day(2), customer: { ...walkIn, email: "not-an-email" } }, "customer.email", "Enter a valid email address."],
      [{ hire_item: item.slug, starts_on: day(-1), ends_on: day(2), customer: walkIn }, "starts_on", "The hire cannot start in the past."],
      [{ hire_item: item.slug, starts_on: day(3), ends_on: day(2), customer: walkIn }, "ends_on", "The return date must not be before the start date."],
      [{ hire_item: "no-such-item", starts_on: day(1), ends_on: day(2), customer: walkIn }, "hire_item", "Choose a hire item from the list."],
      [{ hire_item: item.slug, unit_id: other.units[0]!.id, starts_on: day(1), ends_on: day(2), customer: walkIn }, "unit_id", "That unit is not one of Drill BD's."],
      [{ hire_item: item.slug, starts_on: day(1), ends_on: day(2), customer_id: 2_000_000 }, "customer_id", "No customer #2000000."],
    ];
    for (const [body, field, message] of cases) {
      const res = await as.hire.post("/api/admin/hire/bookings", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors[field], res.body).toEqual([message]);
    }
    expect(units).toHaveLength(1);
  });

  it("quotes a booking by the rate card before it is made", async () => {
    const { item } = await testFleet(db(), { name: "Pump BQ", prefix: "BQ", units: 1, deposit: 2500 });
    const res = await as.hire.get(`/api/admin/hire/bookings/quote?hire_item=${item.slug}&starts_on=${day(7)}&ends_on=${day(14)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ hire_item: { slug: item.slug, name: "Pump BQ" }, days: 7, hire_ex_vat: 40, vat: 8, deposit: 25, total: 73 });
  });

  it("is the hire desk's: the roles without it are refused", async () => {
    const { item } = await testFleet(db(), { name: "Lift BR", prefix: "BR", units: 1 });
    for (const role of ["sales", "warehouse", "accounts"] as const) {
      const res = await as[role].post("/api/admin/hire/bookings", { hire_item: item.slug, starts_on: day(1), ends_on: day(2), customer: walkIn });
      expect(res.statusCode, role).toBe(403);
    }
  });
});
