import { z } from "zod";
import { PRICE_MAX_PENCE, SKU_PATTERN, STOCK_MAX, money } from "../products/product-rules.ts";
import { OPTION_NAME_MAX, OPTION_VALUE_MAX, OPTION_VALUES_MAX, OPTIONS_MAX, VARIANTS_MAX, WEIGHT_MAX_GRAMS } from "./variant-limits.ts";

/**
 * What a product's options and a variant's fields may hold (ADR 0046): the one
 * set of rules the product screen's options editor and variants table, the
 * `/api/admin/…/variants` API and the CSV import check. Rules that need the
 * database (a SKU or barcode already taken) are the service's.
 */

export { parseOptionValues } from "./variant-limits.ts";
export { OPTION_NAME_MAX, OPTION_VALUE_MAX, OPTION_VALUES_MAX, OPTIONS_MAX, VARIANTS_MAX, WEIGHT_MAX_GRAMS };
export { PRICE_MAX_PENCE, STOCK_MAX };

/** An EAN-8, UPC-A, EAN-13 or GTIN-14, its check digit right (GS1's mod-10 rule). */
export function validGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

const sameIgnoringCase = (list: string[]) => new Set(list.map((v) => v.toLowerCase())).size !== list.length;

export const optionInput = z.object({
  name: z.string({ error: "Name the option." }).trim().min(1, "Name the option, such as Length or Colour.").max(OPTION_NAME_MAX, `An option's name can be at most ${OPTION_NAME_MAX} characters.`),
  values: z
    .array(z.string().trim().min(1, "An option's values cannot be blank.").max(OPTION_VALUE_MAX, `A value can be at most ${OPTION_VALUE_MAX} characters.`), { error: "List the option's values." })
    .min(1, "Give the option at least one value.")
    .max(OPTION_VALUES_MAX, `An option can have at most ${OPTION_VALUES_MAX} values.`)
    .refine((values) => !sameIgnoringCase(values), "Give each value once."),
});

export const optionsInput = z
  .array(optionInput)
  .max(OPTIONS_MAX, `A product can have at most ${OPTIONS_MAX} options.`)
  .refine((options) => !sameIgnoringCase(options.map((o) => o.name)), "Give each option once.");
export type OptionInput = z.output<typeof optionInput>;

/** Every field a variant has, as the API names them; each optional, so one schema serves a patch. */
export const variantFields = z.object({
  sku: z.string({ error: "Enter the SKU." }).trim().regex(SKU_PATTERN, "Use letters, digits, dots, dashes, slashes or underscores for the SKU (at most 64)."),
  options: z.record(z.string().max(OPTION_NAME_MAX), z.string().trim().min(1, "Give each option a value.").max(OPTION_VALUE_MAX), { error: "Give the option values as {name: value}." }),
  price_ex_vat: money("price"),
  was_price_ex_vat: money("was price").nullable(),
  stock: z.coerce.number({ error: "Enter the stock as a whole number." }).int("Enter the stock as a whole number.").min(0, "The stock cannot be negative.").max(STOCK_MAX, `The stock can be at most ${STOCK_MAX.toLocaleString("en-GB")}.`),
  reorder_level: z.coerce.number({ error: "Enter the reorder level as a whole number." }).int("Enter the reorder level as a whole number.").min(0, "The reorder level cannot be negative.").max(STOCK_MAX),
  barcode: z
    .string()
    .trim()
    .transform((v) => v.replace(/\s+/g, ""))
    .refine((v) => v === "" || validGtin(v), "That barcode is not a valid EAN or GTIN (8, 12, 13 or 14 digits with the right check digit).")
    .transform((v) => (v === "" ? null : v))
    .nullable(),
  weight_grams: z.coerce.number({ error: "Enter the weight in grams." }).int("Enter the weight in whole grams.").min(0, "The weight cannot be negative.").max(WEIGHT_MAX_GRAMS).nullable(),
  position: z.coerce.number().int().min(0).max(VARIANTS_MAX),
  status: z.enum(["active", "archived"], { error: "Choose active or archived." }),
});

export const variantPatch = variantFields.partial().strict();
export type VariantPatch = z.output<typeof variantPatch>;

/** A new variant needs its SKU, its option values and a price. */
export const variantCreate = variantFields.omit({ status: true, position: true }).partial().strict().extend({
  sku: variantFields.shape.sku,
  options: variantFields.shape.options,
  price_ex_vat: variantFields.shape.price_ex_vat,
});
export type VariantCreate = z.output<typeof variantCreate>;

/** Every combination of the options' values, in the picker's order: Length × Colour. */
export function combinations(options: { name: string; values: string[] }[]): Record<string, string>[] {
  return options.reduce<Record<string, string>[]>((acc, o) => acc.flatMap((combo) => o.values.map((v) => ({ ...combo, [o.name]: v }))), [{}]);
}

/** A generated variant's SKU: the product's with each value's letters and digits ("CLS-38X63" + "3.0 m" → "CLS-38X63-30M"). */
export function variantSku(productSku: string, options: Record<string, string>): string {
  const tail = Object.values(options)
    .map((v) => v.toUpperCase().replace(/[^A-Z0-9]+/g, ""))
    .filter(Boolean)
    .join("-");
  return `${productSku}-${tail || "V"}`.slice(0, 64);
}
