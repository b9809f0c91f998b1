// A quote's money: each line at its quoted unit price, VAT per line on its
// net value (as the pricing pipeline works it for a basket), and delivery at
// the price staff set, with VAT at the standard rate. The quote's page, its
// PDF and the order it becomes all read these figures, so they always agree.
import { incVat } from "../catalog/products/prices.ts";
import { DELIVERY_VAT_RATE } from "../hire/depots/service.ts";

export interface QuoteLineMoney {
  quantity: number;
  /** Pence ex VAT. */
  unitPrice: number;
  vatRate: number;
}

export interface QuoteTotals {
  lines: { net: number; vat: number }[];
  /** Goods ex VAT. */
  subtotal: number;
  vat: number;
  /** Delivery inc VAT, as orders keep it; null when the quote leaves it to the usual price. */
  delivery: number | null;
  /** Goods and their VAT, with the quoted delivery when there is one. */
  total: number;
}

export function quoteTotals(lines: readonly QuoteLineMoney[], deliveryExVat: number | null): QuoteTotals {
  const priced = lines.map((l) => {
    const net = l.unitPrice * l.quantity;
    return { net, vat: incVat(net, l.vatRate) - net };
  });
  const subtotal = priced.reduce((n, l) => n + l.net, 0);
  const vat = priced.reduce((n, l) => n + l.vat, 0);
  const delivery = deliveryExVat === null ? null : incVat(deliveryExVat, DELIVERY_VAT_RATE);
  return { lines: priced, subtotal, vat, delivery, total: subtotal + vat + (delivery ?? 0) };
}

/** The discount a unit price gives off the customer's own price, in percent to one decimal (0 when above it). */
export function discountPercent(basePrice: number, unitPrice: number): number {
  if (basePrice <= 0 || unitPrice >= basePrice) return 0;
  return Math.round(((basePrice - unitPrice) / basePrice) * 1000) / 10;
}

/** A unit price from a discount off the customer's price, rounded to the penny. */
export function priceAfterDiscount(basePrice: number, percent: number): number {
  return Math.round((basePrice * (100 - percent)) / 100);
}
