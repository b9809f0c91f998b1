// The quick order's rules (issue 32, ADR 0051): each line of SKU and quantity
// judged against what the shop sells, its stock and what the basket already
// holds, in plain code; the basket service reads the figures and writes the
// lines that pass, in one transaction that holds the basket's row lock.
import type { FieldErrors } from "../../http-errors.ts";
import { incVat } from "../catalog/products/prices.ts";
import { type PriceContext, unitPence } from "../trade/pricing.ts";

/** At most this many of one variant in a basket. */
export const MAX_QUANTITY = 999;
/** Longer than any SKU the shop gives: not looked up. */
const MAX_SKU_LENGTH = 64;

/** A line as posted: the SKU as typed, the quantity as typed (1 when left out). */
export interface BulkLineInput {
  sku: string | number;
  quantity?: number | string;
}

/** A variant a line's SKU names, on sale or not, with its product's words. */
export interface LineVariant {
  id: number;
  productId: number;
  sku: string;
  name: string;
  slug: string;
  options: Record<string, string>;
  unit: string;
  pricePence: number;
  vatRate: number;
  stock: number;
  /** The product published and the variant active. */
  onSale: boolean;
}

/** One line's verdict, for the screen to show beside it. */
export interface BulkLine {
  /** Its place in the request's `lines`, from 0: its errors are `lines.{line}.sku` and `lines.{line}.quantity`. */
  line: number;
  /** As sent, trimmed. */
  sku: string;
  /** The quantity asked, when it is one. */
  quantity: number | null;
  /** Added (or, for a check, would be added). */
  ok: boolean;
  /** What the SKU names, when it is on sale: prices from the database at the caller's price view. */
  product: {
    product_id: number;
    variant_id: number;
    sku: string;
    name: string;
    slug: string;
    options: Record<string, string>;
    unit: string;
    /** Pounds inc VAT, and ex VAT beside it. */
    unit_price: number;
    unit_price_ex_vat: number;
    stock: number;
    in_stock: boolean;
    /** How many the basket held before this request. */
    in_basket: number;
  } | null;
}

export interface BulkVerdict {
  lines: BulkLine[];
  /** By `lines.{n}.sku` and `lines.{n}.quantity`, for the lines refused. */
  errors: FieldErrors;
  /** What goes into the basket, a variant's lines summed. */
  adds: { variantId: number; productId: number; quantity: number }[];
}

/** The SKUs to look up, lower-cased: a blank or overlong one names nothing. */
export function skusToFind(lines: BulkLineInput[]): string[] {
  return [...new Set(lines.map((l) => String(l.sku).trim().toLowerCase()).filter((s) => s !== "" && s.length <= MAX_SKU_LENGTH))];
}

/** The variant a SKU names, case aside: an exact match first, then one on sale (SKUs are unique only as written). */
function variantOf(variants: LineVariant[], sku: string): LineVariant | undefined {
  const lower = sku.toLowerCase();
  const matches = variants.filter((v) => v.sku.toLowerCase() === lower);
  return matches.find((v) => v.sku === sku) ?? matches.find((v) => v.onSale) ?? matches[0];
}

/** Echoes what was typed, kept short. */
const quoted = (text: string) => `“${text.length > 30 ? `${text.slice(0, 29)}…` : text}”`;

/** A whole number from 1 to MAX_QUANTITY, or why not; left out or blank is 1. */
function quantityOf(raw: number | string | undefined): number | string {
  const text = typeof raw === "string" ? raw.trim() : raw;
  if (text === undefined || text === "") return 1;
  const n = typeof text === "number" ? text : /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n)) return `${quoted(String(text))} is not a quantity: enter a whole number from 1 to ${MAX_QUANTITY}.`;
  if (n < 1) return "The quantity must be at least 1.";
  if (n > MAX_QUANTITY) return `The quantity must be at most ${MAX_QUANTITY}.`;
  return n;
}

