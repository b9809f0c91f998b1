import type { Address } from "../../lib/basket-checkout.ts";
import { Field } from "../form.tsx";
import { PostcodeLookup } from "../postcode-lookup.tsx";

/**
 * An address found by postcode (suggestions while typing, debounced; the chosen
 * address fills the fields) that stays editable by hand.
 */
export function AddressFields({
  prefix,
  value,
  onChange,
  errors,
  onPostcodeSettled,
}: {
  prefix: string;
  value: Address;
  onChange: (address: Address) => void;
  errors: (field: string) => string | undefined;
  /** Called with a postcode the lookup accepted, e.g. to price delivery. */
  onPostcodeSettled?: (postcode: string) => void;
}) {
  const section = prefix === "billing" ? "billing" : "shipping";

  const set = (field: keyof Address) => (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...value, [field]: e.target.value });

  return (
    <div className="grid gap-4">
      <PostcodeLookup prefix={prefix} onPick={onChange} onPostcodeSettled={onPostcodeSettled} />
      <Field label="Address line 1" name={`${prefix}_line_1`} autoComplete={`${section} address-line1`} required value={value.line_1} onChange={set("line_1")} error={errors("line_1")} />
      <Field label="Address line 2" name={`${prefix}_line_2`} autoComplete={`${section} address-line2`} optional value={value.line_2} onChange={set("line_2")} error={errors("line_2")} />
      <Field label="Address line 3" name={`${prefix}_line_3`} autoComplete={`${section} address-line3`} optional value={value.line_3} onChange={set("line_3")} error={errors("line_3")} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Town or city" name={`${prefix}_town`} autoComplete={`${section} address-level2`} required value={value.town} onChange={set("town")} error={errors("town")} />
        <Field label="County" name={`${prefix}_county`} autoComplete={`${section} address-level1`} optional value={value.county} onChange={set("county")} error={errors("county")} />
        <Field
          label="Postcode"
          name={`${prefix}_postcode`}
          autoComplete={`${section} postal-code`}
          autoCapitalize="characters"
          required
          value={value.postcode}
          onChange={set("postcode")}
          onBlur={(e) => onPostcodeSettled?.(e.target.value)}
          error={errors("postcode")}
          inputClassName="uppercase"
        />
      </div>
    </div>
  );
}
