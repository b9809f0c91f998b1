// The pieces every form is made of, so that every form looks and behaves the same:
// a label, an optional hint, the server's message for the field, then the input.
import { type InputHTMLAttributes, type ReactNode, type RefObject, type SelectHTMLAttributes, type TextareaHTMLAttributes, useEffect, useId } from "react";
import { useNavigation } from "react-router";
import type { FormResult } from "../lib/form-result.ts";
import { useHydrated } from "../lib/use-session.ts";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "children">;

/** What every field has: its label, name, hint and the server's message. */
interface FieldBase {
  label: string;
  name: string;
  hint?: ReactNode;
  /** The server's messages for this field, joined with spaces. */
  error?: string;
  /** Shows "(optional)" after the label. */
  optional?: boolean;
  id?: string;
}

export interface FieldProps extends InputProps, FieldBase {
  /** Extra classes for the input itself, e.g. a narrower postcode box. */
  inputClassName?: string;
}

const inputBase =
  "min-h-11 w-full rounded-md border bg-white px-3 py-2 text-base text-stone-900 shadow-sm placeholder:text-stone-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500";

/** The ids that tie a field's control to its label, hint and error. */
function useFieldIds(name: string, id: string | undefined, hint: ReactNode, error: string | undefined) {
  const generated = useId();
  const inputId = id ?? `${name}-${generated}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return { inputId, hintId, errorId, describedBy: [hintId, errorId].filter(Boolean).join(" ") || undefined };
}

/** A field's error, read out with "Error:" before it; nothing without one. */
export function ErrorText({ id, error, className = "" }: { id: string | undefined; error: ReactNode; className?: string }) {
  return error ? (
    <p id={id} className={`${className} text-sm font-semibold text-red-700`.trim()}>
      <span className="sr-only">Error: </span>
      {error}
    </p>
  ) : null;
}

/** A field's label (with "(optional)"), hint and error, above its control. */
function FieldFrame({ ids, label, optional, hint, error, className, children }: { ids: ReturnType<typeof useFieldIds>; label: string; optional?: boolean; hint?: ReactNode; error?: string; className?: string; children: ReactNode }) {
  return (
    <div className={`grid content-start gap-1.5 ${className ?? ""}`}>
      <label htmlFor={ids.inputId} className="font-semibold text-stone-900">
        {label}
        {optional ? <span className="font-normal text-stone-600"> (optional)</span> : null}
      </label>
      {hint ? (
        <p id={ids.hintId} className="text-sm text-stone-600">
          {hint}
        </p>
      ) : null}
      <ErrorText id={ids.errorId} error={error} />
      {children}
    </div>
  );
}

export function Field({ label, name, hint, error, optional, id, className, inputClassName = "", ...input }: FieldProps) {
  const ids = useFieldIds(name, id, hint, error);
  return (
    <FieldFrame ids={ids} label={label} optional={optional} hint={hint} error={error} className={className}>
      <input
        id={ids.inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        className={`${inputBase} ${error ? "border-red-700 border-2" : "border-stone-400"} ${inputClassName}`}
        {...input}
      />
    </FieldFrame>
  );
}

export type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "name" | "children"> & FieldBase;

/** A field of several lines (notes, a message), made as `Field` is. */
export function TextAreaField({ label, name, hint, error, optional, id, className, rows = 3, ...textarea }: TextAreaFieldProps) {
  const ids = useFieldIds(name, id, hint, error);
  return (
    <FieldFrame ids={ids} label={label} optional={optional} hint={hint} error={error} className={className}>
      <textarea
        id={ids.inputId}
        name={name}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        className={`${inputBase} ${error ? "border-red-700 border-2" : "border-stone-400"}`}
        {...textarea}
      />
    </FieldFrame>
  );
}

export type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "name"> & FieldBase;

/** A choice from a list (a site, a branch), made as `Field` is; its options are the children. */
export function SelectField({ label, name, hint, error, optional, id, className, children, ...select }: SelectFieldProps) {
  const ids = useFieldIds(name, id, hint, error);
  return (
    <FieldFrame ids={ids} label={label} optional={optional} hint={hint} error={error} className={className}>
      <select
        id={ids.inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        className={`${inputBase} min-w-0 ${error ? "border-red-700 border-2" : "border-stone-400"}`}
        {...select}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

export interface CheckboxProps extends Omit<InputProps, "type"> {
  label: ReactNode;
  name: string;
  hint?: ReactNode;
  error?: string;
  id?: string;
}

export function Checkbox({ label, name, hint, error, id, className, ...input }: CheckboxProps) {
  const { inputId, hintId, errorId, describedBy } = useFieldIds(name, id, hint, error);
  return (
    <div className={className}>
      <ErrorText id={errorId} error={error} className="mb-1" />
      <div className="flex items-start gap-3">
        <input
          id={inputId}
          name={name}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="mt-2.5 size-6 shrink-0 accent-brand-700"
          {...input}
        />
        <div className="min-h-11 py-2.5">
          <label htmlFor={inputId} className="cursor-pointer">
            {label}
          </label>
          {hint ? (
            <p id={hintId} className="text-sm text-stone-600">
              {hint}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** The form-level message for failures that belong to no field. */
export function FormAlert({ message, ref, className = "" }: { message: string | undefined; ref?: RefObject<HTMLDivElement | null>; className?: string }) {
  // An element with role="alert" is announced when it appears; nothing takes space without a message.
  if (!message) return null;
  return (
    <div ref={ref} role="alert" tabIndex={-1} className={`rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-800 ${className}`}>
      {message}
    </div>
  );
}

/** A success message after a form was saved. */
export function FormSuccess({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="rounded-md border-l-4 border-green-700 bg-green-50 px-4 py-3 font-semibold text-green-900">
      {children}
    </div>
  );
}

/** True while this page's form is being sent and its outcome loaded. */
export function useSubmitting(): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formMethod !== undefined && navigation.formMethod.toUpperCase() !== "GET";
}

/**
 * The submit button: disabled until the page's scripts run (forms are sent by
 * the browser's API client) and while sending, with a label that says so.
 */
export function SubmitButton({
  children,
  busyLabel,
  busy,
  className = "btn-primary",
  name,
  value,
}: {
  children: ReactNode;
  busyLabel: string;
  busy?: boolean;
  className?: string;
  name?: string;
  value?: string;
}) {
  const hydrated = useHydrated();
  const submitting = useSubmitting();
  const sending = busy ?? submitting;
  return (
    <button type="submit" name={name} value={value} className={`${className} disabled:cursor-not-allowed disabled:opacity-75`} disabled={!hydrated || sending}>
      {sending ? busyLabel : children}
    </button>
  );
}

/**
 * After a failed submission, focus moves to the first field in error, or to the
 * form-level alert, so keyboard and screen-reader users land on the problem.
 */
export function useFocusOnFailure(result: FormResult | undefined, form: RefObject<HTMLFormElement | null>, alert: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    if (!result || result.ok) return;
    const field = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (field ?? alert.current)?.focus();
  }, [result, form, alert]);
}

/** A whole-number quantity box: from 1 (or `min`: 0 for "how many of these", left at none) to `max`, with the phone's number pad. */
export function QuantityField({ max, min = 1, label = "Quantity", name = "quantity", ...props }: Omit<FieldProps, "label" | "name" | "type" | "min" | "max"> & { max: number; min?: 0 | 1; label?: string; name?: string }) {
  return (
    <Field
      label={label}
      name={name}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      required={min > 0}
      inputClassName="disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-500"
      {...props}
    />
  );
}

/** The form's "Email address", required: the browser fills it in and offers the email keyboard, and does not spell-check it. */
export function EmailField(props: Omit<FieldProps, "label" | "name" | "type" | "autoComplete" | "spellCheck" | "required">) {
  return <Field label="Email address" name="email" type="email" autoComplete="email" spellCheck={false} required {...props} />;
}

/**
 * On a shared (cached) page the signed-in user arrives after hydration, when
 * `defaultValue` no longer applies: fills their name and email into the
 * form's fields of those names that are still empty.
 */
export function useFillFromUser(form: RefObject<HTMLFormElement | null>, user: { name: string; email: string } | null | undefined): void {
  useEffect(() => {
    const element = form.current;
    if (!element || !user) return;
    for (const [field, value] of [["name", user.name], ["email", user.email]] as const) {
      const input = element.elements.namedItem(field);
      if (input instanceof HTMLInputElement && input.value === "") input.value = value;
    }
  }, [form, user]);
}
