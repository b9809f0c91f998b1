import type { ReactNode } from "react";
import { Form } from "react-router";
import { HiddenFields } from "./confirm-with-reason.tsx";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL, type FieldErrors, FormField, fieldProps } from "./form-field.tsx";

// The forms of a hire's units on the hire desk's request screen: hand a unit
// over, take it back (with any charges), and send it for a service. Each is a
// plain form posting its intent and its unit to the screen's action.

/** How many charge rows a return or a service form offers. */
export const CHARGE_ROWS = 3;

const textarea = `${ADMIN_CONTROL} py-2`;

/** A unit's form: posts its intent and the unit (`target`) to the screen's action. */
function UnitForm({ intent, target, className = "", children }: { intent: string; target: number; className?: string; children: ReactNode }) {
  return (
    <Form method="post" className={`mt-3 grid gap-2 border-t border-stone-200 pt-3 ${className}`.trim()} noValidate>
      <HiddenFields fields={{ intent, target }} />
      {children}
    </Form>
  );
}

/** What a unit on hire is doing now, in words. */
export const UNIT_STATE: Record<string, string> = { booked: "Booked", out: "Out on hire", off_hired: "Off-hired, not yet back", returned: "Returned", released: "Released" };

export function HandOverForm({ unit, free, errors, values, failed, busy }: { unit: { allocation_id: number; asset_number: string }; free: { id: number; asset_number: string }[]; errors: FieldErrors; values: Record<string, string>; failed: string | null; busy: boolean }) {
  const prefix = `handover-${unit.allocation_id}`;
  const choices = [unit.asset_number, ...free.map((f) => f.asset_number).filter((a) => a !== unit.asset_number)];
  return (
    <UnitForm intent="hand_over" target={unit.allocation_id} className="sm:grid-cols-2">
      <h4 className="font-semibold sm:col-span-2">Hand over</h4>
      <FormField prefix={prefix} id="asset_number" label="Unit (asset number)" errors={errors}>
        <select {...fieldProps(prefix, "asset_number", errors)} defaultValue={values.asset_number ?? unit.asset_number} className={ADMIN_CONTROL}>
          {choices.map((a) => (
            <option key={a} value={a}>
              {a}
              {a === unit.asset_number ? " (booked)" : " (free)"}
            </option>
          ))}
        </select>
      </FormField>
      <FormField prefix={prefix} id="accessories" label="Accessories (optional)" errors={errors}>
        <input {...fieldProps(prefix, "accessories", errors)} defaultValue={values.accessories} maxLength={1000} className={ADMIN_CONTROL} />
      </FormField>
      <FormField prefix={prefix} id="condition" label="Condition going out" errors={errors} className="sm:col-span-2">
        <textarea {...fieldProps(prefix, "condition", errors)} defaultValue={values.condition} rows={2} maxLength={2000} required className={textarea} />
      </FormField>
      <fieldset className="grid gap-1 text-sm">
        <legend className="font-semibold">Customer's ID checked?</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="id_checked" value="yes" defaultChecked={values.id_checked === "yes"} /> Yes
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="id_checked" value="no" defaultChecked={values.id_checked !== "yes"} /> No
        </label>
      </fieldset>
      <FormField prefix={prefix} id="id_type" label="ID seen (when checked)" errors={errors} hint="Driving licence, passport…">
        <input {...fieldProps(prefix, "id_type", errors, true)} defaultValue={values.id_type} maxLength={100} className={ADMIN_CONTROL} />
      </FormField>
      {failed && !errors?.condition && !errors?.asset_number && !errors?.id_type ? <p className="text-sm font-semibold text-red-700 sm:col-span-2">{failed}</p> : null}
      <button type="submit" className="btn-primary justify-self-start" disabled={busy}>
        Hand over
      </button>
    </UnitForm>
  );
}

