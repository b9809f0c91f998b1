// The hire desk's charging rules (ADR 0039): a returned unit is charged by
// the rate card for the days actually out, up to its off-hire date (not the
// day it came back), never more than the price agreed; days past the booked
// return are late days, priced by the same engine; the deposit and what was
// paid up front come off at the end.
import { describe, expect, it } from "vitest";
import { settlementOf, unitCharge } from "./charges.ts";
import { checkMove, mayMove, statusFromUnits } from "./states.ts";

// Pence ex VAT: £10 a day, £15 a weekend, £40 a week.
const rates = { dayRate: 1000, weekendRate: 1500, weekRate: 4000, vatRate: 20 };
// Tuesday 1 June 2027 to Tuesday 8 June: a week, agreed at £40.
const booking = { rates, bookedStart: "2027-06-01", bookedEnd: "2027-06-08", agreedUnitPrice: 4000, handedOverOn: "2027-06-01" };

describe("what a returned unit costs", () => {
  it("charges the booked hire when it comes back on time", () => {
    expect(unitCharge({ ...booking, offHireOn: null, returnedOn: "2027-06-08" })).toMatchObject({ hire: 4000, hireDays: 7, late: 0, lateDays: 0, from: "2027-06-01", to: "2027-06-08" });
  });

  it("stops charging on the off-hire date, not on the later collection", () => {
    // Off-hired by phone on Thursday, collected the next Monday: two days at the day rate.
    expect(unitCharge({ ...booking, offHireOn: "2027-06-03", returnedOn: "2027-06-07" })).toMatchObject({ hire: 2000, hireDays: 2, late: 0, lateDays: 0, to: "2027-06-03" });
    // Never off-hired and back early: charged to the return.
    expect(unitCharge({ ...booking, offHireOn: null, returnedOn: "2027-06-04" })).toMatchObject({ hire: 3000, hireDays: 3 });
  });

  it("charges late days past the booked return by the same engine, unless off-hired in time", () => {
    // Back two days late, never off-hired: the week, then two days at the day rate.
    expect(unitCharge({ ...booking, offHireOn: null, returnedOn: "2027-06-10" })).toMatchObject({ hire: 4000, late: 2000, lateDays: 2, to: "2027-06-10" });
    // Off-hired on the booked return and collected two days later: nothing late.
    expect(unitCharge({ ...booking, offHireOn: "2027-06-08", returnedOn: "2027-06-10" })).toMatchObject({ hire: 4000, late: 0, lateDays: 0 });
    // Ten days late: a week and three sevenths of the week rate, as the rate card words it.
    expect(unitCharge({ ...booking, offHireOn: null, returnedOn: "2027-06-18" }).late).toBe(4000 + Math.round((3 * 4000) / 7));
  });

  it("never charges more than the price agreed at approval, and nothing before the unit went out", () => {
    expect(unitCharge({ ...booking, agreedUnitPrice: 3000, offHireOn: null, returnedOn: "2027-06-08" }).hire).toBe(3000);
    // Handed over a day late: charged from the hand-over.
    expect(unitCharge({ ...booking, handedOverOn: "2027-06-02", offHireOn: "2027-06-04", returnedOn: "2027-06-04" })).toMatchObject({ from: "2027-06-02", hire: 2000, hireDays: 2 });
    // A same-day off-hire is still a day.
    expect(unitCharge({ ...booking, offHireOn: "2027-06-01", returnedOn: "2027-06-02" })).toMatchObject({ hire: 1000, hireDays: 1 });
  });

  it("prices a weekend hire at the weekend rate", () => {
    const weekend = { rates, bookedStart: "2027-06-04", bookedEnd: "2027-06-07", agreedUnitPrice: 1500, handedOverOn: "2027-06-04" };
    expect(unitCharge({ ...weekend, offHireOn: null, returnedOn: "2027-06-07" })).toMatchObject({ hire: 1500, late: 0 });
    expect(unitCharge({ ...weekend, offHireOn: null, returnedOn: "2027-06-08" })).toMatchObject({ hire: 1500, late: 1000, lateDays: 1 });
  });
});

describe("the money at the end", () => {
  it("takes the deposit and the up-front payment off the charges", () => {
    const lines = [
      { kind: "hire", net: 4000, vat: 800 },
      { kind: "late", net: 2000, vat: 400 },
      { kind: "cleaning", net: 2500, vat: 500 },
      { kind: "deposit", net: -5000, vat: 0 },
    ];
    // Paid up front: the hire (£48) and the deposit (£50).
    expect(settlementOf(lines, 4800 + 5000)).toEqual({ charges: 10200, net: 8500, vat: 1700, deposit: 5000, due: 10200 - 9800 });
    // Nothing paid up front: all of it is due; a small hire paid with its deposit gets money back.
    expect(settlementOf(lines.slice(0, 1), 0).due).toBe(4800);
    expect(settlementOf([{ kind: "hire", net: 2000, vat: 400 }, { kind: "deposit", net: -5000, vat: 0 }], 4800 + 5000).due).toBe(2400 - 9800);
  });
});

describe("the hire request's states", () => {
  it("allows each move only from its states, refusing others with a 409 in plain words", () => {
    expect(mayMove("pending", "approve")).toBe(true);
    expect(mayMove("confirmed", "hand_over")).toBe(true);
    expect(mayMove("pending", "hand_over")).toBe(false);
    expect(mayMove("returned", "settle")).toBe(true);
    expect(mayMove("completed", "return")).toBe(false);
    expect(() => checkMove("HR-000001", "declined", "approve")).toThrow(expect.objectContaining({ statusCode: 409, message: "Hire request HR-000001 is declined, so it cannot be approved." }));
    expect(() => checkMove("HR-000001", "confirmed", "off_hire")).toThrow(/is approved, so it cannot be off-hired/);
  });

  it("follows its units: out while any is on hire, off-hired when all out are off-hired, returned when all are back", () => {
    expect(statusFromUnits(["out", "booked"])).toBe("out");
    expect(statusFromUnits(["off_hired", "out"])).toBe("out");
    expect(statusFromUnits(["off_hired", "returned"])).toBe("off_hired");
    expect(statusFromUnits(["returned", "returned"])).toBe("returned");
    expect(statusFromUnits(["returned", "booked"])).toBe("returned");
  });
});
