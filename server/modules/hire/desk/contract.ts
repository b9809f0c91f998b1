import { z } from "zod";
import { money } from "../../catalog/products/product-rules.ts";
import { dayNumber } from "../pricing.ts";

/**
 * The hire desk's inputs (issue 21), one schema each for the API and the
 * request screen's actions. Money comes in pounds and leaves as pence.
 */
const date = (label: string) => z.string({ error: `Choose the ${label}.` }).trim().refine((v) => dayNumber(v) !== null, `Choose a valid ${label} (YYYY-MM-DD).`);
const text = (label: string, max: number) => z.string({ error: `Enter the ${label}.` }).trim().max(max, `The ${label} can be at most ${max} characters.`);
const id = z.coerce.number().int().positive().max(2_147_483_647);

export const approveBody = z.object({
  reason: text("reason", 1000).optional(),
  lines: z
    .array(
      z.object({
        line_id: id,
        start_date: date("start date").optional(),
        end_date: date("return date").optional(),
        asset_numbers: z.array(text("asset number", 40).min(1)).max(99).optional(),
        hire_cost: money("hire price").optional(),
      }),
    )
    .max(50)
    .optional(),
});
export const declineBody = z.object({ reason: text("reason", 1000).min(1, "Say why the request is declined: the customer is told.") });
export const proposeBody = z.object({ start_date: date("start date"), end_date: date("return date"), message: text("message", 1000).optional() });
export const handOverBody = z.object({
  allocation_id: id,
  asset_number: text("asset number", 40).min(1, "Choose the unit going out by its asset number."),
  condition: text("condition", 2000).min(1, "Record the unit's condition as it goes out."),
  accessories: text("accessories", 1000).optional(),
  id_checked: z.boolean({ error: "Say whether the customer's ID was checked." }),
  id_type: text("ID type", 100).optional(),
});
export const offHireBody = z.object({ date: date("off-hire date").optional(), note: text("note", 1000).optional(), handover_ids: z.array(id).max(99).optional() });
export const chargeBody = z.object({
  kind: z.enum(["damage", "cleaning", "other"], { error: "Choose damage, cleaning or other." }),
  description: text("description", 300).optional(),
  reason: text("reason", 1000).min(1, "Give the reason for the charge: the customer sees it."),
  amount: money("amount"),
});
export const returnBody = z.object({
  returned_on: date("return date").optional(),
  condition: text("condition", 2000).min(1, "Record the unit's condition as it comes back."),
  charges: z.array(chargeBody).max(20).optional(),
  service_days: z.coerce.number().int("Give whole days.").min(1, "At least 1 day.").max(365, "At most 365 days.").optional(),
  service_reason: text("service reason", 500).optional(),
});
export const serviceBody = z.object({
  days: z.coerce.number({ error: "Give the number of days." }).int("Give whole days.").min(1, "At least 1 day.").max(365, "At most 365 days."),
  reason: text("reason", 500).min(1, "Say why the unit goes to service."),
  from: date("first day").optional(),
});
export const settleBody = z.object({ method: z.enum(["account", "card", "arranged"]).optional(), note: text("note", 1000).optional() });

/** Hires taken by staff (issue 34): one unit of an item for a customer's account or a walk-in. */
export const bookingQuoteQuery = z.object({
  hire_item: text("hire item", 200).min(1, "Choose a hire item."),
  starts_on: date("start date"),
  ends_on: date("return date"),
});
export type BookingQuoteInput = z.infer<typeof bookingQuoteQuery>;
const phoneField = z
  .string({ error: "Enter the customer's phone number." })
  .trim()
  .min(1, "Enter the customer's phone number.")
  .max(30, "The phone number is too long.")
  .regex(/^[0-9+() -]*$/, "Enter a valid phone number.");
export const walkInCustomer = z.object({
  name: text("customer's name", 200).min(1, "Enter the customer's name."),
  phone: phoneField,
  email: z
    .string()
    .trim()
    .max(254, "The email address is too long.")
    .pipe(z.union([z.literal(""), z.email("Enter a valid email address.")]))
    .optional()
    .transform((v) => v || undefined),
});
export const bookingBody = bookingQuoteQuery
  .extend({
    unit_id: id.optional(),
    customer_id: id.optional(),
    customer: walkInCustomer.optional(),
    notes: text("notes", 1000).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.customer_id === undefined && b.customer === undefined) ctx.addIssue({ code: "custom", path: ["customer"], message: "Choose a customer or enter a walk-in's name and phone." });
    if (b.customer_id !== undefined && b.customer !== undefined) ctx.addIssue({ code: "custom", path: ["customer"], message: "Choose a customer or a walk-in, not both." });
  });
export type BookingInput = z.infer<typeof bookingBody>;
