import { useEffect, useRef, useState } from "react";
import { refreshBasket } from "../../lib/basket.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { formatPounds } from "../../lib/money.ts";

interface PendingPayment {
  order_number: string;
  total: number;
  redirect_url: string;
}

/**
 * A card order this browser placed whose payment page is still open: the
 * customer came back with the browser's Back button instead of the page's own
 * link, and would otherwise find an empty basket. They can go back to pay, or
 * cancel it and have its items back in the basket.
 */
export function PendingCardPayment() {
  const [pending, setPending] = useState<PendingPayment | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const said = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    browserApi()
      .get<{ data: PendingPayment | null }>("/api/checkout/card-payment", { signal: controller.signal })
      .then((answer) => setPending(answer.data))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (outcome) said.current?.focus();
  }, [outcome]);

  async function cancel() {
    if (!pending) return;
    setBusy(true);
    try {
      await browserApi().post("/api/checkout/card-payment/cancel", {});
      setOutcome({ ok: true, text: `Order ${pending.order_number} is cancelled and nothing was charged. Its items are back in your basket.` });
      setPending(null);
      await refreshBasket();
    } catch {
      setOutcome({ ok: false, text: "The order could not be cancelled just now. Please try again." });
    } finally {
      setBusy(false);
    }
  }

  if (outcome && !pending) {
    return (
      <p ref={said} tabIndex={-1} role="status" className="mb-4 rounded-md border-l-4 border-green-700 bg-green-50 px-4 py-3 font-semibold text-green-900">
        {outcome.text}
      </p>
    );
  }
  if (!pending) return null;
  return (
    <section aria-labelledby="pending-heading" className="mb-6 rounded-lg border-2 border-amber-600 bg-amber-50 p-5" data-testid="pending-card-payment">
      <h2 id="pending-heading" className="text-lg font-semibold">
        Order {pending.order_number} is waiting for your card payment
      </h2>
      <p className="mt-1">
        You left the payment page before paying {formatPounds(pending.total)}. The items are kept for you while the page is open; nothing has been charged.
      </p>
      {outcome && !outcome.ok ? (
        <p ref={said} tabIndex={-1} role="alert" className="mt-2 font-semibold text-red-800">
          {outcome.text}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-3">
        <a href={pending.redirect_url} className="btn-primary">
          Continue to payment
        </a>
        <button type="button" className="btn-secondary" disabled={busy} onClick={() => void cancel()}>
          {busy ? "Cancelling…" : "Cancel it and put the items back in my basket"}
        </button>
      </div>
    </section>
  );
}
