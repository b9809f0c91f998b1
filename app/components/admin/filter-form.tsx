import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Options } from "./options.tsx";

/** A filter field's control: the back office's look, filling its grid cell. */
export const FILTER_CONTROL = "min-h-10 w-full min-w-0 rounded-md border border-stone-400 bg-white px-2 font-normal";

/**
 * A list's filter form, sent by GET so the address holds the filters (a link
 * or a reload shows the same list): the fields (`children`, in a grid given
 * by `className`), then "Apply filters" and "Clear". `keep` carries filters
 * set elsewhere on the screen (a status tab) through a search, and "Clear"
 * keeps them too. `extra` sits before the buttons (a tick box). Behind a
 * FilterDisclosure on a phone; give it `mb-4` where it stands alone.
 */
export function FilterForm({
  label,
  keep = {},
  className = "sm:grid-cols-2 lg:grid-cols-4",
  buttonsClassName = "sm:col-span-2 lg:col-span-4",
  extra,
  submitLabel = "Apply filters",
  children,
}: {
  /** The form's name for screen readers, e.g. "Filter orders". */
  label: string;
  submitLabel?: string;
  keep?: Record<string, string | undefined>;
  className?: string;
  buttonsClassName?: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  const kept = Object.entries(keep).filter((e): e is [string, string] => !!e[1]);
  return (
    <Form method="get" className={`grid gap-3 rounded-lg border border-stone-200 bg-white p-4 [&>label]:min-w-0 ${className}`} role="search" aria-label={label}>
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <div className={`flex flex-wrap items-end gap-3 ${buttonsClassName}`}>
        {extra}
        <button type="submit" className="btn-primary min-h-10">
          {submitLabel}
        </button>
        <Link to={kept.length ? `?${new URLSearchParams(kept)}` : "?"} className="btn-secondary min-h-10">
          Clear
        </Link>
      </div>
    </Form>
  );
}

/** The list's search box (`q`). */
export function FilterSearch({ value, placeholder, label = "Search", className = "" }: { value: string | undefined; placeholder: string; label?: string; className?: string }) {
  return (
    <label className={`grid min-w-0 gap-1 text-sm font-semibold ${className}`}>
      {label}
      <input name="q" type="search" defaultValue={value ?? ""} placeholder={placeholder} className={`${FILTER_CONTROL} px-3`} />
    </label>
  );
}

/** A field's refusal (a day that is not a real date), read out after its name; the control's props that point to it. */
function refusal(name: string, errors: readonly string[] | undefined) {
  if (!errors?.length) return { props: {}, message: null };
  return {
    props: { "aria-invalid": true, "aria-describedby": `${name}-error` } as const,
    message: (
      <span id={`${name}-error`} className="font-normal text-red-800">
        {errors.join(" ")}
      </span>
    ),
  };
}

/** One choice of a filter form: "Any" (or `any`) first, then the options; `errors` when the value was refused. */
export function FilterSelect({
  name,
  label,
  value,
  options,
  any = "Any",
  anyValue = "",
  className = "",
  controlClassName = FILTER_CONTROL,
  errors,
}: {
  name: string;
  label: string;
  value: string | number | undefined | null;
  options: readonly (readonly [value: string | number, label: ReactNode])[];
  /** The first option, for no filter; `null` for a choice that is always made (a sort). */
  any?: string | null;
  /** The value of the "Any" option (where "" means something else, e.g. the member's own branch). */
  anyValue?: string;
  className?: string;
  controlClassName?: string;
  errors?: readonly string[];
}) {
  const refused = refusal(name, errors);
  return (
    <label className={`grid min-w-0 gap-1 text-sm font-semibold ${className}`}>
      {label}
      <select name={name} defaultValue={value ?? anyValue} className={controlClassName} {...refused.props}>
        {any === null ? null : <option value={anyValue}>{any}</option>}
        <Options of={options} value={([v]) => v} label={([, l]) => l} />
      </select>
      {refused.message}
    </label>
  );
}

/** A day a filter starts or ends at; `errors` when it was refused. */
export function FilterDate({ name, label, value, errors }: { name: string; label: string; value: string | undefined; errors?: readonly string[] }) {
  const refused = refusal(name, errors);
  return (
    <label className="grid min-w-0 gap-1 text-sm font-semibold">
      {label}
      <input name={name} type="date" defaultValue={value ?? ""} className={FILTER_CONTROL} {...refused.props} />
      {refused.message}
    </label>
  );
}

/** A tick-box filter (`value` "1" unless told, when on), beside the form's buttons. */
export function FilterCheck({ name, label, checked, value = "1" }: { name: string; label: string; checked: boolean; value?: string }) {
  return (
    <label className="inline-flex min-h-10 items-center gap-2 text-sm font-semibold">
      <input type="checkbox" name={name} value={value} defaultChecked={checked} className="size-4" /> {label}
    </label>
  );
}

/** A filter typed as text (a number, an action's name). */
export function FilterText({ name, label, value, placeholder }: { name: string; label: string; value: string | undefined; placeholder?: string }) {
  return (
    <label className="grid min-w-0 gap-1 text-sm font-semibold">
      {label}
      <input name={name} defaultValue={value ?? ""} placeholder={placeholder} className={`${FILTER_CONTROL} px-3`} />
    </label>
  );
}
