import { useState } from "react";
import { Link } from "react-router";
import { addToBasket } from "../../lib/basket.ts";
import { useHydrated } from "../../lib/use-session.ts";

/** The most a basket line may hold (issue 5). */
export const MAX_QUANTITY = 999;

type Outcome = { ok: true; quantity: number } | { ok: false; message: string };

/** "View basket", after a success message. */
export function ViewBasketLink() {
  return (
    <Link to="/basket" className="link whitespace-nowrap">
      View basket
    </Link>
  );
}

/** Adds to the shared basket and remembers how it went. */
export function useAddToBasket(productId: number, variantId?: number) {
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  async function add(quantity: number) {
    setSending(true);
    setOutcome(null);
    const problem = await addToBasket(productId, quantity, variantId);
    setSending(false);
    setOutcome(problem ? { ok: false, message: problem } : { ok: true, quantity });
  }
  return { sending, outcome, add };
}

/**
 * One of a product into the basket with a single button (the wishlist's
 * lines), and its outcome under it, read out.
 */
export function AddOneToBasket({ product, className = "" }: { product: { id: number; name: string }; className?: string }) {
  const hydrated = useHydrated();
  const { sending, outcome, add } = useAddToBasket(product.id);
  return (
    <div className={`grid content-start gap-1 ${className}`}>
      <button
        type="button"
        className="btn-primary px-3 text-sm disabled:cursor-not-allowed disabled:opacity-75"
        disabled={!hydrated || sending}
        onClick={() => void add(1)}
        aria-label={`Add to basket: ${product.name}`}
      >
        {sending ? "Adding…" : "Add to basket"}
      </button>
      <div role="status" aria-live="polite" className="text-sm">
        {outcome?.ok ? (
          <p className="font-semibold text-green-900">
            Added to your basket. <ViewBasketLink />
          </p>
        ) : outcome ? (
          <p className="font-semibold text-red-800">{outcome.message}</p>
        ) : null}
      </div>
    </div>
  );
}
