/**
 * The product form's fields as the API names them (server/modules/catalog/
 * product-rules.ts checks them): one reading for the new-product and the edit
 * screens. A member without `catalogue.manage` sends only the stock fields.
 */
export interface ProductFormAccess {
  catalogue: boolean;
  stock: boolean;
}

/** Attribute rows the form shows beyond a product's own: room to add without scripts. */
export const SPARE_ATTRIBUTE_ROWS = 3;

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** The catalogue's own fields: a form carrying any of them from a role without `catalogue.manage` was not this screen's. */
const TEXT_FIELDS = ["sku", "name", "slug", "summary", "description_html", "seo_title", "seo_description", "price_ex_vat", "vat_rate", "status", "non_returnable_reason"];
const CATALOGUE_FIELDS = [...TEXT_FIELDS, "was_price_ex_vat", "brand_id", "categories_shown", "flags_shown", "attributes_shown", "related_skus"];

export function sendsCatalogueFields(form: FormData): boolean {
  return CATALOGUE_FIELDS.some((name) => form.has(name));
}

export function productInputFrom(form: FormData, access: ProductFormAccess): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (access.catalogue) {
    for (const name of TEXT_FIELDS) {
      if (form.has(name)) input[name] = text(form, name);
    }
    // A blank web address on a new product is made from its name.
    if (input.slug === "") delete input.slug;
    if (form.has("was_price_ex_vat")) input.was_price_ex_vat = text(form, "was_price_ex_vat").trim() === "" ? null : text(form, "was_price_ex_vat");
    if (form.has("brand_id")) input.brand_id = text(form, "brand_id") === "" ? null : text(form, "brand_id");
    if (form.has("categories_shown")) input.category_ids = form.getAll("category_ids").map(String);
    if (form.has("flags_shown")) {
      input.heavy = form.get("heavy") === "on";
      input.returnable = form.get("non_returnable") !== "on";
      input.featured = form.get("featured") === "on";
    }
    if (form.has("attributes_shown")) {
      const names = form.getAll("attribute_name").map(String);
      const values = form.getAll("attribute_value").map(String);
      // The category's typed attributes first (left blank: not given), then the free rows.
      const setNames = form.getAll("set_attribute_name").map(String);
      const setValues = form.getAll("set_attribute_value").map(String);
      input.attributes = [
        ...setNames.map((name, i) => ({ name, value: setValues[i] ?? "" })).filter((a) => a.value.trim() !== ""),
        ...names.map((name, i) => ({ name, value: values[i] ?? "" })).filter((a) => a.name.trim() !== "" || a.value.trim() !== ""),
      ];
    }
    if (form.has("related_skus")) {
      input.related_skus = text(form, "related_skus")
        .split(/[\s,]+/)
        .filter(Boolean);
    }
  }
  if (access.stock) {
    if (form.has("reorder_level")) input.reorder_level = text(form, "reorder_level");
    if (form.has("bin_location")) input.bin_location = text(form, "bin_location");
    // The stock is sent only when it was changed on the form: a save must not count back a sale made while it was open.
    const stock = text(form, "stock").trim();
    if (form.has("stock") && stock !== text(form, "stock_was")) input.stock = stock === "" ? "not a number" : stock;
  }
  return input;
}
