import { FieldError } from "./field-error.tsx";
import type { ReactNode } from "react";
import { Form } from "react-router";
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

/**
 * The form that adds a brand or a category, above its list: its name and web
 * address (and `children`, what else it asks), posted as `create`; emptied
 * after each one made (the key changes with the new row's id).
 */
export function AddForm({ id, title, columns, result, busy, children }: { id: string; title: string; columns: string; result: IntentResult | undefined; busy: boolean; children?: ReactNode }) {
  return (
    <Form method="post" className={`mb-6 grid gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:items-end ${columns}`} aria-labelledby={id} key={result?.ok && result.intent === "create" ? `made-${result.id}` : "create"}>
      <h2 id={id} className="text-lg font-bold sm:col-span-full">
        {title}
      </h2>
      <input type="hidden" name="intent" value="create" />
      <NameAddressFields errors={intentErrors(result, "create")} />
      {children}
      <button type="submit" className="btn-primary min-h-10" disabled={busy}>
        Add
      </button>
    </Form>
  );
}
