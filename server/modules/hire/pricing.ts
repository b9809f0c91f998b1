/**
 * UK hire pricing, a pure module. A hire runs from a start date to a return
 * date (calendar dates in Europe/London) and lasts max(1, return − start) days.
 *
 * - Out on a weekend day (Friday or Saturday) and back on Monday: the weekend rate.
 * - Up to 7 days: the cheaper of days × day rate and the week rate.
 * - Longer: whole weeks at the week rate, plus the remaining days each at 1/7
 *   of the week rate, never more than another week.
 * - VAT is charged on the hire; the deposit carries none and is shown apart.
 */

export interface HireRates {
  /** Pence ex VAT. */
  day: number;
  weekend: number;
  week: number;
}

export interface PricingSettings {
  /** Weekdays (0 = Sunday … 6 = Saturday) a weekend hire may go out on. */
  weekendOutDays: number[];
  /** The weekday a weekend hire comes back on. */
  weekendReturnDay: number;
  /** Each day past whole weeks costs this fraction of the week rate. */
  extraDayFraction: number;
}

export const DEFAULT_PRICING: PricingSettings = { weekendOutDays: [5, 6], weekendReturnDay: 1, extraDayFraction: 1 / 7 };

export { addDays, dayNumber, hireDays, londonDate, weekday } from "./calendar.ts";
import { hireDays, weekday } from "./calendar.ts";

export function isWeekendHire(start: string, end: string, settings: PricingSettings = DEFAULT_PRICING): boolean {
  const out = weekday(start);
  if (!settings.weekendOutDays.includes(out)) return false;
  // Back on the first return day after going out (Friday or Saturday → the next Monday).
  const toReturn = (settings.weekendReturnDay - out + 7) % 7 || 7;
  return hireDays(start, end) === toReturn;
}

/** The hire charge for one unit, in pence ex VAT. */
export function hireCost(rates: HireRates, start: string, end: string, settings: PricingSettings = DEFAULT_PRICING): number {
  const days = hireDays(start, end);
  if (isWeekendHire(start, end, settings)) return rates.weekend;
  if (days <= 7) return Math.min(days * rates.day, rates.week);
  const weeks = Math.floor(days / 7);
  const rest = days % 7;
  const extra = Math.min(Math.round(rest * rates.week * settings.extraDayFraction), rates.week);
  return weeks * rates.week + extra;
}

export interface HireQuote {
  days: number;
  weekend: boolean;
  /** Pence: per unit ex VAT, then for the quantity. */
  unitHireCost: number;
  hireCost: number;
  vat: number;
  deposit: number;
  /** Hire cost + VAT + deposit. */
  total: number;
}

/** VAT is worked on the line and rounded half-up to the penny. */
export function vatOn(pence: number, rate: number): number {
  return Math.floor((pence * rate + 50) / 100);
}

export function quote(input: {
  rates: HireRates;
  depositPerUnit: number;
  quantity: number;
  start: string;
  end: string;
  vatRate?: number;
  settings?: PricingSettings;
}): HireQuote {
  const settings = input.settings ?? DEFAULT_PRICING;
  const unit = hireCost(input.rates, input.start, input.end, settings);
  const cost = unit * input.quantity;
  const vat = vatOn(cost, input.vatRate ?? 20);
  const deposit = input.depositPerUnit * input.quantity;
  return {
    days: hireDays(input.start, input.end),
    weekend: isWeekendHire(input.start, input.end, settings),
    unitHireCost: unit,
    hireCost: cost,
    vat,
    deposit,
    total: cost + vat + deposit,
  };
}

/** The quote for a basket or request line, from the hire item's stored rates (pence). */
export function quoteLine(
  item: { dayRate: number; weekendRate: number; weekRate: number; deposit: number; vatRate: number },
  line: { quantity: number; startDate: string; endDate: string },
  settings: PricingSettings = DEFAULT_PRICING,
): HireQuote {
  return quote({
    rates: { day: item.dayRate, weekend: item.weekendRate, week: item.weekRate },
    depositPerUnit: item.deposit,
    quantity: line.quantity,
    start: line.startDate,
    end: line.endDate,
    vatRate: item.vatRate,
    settings,
  });
}
