import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import { useHydrated } from "../../lib/use-session.ts";
import { browserApi } from "../../lib/browser-api.ts";
import type { PriceDisplay } from "../../lib/price-display.ts";

/**
 * A trade member's strip under the header: their discount, the ex/inc VAT
 * switch (kept on their membership, so every device remembers it) and the
 * way to their dashboard. Prices re-render from the root data once saved.
 */
export function TradeBar({ display }: { display: PriceDisplay }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function choose(incVat: boolean) {
    if (incVat === display.incVat) return;
    setSaving(true);
    setError(null);
    try {
      await browserApi().put("/api/trade/price-display", { prices_inc_vat: incVat });
      await revalidator.revalidate();
    } catch {
      setError("Could not change the prices. Please try again.");
    } finally {
      setSaving(false);
    }
  }

  const option = (incVat: boolean, label: string) => {
    const on = display.incVat === incVat;
    return (
      <button
        type="button"
        aria-pressed={on}
        disabled={!hydrated || saving}
        onClick={() => void choose(incVat)}
        className={`min-h-9 px-2.5 text-sm font-semibold sm:px-3 disabled:cursor-not-allowed ${on ? "bg-stone-900 text-white" : "bg-white text-stone-900 hover:bg-amber-50"}`}
      >
        {label}
      </button>
    );
  };

  return (
    <div className="bg-amber-100 text-stone-900" data-testid="trade-bar">
      {/* One row on a phone too, so the product page's price stays above the fold. */}
      <div className="container-page flex flex-wrap items-center gap-x-2 gap-y-2 py-1.5 text-sm sm:gap-x-4">
        <p className="font-semibold">
          Trade<span className="hidden sm:inline"> prices{display.discountPercent > 0 ? ` · ${display.discountPercent}% off` : ""}</span>
        </p>
        <div role="group" aria-label="Show prices" className="inline-flex overflow-hidden rounded-md border border-stone-900">
          {option(false, "ex VAT")}
          {option(true, "inc VAT")}
        </div>
        {error ? (
          <p role="alert" className="font-semibold text-red-800">
            {error}
          </p>
        ) : null}
        <Link to="/trade/dashboard" className="ml-auto font-semibold underline underline-offset-2">
          <span className="sm:hidden">Dashboard</span>
          <span className="hidden sm:inline">Trade dashboard</span>
        </Link>
      </div>
    </div>
  );
}
