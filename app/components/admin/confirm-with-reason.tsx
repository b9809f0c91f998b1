import type { ReactNode } from "react";
import { Form } from "react-router";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL } from "./form-field.tsx";

export const DANGER_BUTTON = "btn border border-red-700 bg-white text-red-800 hover:bg-red-50";

/**
 * An action that asks why (and, for one that cannot be undone, a tick to be
 * sure) before it posts: a plain form, so it works from the keyboard and
 * before (or without) the page's script; the browser asks for the reason when
 * `required`, and the action checks it again and answers with `errors`.
 * `summary` puts it behind a disclosure button, opened again by an error.
 */
export function ConfirmWithReason({
  id,
  fields,
  reason,
  confirm,
  button,
  danger = true,
  busy = false,
  note,
  summary,
  errors,
  noValidate = false,
  className = "",
  children,
}: {
  /** Unique on the page: the ids of the reason and its error. */
  id: string;
  /** What the action reads besides the reason: `intent` and the like, posted as hidden fields. */
  fields: Record<string, string | number>;
  reason: { name?: string; label: string; required?: boolean; maxLength?: number; value?: string };
  /** The words beside the tick box (`confirm=yes`), for an action that cannot be undone. */
  confirm?: string;
  button: ReactNode;
  danger?: boolean;
  busy?: boolean;
  note?: ReactNode;
  summary?: string;
  errors?: Record<string, string[] | undefined>;
  /** Leave the checks to the action (its errors then show beside each field). */
  noValidate?: boolean;
  className?: string;
  /** More fields, before the reason. */
  children?: ReactNode;
}) {
  const name = reason.name ?? "reason";
  const reasonError = errors?.[name];
  const form = (
    <Form method="post" className={`grid gap-2 ${className}`} noValidate={noValidate}>
      <HiddenFields fields={fields} />
      {children}
      <label htmlFor={`${id}-${name}`} className="text-sm font-semibold">
        {reason.label}
      </label>
      <FieldError id={`${id}-${name}-error`} messages={reasonError} />
      <textarea
        id={`${id}-${name}`}
        name={name}
        rows={2}
        required={reason.required}
        maxLength={reason.maxLength ?? 500}
        defaultValue={reason.value ?? ""}
        aria-invalid={reasonError ? true : undefined}
        aria-describedby={reasonError ? `${id}-${name}-error` : undefined}
        className={`${ADMIN_CONTROL} py-2`}
      />
      {confirm ? (
        <>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="confirm"
              value="yes"
              required
              aria-invalid={errors?.confirm ? true : undefined}
              aria-describedby={errors?.confirm ? `${id}-confirm-error` : undefined}
              className="mt-0.5 size-5 shrink-0"
            />
            <span>{confirm}</span>
          </label>
          <FieldError id={`${id}-confirm-error`} messages={errors?.confirm} />
        </>
      ) : null}
      <button type="submit" className={`${danger ? DANGER_BUTTON : "btn-primary"} justify-self-start`} disabled={busy}>
        {button}
      </button>
      {note ? <p className="text-xs text-stone-600">{note}</p> : null}
    </Form>
  );
  if (!summary) return form;
  return (
    <ConfirmDisclosure summary={summary} danger={danger} open={!!(reasonError || errors?.confirm)}>
      {form}
    </ConfirmDisclosure>
  );
}

/**
 * An action behind a button that opens a short explanation and the button
 * that does it: a confirmation that works from the keyboard and without
 * scripts (a details element); open again when the action answered an error.
 */
export function ConfirmDisclosure({ summary, danger = false, open = false, children }: { summary: string; danger?: boolean; open?: boolean; children: ReactNode }) {
  return (
    <details className="group" open={open || undefined}>
      <summary className={`btn-secondary min-h-10 cursor-pointer list-none whitespace-nowrap py-1.5 text-sm [&::-webkit-details-marker]:hidden ${danger ? "text-red-800" : ""}`}>{summary}</summary>
      <div className="mt-2 grid max-w-72 gap-2 rounded-md border border-stone-300 bg-white p-3 text-sm font-normal shadow-sm">{children}</div>
    </details>
  );
}

const LOOKS = { primary: "btn-primary", secondary: "btn-secondary min-h-10 px-3", danger: DANGER_BUTTON } as const;

/** A form of one button that posts `fields`: the last step of a ConfirmDisclosure (full width there), or a row's own action. */
export function ButtonForm({ fields, look = "primary", busy = false, className = "w-full", children }: { fields: Record<string, string | number>; look?: keyof typeof LOOKS; busy?: boolean; className?: string; children: ReactNode }) {
  return (
    <Form method="post">
      <HiddenFields fields={fields} />
      <button type="submit" className={`${LOOKS[look]} ${className} disabled:opacity-75`} disabled={busy}>
        {children}
      </button>
    </Form>
  );
}

/** What a form posts besides what the member types: `intent`, a row's id. */
export function HiddenFields({ fields }: { fields: Record<string, string | number> }) {
  return Object.entries(fields).map(([key, value]) => <input key={key} type="hidden" name={key} value={value} />);
}
