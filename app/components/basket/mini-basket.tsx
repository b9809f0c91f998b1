import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { type Cart, lineHref } from "../../lib/basket.ts";
import { formatPounds } from "../../lib/money.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { CountButton, CountContent, countButtonClass, countLabel } from "../count-button.tsx";
import { BasketIcon } from "../icons.tsx";

/**
 * The header's basket: a disclosure that opens a small panel with the lines,
 * the totals and the ways on. Until scripts run (and without them) it is a
 * plain link to /basket. Escape or a click elsewhere closes it; focus moves
 * into the panel on opening and back to the button on Escape.
 */
export function MiniBasket(props: { cart: Cart | null; error: string | null }) {
  const count = props.cart?.itemCount ?? 0;
  const hydrated = useHydrated();
  const location = useLocation();
  // Open at one location only: a navigation (e.g. to /basket from the panel) closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const setOpen = (next: boolean) => setOpenAt(next ? location.key : null);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    function onPointerDown(event: PointerEvent) {
      if (!wrapper.current?.contains(event.target as Node)) setOpenAt(null);
    }
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  if (!hydrated) return <CountButton to="/basket" label="Basket" count={count} icon={<BasketIcon />} />;

  const items = props.cart?.items ?? [];
  return (
    <div
      ref={wrapper}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className={`${countButtonClass} aria-expanded:bg-white/15`}
        aria-label={countLabel("Basket", count)}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <CountContent label="Basket" count={count} icon={<BasketIcon />} testId="basket-count" />
      </button>
      <div
        id={panelId}
        ref={panel}
        hidden={!open}
        tabIndex={-1}
        role="region"
        aria-label="Your basket"
        className="absolute right-0 top-full z-40 mt-2 w-[min(24rem,calc(100vw-2rem))] rounded-md bg-white p-4 text-stone-900 shadow-lg ring-1 ring-black/10 focus:outline-none"
        data-testid="mini-basket"
      >
        {/* Rendered only while open, so the page never holds two copies of the basket's words. */}
        {open ? (
          <>
            <p className="font-semibold">Your basket</p>
            {props.error ? (
              <p role="alert" className="mt-2 text-sm font-semibold text-red-700">
                {props.error}
              </p>
            ) : items.length === 0 ? (
              <p className="mt-2 text-sm text-stone-600">Your basket is empty.</p>
            ) : (
              <>
                <ul className="mt-2 max-h-[50vh] divide-y divide-stone-200 overflow-y-auto">
                  {items.map((item) => (
                    <li key={item.cart_item_id} className="flex items-start justify-between gap-3 py-2 text-sm">
                      <span className="min-w-0">
                        <Link to={lineHref(item)} className="font-semibold hover:underline">
                          {item.name}
                        </Link>
                        {Object.keys(item.options).length ? <span className="block text-stone-800">{Object.values(item.options).join(", ")}</span> : null}
                        <span className="block text-stone-600">
                          {item.quantity} × {formatPounds(item.unit_price)}
                        </span>
                      </span>
                      <span className="shrink-0 font-semibold">{formatPounds(item.line_total)}</span>
                    </li>
                  ))}
                </ul>
                <dl className="mt-2 grid gap-1 border-t border-stone-200 pt-2 text-sm">
                  <div className="flex justify-between gap-3">
                    <dt>Subtotal (ex VAT)</dt>
                    <dd>{formatPounds(props.cart!.subtotal)}</dd>
                  </div>
                  <div className="flex justify-between gap-3 font-bold">
                    <dt>Total (inc VAT)</dt>
                    <dd>{formatPounds(props.cart!.total)}</dd>
                  </div>
                </dl>
              </>
            )}
            <div className="mt-3 grid grid-cols-2 gap-2">
              <Link to="/basket" className="btn-secondary">
                View basket
              </Link>
              {items.length ? (
                <Link to="/checkout" className="btn-primary">
                  Checkout
                </Link>
              ) : null}
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}
