import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { type HireItemFormValues, SPARE_SPECIFICATION_ROWS } from "../../lib/admin/hire-item-form.ts";
import { formatPounds } from "../../lib/money.ts";
import { extraDayRate, rateExamples } from "../../../server/modules/hire/rate-card.ts";
import { incVat, penceFrom } from "../../../server/modules/catalog/products/prices.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL, type FieldErrors } from "./form-field.tsx";
import { NameValueRows, SaveBar, SlugField, VatRateField, formOf } from "./form-rows.tsx";
import { Options } from "./options.tsx";
import { HeadRow } from "../head-row.tsx";

type Errors = FieldErrors;

const control = ADMIN_CONTROL;

/** Pence from what is typed, or null while it is not an amount. */
function pence(typed: string): number | null {
  const p = penceFrom(typed);
  return Number.isNaN(p) || p < 0 ? null : p;
}
const money = (p: number | null) => (p === null ? "—" : formatPounds(p / 100));
const incVatOf = (p: number | null, vat: number) => (p === null ? null : incVat(p, vat));
const dayName = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

const { Field, described } = formOf("hire");

/**
 * Every field of a hire item, for the new and edit screens: the item, its
 * rate card (day, weekend and week ex VAT with the inc-VAT figures, deposit,
 * VAT rate, and what a day, a weekend, a week and ten days come to through the
 * storefront's own pricing engine as the rates are typed), specifications and
 * the linked product. A member who may only read sees it all disabled.
 */
