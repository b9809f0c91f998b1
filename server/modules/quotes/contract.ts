// The quotes' request shapes (issue 32): the customer's and the desk's.
import { z } from "zod";
import { emailField } from "../auth/contract.ts";
import { checkoutBody } from "../checkout/routes.ts";
import { MAX_LINE_QUANTITY, MAX_QUOTE_LINES } from "./lines.ts";
import { QUOTE_STATUSES, quoteNumberPattern } from "./statuses.ts";

const day = (what: string) =>
  z
    .string({ error: `Give ${what} as YYYY-MM-DD.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `Give ${what} as YYYY-MM-DD.`)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T12:00:00Z`)) && new Date(`${d}T12:00:00Z`).toISOString().startsWith(d), `${what[0]!.toUpperCase()}${what.slice(1)} is not a real date.`);

export const quoteNumberParams = z.object({ number: z.string().regex(quoteNumberPattern, "Not a quote number.") });

export const quoteRequestBody = z.object({
  notes: z.string().trim().max(2000, "Notes must be at most 2,000 characters.").optional().default(""),
  needed_by: z.union([z.literal(""), day("the date needed by")]).optional(),
  site_id: checkoutBody.shape.site_id,
});

/** Checkout's fields; the email defaults to the account's. */
export const quoteAcceptBody = checkoutBody.omit({ email: true }).extend({ email: emailField.optional() });

export const quoteDeclineBody = z.object({ reason: z.string().trim().max(1000, "The reason must be at most 1,000 characters.").optional().default("") });
export const quoteChangesBody = z.object({ message: z.string({ error: "Say what you would like changed." }).trim().min(1, "Say what you would like changed.").max(2000, "At most 2,000 characters.") });

const quantity = z.number({ error: "Enter a quantity." }).int("Enter a whole number.").min(1, "At least 1.").max(MAX_LINE_QUANTITY, `At most ${MAX_LINE_QUANTITY.toLocaleString("en-GB")}.`);
const skuLine = z.object({ sku: z.string({ error: "Give a SKU." }).trim().min(1, "Give a SKU.").max(64, "That is not a SKU."), quantity });
const money = (what: string) => z.number({ error: `Enter ${what} in pounds.` }).min(0, `${what[0]!.toUpperCase()}${what.slice(1)} cannot be below £0.00.`).max(1_000_000, "That is more than a quote can hold.");

export const quoteCreateBody = z.object({
  customer_email: emailField,
  lines: z.array(skuLine).min(1, "Add at least one line.").max(MAX_QUOTE_LINES, `At most ${MAX_QUOTE_LINES} lines.`),
  notes: z.string().trim().max(2000).optional().default(""),
  needed_by: z.union([z.literal(""), day("the date needed by")]).optional(),
});

export const quotePatchBody = z.object({
  lines: z
    .array(
      z.object({
        line_id: z.number().int().positive(),
        unit_price_ex_vat: money("the unit price").optional(),
        discount_percent: z.number({ error: "Enter a discount in percent." }).min(0, "At least 0%.").max(100, "At most 100%.").optional(),
        quantity: quantity.optional(),
        remove: z.boolean().optional(),
      }),
    )
    .max(MAX_QUOTE_LINES)
    .optional(),
  add_lines: z.array(skuLine).max(MAX_QUOTE_LINES).optional(),
  delivery_ex_vat: money("delivery").nullable().optional(),
  valid_until: day("the last day").optional(),
  terms: z.string().trim().max(4000, "Terms must be at most 4,000 characters.").optional(),
});

export const quoteListQuery = z.object({ status: z.enum(QUOTE_STATUSES).optional(), cursor: z.coerce.number().int().positive().max(2_147_483_647).optional() });
export const revisionQuery = z.object({ revision: z.coerce.number().int().positive().max(10_000).optional() });
