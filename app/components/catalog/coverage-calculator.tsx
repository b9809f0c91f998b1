import { useId, useState } from "react";
import { COVERAGE_LABELS, type Coverage, UNIT_LABELS, type SaleUnit, unitsToCover } from "../../../server/modules/catalog/products/units.ts";

/**
 * How many to buy for an area (or a length): the customer's measurement and
 * a waste allowance become whole units, rounded up, and that quantity goes
 * into the basket form beside it.
 */
export function CoverageCalculator({ coverage, unit, onUse }: { coverage: Coverage; unit: SaleUnit; onUse: (quantity: number) => void }) {
  const id = useId();
  const [amount, setAmount] = useState("");
  const [waste, setWaste] = useState("10");
  const measure = COVERAGE_LABELS[coverage.unit];
  const area = Number(amount.replace(",", "."));
  const wastePercent = Number(waste || 0);
  const valid = amount.trim() !== "" && Number.isFinite(area) && area > 0 && area <= 100_000 && Number.isFinite(wastePercent) && wastePercent >= 0 && wastePercent <= 100;
  const quantity = valid ? unitsToCover(area, coverage.per_unit, wastePercent) : null;
  const unitName = UNIT_LABELS[unit].one;
  const plural = (n: number) => (n === 1 || unit === "m2" || unit === "kg" ? unitName : `${unitName}s`);
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-lg border border-stone-300 bg-stone-50 p-4" data-testid="coverage-calculator">
      <h2 id={`${id}-heading`} className="text-base font-bold">
        How many do I need?
      </h2>
      <p className="mt-1 text-sm text-stone-700">
        One {unitName} covers {coverage.per_unit.toLocaleString("en-GB")} {measure}.
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm font-semibold">
          {coverage.unit === "m2" ? "Area" : "Length"} ({measure})
          <input
            className="min-h-11 w-32 rounded-md border border-stone-400 bg-white px-3"
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            aria-describedby={`${id}-result`}
            data-testid="coverage-amount"
          />
        </label>
        <label className="grid gap-1 text-sm font-semibold">
          Extra for cuts and waste (%)
          <input
            className="min-h-11 w-24 rounded-md border border-stone-400 bg-white px-3"
            type="number"
            min={0}
            max={100}
            step={1}
            value={waste}
            onChange={(event) => setWaste(event.target.value)}
            data-testid="coverage-waste"
          />
        </label>
      </div>
      <div id={`${id}-result`} role="status" aria-live="polite" className="mt-3 text-sm">
        {quantity !== null ? (
          <p className="flex flex-wrap items-center gap-3">
            <span data-testid="coverage-result">
              You need <strong>{quantity}</strong> {plural(quantity)} ({(quantity * coverage.per_unit).toLocaleString("en-GB", { maximumFractionDigits: 3 })} {measure}).
            </span>
            <button type="button" className="btn-secondary" onClick={() => onUse(quantity)} data-testid="coverage-use">
              Use {quantity} {plural(quantity)}
            </button>
          </p>
        ) : amount.trim() !== "" ? (
          <p className="font-semibold text-red-800">Enter the {coverage.unit === "m2" ? "area" : "length"} in {measure} as a number above 0, and the waste from 0 to 100%.</p>
        ) : null}
      </div>
    </section>
  );
}
