import { describe, expect, it } from "vitest";
import { longDay, ordersHref, shortDay, sumPounds, tableDay, takingsBars, takingsSummary } from "./dashboard.ts";

const days = (n: number, last = "2026-11-25") =>
  Array.from({ length: n }, (_, i) => {
    const d = new Date(`${last}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() - (n - 1 - i));
    return { day: d.toISOString().slice(0, 10), orders: 0, inc_vat: 0, ex_vat: 0 };
  });

describe("the dashboard's links", () => {
  it("filter the orders list as its own filters do", () => {
    expect(ordersHref({})).toBe("/admin/orders");
    expect(ordersHref({ status: "awaiting_payment" })).toBe("/admin/orders?status=awaiting_payment");
    expect(ordersHref({ status: "processing", fulfilment: "delivery" })).toBe("/admin/orders?status=processing&fulfilment=delivery");
    expect(ordersHref({ status: "cancelled", from: "2026-11-19", to: "2026-11-25" })).toBe("/admin/orders?status=cancelled&from=2026-11-19&to=2026-11-25");
  });
});

describe("the takings chart", () => {
  it("labels every seventh day back from today, today by name and highlighted", () => {
    const bars = takingsBars(days(30));
    expect(bars).toHaveLength(30);
    expect(bars.filter((b) => b.label).map((b) => b.label)).toEqual(["28 Oct", "4 Nov", "11 Nov", "18 Nov", "Today"]);
    expect(bars.filter((b) => b.highlight).map((b) => b.key)).toEqual(["2026-11-25"]);
    expect(bars.at(-1)!.title).toBe("Wednesday 25 November (today): £0.00, 0 orders placed");
  });

  it("sums it up in a sentence, or says there were no takings", () => {
    const month = days(30);
    expect(takingsSummary(month)).toBe("No takings from Tuesday 27 October to Wednesday 25 November.");
    month[3] = { ...month[3]!, orders: 2, inc_vat: 120.1, ex_vat: 100.1 };
    month[29] = { ...month[29]!, orders: 1, inc_vat: 0.2, ex_vat: 0.1 };
    expect(takingsSummary(month)).toBe("£120.30 inc VAT from Tuesday 27 October to Wednesday 25 November. The best day was Friday 30 October at £120.10; today so far £0.20.");
  });

  it("names days the same way everywhere, with three-letter months", () => {
    expect(shortDay("2026-09-07")).toBe("7 Sep");
    expect(longDay("2026-11-25")).toBe("Wednesday 25 November");
    expect(tableDay("2026-09-07")).toBe("Mon 7 Sep");
    expect(sumPounds([0.1, 0.2, 120.1])).toBe(120.4);
  });
});
