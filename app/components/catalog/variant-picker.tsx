import { Form, Link, useNavigate } from "react-router";
import { type PickerVariant, stateNote, stateOf, variantBySku } from "../../lib/catalog/variants.ts";
import { useHydrated } from "../../lib/use-session.ts";

// The page reads the chosen variant through the picker, so the rules stay in the product page's own chunk
// (a module two chunks import would join the shell every page loads).
export { variantBySku };

/** Up to this many values show as buttons; more as a list to choose from. */
const BUTTONS_MAX = 8;

/**
 * The product page's options: each value a link to its variant's own address
 * (`?variant={sku}`), so a choice works without JavaScript, is shareable and
 * server-rendered, and with it changes price, stock and photos in place. A
 * value out of stock, or not made with the others chosen, says so in words.
 */
export function VariantPicker({ options, variants, chosen }: { options: { name: string; values: string[] }[]; variants: PickerVariant[]; chosen: PickerVariant | null }) {
  return (
    <div className="grid gap-4" data-testid="variant-picker">
      {options.map((option) =>
        option.values.length > BUTTONS_MAX ? (
          <OptionSelect key={option.name} option={option} variants={variants} chosen={chosen} />
        ) : (
          <fieldset key={option.name} className="min-w-0">
            <legend className="mb-2 text-sm font-semibold text-stone-900">
              {option.name}
              {chosen ? <span className="font-normal text-stone-700">: {chosen.options[option.name]}</span> : null}
            </legend>
            <ul className="flex flex-wrap gap-2">
              {option.values.map((value) => {
                const state = stateOf(variants, chosen, option.name, value);
                const note = stateNote(state, chosen);
                const label = (
                  <>
                    <span>{value}</span>
                    {note ? <span className="block text-xs font-normal">{note}</span> : null}
                  </>
                );
                const look = `inline-flex min-h-11 min-w-16 flex-col items-center justify-center rounded-md border px-3 py-1.5 text-sm font-semibold`;
                if (state.kind === "none") {
                  return (
                    <li key={value}>
                      <span className={`${look} border-dashed border-stone-300 text-stone-500 line-through`} aria-disabled="true">
                        {label}
                      </span>
                    </li>
                  );
                }
                const isChosen = state.kind === "chosen";
                const dim = state.kind === "out_of_stock" || state.kind === "other_combination";
                return (
                  <li key={value}>
                    <Link
                      to={`?variant=${encodeURIComponent(state.variant.sku)}`}
                      replace
                      preventScrollReset
                      aria-current={isChosen ? "true" : undefined}
                      className={`${look} ${isChosen ? "border-brand-700 bg-brand-700 text-white" : dim ? "border-stone-300 bg-stone-50 text-stone-600" : "border-stone-400 bg-white text-stone-900 hover:border-brand-700"} focus-visible:outline-3 focus-visible:outline-offset-2`}
                      data-testid="option-value"
                    >
                      {label}
                      {isChosen ? <span className="sr-only"> (chosen)</span> : null}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        ),
      )}
    </div>
  );
}

/** Many values (a dozen colours): a list; without JavaScript a button sends the choice. */
function OptionSelect({ option, variants, chosen }: { option: { name: string; values: string[] }; variants: PickerVariant[]; chosen: PickerVariant | null }) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const id = `option-${option.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <Form method="get" replace preventScrollReset className="grid gap-2">
      <label htmlFor={id} className="text-sm font-semibold text-stone-900">
        {option.name}
      </label>
      <div className="flex flex-wrap gap-2">
        <select
          id={id}
          name="variant"
          className="min-h-11 w-full max-w-sm rounded-md border border-stone-400 bg-white px-3"
          value={chosen ? chosen.sku : ""}
          onChange={(event) => {
            if (event.target.value) void navigate(`?variant=${encodeURIComponent(event.target.value)}`, { replace: true, preventScrollReset: true });
          }}
          data-testid="option-select"
        >
          {chosen ? null : <option value="">Choose {option.name.toLowerCase()}</option>}
          {option.values.map((value) => {
            const state = stateOf(variants, chosen, option.name, value);
            if (state.kind === "none") return null;
            const note = stateNote(state, chosen);
            return (
              <option key={value} value={state.variant.sku}>
                {value}
                {note ? ` (${note})` : ""}
              </option>
            );
          })}
        </select>
        {hydrated ? null : (
          <button type="submit" className="btn-secondary">
            Show
          </button>
        )}
      </div>
    </Form>
  );
}
