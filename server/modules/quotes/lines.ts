// A quote's lines as they are first made: from the customer's basket, or from
// SKUs staff type. Each starts at the customer's own price (their trade price
// when they buy for an approved trade account), which is also the measure of
// the floor staff may price down to (price-floor.ts).
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type FieldErrors, ValidationError } from "../../http-errors.ts";
import type { LineVariant } from "../basket/bulk.ts";
import { lineVariants } from "../basket/line-variants.ts";
import { lineName } from "../catalog/variants/variant-names.ts";
import { productVariants } from "../catalog/schema.ts";
import { type PriceContext, RETAIL, unitPence } from "../trade/pricing.ts";
import { tradeAccounts, tradeMembers } from "../trade/schema.ts";

export const MAX_QUOTE_LINES = 200;
export const MAX_LINE_QUANTITY = 99_999;

/** A line to insert into quote_lines (its quote's id added by the caller). */
export interface NewQuoteLine {
  productId: number;
  variantId: number;
  sku: string;
  name: string;
  unit: string;
  quantity: number;
  basePrice: number;
  unitPrice: number;
  vatRate: number;
}

/** The customer's prices and company: an approved trade account's discount, or retail. */
export async function customerPricing(q: Db, userId: number): Promise<{ prices: PriceContext; tradeAccountId: number | null }> {
  const [row] = await q
    .select({ accountId: tradeAccounts.id, discount: tradeAccounts.discountBasisPoints })
    .from(tradeMembers)
    .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
    .where(and(eq(tradeMembers.userId, userId), eq(tradeAccounts.state, "approved")))
    .limit(1);
  return row ? { prices: { discountBasisPoints: row.discount, trade: true }, tradeAccountId: row.accountId } : { prices: RETAIL, tradeAccountId: null };
}

export function newLineOf(variant: LineVariant, quantity: number, prices: PriceContext): NewQuoteLine {
  const base = unitPence(variant.pricePence, prices);
  return {
    productId: variant.productId,
    variantId: variant.id,
    sku: variant.sku,
    name: lineName(variant.name, variant.options),
    unit: variant.unit,
    quantity,
    basePrice: base,
    unitPrice: base,
    vatRate: variant.vatRate,
  };
}

/** Lines of variants by id (a basket's), each on sale; one not on sale is refused by name under `items`. */
export async function linesOfVariants(q: Db, wanted: readonly { variantId: number; quantity: number }[], prices: PriceContext): Promise<NewQuoteLine[]> {
  const found = wanted.length ? await lineVariants(q, inArray(productVariants.id, wanted.map((w) => w.variantId))) : [];
  const byId = new Map(found.map((v) => [v.id, v]));
  const withdrawn = found.filter((v) => !v.onSale).map((v) => `${lineName(v.name, v.options)} is no longer on sale: remove it from your basket first.`);
  if (withdrawn.length) throw new ValidationError({ items: withdrawn });
  return wanted.flatMap((w) => {
    const variant = byId.get(w.variantId);
    return variant ? [newLineOf(variant, w.quantity, prices)] : [];
  });
}

/** Lines by SKU as staff type them; errors by `{field}.{n}.sku` for a SKU unknown or not on sale. */
export async function linesOfSkus(q: Db, field: string, wanted: readonly { sku: string; quantity: number }[], prices: PriceContext): Promise<NewQuoteLine[]> {
  const skus = [...new Set(wanted.map((w) => w.sku.trim().toLowerCase()))];
  const found = skus.length ? await lineVariants(q, inArray(sql`lower(${productVariants.sku})`, skus)) : [];
  const bySku = new Map(found.map((v) => [v.sku.toLowerCase(), v]));
  const errors: FieldErrors = {};
  const lines = wanted.flatMap((w, i) => {
    const variant = bySku.get(w.sku.trim().toLowerCase());
    if (!variant) errors[`${field}.${i}.sku`] = [`No product has the SKU ${w.sku.trim()}.`];
    else if (!variant.onSale) errors[`${field}.${i}.sku`] = [`${lineName(variant.name, variant.options)} (${variant.sku}) is not on sale.`];
    else return [newLineOf(variant, w.quantity, prices)];
    return [];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return lines;
}
