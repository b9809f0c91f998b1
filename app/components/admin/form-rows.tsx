import type { ReactNode } from "react";
import { ADMIN_CONTROL, type FieldErrors, FormField, fieldProps } from "./form-field.tsx";
import { HeadRow } from "../head-row.tsx";

// The long forms' parts (a product's, a hire item's): name and value rows,
// the save bar, and the fields with the form's prefix filled in.

/**
 * Rows of a name and a value (a hire item's specifications, a product's
 * attributes): a pair of boxes a row, each named for screen readers; the
 * blank rows from `blankFrom` on show an example. A blank row is removed.
 */
export function NameValueRows({
  fields,
  what,
  rows,
  blankFrom,
  examples,
  control,
}: {
  fields: readonly [name: string, value: string];
  what: string;
  rows: readonly { name: string; value: string }[];
  blankFrom: number;
  examples: readonly [name: string, value: string];
  control: string;
}) {
  return (
    <table className="w-full text-sm">
      <thead>
        <HeadRow className="text-left" cells={[["Name", "pb-1 font-semibold"], ["Value", "pb-1 pl-2 font-semibold"]]} />
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            <td className="py-1">
              <input name={fields[0]} defaultValue={r.name} maxLength={60} aria-label={`${what} ${i + 1} name`} placeholder={i >= blankFrom ? examples[0] : undefined} className={control} />
            </td>
            <td className="py-1 pl-2">
              <input name={fields[1]} defaultValue={r.value} maxLength={200} aria-label={`${what} ${i + 1} value`} placeholder={i >= blankFrom ? examples[1] : undefined} className={control} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A long form's save button, kept in view at the foot of the screen; `children` beside it (why some fields are locked). */
export function SaveBar({ saving, label, children }: { saving: boolean; label: string; children?: ReactNode }) {
  return (
    <div className="sticky bottom-0 -mx-4 flex flex-wrap items-center gap-3 border-t border-stone-200 bg-stone-50/95 px-4 py-3">
      <button type="submit" className="btn-primary min-h-11" disabled={saving}>
        {saving ? "Saving…" : label}
      </button>
      {children}
    </div>
  );
}

/** A form's fields and their controls' props with the form's prefix filled in: `const { Field, described } = formOf("product")`. */
export function formOf(prefix: string) {
  return {
    Field: (props: Omit<Parameters<typeof FormField>[0], "prefix">) => <FormField prefix={prefix} {...props} />,
    described: (id: string, errors: FieldErrors, hint = false) => fieldProps(prefix, id, errors, hint),
  };
}

/** A web address's last part, after its fixed start (`/product/`); blank on a new one makes it from the name, changed on an old one keeps the old redirecting. */
export function SlugField({ prefix, base, value, errors, isNew }: { prefix: string; base: string; value: string; errors: FieldErrors; isNew: boolean }) {
  const { Field, described } = formOf(prefix);
  return (
    <Field id="slug" label="Web address" errors={errors} hint={isNew ? "Left blank, it is made from the name." : "Changing it keeps the old address redirecting here."}>
      <div className="flex items-center rounded-md border border-stone-400 bg-white focus-within:ring-2 focus-within:ring-brand-600">
        <span className="pl-3 text-stone-600" aria-hidden="true">
          {base}
        </span>
        <input {...described("slug", errors, true)} defaultValue={value} maxLength={200} spellCheck={false} className="min-h-10 w-full rounded-md px-1 font-normal outline-none disabled:bg-stone-100" />
      </div>
    </Field>
  );
}

/** The VAT rate of a price typed in a long form (a product's, a hire item's): the rates the shop charges, chosen as the prices beside it are worked out. */
export function VatRateField({ prefix, value, onChange, errors }: { prefix: string; value: number; onChange: (rate: number) => void; errors: FieldErrors }) {
  const { Field, described } = formOf(prefix);
  return (
    <Field id="vat_rate" label="VAT rate" errors={errors}>
      <select {...described("vat_rate", errors)} value={value} onChange={(e) => onChange(Number(e.currentTarget.value))} className={ADMIN_CONTROL}>
        <option value={20}>20% standard</option>
        <option value={5}>5% reduced</option>
        <option value={0}>0% zero-rated</option>
      </select>
    </Field>
  );
}
