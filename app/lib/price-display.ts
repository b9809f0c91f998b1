import { useRouteLoaderData } from "react-router";
import type { PriceDisplay } from "../../server/modules/trade/pricing.ts";
import type { RootData } from "./root-data.ts";

export type { PriceDisplay };

/** Consumers (and pages without the root's data) see inc-VAT prices. */
export const CONSUMER_DISPLAY: PriceDisplay = { trade: false, discountPercent: 0, incVat: true };

/** How this visitor's prices are shown: from the root loader, where the session's trade membership lands. */
export function usePriceDisplay(): PriceDisplay {
  return useRouteLoaderData<RootData>("root")?.priceDisplay ?? CONSUMER_DISPLAY;
}

/** True when a trade member chose (or kept the default of) ex-VAT prices. */
export function showsExVat(display: PriceDisplay): boolean {
  return display.trade && !display.incVat;
}
