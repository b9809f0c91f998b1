import { FieldError } from "./field-error.tsx";
import type { IntentResult } from "../../lib/admin/intent-action.ts";
import type { FieldErrors } from "./form-field.tsx";

/** The back office's text box in a labelled field of a list's own forms. */
export const LIST_CONTROL = "min-h-10 w-full min-w-0 rounded-md border border-stone-400 bg-white px-2 font-normal";


/** The field errors of the form that `result` answers: the one for `intent` (and row `id`), else none. */
export function intentErrors(result: IntentResult | undefined, intent: string, id?: number): FieldErrors {
  return result && !result.ok && result.intent === intent && (id === undefined || result.id === id) ? result.errors : undefined;
}

/**
 * A brand's or a category's name and web address: to add one (the address
 * made from the name unless given), or to edit one (both required).
 */
export function NameAddressFields({ errors, values }: { errors: FieldErrors; values?: { name: string; slug: string } }) {
  return (
    <>
      <label className="grid gap-1 text-sm font-semibold">
        Name
        <input name="name" defaultValue={values?.name} required maxLength={120} className={LIST_CONTROL} aria-invalid={errors?.name ? true : undefined} />
        <FieldError messages={errors?.name} />
      </label>
      <label className="grid gap-1 text-sm font-semibold">
        {values ? "Web address" : "Web address (optional)"}
        <input
          name="slug"
          defaultValue={values?.slug}
          required={!!values}
          maxLength={100}
          placeholder={values ? undefined : "made from the name"}
          spellCheck={false}
          className={`${LIST_CONTROL} ${values ? "font-mono" : ""}`}
          aria-invalid={errors?.slug ? true : undefined}
        />
        <FieldError messages={errors?.slug} />
      </label>
    </>
  );
}

/** A description's text box, with its error. */
export function DescriptionField({ label, value, rows, errors, className = "" }: { label: string; value: string; rows: number; errors: FieldErrors; className?: string }) {
  return (
    <label className={`grid gap-1 text-sm font-semibold ${className}`}>
      {label}
      <textarea name="description" defaultValue={value} rows={rows} maxLength={5000} className={`${LIST_CONTROL} py-2`} />
      <FieldError messages={errors?.description} />
    </label>
  );
}
