import { type ReactNode, useState } from "react";
import { Form } from "react-router";
import type { BranchService } from "../../../server/modules/branches/schema.ts";
import type { BranchFormValues } from "../../lib/admin/branch-form.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL, type FieldErrors, FormField, fieldProps } from "./form-field.tsx";

const card = "grid gap-4 rounded-lg border border-stone-200 bg-white p-4";
const legend = "text-lg font-bold";

/** A part of the form in its card, named by its heading, with a line under the heading when given one. */
function FormSection({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  const heading = (
    <h2 id={id} className={legend}>
      {title}
    </h2>
  );
  return (
    <section className={card} aria-labelledby={id}>
      {intro ? (
        <div>
          {heading}
          <p className="text-sm text-stone-700">{intro}</p>
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

type ExceptionRow = BranchFormValues["exceptions"][number] & { key: number };

/**
 * A branch's details, services, weekly hours, dated exceptions and collection
 * rules, as one form: each weekday a group of its own (open, opens, closes),
 * each exception a row added or removed in place. Errors sit beside their
 * fields; the values shown are what was typed when a save was refused. The
 * services' and weekdays' names come from the route (the storefront's own
 * labels, which must not be drawn into the back office's chunk).
 */
export function BranchForm({
  values,
  errors,
  isDefault,
  busy,
  submitLabel,
  serviceLabels,
  weekdayNames,
}: {
  values: BranchFormValues;
  errors: FieldErrors;
  isDefault: boolean;
  busy: boolean;
  submitLabel: string;
  serviceLabels: Record<BranchService, string>;
  weekdayNames: readonly string[];
}) {
  const p = "branch";
  const [rows, setRows] = useState<ExceptionRow[]>(() => values.exceptions.map((e, key) => ({ ...e, key })));
  const [next, setNext] = useState(values.exceptions.length);
  const text = (id: keyof BranchFormValues, label: string, options: { hint?: string; type?: string; maxLength?: number; autoComplete?: string; className?: string } = {}) => (
    <FormField prefix={p} id={id} label={label} errors={errors} hint={options.hint} className={options.className}>
      <input {...fieldProps(p, id, errors, !!options.hint)} type={options.type ?? "text"} defaultValue={String(values[id])} maxLength={options.maxLength ?? 100} autoComplete={options.autoComplete ?? "off"} className={ADMIN_CONTROL} />
    </FormField>
  );
  const rowError = (i: number, field: string) => errors?.[`exceptions.${i}.${field}`];
  return (
    <Form method="post" className="grid gap-5 lg:max-w-4xl" aria-label="Branch details" noValidate>
      <FormSection id="branch-details" title="Details">
        <div className="grid gap-4 sm:grid-cols-2">
          {text("name", "Name", { hint: "As customers see it, such as York, Foss Islands." })}
          {text("slug", "Web address", { hint: "After /branches/: lower-case letters, digits and hyphens.", maxLength: 80 })}
          {text("line_1", "Address line 1")}
          {text("line_2", "Address line 2 (optional)")}
          {text("town", "Town", { maxLength: 60 })}
          {text("county", "County (optional)", { maxLength: 60 })}
          {text("postcode", "Postcode", { hint: "Places the branch on the map for the branch finder.", maxLength: 10 })}
          {text("phone", "Phone (optional)", { type: "tel", maxLength: 30 })}
          {text("email", "Email (optional)", { type: "email", maxLength: 254 })}
        </div>
      </FormSection>

      <fieldset className={card} aria-describedby={errors?.services ? `${p}-services-error` : undefined}>
        <legend className={`${legend} float-left w-full`}>Services</legend>
        <FieldError id={`${p}-services-error`} messages={errors?.services} />
        <div className="grid gap-2 sm:grid-cols-2">
          {(Object.keys(serviceLabels) as BranchService[]).map((s) => (
            <label key={s} className="flex min-h-10 items-center gap-2">
              <input type="checkbox" name="services" value={s} defaultChecked={values.services.includes(s)} className="size-5" />
              {serviceLabels[s]}
            </label>
          ))}
        </div>
      </fieldset>

      <FormSection id="branch-hours" title="Opening hours" intro="London time. A day not ticked is closed; bank holidays are closed unless a date below opens the branch.">
        <div className="grid gap-3">
          {values.days.map((d) => {
            const dayErrors = errors?.[`day.${d.day}`];
            const name = weekdayNames[d.day - 1]!;
            return (
              <fieldset key={d.day} className="grid grid-cols-2 items-end gap-2 rounded-md border border-stone-200 p-3 sm:grid-cols-[9rem_8rem_1fr_1fr]" aria-describedby={dayErrors ? `${p}-day-${d.day}-error` : undefined}>
                <legend className="sr-only">{name}</legend>
                <span className="self-center font-semibold" aria-hidden="true">
                  {name}
                </span>
                <label className="flex min-h-10 items-center gap-2 self-center">
                  <input type="checkbox" name={`day_${d.day}_open`} defaultChecked={d.open} className="size-5" />
                  Open
                </label>
                <label className="grid gap-1 text-sm font-semibold">
                  Opens
                  <input type="time" name={`day_${d.day}_opens`} defaultValue={d.opens} aria-invalid={dayErrors ? true : undefined} className={ADMIN_CONTROL} />
                </label>
                <label className="grid gap-1 text-sm font-semibold">
                  Closes
                  <input type="time" name={`day_${d.day}_closes`} defaultValue={d.closes} aria-invalid={dayErrors ? true : undefined} className={ADMIN_CONTROL} />
                </label>
                <FieldError id={`${p}-day-${d.day}-error`} messages={dayErrors} className="col-span-2 sm:col-span-4" />
              </fieldset>
            );
          })}
        </div>
      </FormSection>

      <FormSection id="branch-exceptions" title="Closures and other hours" intro="Dated exceptions to the week: a closure (a stocktake, Christmas) or other hours that day (a bank holiday opening). Customers see those from today on.">
        <FieldError messages={errors?.exceptions} />
        {rows.length === 0 ? <p className="text-sm text-stone-700">None.</p> : null}
        {rows.map((row, i) => (
          <fieldset key={row.key} className="grid gap-2 rounded-md border border-stone-200 p-3 sm:grid-cols-[10rem_10rem_1fr_1fr] sm:items-end">
            <legend className="px-1 text-sm font-semibold">Date {i + 1}</legend>
            <label className="grid gap-1 text-sm font-semibold">
              Date
              <input type="date" name="exception_date" defaultValue={row.date} required aria-invalid={rowError(i, "date") ? true : undefined} className={ADMIN_CONTROL} />
              <FieldError messages={rowError(i, "date")} />
            </label>
            <label className="grid gap-1 text-sm font-semibold">
              That day
              <select name="exception_kind" defaultValue={row.closed ? "closed" : "hours"} className={ADMIN_CONTROL}>
                <option value="closed">Closed</option>
                <option value="hours">Other hours</option>
              </select>
            </label>
            <label className="grid gap-1 text-sm font-semibold">
              Opens (other hours)
              <input type="time" name="exception_opens" defaultValue={row.opens} aria-invalid={rowError(i, "opens") ? true : undefined} className={ADMIN_CONTROL} />
              <FieldError messages={rowError(i, "opens")} />
            </label>
            <label className="grid gap-1 text-sm font-semibold">
              Closes (other hours)
              <input type="time" name="exception_closes" defaultValue={row.closes} aria-invalid={rowError(i, "closes") ? true : undefined} className={ADMIN_CONTROL} />
              <FieldError messages={rowError(i, "closes")} />
            </label>
            <label className="grid gap-1 text-sm font-semibold sm:col-span-3">
              Note (optional)
              <input name="exception_note" defaultValue={row.note} maxLength={100} placeholder="e.g. Stocktake" aria-invalid={rowError(i, "note") ? true : undefined} className={ADMIN_CONTROL} />
              <FieldError messages={rowError(i, "note")} />
            </label>
            <button type="button" className="btn-secondary min-h-10" onClick={() => setRows(rows.filter((r) => r.key !== row.key))}>
              Remove date {i + 1}
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          className="btn-secondary min-h-10 justify-self-start"
          onClick={() => {
            setRows([...rows, { key: next, date: "", closed: true, opens: "", closes: "", note: "" }]);
            setNext(next + 1);
          }}
        >
          Add a date
        </button>
      </FormSection>

      <FormSection id="branch-collection" title="Collections, transfers and showroom">
        <div className="grid gap-4 sm:grid-cols-2">
          {text("collect_lead_minutes", "Ready after (minutes)", { hint: "How long after ordering a collection is ready when the stock is here.", type: "number", maxLength: 6 })}
          {text("collect_cutoff_minutes", "Cut-off before closing (minutes)", { hint: "Orders this close to closing are ready the next opening day.", type: "number", maxLength: 4 })}
          {text("transfer_days", "Transfer from another branch (days)", { hint: "A collection needing stock from another branch is ready this many days later.", type: "number", maxLength: 2 })}
          {text("hold_days", "Kept for collection (days)", { hint: "Reminded halfway; then it goes back to stock and is refunded.", type: "number", maxLength: 2 })}
          {text("appointment_minutes", "Showroom consultation (minutes)", { hint: "For a showroom: how long each design consultation is booked for.", type: "number", maxLength: 3 })}
          {text("appointment_designers", "Designers at once", { hint: "For a showroom: how many consultations can run at the same time.", type: "number", maxLength: 2 })}
        </div>
        {isDefault ? (
          <p className="text-sm">
            <span className="font-semibold">This is the default branch:</span> stock and orders that name no branch are here. Make another branch the default from its own page.
          </p>
        ) : (
          <label className="flex min-h-10 items-center gap-2">
            <input type="checkbox" name="make_default" defaultChecked={values.make_default} className="size-5" />
            Make this the default branch (stock and orders that name no branch)
          </label>
        )}
        <FieldError messages={errors?.is_default} />
      </FormSection>

      <button type="submit" className="btn-primary min-h-10 justify-self-start" disabled={busy}>
        {submitLabel}
      </button>
    </Form>
  );
}
