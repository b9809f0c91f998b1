import { describe, expect, it } from "vitest";
import { formatPence, formatPounds } from "./money.ts";

const intl = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2 });

describe("money formatting", () => {
  it("writes pounds as en-GB Intl does", () => {
    expect(formatPence(0)).toBe("£0.00");
    expect(formatPence(5)).toBe("£0.05");
    expect(formatPence(123450)).toBe("£1,234.50");
    expect(formatPence(-300)).toBe("-£3.00");
    expect(formatPounds(1234567.891)).toBe("£1,234,567.89");
    expect(formatPounds(0.1 + 0.2)).toBe("£0.30");
  });

  it("agrees with Intl on every amount from pence, and from pounds with two decimals", () => {
    // A deterministic spread: every magnitude from a penny to ten million pounds.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const digits = 1 + (next() % 10);
      // (Intl writes minus zero as "-£0.00"; these write "£0.00", so zero is unsigned here.)
      const pence = (next() % 10 ** digits) * (next() % 5 === 0 ? -1 : 1) || 0;
      const expected = intl.format(pence / 100);
      expect(formatPence(pence)).toBe(expected);
      expect(formatPounds(Number((pence / 100).toFixed(2)))).toBe(expected);
    }
  });
});
