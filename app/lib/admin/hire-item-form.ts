/**
 * The hire item form's fields as the API names them (server/modules/hire/
 * item-rules.ts checks them): one reading for the new and the edit screens,
 * and the values the form shows again after a refusal, so nothing typed is lost.
 */
export interface HireItemFormValues {
  name: string;
  slug: string;
  description: string;
  hire_category_id: number | null;
  specifications: { name: string; value: string }[];
  day_rate: string;
  weekend_rate: string;
  week_rate: string;
  deposit: string;
  vat_rate: number;
  product_sku: string;
}

export const EMPTY_HIRE_ITEM: HireItemFormValues = {
  name: "",
  slug: "",
  description: "",
  hire_category_id: null,
  specifications: [],
  day_rate: "",
  weekend_rate: "",
  week_rate: "",
  deposit: "0.00",
  vat_rate: 20,
  product_sku: "",
};

/** Specification rows the form shows beyond an item's own: room to add without scripts. */
export const SPARE_SPECIFICATION_ROWS = 3;

const TEXT_FIELDS = ["name", "slug", "description", "day_rate", "weekend_rate", "week_rate", "deposit", "vat_rate", "hire_category_id"] as const;

export function hireItemInputFrom(form: FormData): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) if (form.has(name)) input[name] = String(form.get(name) ?? "");
  // A blank web address on a new item is made from its name.
  if (input.slug === "") delete input.slug;
  if (input.hire_category_id === "") input.hire_category_id = "not chosen";
  if (form.has("product_sku")) {
    const sku = String(form.get("product_sku") ?? "").trim();
    input.product_sku = sku === "" ? null : sku;
  }
  if (form.has("specifications_shown")) {
    const names = form.getAll("specification_name").map(String);
    const values = form.getAll("specification_value").map(String);
    input.specifications = names.map((name, i) => ({ name, value: values[i] ?? "" })).filter((s) => s.name.trim() !== "" || s.value.trim() !== "");
  }
  return input;
}

/** What was sent, as the form shows it again after a refusal. */
export function hireItemValuesFrom(input: Record<string, unknown>, base: HireItemFormValues = EMPTY_HIRE_ITEM): HireItemFormValues {
  const str = (k: keyof HireItemFormValues) => (typeof input[k] === "string" ? (input[k] as string) : (base[k] as string));
  const category = Number(input.hire_category_id);
  return {
    name: str("name"),
    slug: typeof input.slug === "string" ? input.slug : base.slug,
    description: str("description"),
    hire_category_id: Number.isInteger(category) && category > 0 ? category : input.hire_category_id === undefined ? base.hire_category_id : null,
    specifications: Array.isArray(input.specifications) ? (input.specifications as { name: string; value: string }[]) : base.specifications,
    day_rate: str("day_rate"),
    weekend_rate: str("weekend_rate"),
    week_rate: str("week_rate"),
    deposit: str("deposit"),
    vat_rate: input.vat_rate === undefined ? base.vat_rate : Number(input.vat_rate),
    product_sku: input.product_sku === null ? "" : typeof input.product_sku === "string" ? input.product_sku : base.product_sku,
  };
}
