import { describe, expect, it } from "vitest";
import { extraDayRate, rateExamples } from "./rate-card.ts";
import { weekday } from "./pricing.ts";

describe("the rate card's worked examples", () => {
  const rates = { day: 2000, weekend: 3000, week: 7000 };

  it("prices a day, a weekend, a week and ten days through the engine, from dates after today", () => {
    // A Wednesday.
    const examples = rateExamples(rates, 20, 5000, "2026-11-25");
    expect(examples.map((e) => [e.label, e.start, e.end, e.days, e.weekend, e.hireExVat])).toEqual([
      ["1 day", "2026-12-01", "2026-12-02", 1, false, 2000],
      ["A weekend", "2026-11-27", "2026-11-30", 3, true, 3000],
      ["1 week", "2026-12-01", "2026-12-08", 7, false, 7000],
      // A week and three extra days at 1/7 of the week rate each.
      ["10 days", "2026-12-01", "2026-12-11", 10, false, 10000],
    ]);
    expect(examples[0]).toMatchObject({ vat: 400, hireIncVat: 2400, deposit: 5000, total: 7400 });
  });

  it("starts on the next Tuesday and the next Friday even when today is one", () => {
    const tuesday = "2026-12-01";
    const [day, weekend] = rateExamples(rates, 0, 0, tuesday);
    expect(day!.start).toBe("2026-12-08");
    expect(weekday(weekend!.start)).toBe(5);
    expect(weekend!.start > tuesday).toBe(true);
  });

  it("charges an extra day at a seventh of the week rate, never more than a week", () => {
    expect(extraDayRate(5500)).toBe(786);
    expect(extraDayRate(0)).toBe(0);
  });
});