export function HireItemForm({
  values,
  categories,
  errors,
  canManage,
  today,
  submitLabel,
  isNew,
}: {
  values: HireItemFormValues;
  categories: { id: number; name: string }[];
  errors: Errors;
  canManage: boolean;
  /** London's date, from the server, so the examples' dates match on both sides. */
  today: string;
  submitLabel: string;
  isNew: boolean;
}) {
  const [rates, setRates] = useState({ day: values.day_rate, weekend: values.weekend_rate, week: values.week_rate, deposit: values.deposit });
  const [vat, setVat] = useState(values.vat_rate);
  const saving = useNavigation().state === "submitting";
  const specRows = [...values.specifications, ...Array.from({ length: SPARE_SPECIFICATION_ROWS }, () => ({ name: "", value: "" }))];
  const typed = { day: pence(rates.day), weekend: pence(rates.weekend), week: pence(rates.week), deposit: pence(rates.deposit) };
  const examples = typed.day !== null && typed.weekend !== null && typed.week !== null ? rateExamples({ day: typed.day, weekend: typed.weekend, week: typed.week }, vat, typed.deposit ?? 0, today) : null;
  const rate = (key: "day" | "weekend" | "week" | "deposit", label: string, hint?: string) => (
    <Field id={key === "deposit" ? "deposit" : `${key}_rate`} label={label} errors={errors} hint={hint}>
      <input
        {...described(key === "deposit" ? "deposit" : `${key}_rate`, errors, !!hint)}
        value={rates[key]}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setRates((r) => ({ ...r, [key]: value }));
        }}
        inputMode="decimal"
        required={key !== "deposit"}
        className={control}
      />
      {key !== "deposit" ? <span className="text-stone-700">{money(incVatOf(typed[key], vat))} inc VAT</span> : null}
    </Field>
  );

  return (
    <Form method="post" noValidate className="grid gap-6" aria-label={isNew ? "New hire item" : `Edit ${values.name}`}>
      <input type="hidden" name="intent" value="save" />
      {canManage ? <input type="hidden" name="specifications_shown" value="1" /> : null}

      <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-2" disabled={!canManage}>
        <legend className="px-1 text-lg font-bold">The hire item</legend>
        <Field id="name" label="Name" errors={errors} className="sm:col-span-2">
          <input {...described("name", errors)} defaultValue={values.name} required maxLength={200} className={control} />
        </Field>
        <SlugField prefix="hire" base="/hire/" value={values.slug} errors={errors} isNew={isNew} />
        <Field id="hire_category_id" label="Hire category" errors={errors}>
          <select {...described("hire_category_id", errors)} defaultValue={values.hire_category_id ?? ""} required className={control}>
            <option value="">Choose a hire category</option>
            <Options of={categories} value={(c) => c.id} label={(c) => c.name} />
          </select>
        </Field>
        <Field id="product_sku" label="The same tool for sale (SKU)" errors={errors} hint="Optional: the hire page links to it as “Rather buy one?”.">
          <input {...described("product_sku", errors, true)} defaultValue={values.product_sku} maxLength={64} spellCheck={false} className={`${control} font-mono`} />
        </Field>
        <Field
          id="description"
          label="Description"
          errors={errors}
          hint="Paragraphs, bold, italics, lists, tables, sub-headings and links (HTML). Anything else, scripts and styles included, is removed when saved."
          className="sm:col-span-2"
        >
          <textarea {...described("description", errors, true)} defaultValue={values.description} rows={6} maxLength={20_000} className={`${control} py-2 font-mono text-sm`} />
        </Field>
      </fieldset>

      <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4" disabled={!canManage}>
        <legend className="px-1 text-lg font-bold">Rate card</legend>
        <p className="text-sm text-stone-700 sm:col-span-2 lg:col-span-4">Rates are per unit, in pounds ex VAT. The deposit is refundable and carries no VAT.</p>
        {rate("day", "Day rate (£)")}
        {rate("weekend", "Weekend rate (£)", "Out Friday or Saturday, back Monday.")}
        {rate("week", "Week rate (£)")}
        {rate("deposit", "Deposit (£)")}
        <VatRateField prefix="hire" value={vat} onChange={setVat} errors={errors} />
        <div className="grid content-start gap-1 text-sm sm:col-span-1 lg:col-span-3">
          <span className="font-semibold">Extra days</span>
          <span className="min-h-10 content-center text-stone-800" data-testid="extra-day-rate">
            Past whole weeks, each day costs the week rate ÷ 7: {money(typed.week === null ? null : extraDayRate(typed.week))} ex VAT, never more than another week.
          </span>
        </div>
        <div className="sm:col-span-2 lg:col-span-4">
          <h3 id="rate-examples" className="mb-1 text-base font-bold">
            What one unit costs
          </h3>
          {examples ? (
            <div className="overflow-x-auto">
              <table className="w-full min-w-[34rem] text-left text-sm" aria-describedby="rate-examples" data-testid="rate-examples">
                <caption className="sr-only">Worked examples from the shop's pricing, for the rates as typed</caption>
                <thead className="border-b border-stone-200 text-stone-700">
                  <HeadRow
                    cells={[
                      ["Hire", "py-1 pr-2"],
                      ["For example", "py-1 pr-2"],
                      ["Ex VAT", "py-1 pr-2 text-right"],
                      ["Inc VAT", "py-1 pr-2 text-right"],
                      ["With deposit", "py-1 text-right"],
                    ]}
                  />
                </thead>
                <tbody aria-live="polite" className="divide-y divide-stone-100">
                  {examples.map((e) => (
                    <tr key={e.label}>
                      <th scope="row" className="py-1 pr-2 font-semibold">
                        {e.label}
                      </th>
                      <td className="py-1 pr-2 text-stone-700">
                        {dayName(e.start)} to {dayName(e.end)}
                        {e.weekend ? " (weekend rate)" : ""}
                      </td>
                      <td className="py-1 pr-2 text-right">{money(e.hireExVat)}</td>
                      <td className="py-1 pr-2 text-right font-semibold">{money(e.hireIncVat)}</td>
                      <td className="py-1 text-right">{money(e.total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="text-sm text-stone-700">Enter the day, weekend and week rates to see what a hire costs.</p>
          )}
        </div>
      </fieldset>

      <fieldset className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4" disabled={!canManage}>
        <legend className="px-1 text-lg font-bold">Specifications</legend>
        <p className="text-sm text-stone-600">Shown as a table on the hire page. Leave a row blank to remove it.</p>
        <FieldError messages={errors?.specifications} />
        <NameValueRows fields={["specification_name", "specification_value"]} what="Specification" rows={specRows} blankFrom={values.specifications.length} examples={["e.g. Weight", "e.g. 95 kg"]} control={control} />
      </fieldset>

      {canManage ? (
        <SaveBar saving={saving} label={submitLabel} />
      ) : (
        <p className="text-sm text-stone-700">Your role may read the hire catalogue but not change it.</p>
      )}
    </Form>
  );
}
