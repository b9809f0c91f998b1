import { useState } from "react";
import { Link } from "react-router";
import { type HireBasketItem, daysLabel, formatHireDate } from "../../lib/hire.ts";
import { formatPounds } from "../../lib/money.ts";
import { Picture } from "../catalog/picture.tsx";
import { Field } from "../form.tsx";
import { FactsRow } from "../facts-row.tsx";

export interface LineChange {
  quantity: number;
  start_date: string;
  end_date: string;
}

/** One line of the hire basket: what, when, how many and the price, with changes and removal. */
export function HireBasketLine({
  item,
  today,
  error,
  busy,
  onChange,
  onRemove,
}: {
  item: HireBasketItem;
  today: string;
  error: string | undefined;
  busy: boolean;
  onChange: (change: LineChange) => void;
  onRemove: () => void;
}) {
  const [quantity, setQuantity] = useState(String(item.quantity));
  const [start, setStart] = useState(item.start_date);
  const [end, setEnd] = useState(item.end_date);
  const dirty = quantity !== String(item.quantity) || start !== item.start_date || end !== item.end_date;
  const headingId = `hire-line-${item.id}`;
  const errorId = `hire-line-${item.id}-error`;

  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm" data-testid="hire-line">
      <div className="flex gap-4">
        {item.image ? <Picture image={item.image} alt="" sizes="96px" width={96} height={72} priority="eager" className="hidden h-18 w-24 shrink-0 rounded border border-stone-200 object-contain p-1 sm:block" /> : null}
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="text-lg font-semibold">
            <Link to={`/hire/${item.slug}`} className="hover:underline">
              {item.name}
            </Link>
          </h2>
          <p className="text-stone-700">
            {formatHireDate(item.start_date)} to {formatHireDate(item.end_date)} · {daysLabel(item.days)} · {item.quantity} {item.quantity === 1 ? "unit" : "units"}
          </p>
        </div>
        <button type="button" className="btn-secondary h-fit shrink-0 text-red-800 disabled:opacity-75" disabled={busy} onClick={onRemove} aria-label={`Remove ${item.name}`}>
          Remove
        </button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="mt-3 rounded-md border-l-4 border-red-700 bg-red-50 px-3 py-2 font-semibold text-red-800">
          {error}
        </p>
      ) : null}
      <FactsRow className="mt-3 grid-cols-3 gap-2 sm:max-w-md" items={[["Hire (ex VAT)", formatPounds(item.hire_cost)], ["VAT", formatPounds(item.vat)], ["Deposit", formatPounds(item.deposit)]]} />
      <form
        className="mt-4 grid grid-cols-2 items-end gap-3 border-t border-stone-200 pt-4 sm:grid-cols-[1fr_1fr_7rem_auto]"
        aria-label={`Change ${item.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          onChange({ quantity: Number(quantity), start_date: start, end_date: end });
        }}
      >
        <Field label="Start date" name="start_date" type="date" min={today} value={start} onChange={(e) => setStart(e.target.value)} required className="min-w-0" inputClassName="min-w-0" />
        <Field label="Return date" name="end_date" type="date" min={start >= today ? start : today} value={end} onChange={(e) => setEnd(e.target.value)} required className="min-w-0" inputClassName="min-w-0" />
        <Field label="Quantity" name="quantity" type="number" inputMode="numeric" min={1} max={99} value={quantity} onChange={(e) => setQuantity(e.target.value)} required className="min-w-0" />
        <button type="submit" className="btn-primary disabled:opacity-75" disabled={busy || !dirty}>
          {busy ? "Updating…" : "Update"}
        </button>
      </form>
    </article>
  );
}
