import type { Db } from "./db/client.ts";
import { createCatalogService } from "./modules/catalog/service.ts";

/** One service layer, two doors: the JSON API and the storefront's loaders both call these. */
export function createServices(db: Db) {
  return {
    catalog: createCatalogService(db),
  };
}

export type Services = ReturnType<typeof createServices>;
