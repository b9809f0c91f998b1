import { isValid, toNormalised } from "postcode";
import { z } from "zod";
import { emailField, nameField, userJson } from "../auth/contract.ts";
import { newPassword } from "../auth/passwords.ts";

const optionalText = (label: string, max = 100) =>
  z
    .string()
    .trim()
    .max(max, `The ${label} must be at most ${max} characters.`)
    .optional()
    .default("");

const phone = z
  .string()
  .trim()
  .max(30, "The phone number is too long.")
  .regex(/^[0-9+() -]*$/, "Enter a valid phone number.")
  .optional()
  .default("");

export const profileBody = z.object({
  firstname: nameField("first name"),
  lastname: nameField("last name"),
  phone,
  email: emailField.optional(),
  current_password: z.string().max(1024).optional(),
});

export const passwordBody = z
  .object({
    current_password: z.string({ error: "Enter your current password." }).min(1, "Enter your current password.").max(1024),
    password: newPassword,
    password_confirmation: z.string({ error: "Confirm the password." }),
  })
  .refine((b) => b.password === b.password_confirmation, {
    message: "The password confirmation does not match.",
    path: ["password_confirmation"],
  });

/** A UK postcode, validated and normalised (`sw1a1aa` → `SW1A 1AA`). */
export const ukPostcode = z
  .string({ error: "Enter a valid UK postcode." })
  .trim()
  .refine((p) => isValid(p), "Enter a valid UK postcode.")
  .transform((p) => toNormalised(p) ?? p);

export const addressBody = z.object({
  firstname: nameField("first name"),
  lastname: nameField("last name"),
  company: optionalText("company name"),
  line1: z.string({ error: "Enter the first line of the address." }).trim().min(1, "Enter the first line of the address.").max(100, "The address line must be at most 100 characters."),
  line2: optionalText("second address line"),
  town: z.string({ error: "Enter the town or city." }).trim().min(1, "Enter the town or city.").max(60, "The town must be at most 60 characters."),
  county: optionalText("county", 60),
  postcode: ukPostcode,
  phone,
  is_default_delivery: z.boolean().optional().default(false),
  is_default_billing: z.boolean().optional().default(false),
});
export type AddressInput = z.infer<typeof addressBody>;

export const addressJson = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  company: z.string(),
  line1: z.string(),
  line2: z.string(),
  town: z.string(),
  county: z.string(),
  postcode: z.string(),
  phone: z.string(),
  is_default_delivery: z.boolean(),
  is_default_billing: z.boolean(),
});
export type AddressJson = z.infer<typeof addressJson>;

export const NEWSLETTER_TOPICS = ["offers", "new-products", "hire", "trade"] as const;
export const newsletterJson = z.object({
  subscribed: z.boolean(),
  topics: z.array(z.enum(NEWSLETTER_TOPICS, { error: "Choose topics from the list." })).max(NEWSLETTER_TOPICS.length),
});
export type NewsletterJson = z.infer<typeof newsletterJson>;

export const addressIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export { userJson };