export function ChargeFields({ prefix, names, errors, values, errorKey = (f: string) => f }: { prefix: string; names: { kind: string; description: string; reason: string; amount: string }; errors: FieldErrors; values: Record<string, string>; errorKey?: (field: string) => string }) {
  const err = (f: string) => errors?.[errorKey(f)];
  return (
    <div className="grid gap-2 sm:grid-cols-[8rem_1fr_1fr_7rem]">
      <label className="grid gap-1 text-sm font-semibold">
        Kind
        <FieldError messages={err("kind")} />
        <select name={names.kind} id={`${prefix}-kind`} defaultValue={values[names.kind] ?? ""} className={ADMIN_CONTROL}>
          <option value="">None</option>
          <option value="damage">Damage</option>
          <option value="cleaning">Cleaning</option>
          <option value="other">Other</option>
        </select>
      </label>
      <label className="grid gap-1 text-sm font-semibold">
        Reason (the customer sees it)
        <FieldError messages={err("reason")} />
        <input name={names.reason} defaultValue={values[names.reason]} maxLength={1000} aria-invalid={err("reason") ? true : undefined} className={ADMIN_CONTROL} />
      </label>
      <label className="grid gap-1 text-sm font-semibold">
        Description (optional)
        <input name={names.description} defaultValue={values[names.description]} maxLength={300} className={ADMIN_CONTROL} />
      </label>
      <label className="grid gap-1 text-sm font-semibold">
        £ ex VAT
        <FieldError messages={err("amount")} />
        <input name={names.amount} defaultValue={values[names.amount]} inputMode="decimal" aria-invalid={err("amount") ? true : undefined} className={ADMIN_CONTROL} />
      </label>
    </div>
  );
}

export function ReturnForm({ handoverId, errors, values, failed, busy }: { handoverId: number; errors: FieldErrors; values: Record<string, string>; failed: string | null; busy: boolean }) {
  const prefix = `return-${handoverId}`;
  return (
    <UnitForm intent="return" target={handoverId}>
      <h4 className="font-semibold">Take it back</h4>
      <div className="grid gap-2 sm:grid-cols-2">
        <FormField prefix={prefix} id="returned_on" label="Returned on (today if empty)" errors={errors}>
          <input type="date" {...fieldProps(prefix, "returned_on", errors)} defaultValue={values.returned_on} className={ADMIN_CONTROL} />
        </FormField>
        <FormField prefix={prefix} id="condition" label="Condition coming back" errors={errors}>
          <input {...fieldProps(prefix, "condition", errors)} defaultValue={values.condition} maxLength={2000} required className={ADMIN_CONTROL} />
        </FormField>
      </div>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-semibold">Charges besides the hire (each with its reason)</legend>
        {Array.from({ length: CHARGE_ROWS }, (_, i) => (
          <ChargeFields
            key={i}
            prefix={`${prefix}-charge-${i}`}
            names={{ kind: `charge_${i}_kind`, description: `charge_${i}_description`, reason: `charge_${i}_reason`, amount: `charge_${i}_amount` }}
            errors={errors}
            values={values}
            errorKey={(f) => `charges.${i}.${f}`}
          />
        ))}
      </fieldset>
      <div className="grid gap-2 sm:grid-cols-[8rem_1fr]">
        <FormField prefix={prefix} id="service_days" label="Service days" errors={errors} hint="Optional">
          <input type="number" min={1} max={365} {...fieldProps(prefix, "service_days", errors, true)} defaultValue={values.service_days} className={ADMIN_CONTROL} />
        </FormField>
        <FormField prefix={prefix} id="service_reason" label="Why it goes to service" errors={errors}>
          <input {...fieldProps(prefix, "service_reason", errors)} defaultValue={values.service_reason} maxLength={500} className={ADMIN_CONTROL} />
        </FormField>
      </div>
      {failed && !errors?.condition ? <p className="text-sm font-semibold text-red-700">{failed}</p> : null}
      <button type="submit" className="btn-primary justify-self-start" disabled={busy}>
        Take the unit back
      </button>
    </UnitForm>
  );
}

export function ServiceForm({ unitId, errors, values, failed, busy }: { unitId: number; errors: FieldErrors; values: Record<string, string>; failed: string | null; busy: boolean }) {
  const prefix = `service-${unitId}`;
  return (
    <UnitForm intent="service" target={unitId} className="sm:grid-cols-[8rem_1fr_auto] sm:items-end">
      <FormField prefix={prefix} id="days" label="Service days" errors={errors}>
        <input type="number" min={1} max={365} {...fieldProps(prefix, "days", errors)} defaultValue={values.days} className={ADMIN_CONTROL} />
      </FormField>
      <FormField prefix={prefix} id="reason" label="Why (cleaning, repair)" errors={errors}>
        <input {...fieldProps(prefix, "reason", errors)} defaultValue={values.reason} maxLength={500} className={ADMIN_CONTROL} />
      </FormField>
      <button type="submit" className="btn-secondary" disabled={busy}>
        Send to service
      </button>
      {failed && !errors?.days && !errors?.reason ? <p className="text-sm font-semibold text-red-700 sm:col-span-3">{failed}</p> : null}
    </UnitForm>
  );
}
