// Products as the catalogue API lists them, for journeys that need some in stock.
import { type APIRequestContext, expect } from "@playwright/test";

/** The category the journeys browse: cordless drills, with plenty of seeded products. */
export const CATEGORY = "power-tools/cordless-drills";

export interface Listed {
  id: number;
  name: string;
  slug: string;
  stock: number;
}

/**
 * The first two listed products (of `category` when given) with at least
 * `minStock` in stock and fewer than 900: enough to change a quantity, little
 * enough to pass it.
 */
export async function twoInStock(request: APIRequestContext, options: { category?: string; perPage: number; minStock: number }): Promise<[Listed, Listed]> {
  const response = await request.get("/api/products", { params: { ...(options.category ? { category: options.category } : {}), in_stock: 1, per_page: options.perPage } });
  expect(response.ok()).toBe(true);
  const { items } = (await response.json()) as { items: Listed[] };
  const fit = items.filter((p) => p.stock >= options.minStock && p.stock < 900);
  expect(fit.length, `two products with between ${options.minStock} and 899 in stock`).toBeGreaterThanOrEqual(2);
  return [fit[0]!, fit[1]!];
}
