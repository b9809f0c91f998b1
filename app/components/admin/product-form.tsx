import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { SPARE_ATTRIBUTE_ROWS } from "../../lib/admin/product-form.ts";
import { formatPounds } from "../../lib/money.ts";
import { incVat } from "../../../server/modules/catalog/products/prices.ts";
import { CategoryPicker } from "./category-picker.tsx";
import { DescriptionField } from "./description-field.tsx";
import { FieldError } from "./field-error.tsx";
import { NewPhotos } from "./new-photos.tsx";
import { ADMIN_CONTROL, type FieldErrors } from "./form-field.tsx";
import { NameValueRows, SaveBar, SlugField, VatRateField, formOf } from "./form-rows.tsx";
import { Options } from "./options.tsx";

export interface ProductFormValues {
  sku: string;
  name: string;
  slug: string;
  status: "draft" | "published" | "archived";
  summary: string;
  description_html: string;
  brand_id: number | null;
  category_ids: number[];
  vat_rate: number;
  price_ex_vat: string;
  was_price_ex_vat: string;
  stock: number;
  reorder_level: number;
  heavy: boolean;
  returnable: boolean;
  non_returnable_reason: string;
  featured: boolean;
  attributes: { name: string; value: string }[];
  related_skus: string[];
  seo_title: string;
  seo_description: string;
  /** Aisle, bay and shelf (A3-B2-S1): the picking list sorts by it. */
  bin_location: string;
  /** What the product's categories ask for, typed (server/modules/catalog/categories/attribute-sets.ts). */
  attribute_set: { name: string; kind: "text" | "number" | "yes_no"; unit: string }[];
}

export interface ProductFormChoices {
  categories: { id: number; name: string; path: string }[];
  brands: { id: number; name: string }[];
}

type Errors = FieldErrors;

const control = ADMIN_CONTROL;

/** The inc-VAT price as the storefront will show it, rounded half-up to the penny like the server. */
function incVatText(price: string, vatRate: number): string {
  const pence = Math.round(Number(price.replace(/[£,\s]/g, "")) * 100);
  if (!Number.isFinite(pence) || pence < 0 || price.trim() === "") return "—";
  return formatPounds(incVat(pence, vatRate) / 100);
}

const { Field, described } = formOf("product");

/**
 * Every field a product has, for the new-product and edit screens. A member
 * who may count stock but not edit the catalogue sees the catalogue fields
 * read-only; the action sends only what their role may change.
 */
