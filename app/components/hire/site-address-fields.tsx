import type { Address } from "../../lib/basket-checkout.ts";
import { Field } from "../form.tsx";
import { PostcodeLookup } from "../postcode-lookup.tsx";

/** The site address a hire request is delivered to, as POST /api/hire-requests names it. */
export interface SiteAddress {
  address_line1: string;
  address_line2: string;
  town: string;
  postcode: string;
}

export const EMPTY_SITE_ADDRESS: SiteAddress = { address_line1: "", address_line2: "", town: "", postcode: "" };

/** A looked-up address in the hire request's shape: it has two lines and no county. */
export function siteAddressFrom(address: Address): SiteAddress {
  return {
    address_line1: address.line_1,
    address_line2: [address.line_2, address.line_3].filter(Boolean).join(", "),
    town: address.town,
    postcode: address.postcode,
  };
}

/** The site address: found by postcode as at checkout, and editable by hand. */
export function SiteAddressFields({ value, onChange, errors }: { value: SiteAddress; onChange: (address: SiteAddress) => void; errors: (field: keyof SiteAddress) => string | undefined }) {
  const set = (field: keyof SiteAddress) => (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...value, [field]: e.target.value });
  return (
    <fieldset className="grid gap-4">
      <legend className="mb-3 font-semibold">Site address</legend>
      <PostcodeLookup prefix="site" onPick={(address) => onChange(siteAddressFrom(address))} />
      <Field label="Address line 1" name="address_line1" autoComplete="address-line1" required value={value.address_line1} onChange={set("address_line1")} error={errors("address_line1")} />
      <Field label="Address line 2" name="address_line2" autoComplete="address-line2" optional value={value.address_line2} onChange={set("address_line2")} error={errors("address_line2")} />
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <Field label="Town or city" name="town" autoComplete="address-level2" required value={value.town} onChange={set("town")} error={errors("town")} />
        <Field
          label="Postcode"
          name="postcode"
          autoComplete="postal-code"
          required
          autoCapitalize="characters"
          value={value.postcode}
          onChange={set("postcode")}
          error={errors("postcode")}
          inputClassName="uppercase"
        />
      </div>
    </fieldset>
  );
}
