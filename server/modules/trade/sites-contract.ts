// What the sites API takes and answers (issue 32).
import { z } from "zod";
import { ukPostcode } from "../account/contract.ts";

// No defaults: a change (PATCH) leaves what it does not name as it is; a new site takes the table's defaults.
const optionalText = (max: number, label: string) => z.string().trim().max(max, `${label} must be at most ${max} characters.`).optional();

export const siteBody = z.object({
  name: z.string({ error: "Enter the site's name." }).trim().min(1, "Enter the site's name.").max(80, "The site's name must be at most 80 characters."),
  line1: z.string({ error: "Enter the first line of the address." }).trim().min(1, "Enter the first line of the address.").max(100, "The address line must be at most 100 characters."),
  line2: optionalText(100, "The second address line"),
  town: z.string({ error: "Enter the town or city." }).trim().min(1, "Enter the town or city.").max(60, "The town must be at most 60 characters."),
  county: optionalText(60, "The county"),
  postcode: ukPostcode,
  contact_name: optionalText(100, "The contact's name"),
  contact_phone: z.string().trim().max(30, "The phone number is too long.").regex(/^[0-9+() -]*$/, "Enter a valid phone number.").optional(),
  po_required: z.boolean().optional(),
  po_prefix: z.string().trim().max(20, "The PO prefix must be at most 20 characters.").regex(/^[A-Za-z0-9/_-]*$/, "A PO prefix is letters, numbers, - / or _.").optional(),
});
export type SiteBody = z.infer<typeof siteBody>;

/** A change: any of the fields, or `archived` to archive a finished site (or bring one back). */
export const sitePatchBody = siteBody.partial().extend({ archived: z.boolean().optional() });
export type SitePatch = z.infer<typeof sitePatchBody>;

export const siteJson = z.object({
  id: z.number().int(),
  name: z.string(),
  line1: z.string(),
  line2: z.string(),
  town: z.string(),
  county: z.string(),
  postcode: z.string(),
  contact_name: z.string(),
  contact_phone: z.string(),
  po_required: z.boolean(),
  po_prefix: z.string(),
  archived: z.boolean(),
});
export type SiteJson = z.infer<typeof siteJson>;
