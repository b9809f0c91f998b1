// A trade company's sites in the browser (issue 32), for the forms that name one.
import { useEffect, useState } from "react";
import type { TradeSiteView } from "./basket-checkout.ts";
import { browserApi } from "./browser-api.ts";

export interface SitesAnswer {
  data: TradeSiteView[];
  can_manage: boolean;
}

/**
 * The signed-in member's company's live sites once `wanted` turns true, read
 * once; none for a customer outside a company (the API answers 404) or when
 * they cannot be read: the form then simply asks for no site.
 */
export function useCompanySites(wanted: boolean): TradeSiteView[] {
  const [sites, setSites] = useState<TradeSiteView[] | null>(null);
  const load = wanted && sites === null;
  useEffect(() => {
    if (!load) return;
    const controller = new AbortController();
    browserApi()
      .get<SitesAnswer>("/api/trade/sites", { signal: controller.signal })
      .then((answer) => setSites(answer.data.filter((s) => !s.archived)))
      .catch(() => {
        if (!controller.signal.aborted) setSites([]);
      });
    return () => controller.abort();
  }, [load]);
  return sites ?? [];
}
