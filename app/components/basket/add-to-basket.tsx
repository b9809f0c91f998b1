import { useState } from "react";
import { Link } from "react-router";
import { addToBasket } from "../../lib/basket.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { FormAlert, QuantityField, SubmitButton } from "../form.tsx";

/** The most a basket line may hold (issue 5). */
export const MAX_QUANTITY = 999;

const BUTTON_SIZE = "min-w-40 flex-1 sm:flex-none";

type Outcome = { ok: true; quantity: number } | { ok: false; message: string };

/**
 * Quantity and "Add to basket" for a product page. The quantity goes from 1 to
 * 999 and never past the stock; out of stock, both are disabled. The outcome is
 * read out: a success message with a way to the basket, or the section 8
 * message (or the server's stock message) when the basket refuses. A product
 * with several variants adds the one chosen, and until one is, asks for it.
 * The quantity may be held by the page (the coverage calculator sets it).
 */
export function AddToBasket({
  product,
  variant,
  choose,
  unitName,
  quantity: held,
}: {
  product: { id: number; name: string; stock: number; in_stock: boolean };
  /** The variant to add, with its name as the line will read; undefined for a product with one. */
  variant?: { id: number; name: string; stock: number; in_stock: boolean } | null;
  /** "Choose a length": shown instead of the button while no variant is chosen. */
  choose?: string;
  /** "packs": said after the quantity in the success message. */
  unitName?: (quantity: number) => string;
  quantity?: [string, (value: string) => void];
}) {
  const own = useState("1");
  const [quantity, setQuantity] = held ?? own;
  const { sending, outcome, add } = useAddToBasket(product.id, variant?.id);
  const item = variant ?? product;
  const max = Math.max(1, Math.min(MAX_QUANTITY, item.stock));
  const unchosen = variant === null;
  const soldOut = !unchosen && (!item.in_stock || item.stock < 1);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!unchosen) void add(Number(quantity));
  }

  return (
    <form onSubmit={submit} aria-label={`Add ${item === variant ? variant.name : product.name} to basket`} className="grid gap-3" data-testid="add-to-basket">
      <div className="flex flex-wrap items-end gap-3">
        <QuantityField max={max} value={quantity} onChange={(event) => setQuantity(event.target.value)} disabled={soldOut || unchosen} className="w-24" />
        {unchosen ? (
          <button type="button" disabled className={`${BUTTON_SIZE} btn cursor-not-allowed bg-stone-200 text-stone-800`} data-testid="choose-variant">
            {choose ?? "Choose an option"}
          </button>
        ) : soldOut ? (
          <button type="button" disabled className={`${BUTTON_SIZE} btn cursor-not-allowed bg-stone-200 text-stone-700`}>
            Out of stock
          </button>
        ) : (
          <SubmitButton busy={sending} busyLabel="Adding…" className={`btn-primary ${BUTTON_SIZE}`}>
            Add to basket
          </SubmitButton>
        )}
      </div>
      <FormAlert message={outcome && !outcome.ok ? outcome.message : undefined} />
      {/* Always in the page, so the success is announced when it appears. */}
      <div role="status" aria-live="polite">
        {outcome?.ok ? (
          <p className="rounded-md border-l-4 border-green-700 bg-green-50 px-4 py-3 font-semibold text-green-900">
            Added {outcome.quantity}
            {unitName ? ` ${unitName(outcome.quantity)} of` : " ×"} {variant ? variant.name : product.name} to your basket. <ViewBasketLink />
          </p>
        ) : null}
      </div>
    </form>
  );
}

function ViewBasketLink() {
  return (
    <Link to="/basket" className="link whitespace-nowrap">
      View basket
    </Link>
  );
}

/** Adds to the shared basket and remembers how it went. */
function useAddToBasket(productId: number, variantId?: number) {
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
