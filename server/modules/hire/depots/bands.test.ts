import { describe, expect, it } from "vitest";
import { bandFor, checkBands } from "./bands.ts";

const demo = [
  { upToMiles: 25, pricePence: 4500 },
  { upToMiles: 10, pricePence: 2500 },
  { upToMiles: 50, pricePence: 7500 },
];

describe("delivery bands", () => {
  it.each([
    [0, 2500],
    [9.9, 2500],
    [10, 2500],
    [10.1, 4500],
    [25, 4500],
    [36.4, 7500],
    [50, 7500],
  ])("prices a site %s miles away at %s pence, the smallest band that reaches it", (miles, pence) => {
    expect(bandFor(demo, miles)).toEqual({ kind: "band", band: expect.objectContaining({ pricePence: pence }) });
  });

  it("refuses a site past the last band, naming that band's reach", () => {
    expect(bandFor(demo, 50.1)).toEqual({ kind: "beyond", lastMiles: 50 });
  });

  it("leaves delivery unpriced when the merchant has set no bands", () => {
    expect(bandFor([], 3)).toEqual({ kind: "unpriced" });
  });

  it("keeps a set of bands in distance order, and refuses a distance twice or a longer band that is cheaper", () => {
    expect(checkBands(demo).map((b) => b.upToMiles)).toEqual([10, 25, 50]);
    expect(() => checkBands([...demo, { upToMiles: 25, pricePence: 5000 }])).toThrow(/25 miles is given twice/);
    expect(() => checkBands([{ upToMiles: 10, pricePence: 3000 }, { upToMiles: 20, pricePence: 2000 }])).toThrow(/up to 20 miles costs less than the band up to 10 miles/);
  });
});
