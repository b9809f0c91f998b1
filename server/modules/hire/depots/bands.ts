import { ValidationError } from "../../../http-errors.ts";

/**
 * Delivery bands for hired equipment (issue 30), a pure module: a site is
 * delivered and collected for the price of the smallest band whose distance
 * reaches it, measured from the depot as the crow flies (branches/distance.ts);
 * past the last band it is not delivered.
 */
export interface DeliveryBand {
  upToMiles: number;
  /** Pence ex VAT, for delivery and collection together. */
  pricePence: number;
}

export type BandAnswer =
  | { kind: "band"; band: DeliveryBand }
  /** Past the last band: collection from the depot only. */
  | { kind: "beyond"; lastMiles: number }
  /** The merchant has set no bands: the hire desk prices delivery. */
  | { kind: "unpriced" };

export function bandFor(bands: readonly DeliveryBand[], miles: number): BandAnswer {
  if (bands.length === 0) return { kind: "unpriced" };
  const sorted = [...bands].sort((a, b) => a.upToMiles - b.upToMiles);
  const band = sorted.find((b) => miles <= b.upToMiles);
  return band ? { kind: "band", band } : { kind: "beyond", lastMiles: sorted[sorted.length - 1]!.upToMiles };
}

/** A set of bands the merchant may save: each distance once, and a longer band never cheaper than a shorter one. 422 by field otherwise. */
export function checkBands(bands: readonly DeliveryBand[]): DeliveryBand[] {
  const sorted = [...bands].sort((a, b) => a.upToMiles - b.upToMiles);
  const errors: Record<string, string[]> = {};
  sorted.forEach((band, i) => {
    const before = sorted[i - 1];
    if (before && before.upToMiles === band.upToMiles) errors.bands = [`Give each distance once: ${band.upToMiles} miles is given twice.`];
    else if (before && band.pricePence < before.pricePence) errors.bands = [`The band up to ${band.upToMiles} miles costs less than the band up to ${before.upToMiles} miles: a longer delivery cannot be cheaper.`];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return sorted;
}