export function ProductForm({
  values,
  choices,
  errors,
  access,
  submitLabel,
  isNew,
  variants,
}: {
  values: ProductFormValues;
  choices: ProductFormChoices;
  errors: Errors;
  access: { catalogue: boolean; stock: boolean };
  submitLabel: string;
  isNew: boolean;
  /** A product with several variants: its SKU, prices and stock are each variant's, on that screen. */
  variants?: { count: number; href: string };
}) {
  const several = (variants?.count ?? 1) > 1;
  const [price, setPrice] = useState(values.price_ex_vat);
  const [vat, setVat] = useState(values.vat_rate);
  const [seoTitle, setSeoTitle] = useState(values.seo_title);
  const [seoDescription, setSeoDescription] = useState(values.seo_description);
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const locked = !access.catalogue;
  const inSet = (name: string) => values.attribute_set.some((s) => s.name.toLowerCase() === name.toLowerCase());
  const valueOf = (name: string) => values.attributes.find((a) => a.name.toLowerCase() === name.toLowerCase())?.value ?? "";
  const free = values.attributes.filter((a) => !inSet(a.name));
  const attributeRows = [...free, ...Array.from({ length: SPARE_ATTRIBUTE_ROWS }, () => ({ name: "", value: "" }))];

  return (
    // A new product's photos go with it: the form is multipart then.
    <Form method="post" noValidate encType={isNew ? "multipart/form-data" : undefined} className="grid gap-6" aria-label={isNew ? "New product" : `Edit ${values.name}`}>
      <input type="hidden" name="intent" value="save" />
      {access.catalogue ? (
        <>
          <input type="hidden" name="categories_shown" value="1" />
          <input type="hidden" name="flags_shown" value="1" />
          <input type="hidden" name="attributes_shown" value="1" />
        </>
      ) : null}

      <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-2" disabled={locked}>
        <legend className="px-1 text-lg font-bold">The product</legend>
        <Field id="name" label="Name" errors={errors} className="sm:col-span-2">
          <input {...described("name", errors)} defaultValue={values.name} required maxLength={200} className={control} />
        </Field>
        {several ? null : (
          <Field id="sku" label="SKU" errors={errors} hint="Letters, digits, dots, dashes, slashes or underscores.">
            <input {...described("sku", errors, true)} defaultValue={values.sku} required maxLength={64} autoCapitalize="characters" spellCheck={false} className={`${control} font-mono`} />
          </Field>
        )}
        <SlugField prefix="product" base="/product/" value={values.slug} errors={errors} isNew={isNew} />
        <Field id="brand_id" label="Brand" errors={errors}>
          <select {...described("brand_id", errors)} defaultValue={values.brand_id ?? ""} className={control}>
            <option value="">No brand</option>
            <Options of={choices.brands} value={(b) => b.id} label={(b) => b.name} />
          </select>
        </Field>
        <Field id="status" label="Shown on the shop" errors={errors} hint="Drafts and archived products are never shown, found or sold.">
          <select {...described("status", errors, true)} defaultValue={values.status} className={control}>
            <option value="draft">Draft: not on the shop yet</option>
            <option value="published">Published: on sale</option>
            <option value="archived">Archived: withdrawn</option>
          </select>
          <FieldError messages={errors?.published} />
        </Field>
        <Field id="summary" label="Summary" errors={errors} hint="One line under the name on cards and the product page." className="sm:col-span-2">
          <input {...described("summary", errors, true)} defaultValue={values.summary} maxLength={500} className={control} />
        </Field>
        <Field
          id="description_html"
          label="Description"
          errors={errors}
          hint="Paragraphs, bold, italics, lists, sub-headings, quotes and links. Anything else, scripts and styles included, is removed when saved."
          className="sm:col-span-2"
        >
          <DescriptionField
            id="product-description_html"
            name="description_html"
            defaultValue={values.description_html}
            describedBy={described("description_html", errors, true)["aria-describedby"]}
            invalid={!!errors?.description_html?.length}
            disabled={locked}
            className={`${control} py-2 font-mono text-sm`}
          />
        </Field>
      </fieldset>

      <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-3" disabled={locked}>
        <legend className="px-1 text-lg font-bold">Price</legend>
        {several ? (
          <p className="text-sm sm:col-span-2" data-testid="variant-prices-note">
            This product has {variants!.count} variants: each has its own SKU, price, was price, stock and reorder level.{" "}
            <Link to={variants!.href} className="link">
              Change them on Options and variants
            </Link>
            .
          </p>
        ) : (
          <Field id="price_ex_vat" label="Price ex VAT (£)" errors={errors}>
            <input {...described("price_ex_vat", errors)} value={price} onChange={(e) => setPrice(e.currentTarget.value)} inputMode="decimal" required className={control} />
          </Field>
        )}
        <VatRateField prefix="product" value={vat} onChange={setVat} errors={errors} />
        {several ? null : (
          <>
            <div className="grid content-start gap-1 text-sm">
              <span className="font-semibold">Price inc VAT, as the shop shows it</span>
              <output htmlFor="product-price_ex_vat product-vat_rate" aria-live="polite" className="min-h-10 content-center text-xl font-bold" data-testid="price-inc-vat">
                {incVatText(price, vat)}
              </output>
            </div>
            <Field id="was_price_ex_vat" label="Was price ex VAT (£)" errors={errors} hint="Shown struck through; leave blank for none.">
              <input {...described("was_price_ex_vat", errors, true)} defaultValue={values.was_price_ex_vat} inputMode="decimal" className={control} />
            </Field>
          </>
        )}
        <div className="flex flex-wrap items-center gap-4 text-sm sm:col-span-2">
          <label className="inline-flex min-h-10 items-center gap-2 font-semibold">
            <input type="checkbox" name="heavy" defaultChecked={values.heavy} className="size-4" /> Heavy or bulky (delivery surcharge)
          </label>
          <label className="inline-flex min-h-10 items-center gap-2 font-semibold">
            <input type="checkbox" name="featured" defaultChecked={values.featured} className="size-4" /> Featured on the home page
          </label>
          <label className="inline-flex min-h-10 items-center gap-2 font-semibold">
            <input type="checkbox" name="non_returnable" defaultChecked={!values.returnable} className="size-4" /> Cannot be returned (cut to length, made to order)
          </label>
        </div>
        <Field id="non_returnable_reason" label="Why it cannot be returned" errors={errors} hint="Shown on the customer's order page when it cannot be returned; a faulty item can always be." className="sm:col-span-2">
          <input {...described("non_returnable_reason", errors, true)} defaultValue={values.non_returnable_reason} maxLength={200} className={control} />
        </Field>
      </fieldset>

      {several ? null : (
      <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-3" disabled={!access.stock}>
        <legend className="px-1 text-lg font-bold">Stock</legend>
        <input type="hidden" name="stock_was" value={values.stock} />
        <Field id="stock" label={isNew ? "Opening stock" : "Stock on the shelf"} errors={errors} hint={isNew ? "Recorded in the stock ledger as opening stock." : "A new figure is recorded as a stock count."}>
          <input {...described("stock", errors, true)} defaultValue={values.stock} inputMode="numeric" className={control} />
        </Field>
        <Field id="reorder_level" label="Reorder level" errors={errors} hint="At or below this, the stock is called low.">
          <input {...described("reorder_level", errors, true)} defaultValue={values.reorder_level} inputMode="numeric" required className={control} />
        </Field>
        <Field id="bin_location" label="Bin location" errors={errors} hint="Aisle, bay and shelf, such as A3-B2-S1. Picking lists go in this order.">
          <input {...described("bin_location", errors, true)} defaultValue={values.bin_location} maxLength={30} spellCheck={false} autoCapitalize="characters" className={`${control} font-mono`} />
        </Field>
      </fieldset>
      )}

      <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4" disabled={locked}>
        <legend className="px-1 text-lg font-bold">Categories</legend>
        <CategoryPicker categories={choices.categories} chosen={values.category_ids} errors={errors?.category_ids} disabled={locked} />
      </fieldset>

      {isNew ? <NewPhotos errors={errors?.photos} /> : null}

      <fieldset className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4" disabled={locked}>
        <legend className="px-1 text-lg font-bold">Attributes</legend>
        <p className="text-sm text-stone-600">Shown in the specification table and offered as filters on category pages. Leave a row blank to remove it.</p>
        <FieldError messages={errors?.attributes} />
        {values.attribute_set.length ? (
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="attribute-set">
            {values.attribute_set.map((spec, i) => {
              const id = `set-attribute-${i}`;
              const current = valueOf(spec.name);
              return (
                <div key={spec.name} className="grid content-start gap-1 text-sm">
                  <input type="hidden" name="set_attribute_name" value={spec.name} />
                  <label htmlFor={id} className="font-semibold">
                    {spec.name}
                    {spec.kind === "number" && spec.unit ? <span className="font-normal text-stone-600"> ({spec.unit})</span> : null}
                  </label>
                  {spec.kind === "yes_no" ? (
                    <select id={id} name="set_attribute_value" defaultValue={/^yes$/i.test(current) ? "Yes" : /^no$/i.test(current) ? "No" : ""} className={control}>
                      <option value="">Not given</option>
                      <option value="Yes">Yes</option>
                      <option value="No">No</option>
                    </select>
                  ) : (
                    <input
                      id={id}
                      name="set_attribute_value"
                      defaultValue={spec.kind === "number" && spec.unit && current.toLowerCase().endsWith(spec.unit.toLowerCase()) ? current.slice(0, -spec.unit.length) : current}
                      inputMode={spec.kind === "number" ? "decimal" : undefined}
                      maxLength={200}
                      className={control}
                    />
                  )}
                </div>
              );
            })}
          </div>
        ) : (
          <p className="text-sm text-stone-600">Its categories ask for no particular attributes{values.category_ids.length ? "" : " (choose its categories first)"}; add any below.</p>
        )}
        <NameValueRows fields={["attribute_name", "attribute_value"]} what="Attribute" rows={attributeRows} blankFrom={free.length} examples={["e.g. Colour", "e.g. Blue"]} control={control} />
      </fieldset>

      <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-2" disabled={locked}>
        <legend className="px-1 text-lg font-bold">Related products and search engines</legend>
        <Field id="related_skus" label="Related products (SKUs)" errors={errors} hint="Separated by commas or spaces; shown as “You may also need”." className="sm:col-span-2">
          <input {...described("related_skus", errors, true)} defaultValue={values.related_skus.join(", ")} spellCheck={false} className={`${control} font-mono`} />
        </Field>
        <Field id="seo_title" label="Search engine title" errors={errors} hint={`Blank: the name, brand and SKU. ${seoTitle.length} of 70 characters.`}>
          <input {...described("seo_title", errors, true)} value={seoTitle} onChange={(e) => setSeoTitle(e.currentTarget.value)} maxLength={70} className={control} />
        </Field>
        <Field id="seo_description" label="Search engine description" errors={errors} hint={`Blank: the summary and price. ${seoDescription.length} of 160 characters.`}>
          <textarea {...described("seo_description", errors, true)} value={seoDescription} onChange={(e) => setSeoDescription(e.currentTarget.value)} maxLength={160} rows={3} className={`${control} py-2`} />
        </Field>
      </fieldset>

      <SaveBar saving={saving} label={submitLabel}>
        {locked ? <span className="text-sm text-stone-700">Your role may change the stock and reorder level only.</span> : null}
      </SaveBar>
    </Form>
  );
}
