import type { ReactNode } from "react";
import type { DeliveryOption } from "../../lib/basket-checkout.ts";
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
