import { useState } from "react";
import { FormAlert, QuantityField, SubmitButton } from "../form.tsx";
import { MAX_QUANTITY, ViewBasketLink, useAddToBasket } from "./add-to-basket.tsx";

// The product page's own form, in a module only that page imports: the shared
// buttons (add-to-basket.tsx) are in every page's first load, this is not.

const BUTTON_SIZE = "min-w-40 flex-1 sm:flex-none";

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
