// What an order taken by staff carries (issue 34's integration contract):
// one zod shape for the JSON API, the screen's form and a saved draft.
import { z } from "zod";
import { ukPostcode } from "../../account/contract.ts";
import { emailField } from "../../auth/contract.ts";
import { labelledList } from "../../../lib/labelled.ts";

export const { values: COUNTER_PAYMENTS, labels: COUNTER_PAYMENT_LABELS } = labelledList({
  card_link: "Card payment link by email",
  on_account: "On account",
  paid_at_counter: "Paid at the counter (card terminal or cash)",
  pay_on_collection: "Pay on collection",
});
export type CounterPayment = (typeof COUNTER_PAYMENTS)[number];

export const LINES_MAX = 100;
export const REASON_MAX = 200;

const phone = z.string().trim().max(30, "The phone number is too long.").regex(/^[0-9+() -]*$/, "Enter a valid phone number.");
const id = (message: string) => z.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

export const counterLine = z.object({
  sku: z.string({ error: "Enter a SKU." }).trim().min(1, "Enter a SKU.").max(64, "A SKU is at most 64 characters."),
  quantity: z.number({ error: "Enter how many." }).int("Enter a whole number.").min(1, "Enter at least 1.").max(10_000, "At most 10,000 at once."),
  unit_price_ex_vat: z.number({ error: "Enter a price in pounds." }).min(0, "A price cannot be below £0.").max(1_000_000, "That price is too high.").multipleOf(0.01, "Give the price to the penny.").optional(),
  reason: z.string().trim().max(REASON_MAX, `A reason is at most ${REASON_MAX} characters.`).optional(),
});

export const counterAddress = z.object({
  name: z.string().trim().max(100, "The name is too long.").optional().default(""),
  company: z.string().trim().max(100, "The company is too long.").optional().default(""),
  line_1: z.string({ error: "Enter the first line of the address." }).trim().min(1, "Enter the first line of the address.").max(100, "This line is too long."),
  line_2: z.string().trim().max(100, "This line is too long.").optional().default(""),
  town: z.string({ error: "Enter the town or city." }).trim().min(1, "Enter the town or city.").max(60, "The town is too long."),
  county: z.string().trim().max(60).optional().default(""),
  postcode: ukPostcode,
});

export const counterOrderBody = z.object({
  customer_id: id("Choose a customer.").optional(),
  customer: z
    .object({
      name: z.string({ error: "Enter the customer's name." }).trim().min(1, "Enter the customer's name.").max(100, "The name is too long."),
      email: z.union([z.literal(""), emailField]).optional(),
      phone: phone.optional(),
    })
    .optional(),
  lines: z.array(counterLine, { error: "Add at least one line." }).min(1, "Add at least one line.").max(LINES_MAX, `At most ${LINES_MAX} lines.`),
  delivery_method: z.string({ error: "Choose delivery or collection." }).trim().min(1, "Choose delivery or collection.").max(40),
  delivery_address: counterAddress.optional(),
  branch_id: id("Choose a branch.").optional(),
  /** On account for a company that keeps sites: the site it is for (trade/sites.ts). */
  site_id: id("Choose a site.").optional(),
  payment: z.enum(COUNTER_PAYMENTS, { error: "Choose how the customer pays." }),
  payment_reference: z.string().trim().max(100, "The reference is at most 100 characters.").optional(),
  po_reference: z.string().trim().max(50, "The purchase-order reference must be at most 50 characters.").optional(),
  notes: z.string().trim().max(1000, "Notes must be at most 1,000 characters.").optional(),
  /** A saved draft this order finishes: deleted with the order's writing. */
  draft_id: id("That draft is not valid.").optional(),
});
export type CounterOrderInput = z.infer<typeof counterOrderBody>;

/** A draft keeps the form as it was, half filled: only its size is checked. */
export const draftBody = z.object({
  label: z.string().trim().max(100, "The label is at most 100 characters.").optional(),
  payload: z.record(z.string(), z.unknown()).refine((p) => JSON.stringify(p).length <= 50_000, "The draft is too large."),
});
export type DraftInput = z.infer<typeof draftBody>;
