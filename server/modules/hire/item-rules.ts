import { z } from "zod";
import { SKU_PATTERN, money, productFields } from "../catalog/products/product-rules.ts";

/**
 * What a hire item's and a hire unit's fields may hold (issue 20): the one set
 * of rules the hire catalogue's screens and `/api/admin/hire` check, as
 * `catalog/products/product-rules.ts` is for products. Rules that need the database (a
 * slug or asset number already taken, a hire category or SKU that does not
 * exist, a unit still booked) are the service's (`hire/admin.ts`), which names
 * the field the same way. A plain module: the screens import it.
 */
export const HIRE_NAME_MAX = 200;
export const HIRE_DESCRIPTION_MAX = 20_000;
export const SPECIFICATIONS_MAX = 30;
export const ASSET_NUMBER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;
export const SERIAL_NUMBER_MAX = 100;

const text = (label: string, max: number) => z.string({ error: `Enter the ${label}.` }).trim().max(max, `The ${label} can be at most ${max} characters.`);

/** Every field a hire item has, as the API names them; each optional, so one schema serves a patch. */
export const hireItemFields = z.object({
  name: text("name", HIRE_NAME_MAX).min(1, "Enter the hire item's name."),
  slug: productFields.shape.slug,
  description: text("description", HIRE_DESCRIPTION_MAX),
  hire_category_id: z.coerce.number({ error: "Choose a hire category." }).int("Choose a hire category.").positive("Choose a hire category.").max(2_147_483_647, "Choose a hire category."),
  specifications: z
    .array(z.object({ name: text("specification name", 60).min(1, "Name each specification."), value: text("specification value", 200).min(1, "Give each specification a value.") }))
    .max(SPECIFICATIONS_MAX, `A hire item can have at most ${SPECIFICATIONS_MAX} specifications.`)
    .refine((list) => new Set(list.map((s) => s.name.toLowerCase())).size === list.length, "Give each specification once."),
  day_rate: money("day rate"),
  weekend_rate: money("weekend rate"),
  week_rate: money("week rate"),
  deposit: money("deposit"),
  vat_rate: productFields.shape.vat_rate,
  /** The same tool for sale, by its SKU; null for none. */
  product_sku: z.string().trim().regex(SKU_PATTERN, "Give the product's SKU, or leave it blank.").nullable(),
});

export const hireItemPatch = hireItemFields.partial().strict();
export type HireItemPatch = z.output<typeof hireItemPatch>;

/** A new hire item needs its name, hire category and the three rates. */
export const hireItemCreate = hireItemPatch.extend({
  name: hireItemFields.shape.name,
  hire_category_id: hireItemFields.shape.hire_category_id,
  day_rate: hireItemFields.shape.day_rate,
  weekend_rate: hireItemFields.shape.weekend_rate,
  week_rate: hireItemFields.shape.week_rate,
});
export type HireItemCreate = z.output<typeof hireItemCreate>;

export const hireUnitFields = z.object({
  asset_number: z.string({ error: "Enter the asset number." }).trim().regex(ASSET_NUMBER_PATTERN, "Use letters, digits, dots, dashes, slashes or underscores for the asset number (at most 40)."),
  serial_number: text("serial number", SERIAL_NUMBER_MAX),
  active: z.boolean({ error: "Say true or false for active." }),
  /** The hire depot the unit is based at, by its slug: changing it moves the unit (a transfer, with its history). */
  depot: z.string({ error: "Choose the unit's depot." }).regex(/^[a-z0-9-]{1,80}$/, "Choose one of our hire depots."),
});
export const hireUnitCreate = hireUnitFields.pick({ asset_number: true, serial_number: true, depot: true }).partial({ serial_number: true, depot: true }).strict();
export const hireUnitPatch = hireUnitFields.partial().strict();
export type HireUnitCreate = z.output<typeof hireUnitCreate>;
export type HireUnitPatch = z.output<typeof hireUnitPatch>;
