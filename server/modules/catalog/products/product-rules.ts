import { z } from "zod";
import { type FieldErrors, ValidationError } from "../../../http-errors.ts";
import { penceFrom } from "./prices.ts";
import { PRODUCT_STATUSES } from "./product-status.ts";

/**
 * What a product's fields may hold: the one set of rules the edit screen, the
 * `/api/admin/products` API and the CSV import all check (issue 20). Rules
 * that need the database (a SKU or slug already taken, a brand or category that
 * does not exist) are the service's, which names the field the same way.
 */
export const VAT_RATES = [20, 5, 0] as const;
export const PRICE_MAX_PENCE = 10_000_000; // £100,000 ex VAT: anything dearer is a typing slip
export const STOCK_MAX = 1_000_000;
export const NAME_MAX = 200;
export const SUMMARY_MAX = 500;
export const DESCRIPTION_MAX = 20_000;
export const SEO_TITLE_MAX = 70;
export const SEO_DESCRIPTION_MAX = 160;
export const ATTRIBUTES_MAX = 30;
export const RELATED_MAX = 12;
export const CATEGORIES_MAX = 10;
/** Aisle, bay and shelf as the warehouse writes them ("A3-B2-S1"): the picking list sorts by it. */
export const BIN_LOCATION_MAX = 30;

export const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A slug from a name: "Makita DHP485 18V" → "makita-dhp485-18v". */
export function slugFrom(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200)
    .replace(/-+$/, "");
}

export { penceFrom };

export const money = (label: string) =>
  z.union([z.number(), z.string()], { error: `Enter the ${label} in pounds, such as 12.50.` }).transform((value, ctx) => {
    const pence = penceFrom(value);
    if (Number.isNaN(pence)) {
      ctx.addIssue({ code: "custom", message: `Enter the ${label} in pounds with at most 2 decimals, such as 12.50.` });
      return z.NEVER;
    }
    if (pence < 0) {
      ctx.addIssue({ code: "custom", message: `The ${label} cannot be negative.` });
      return z.NEVER;
    }
    if (pence > PRICE_MAX_PENCE) {
      ctx.addIssue({ code: "custom", message: `The ${label} can be at most £${(PRICE_MAX_PENCE / 100).toLocaleString("en-GB")}.` });
      return z.NEVER;
    }
    return pence;
  });

const count = (label: string) =>
  z.coerce
    .number({ error: `Enter the ${label} as a whole number.` })
    .int(`Enter the ${label} as a whole number.`)
    .min(0, `The ${label} cannot be negative.`)
    .max(STOCK_MAX, `The ${label} can be at most ${STOCK_MAX.toLocaleString("en-GB")}.`);

const text = (label: string, max: number) => z.string({ error: `Enter the ${label}.` }).trim().max(max, `The ${label} can be at most ${max} characters.`);

/** Every field a product has, as the API names them; each optional, so one schema serves a patch. */
export const productFields = z.object({
  sku: z.string({ error: "Enter the SKU." }).trim().regex(SKU_PATTERN, "Use letters, digits, dots, dashes, slashes or underscores for the SKU (at most 64)."),
  name: text("name", NAME_MAX).min(1, "Enter the product's name."),
  slug: z.string().trim().toLowerCase().regex(SLUG_PATTERN, "Use lower-case letters, digits and single dashes for the web address."),
  summary: text("summary", SUMMARY_MAX),
  description_html: text("description", DESCRIPTION_MAX),
  brand_id: z.coerce.number().int().positive("Choose a brand.").nullable(),
  category_ids: z.array(z.coerce.number().int().positive()).max(CATEGORIES_MAX, `Choose at most ${CATEGORIES_MAX} categories.`),
  vat_rate: z.coerce.number().refine((v): v is (typeof VAT_RATES)[number] => (VAT_RATES as readonly number[]).includes(v), "The VAT rate is 20, 5 or 0 per cent."),
  price_ex_vat: money("price"),
  was_price_ex_vat: money("was price").nullable(),
  stock: count("stock"),
  reorder_level: count("reorder level"),
  heavy: z.boolean(),
  /** Whether a customer may send it back (issue 31); when not, the reason the order page gives. */
  returnable: z.boolean(),
  non_returnable_reason: text("reason it cannot be returned", 200),
  featured: z.boolean(),
  status: z.enum(PRODUCT_STATUSES, { error: "Choose draft, published or archived." }),
  published: z.boolean({ error: "Say true or false for published." }),
  attributes: z
    .array(z.object({ name: text("attribute name", 60).min(1, "Name each attribute."), value: text("attribute value", 200).min(1, "Give each attribute a value.") }))
    .max(ATTRIBUTES_MAX, `A product can have at most ${ATTRIBUTES_MAX} attributes.`)
    .refine((list) => new Set(list.map((a) => a.name.toLowerCase())).size === list.length, "Give each attribute once."),
  related_skus: z.array(z.string().trim().regex(SKU_PATTERN, "List related products by SKU.")).max(RELATED_MAX, `Choose at most ${RELATED_MAX} related products.`),
  seo_title: text("search engine title", SEO_TITLE_MAX),
  seo_description: text("search engine description", SEO_DESCRIPTION_MAX),
  bin_location: text("bin location", BIN_LOCATION_MAX),
});

export const productPatch = productFields.partial().strict();
export type ProductPatch = z.output<typeof productPatch>;
export type ProductPatchInput = z.input<typeof productPatch>;

/** A new product needs at least a SKU, a name and a price. */
export const productCreate = productFields.partial().strict().extend({ sku: productFields.shape.sku, name: productFields.shape.name, price_ex_vat: productFields.shape.price_ex_vat });
export type ProductCreate = z.output<typeof productCreate>;

/** Input checked against the rules, or a ValidationError naming each bad field. */
export function parseProduct<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ValidationError(fieldErrorsOf(parsed.error));
  return parsed.data;
}

/** Zod's issues as `{field: [messages]}`, the field named as the API names it. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out = new Map<string, string[]>();
  for (const issue of error.issues) {
    const field = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : String(issue.path[0] ?? "product");
    const message = issue.code === "unrecognized_keys" ? "is not a field of a product." : issue.message;
    out.set(field, [...(out.get(field) ?? []), message]);
  }
  return Object.fromEntries(out);
}

