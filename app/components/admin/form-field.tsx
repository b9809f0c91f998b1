import { type ReactNode, type RefObject, useEffect } from "react";
import { FieldError } from "./field-error.tsx";

/**
 * A labelled field of a back-office form, with its hint and its error read
 * out before the control; `prefix` keeps ids unique per form (`product-name`).
 */
export type FieldErrors = Record<string, string[]> | undefined;

export const ADMIN_CONTROL = "min-h-10 w-full rounded-md border border-stone-400 bg-white px-3 font-normal disabled:bg-stone-100 disabled:text-stone-700";

export function FormField({ prefix, id, label, errors, hint, children, className = "" }: { prefix: string; id: string; label: string; errors: FieldErrors; hint?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div className={`grid content-start gap-1 text-sm ${className}`}>
      <label htmlFor={`${prefix}-${id}`} className="font-semibold">
        {label}
      </label>
      {hint ? (
        <span id={`${prefix}-${id}-hint`} className="text-stone-600">
          {hint}
        </span>
      ) : null}
      <FieldError id={`${prefix}-${id}-error`} messages={errors?.[id]} />
      {children}
    </div>
  );
}

/** The props a field's control takes: its id, name, error state and what describes it. */
export function fieldProps(prefix: string, id: string, errors: FieldErrors, hint = false) {
  const invalid = !!errors?.[id]?.length;
  const by = [hint ? `${prefix}-${id}-hint` : "", invalid ? `${prefix}-${id}-error` : ""].filter(Boolean).join(" ");
  return { id: `${prefix}-${id}`, name: id, "aria-invalid": invalid || undefined, "aria-describedby": by || undefined };
}

/** A form's field errors: the keyboard lands on the first field in error, as on every form, each new answer again. */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, hasErrors: boolean, answer: unknown): void {
  useEffect(() => {
    if (hasErrors) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, hasErrors, answer]);
}

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
        <tr className="text-left">
          <th scope="col" className="pb-1 font-semibold">
            Name
          </th>
          <th scope="col" className="pb-1 pl-2 font-semibold">
            Value
          </th>
        </tr>
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
