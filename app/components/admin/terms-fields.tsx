import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL } from "./form-field.tsx";

/** A trade account's terms as number boxes (credit limit, days, discount): each with its error read out before it. */
export function TermsFields({ idPrefix, fields, err, val }: { idPrefix: string; fields: readonly (readonly [name: string, label: string, current: string, step: string])[]; err: (name: string) => string[] | undefined; val: (name: string, fallback: string) => string | undefined }) {
  return fields.map(([name, label, current, step]) => (
    <label key={name} className="grid gap-1 text-sm font-semibold">
      {label}
      <FieldError id={`${idPrefix}-${name}-error`} messages={err(name)} />
      <input
        name={name}
        type="number"
        inputMode="decimal"
        step={step}
        min="0"
        defaultValue={val(name, current)}
        aria-invalid={err(name) ? true : undefined}
        aria-describedby={err(name) ? `${idPrefix}-${name}-error` : undefined}
        className={ADMIN_CONTROL}
      />
    </label>
  ));
}
