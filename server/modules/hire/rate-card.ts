import { type HireRates, type PricingSettings, DEFAULT_PRICING, addDays, quote, weekday } from "./pricing.ts";

/**
 * A hire item's rate card worked through the real pricing engine (pricing.ts):
 * what a customer pays for a day, a weekend, a week and ten days, from dates
 * that follow today. Extra days past whole weeks are not a rate of their own:
 * each costs the week rate × `extraDayFraction` (1/7), never more than another
 * week, so the card shows that figure beside the three rates. A plain module:
 * the edit screen works the same examples as the rates are typed.
 */
export interface RateExample {
  label: string;
  start: string;
  end: string;
  days: number;
  /** Whether the engine priced it at the weekend rate. */
  weekend: boolean;
  /** Pence, for one unit. */
  hireExVat: number;
  vat: number;
  hireIncVat: number;
  deposit: number;
  total: number;
}

/** The first date on or after `from` that falls on `day` (0 = Sunday … 6 = Saturday). */
function nextWeekday(from: string, day: number): string {
  return addDays(from, (day - weekday(from) + 7) % 7);
}

/** Pence per extra day past whole weeks, as the engine charges it. */
export function extraDayRate(weekRate: number, settings: PricingSettings = DEFAULT_PRICING): number {
  return Math.min(Math.round(weekRate * settings.extraDayFraction), weekRate);
}

export function rateExamples(rates: HireRates, vatRate: number, deposit: number, today: string, settings: PricingSettings = DEFAULT_PRICING): RateExample[] {
  // A Tuesday start keeps the day, week and ten-day examples clear of the weekend rule; the weekend goes out on its first day.
  const tuesday = nextWeekday(addDays(today, 1), 2);
  const weekendOut = nextWeekday(addDays(today, 1), settings.weekendOutDays[0] ?? 5);
  const weekendBack = nextWeekday(addDays(weekendOut, 1), settings.weekendReturnDay);
  const cases: [string, string, string][] = [
    ["1 day", tuesday, addDays(tuesday, 1)],
    ["A weekend", weekendOut, weekendBack],
    ["1 week", tuesday, addDays(tuesday, 7)],
    ["10 days", tuesday, addDays(tuesday, 10)],
  ];
  return cases.map(([label, start, end]) => {
    const q = quote({ rates, depositPerUnit: deposit, quantity: 1, start, end, vatRate, settings });
    return { label, start, end, days: q.days, weekend: q.weekend, hireExVat: q.hireCost, vat: q.vat, hireIncVat: q.hireCost + q.vat, deposit: q.deposit, total: q.total };
  });
}
