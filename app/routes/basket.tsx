import { useState } from "react";
import { Link } from "react-router";
import { appContext } from "#app-context";
import { BasketLine } from "../components/basket/basket-line.tsx";
import { FormAlert } from "../components/form.tsx";
import { EmptyState, PageHeading } from "../components/page.tsx";
import { type BasketAnswer, BASKET_MESSAGES, basketStore, refreshBasket, setCart, useBasket } from "../lib/basket.ts";
import { lineMessage } from "../lib/basket-store.ts";
import { browserApi } from "../lib/browser-api.ts";
import { formatPounds } from "../lib/money.ts";
import { pageMeta } from "../lib/meta.ts";
import { notFound } from "../lib/not-found.ts";
import type { Route } from "./+types/basket";

export function loader({ context }: Route.LoaderArgs) {
  // With BASKET_ENABLED off the basket does not exist at all.
  if (!context.get(appContext).config.basketEnabled) notFound();
  // The basket itself is fetched in the browser: this page carries no per-visitor data.
  return null;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your basket");

const CONTINUE = "/category";

export default function Basket() {
  const { cart, error: fetchError, loading } = useBasket(true);
  const [hidden, setHidden] = useState<Set<number>>(() => new Set());
  const [lineErrors, setLineErrors] = useState<Record<number, string>>({});
  const [busyLine, setBusyLine] = useState<number | null>(null);
  const [pageError, setPageError] = useState<string | undefined>();
  const [clearing, setClearing] = useState(false);

  function lineError(id: number, message: string | null) {
    setLineErrors((errors) => {
      const next = { ...errors };
      if (message) next[id] = message;
      else delete next[id];
      return next;
    });
  }

  async function changeQuantity(id: number, quantity: number) {
    setBusyLine(id);
    lineError(id, null);
    try {
      const answer = await browserApi().put<BasketAnswer>(`/api/basket/${id}`, { quantity });
      setCart(answer.cart);
    } catch (error) {
      lineError(id, lineMessage(error, BASKET_MESSAGES.update));
      void refreshBasket();
    } finally {
      setBusyLine(null);
    }
  }

  async function remove(id: number) {
    // Optimistic: the line goes at once, and comes back in its place if the server refuses.
    setHidden((h) => new Set(h).add(id));
    lineError(id, null);
    try {
      const answer = await browserApi().delete<BasketAnswer>(`/api/basket/${id}`);
      setCart(answer.cart);
    } catch (error) {
      const cartNow = basketStore.cartFromError(error);
      if (cartNow) setCart(cartNow);
      lineError(id, `Remove failed: ${lineMessage(error, BASKET_MESSAGES.remove)}`);
      void refreshBasket();
    } finally {
      setHidden((h) => {
        const next = new Set(h);
        next.delete(id);
        return next;
      });
    }
  }

  async function clear() {
    setClearing(true);
    setPageError(undefined);
    try {
      const answer = await browserApi().delete<BasketAnswer>("/api/basket");
      setCart(answer.cart);
      setLineErrors({});
    } catch {
      setPageError(BASKET_MESSAGES.clear);
      void refreshBasket();
    } finally {
      setClearing(false);
    }
  }

  const heading = <PageHeading title="Your basket" />;

  if (!cart) {
    return (
      <>
        {heading}
        {fetchError ? (
          <div role="alert" className="rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-800">
            {fetchError}{" "}
            <button type="button" className="link ml-2 min-h-11" onClick={() => void refreshBasket()}>
              Try again
            </button>
          </div>
        ) : (
          <p role="status" className="text-stone-700">
            Loading your basket…
          </p>
        )}
      </>
    );
  }

  const lines = cart.items.filter((i) => !hidden.has(i.cart_item_id));
  if (lines.length === 0) {
    return (
      <>
        {heading}
        <EmptyState title="Your basket is empty." action={{ to: CONTINUE, label: "Continue shopping" }}>
          Browse the catalogue and add products to your basket.
        </EmptyState>
      </>
    );
  }

  const blocked = lines.some((i) => i.exceeds_stock || !i.in_stock);
  const count = lines.reduce((n, i) => n + i.quantity, 0);

  return (
    <>
      {heading}
      {fetchError ? (
        <p role="alert" className="mb-4 rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-800">
          {fetchError}
        </p>
      ) : null}
      <FormAlert message={pageError} className="mb-4" />
      <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="lines-heading" className="grid content-start gap-4">
          <div className="flex items-center justify-between gap-4">
            <h2 id="lines-heading" className="text-lg font-semibold">
              {count} {count === 1 ? "item" : "items"}
            </h2>
            <button type="button" className="btn-secondary disabled:opacity-60" onClick={() => void clear()} disabled={clearing}>
              {clearing ? "Clearing…" : "Clear basket"}
            </button>
          </div>
          <ul className="grid gap-4" aria-busy={loading}>
            {lines.map((item) => (
              <li key={item.cart_item_id}>
                <BasketLine
                  // A new answer from the server resets the line's quantity box.
                  key={`${item.cart_item_id}-${item.quantity}`}
                  item={item}
                  error={lineErrors[item.cart_item_id]}
                  busy={busyLine === item.cart_item_id}
                  onQuantity={(quantity) => void changeQuantity(item.cart_item_id, quantity)}
                  onRemove={() => void remove(item.cart_item_id)}
                />
              </li>
            ))}
          </ul>
        </section>

        <aside aria-labelledby="totals-heading" className="h-fit rounded-lg border border-stone-200 bg-white p-5 shadow-sm lg:sticky lg:top-4">
          <h2 id="totals-heading" className="text-lg font-semibold">
            Order summary
          </h2>
          <dl className="mt-3 grid gap-1.5" data-testid="basket-totals">
            {(
              [
                ["Subtotal (ex VAT)", cart.subtotal, ""],
                ["VAT", cart.taxes, ""],
                ["Total (inc VAT)", cart.total, "mt-1 border-t border-stone-300 pt-2 text-lg font-bold"],
              ] as const
            ).map(([label, value, className]) => (
              <div key={label} className={`flex justify-between gap-4 ${className}`}>
                <dt>{label}</dt>
                <dd className="text-right">{formatPounds(value)}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-sm text-stone-700">
            Delivery is worked out at checkout from your postcode.{" "}
            <Link to="/delivery" className="link">
              Delivery charges
            </Link>
          </p>
          {blocked ? (
            <p className="mt-3 text-sm font-semibold text-amber-800" role="status">
              Some items are short of stock. Lower their quantities to check out.
            </p>
          ) : null}
          <div className="mt-5 grid gap-3">
            {blocked ? (
              <span className="btn-primary cursor-not-allowed opacity-60" aria-disabled="true">
                Checkout
              </span>
            ) : (
              <Link to="/checkout" className="btn-primary">
                Checkout
              </Link>
            )}
            <Link to={CONTINUE} className="btn-secondary">
              Continue shopping
            </Link>
          </div>
        </aside>
      </div>
    </>
  );
}
