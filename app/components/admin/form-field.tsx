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
