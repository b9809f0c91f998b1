import { useState } from "react";
import { reorderIntoBasket } from "../../lib/basket.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { BasketNextLinks } from "./basket-next-links.tsx";

/**
 * "Buy again": puts an order's lines into the basket at today's prices and
 * says exactly what was added, capped at the stock or skipped.
 */
export function ReorderButton(props: { orderId: number; /** In a list of orders: names the order to screen readers, and a quieter button. */ orderNumber?: string }) {
  const [busy, setBusy] = useState(false);
  // It works through the page's scripts: until they run, the button cannot be pressed in vain.
  const hydrated = useHydrated();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  return (
    <div className="grid gap-3" data-testid="reorder">
      <div>
        <button
          type="button"
          className={`${props.orderNumber ? "btn-secondary" : "btn-primary"} disabled:opacity-75`}
          aria-label={props.orderNumber && !busy ? `Buy order ${props.orderNumber} again` : undefined}
          disabled={busy || !hydrated}
          onClick={() => {
            setBusy(true);
            void reorderIntoBasket(props.orderId)
              .then(setResult)
              .finally(() => setBusy(false));
          }}
        >
          {busy ? "Adding to your basket…" : "Buy again"}
        </button>
      </div>
      {/* A live region that is always there, so the outcome is read out when it arrives. */}
      <div role="status" aria-live="polite">
        {result ? (
          <div className={`rounded-md border-l-4 px-4 py-3 ${result.ok ? "border-green-700 bg-green-50 text-green-900" : "border-amber-600 bg-amber-50 text-stone-900"}`}>
            <p className="font-semibold">{result.message}</p>
            {result.ok ? <BasketNextLinks /> : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
