import { useState } from "react";
import { Form } from "react-router";
import { AUDIENCE_LABELS, KIND_LABELS, type PromotionFormValues, type PromotionKind } from "../../lib/admin/promotions.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL, type FieldErrors, FormField, fieldProps } from "./form-field.tsx";

export interface PromotionFormChoices {
  categories: { id: number; name: string; path: string }[];
  brands: { id: number; name: string }[];
}

const P = "promotion";
const BOX = "grid gap-4 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-2";
const LEGEND = "px-1 text-lg font-bold";
const KIND_HINTS: Record<PromotionKind, string> = {
  percent: "A code: a percentage off what it applies to.",
  amount: "A code: pounds off (ex VAT), shared over what it applies to.",
  free_delivery: "A code: standard delivery free.",
  multi_buy: "Automatic, no code: 3 for 2, buy 2 get 10% off, or any 3 for £10.",
};
const VALUE_LABELS = { percent: "Percent off", amount: "Pounds off (ex VAT)", free: "Units free in each group", multi_percent: "Percent off each group", price: "The group's price in pounds (ex VAT)" };

/** A group of radio buttons with its legend and its error, which the group's description reads out. */
function Choices<T extends string>({ name, legend, options, value, onChange, errors, hints, disabled }: { name: string; legend: string; options: readonly [T, string][]; value: T; onChange?: (v: T) => void; errors: FieldErrors; hints?: Partial<Record<T, string>>; disabled?: boolean }) {
  const errorId = `${P}-${name}-error`;
  return (
    <fieldset className="grid gap-1 text-sm sm:col-span-2" aria-describedby={errors?.[name]?.length ? errorId : undefined} disabled={disabled}>
      <legend className="mb-1 font-semibold">{legend}</legend>
      <FieldError id={errorId} messages={errors?.[name]} />
      <div className="grid gap-1 sm:grid-cols-2">
        {options.map(([v, label]) => (
          <label key={v} className="flex min-h-10 items-start gap-2 rounded-md border border-stone-200 px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
            <input type="radio" name={name} value={v} defaultChecked={v === value} onChange={() => onChange?.(v)} className="mt-0.5 size-4 shrink-0" />
            <span>
              <span className="font-semibold">{label}</span>
              {hints?.[v] ? <span className="block text-stone-600">{hints[v]}</span> : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A list of checkboxes (categories or brands) that scrolls within its box; none ticked means no limit by it. */
function Ticks({ name, legend, hint, items, chosen, errors }: { name: string; legend: string; hint: string; items: { id: number; label: string; depth?: number }[]; chosen: number[]; errors: FieldErrors }) {
  const picked = new Set(chosen);
  const errorId = `${P}-${name}-error`;
  const hintId = `${P}-${name}-hint`;
  return (
    <fieldset className="grid min-w-0 content-start gap-1 text-sm" aria-describedby={[hintId, errors?.[name]?.length ? errorId : ""].filter(Boolean).join(" ")}>
      <legend className="mb-1 font-semibold">{legend}</legend>
      <span id={hintId} className="text-stone-600">
        {hint}
      </span>
      <FieldError id={errorId} messages={errors?.[name]} />
      <div className="grid max-h-60 gap-0.5 overflow-y-auto rounded-md border border-stone-200 p-2">
        {items.length ? (
          items.map((item) => (
            <label key={item.id} className="flex min-h-9 items-center gap-2" style={{ paddingLeft: `${item.depth ?? 0}rem` }}>
              <input type="checkbox" name={name} value={item.id} defaultChecked={picked.has(item.id)} className="size-4 shrink-0" />
              <span className="min-w-0 [overflow-wrap:anywhere]">{item.label}</span>
            </label>
          ))
        ) : (
          <span className="text-stone-600">None to choose from.</span>
        )}
      </div>
    </fieldset>
  );
}

/**
 * A promotion's form, new or saved: the fields follow the kind chosen (a
 * multi-buy has a group and no code; free delivery has no value), so only
 * what applies is asked. Read-only (disabled, no button) for a member who may
 * not change promotions. Without scripts the fields shown are those of the
 * kind the page came with; the server ignores what the kind chosen does not use.
 */
export function PromotionForm({ values, errors, choices, isNew, canManage, busy }: { values: PromotionFormValues; errors: FieldErrors; choices: PromotionFormChoices; isNew: boolean; canManage: boolean; busy: boolean }) {
  const [kind, setKind] = useState<PromotionKind>(values.kind);
  const [multiBuy, setMultiBuy] = useState(values.multi_buy);
  const multi = kind === "multi_buy";
  const valueLabel = multi ? (multiBuy === "percent" ? VALUE_LABELS.multi_percent : VALUE_LABELS[multiBuy]) : kind === "amount" ? VALUE_LABELS.amount : VALUE_LABELS.percent;
  const field = (id: string, hint = false) => fieldProps(P, id, errors, hint);
  const depthOf = (path: string) => path.split("/").length - 1;

  return (
    <Form method="post" noValidate className="grid gap-6" aria-label={isNew ? "New promotion" : `Edit ${values.name}`}>
      <input type="hidden" name="intent" value="save" />
      <fieldset className="grid gap-6" disabled={!canManage}>
        <fieldset className={BOX}>
          <legend className={LEGEND}>What it gives</legend>
          {isNew ? (
            <Choices name="kind" legend="Kind" options={Object.entries(KIND_LABELS) as [PromotionKind, string][]} value={kind} onChange={setKind} errors={errors} hints={KIND_HINTS} />
          ) : (
            <p className="text-sm sm:col-span-2">
              <input type="hidden" name="kind" value={kind} />
              <span className="font-semibold">Kind: </span>
              {KIND_LABELS[kind]}. <span className="text-stone-600">A promotion keeps its kind: to change it, end this one and make another.</span>
            </p>
          )}
          {multi ? null : (
            <FormField prefix={P} id="code" label="Code" errors={errors} hint="What customers type at the basket: 3 to 30 letters, digits, dashes or underscores, any case.">
              <input {...field("code", true)} defaultValue={values.code} maxLength={30} autoCapitalize="characters" spellCheck={false} autoComplete="off" className={`${ADMIN_CONTROL} font-mono uppercase`} />
            </FormField>
          )}
          <FormField prefix={P} id="name" label="Name" errors={errors} hint={isNew ? "What the basket and the order call it. Left blank, it says what it gives." : "What the basket and the order call it."}>
            <input {...field("name", true)} defaultValue={values.name} maxLength={80} className={ADMIN_CONTROL} />
          </FormField>
          {multi ? (
            <>
              <FormField prefix={P} id="buy" label="Group size" errors={errors} hint="Buy this many of what it applies to (2 to 100).">
                <input {...field("buy", true)} defaultValue={values.buy} inputMode="numeric" className={ADMIN_CONTROL} />
              </FormField>
              <FormField prefix={P} id="multi_buy" label="Multi-buy type" errors={errors}>
                <select {...field("multi_buy")} defaultValue={values.multi_buy} onChange={(e) => setMultiBuy(e.currentTarget.value as PromotionFormValues["multi_buy"])} className={ADMIN_CONTROL}>
                  <option value="free">Some free (3 for 2)</option>
                  <option value="percent">Percent off the group</option>
                  <option value="price">A price for the group (3 for £10)</option>
                </select>
              </FormField>
            </>
          ) : null}
          {kind === "free_delivery" ? null : (
            <FormField prefix={P} id="value" label={valueLabel} errors={errors}>
              <input {...field("value")} defaultValue={values.value} inputMode="decimal" className={ADMIN_CONTROL} />
            </FormField>
          )}
          <FormField prefix={P} id="min_spend" label="Minimum spend (£, ex VAT)" errors={errors} hint="On the items it applies to. Blank: none.">
            <input {...field("min_spend", true)} defaultValue={values.min_spend} inputMode="decimal" className={ADMIN_CONTROL} />
          </FormField>
        </fieldset>

        <fieldset className={BOX}>
          <legend className={LEGEND}>Who and what it applies to</legend>
          <Choices name="audience" legend="Customers" options={Object.entries(AUDIENCE_LABELS) as [PromotionFormValues["audience"], string][]} value={values.audience} errors={errors} />
          <label className="flex min-h-10 items-start gap-2 text-sm sm:col-span-2">
            <input type="checkbox" name="stackable" defaultChecked={values.stackable} aria-describedby={`${P}-stackable-hint`} className="mt-0.5 size-4 shrink-0" />
            <span>
              <span className="font-semibold">Stackable</span>
              <span id={`${P}-stackable-hint`} className="block text-stone-600">
                May be used in one basket with other stackable codes.
              </span>
            </span>
          </label>
          <FormField prefix={P} id="applies_to.product_ids" label="Products (SKUs)" errors={errors} hint="One a line, or separated by commas. Leave products, categories and brands all empty for the whole basket." className="sm:col-span-2">
            <textarea {...field("applies_to.product_ids", true)} defaultValue={values.product_skus} rows={3} spellCheck={false} className={`${ADMIN_CONTROL} py-2 font-mono`} />
          </FormField>
          <Ticks
            name="applies_to.category_ids"
            legend="Categories"
            hint="And every category below each one ticked."
            items={choices.categories.map((c) => ({ id: c.id, label: c.name, depth: depthOf(c.path) }))}
            chosen={values.category_ids}
            errors={errors}
          />
          <Ticks name="applies_to.brand_ids" legend="Brands" hint="Every product of each brand ticked." items={choices.brands.map((b) => ({ id: b.id, label: b.name }))} chosen={values.brand_ids} errors={errors} />
        </fieldset>

        <fieldset className={BOX}>
          <legend className={LEGEND}>When and how often</legend>
          <FormField prefix={P} id="starts_at" label="Starts (London time)" errors={errors} hint="Blank: at once.">
            <input {...field("starts_at", true)} type="datetime-local" defaultValue={values.starts_at} className={ADMIN_CONTROL} />
          </FormField>
          <FormField prefix={P} id="ends_at" label="Ends (London time)" errors={errors} hint="Blank: until it is ended.">
            <input {...field("ends_at", true)} type="datetime-local" defaultValue={values.ends_at} className={ADMIN_CONTROL} />
          </FormField>
          <FormField prefix={P} id="max_uses" label="Uses in all" errors={errors} hint="Blank: no limit.">
            <input {...field("max_uses", true)} defaultValue={values.max_uses} inputMode="numeric" className={ADMIN_CONTROL} />
          </FormField>
          <FormField prefix={P} id="max_uses_per_customer" label="Uses per customer" errors={errors} hint="By account, or by email for guests. Blank: no limit.">
            <input {...field("max_uses_per_customer", true)} defaultValue={values.max_uses_per_customer} inputMode="numeric" className={ADMIN_CONTROL} />
          </FormField>
        </fieldset>
      </fieldset>
      {canManage ? (
        <div>
          <button type="submit" className="btn-primary disabled:opacity-75" disabled={busy}>
            {busy ? "Saving…" : isNew ? "Create the promotion" : "Save changes"}
          </button>
        </div>
      ) : (
        <p className="text-sm text-stone-700">Your role may read promotions but not change them.</p>
      )}
    </Form>
  );
}
