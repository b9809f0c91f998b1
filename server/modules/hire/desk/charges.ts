import { type PricingSettings, DEFAULT_PRICING, addDays, dayNumber, quoteLine, vatOn } from "../pricing.ts";

/**
 * What one unit's hire costs when it comes back (ADR 0039), a pure module.
 * Charging runs from the day it went out (never before the booked start) to
 * the off-hire date — the customer's call ends the hire under UK hire terms,
 * not the collection — or to the return date when it was never off-hired.
 * Up to the booked return it is the hire, by the same rate card as the quote
 * (days, weekends, weeks, extra days), never more than the price agreed for
 * the booking; past it, late days, priced by the same engine.
 */
export interface UnitCharge {
  /** Pence ex VAT for the one unit. */
  hire: number;
  hireDays: number;
  late: number;
  lateDays: number;
  /** The dates charged: `[from, to)`. */
  from: string;
  to: string;
}

export interface UnitChargeInput {
  rates: { dayRate: number; weekendRate: number; weekRate: number; vatRate: number };
  /** The booking: `[start, end)`. */
  bookedStart: string;
  bookedEnd: string;
  /** What the approval agreed for one unit, pence ex VAT (the quote, or a price staff changed with a reason). */
  agreedUnitPrice: number;
  handedOverOn: string;
  offHireOn: string | null;
  returnedOn: string;
}

const later = (a: string, b: string) => (dayNumber(a)! >= dayNumber(b)! ? a : b);
const earlier = (a: string, b: string) => (dayNumber(a)! <= dayNumber(b)! ? a : b);

export function unitCharge(input: UnitChargeInput, settings: PricingSettings = DEFAULT_PRICING): UnitCharge {
  const item = { ...input.rates, deposit: 0 };
  const from = later(input.bookedStart, input.handedOverOn);
  // The day charging stops: off-hire wins over the return, and nothing is charged before it went out.
  const to = later(input.offHireOn ?? input.returnedOn, from);
  const hireTo = later(earlier(to, input.bookedEnd), from);
  const booked = quoteLine(item, { quantity: 1, startDate: from, endDate: hireTo }, settings);
  const hire = Math.min(booked.hireCost, input.agreedUnitPrice);
  const lateDays = Math.max(0, dayNumber(to)! - dayNumber(later(input.bookedEnd, from))!);
  const late = lateDays > 0 ? quoteLine(item, { quantity: 1, startDate: later(input.bookedEnd, from), endDate: to }, settings).hireCost : 0;
  return { hire, hireDays: booked.days, late, lateDays, from, to };
}

/** A charge line's VAT, as every price here: on the line, half-up to the penny. */
export function chargeVat(net: number, rate: number): number {
  return vatOn(net, rate);
}

export interface ChargeLine {
  kind: string;
  net: number;
  vat: number;
}

/**
 * The money at the end: what the hire cost (every line but the deposit, inc
 * VAT), the deposit held, what was paid up front, and what is left to pay
 * (negative: to give back).
 */
export function settlementOf(lines: ChargeLine[], paidUpFront: number): { charges: number; net: number; vat: number; deposit: number; due: number } {
  const charged = lines.filter((l) => l.kind !== "deposit");
  const net = charged.reduce((s, l) => s + l.net, 0);
  const vat = charged.reduce((s, l) => s + l.vat, 0);
  const deposit = -lines.filter((l) => l.kind === "deposit").reduce((s, l) => s + l.net, 0);
  return { charges: net + vat, net, vat, deposit, due: net + vat - paidUpFront };
}

/** The day after, for a same-day return's period. */
export const nextDay = (date: string) => addDays(date, 1);
