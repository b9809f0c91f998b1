import type { ReactNode } from "react";
import type { DeliveryOption, TradeSiteView } from "../../lib/basket-checkout.ts";
import { SelectField } from "../form.tsx";
import { formatPounds } from "../../lib/money.ts";

const card = "flex min-h-11 cursor-pointer items-start gap-3 rounded-md border border-stone-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50";
const radio = "mt-1 size-5 shrink-0 accent-brand-700";

/** A delivery method to choose, as checkout and a quote's acceptance offer it: its name and price, and what it means. */
export function DeliveryChoice({ option, checked, onChoose, note }: { option: DeliveryOption; checked: boolean; onChoose: () => void; note: ReactNode }) {
  return (
    <label className={card}>
      <input type="radio" name="delivery_method" value={option.id} checked={checked} onChange={onChoose} required className={radio} />
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap justify-between gap-x-3 font-semibold">
          <span>{option.name}</span>
          <span>{option.price === 0 ? "Free" : formatPounds(option.price)}</span>
        </span>
        <span className="block text-sm text-stone-600">{note}</span>
      </span>
    </label>
  );
}

/** A way to pay a payment method offers; pay on account with the credit left, and a warning when the order is more than it. */
export interface PayingOption {
  id: string;
  name: string;
  description: string;
  available_credit?: number;
  credit_limit?: number;
}

export function PaymentChoice({ option, checked, onChoose, total }: { option: PayingOption; checked: boolean; onChoose: () => void; total: number | null }) {
  return (
    <label className={card}>
      <input type="radio" name="payment_method" value={option.id} checked={checked} onChange={onChoose} required className={radio} />
      <span className="min-w-0">
        <span className="font-semibold">{option.name}</span>
        <span className="block text-sm text-stone-600">{option.description}</span>
        {option.available_credit !== undefined ? (
          <span className="block text-sm" data-testid="available-credit">
            Available credit: <strong>{formatPounds(option.available_credit)}</strong>
            {option.credit_limit !== undefined ? ` of ${formatPounds(option.credit_limit)}` : null}
            {total !== null && total > option.available_credit ? <span className="block font-semibold text-red-700">This order is more than your available credit.</span> : null}
          </span>
        ) : null}
      </span>
    </label>
  );
}

/**
 * The site an order on account is for, as checkout and a quote's acceptance
 * ask for it: choosing one delivers to its address. Its PO rule is said by the
 * PO box's hint (`sitePoRule`).
 */
export function SiteChoice({ sites, value, onChoose, error }: { sites: TradeSiteView[]; value: number | undefined; onChoose: (site: TradeSiteView) => void; error?: string }) {
  const chosen = sites.find((s) => s.id === value);
  const contact = chosen ? [chosen.contact_name, chosen.contact_phone].filter(Boolean).join(", ") : "";
  return (
    <div className="grid gap-2" data-testid="site-choice">
      <SelectField
        label="Site"
        name="site_id"
        required
        hint="Orders on account name the site they are for; we deliver to its address."
        error={error}
        value={value ?? ""}
        onChange={(e) => {
          const site = sites.find((s) => s.id === Number(e.target.value));
          if (site) onChoose(site);
        }}
      >
        <option value="" disabled>
          Choose a site
        </option>
        {sites.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({s.postcode})
          </option>
        ))}
      </SelectField>
      {chosen ? (
        <p className="text-sm text-stone-700" aria-live="polite">
          {[chosen.line1, chosen.line2, chosen.town, chosen.postcode].filter(Boolean).join(", ")}
          {contact ? ` · Contact: ${contact}` : ""}
        </p>
      ) : null}
    </div>
  );
}