/** "…: your basket already holds 3 and earlier lines take 2." when either holds any. */
function alreadyTaken(held: number, earlier: number): string {
  const parts = [...(held ? [`your basket already holds ${held}`] : []), ...(earlier ? [`earlier lines take ${earlier}`] : [])];
  return parts.length ? `: ${parts.join(" and ")}.` : ".";
}

/**
 * Judges each line in order: the SKU must name a variant on sale, the
 * quantity be a whole number, and the basket's quantity with this line's
 * (and earlier lines' of the same SKU, which go into the same basket line)
 * stay within the stock and MAX_QUANTITY. A refused line is left out whole,
 * never capped: the customer fixes it and sends it again.
 */
export function judgeBulk(lines: BulkLineInput[], variants: LineVariant[], held: ReadonlyMap<number, number>, prices: PriceContext): BulkVerdict {
  const errors: FieldErrors = {};
  const taken = new Map<number, number>();
  const verdicts = lines.map((input, line): BulkLine => {
    const sku = String(input.sku).trim();
    const quantity = quantityOf(input.quantity);
    const problems: { sku?: string; quantity?: string } = typeof quantity === "string" ? { quantity } : {};
    const variant = sku === "" || sku.length > MAX_SKU_LENGTH ? undefined : variantOf(variants, sku);
    if (sku === "") problems.sku = "Enter a SKU.";
    else if (!variant) problems.sku = `We have no product with the SKU ${quoted(sku)}.`;
    else if (!variant.onSale) problems.sku = `${quoted(sku)} is not on sale.`;
    const product = variant?.onSale ? variant : undefined;
    if (product && typeof quantity === "number") {
      const before = held.get(product.id) ?? 0;
      const earlier = taken.get(product.id) ?? 0;
      const total = before + earlier + quantity;
      if (product.stock <= 0) problems.quantity = "This product is out of stock.";
      else if (total > product.stock) problems.quantity = `Only ${product.stock} left in stock${alreadyTaken(before, earlier)}`;
      else if (total > MAX_QUANTITY) problems.quantity = `You can buy at most ${MAX_QUANTITY} of one product${alreadyTaken(before, earlier)}`;
      else taken.set(product.id, earlier + quantity);
    }
    if (problems.sku) errors[`lines.${line}.sku`] = [problems.sku];
    if (problems.quantity) errors[`lines.${line}.quantity`] = [problems.quantity];
    const unit = product ? unitPence(product.pricePence, prices) : 0;
    return {
      line,
      sku,
      quantity: typeof quantity === "number" ? quantity : null,
      ok: !problems.sku && !problems.quantity,
      product: product
        ? {
            product_id: product.productId,
            variant_id: product.id,
            sku: product.sku,
            name: product.name,
            slug: product.slug,
            options: product.options,
            unit: product.unit,
            unit_price: incVat(unit, product.vatRate) / 100,
            unit_price_ex_vat: unit / 100,
            stock: product.stock,
            in_stock: product.stock > 0,
            in_basket: held.get(product.id) ?? 0,
          }
        : null,
    };
  });
  const adds = [...taken].map(([variantId, quantity]) => ({ variantId, productId: variants.find((v) => v.id === variantId)!.productId, quantity }));
  return { lines: verdicts, errors, adds };
}

const lineWord = (n: number) => `${n} line${n === 1 ? "" : "s"}`;

/** What a quick order did (or, checking, would do), in words. */
export function bulkMessage(verdict: BulkVerdict, checking: boolean): string {
  const good = verdict.lines.filter((l) => l.ok).length;
  const bad = verdict.lines.length - good;
  const fix = bad ? `${lineWord(bad)} ${bad === 1 ? "needs" : "need"} fixing.` : "";
  if (checking) return bad ? `${good ? `${lineWord(good)} can be added; ` : "No line can be added; "}${fix}` : `All ${lineWord(good)} can be added.`;
  if (!good) return `Nothing was added to your basket: ${fix}`;
  return `Added ${lineWord(good)} to your basket.${bad ? ` Not added: ${lineWord(bad)}, shown with what to fix.` : ""}`;
}
