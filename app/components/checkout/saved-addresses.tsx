import { useId } from "react";
import { type Address as SavedAddress, addressSummary } from "../../lib/account.ts";
import type { Address } from "../../lib/basket-checkout.ts";

/** A saved address as checkout's fields take it: the company, when there is one, goes first. */
export function checkoutAddress(saved: SavedAddress): Address {
  const lines = [saved.company, saved.line1, saved.line2].filter(Boolean);
  return { line_1: lines[0] ?? "", line_2: lines[1] ?? "", line_3: lines[2] ?? "", town: saved.town, county: saved.county, postcode: saved.postcode };
}

const same = (a: Address, b: Address) =>
  (Object.keys(a) as (keyof Address)[]).every((k) => a[k].trim().toUpperCase() === b[k].trim().toUpperCase());

/** The saved address the fields now hold, if any (editing a field by hand leaves it). */
export function matchingSaved(addresses: SavedAddress[], value: Address): SavedAddress | undefined {
  return addresses.find((a) => same(checkoutAddress(a), value));
}

/** Saved addresses, the default for this use first. */
export function savedInOrder(addresses: SavedAddress[], use: "delivery" | "billing"): SavedAddress[] {
  const isDefault = (a: SavedAddress) => (use === "delivery" ? a.is_default_delivery : a.is_default_billing);
  return [...addresses].sort((a, b) => Number(isDefault(b)) - Number(isDefault(a)));
}

/**
 * A signed-in customer's address book at checkout: choosing one fills the
 * address fields below, which stay editable (and the postcode lookup with them).
 */
export function SavedAddressPicker(props: { addresses: SavedAddress[]; use: "delivery" | "billing"; value: Address; onChoose: (address: SavedAddress) => void; onNew: () => void }) {
  const id = useId();
  const ordered = savedInOrder(props.addresses, props.use);
  const chosen = matchingSaved(ordered, props.value);
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="font-semibold">
        Your saved addresses
      </label>
      <select
        id={id}
        aria-describedby={`${id}-hint`}
        className="min-h-11 w-full rounded-md border border-stone-400 bg-white px-3"
        value={chosen ? String(chosen.id) : ""}
        onChange={(e) => {
          const picked = ordered.find((a) => String(a.id) === e.target.value);
          if (picked) props.onChoose(picked);
          else props.onNew();
        }}
      >
        {ordered.map((a) => (
          <option key={a.id} value={a.id}>
            {[a.company || `${a.firstname} ${a.lastname}`.trim(), addressSummary(a)].filter(Boolean).join(": ")}
            {(props.use === "delivery" ? a.is_default_delivery : a.is_default_billing) ? " (default)" : ""}
          </option>
        ))}
        <option value="">{chosen ? "Enter a different address" : "A different address (entered below)"}</option>
      </select>
      <p id={`${id}-hint`} className="text-sm text-stone-600">
        Choosing one fills in the address below, where you can still change it.
      </p>
    </div>
  );
}
