import { useState } from "react";
import { Link, useLocation } from "react-router";
import { loginUrlFor } from "../../lib/access.ts";
import { useHydrated } from "../../lib/use-session.ts";
import type { WishlistOutcome } from "../../lib/wishlist.ts";
import { useWishlist, wishlistStore } from "./use-wishlist.ts";

export function HeartIcon({ filled, className = "size-5" }: { filled: boolean; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill={filled ? "currentColor" : "none"} stroke="currentColor" strokeWidth="2" strokeLinejoin="round" className={className} aria-hidden="true">
      <path d="M12 20.5s-7.5-4.6-9.2-9.3C1.6 7.9 3.8 4.5 7.2 4.5c2 0 3.6 1.1 4.8 2.9 1.2-1.8 2.8-2.9 4.8-2.9 3.4 0 5.6 3.4 4.4 6.7-1.7 4.7-9.2 9.3-9.2 9.3z" />
    </svg>
  );
}

/**
 * The heart: saves a product to the wishlist, or takes it off. Pressed while
 * saved. Guests are told to sign in, with a link that brings them back.
 * It is two boxes, the button and its message, meant for a grid row of actions
 * (ProductActions): the message spans the row under the buttons.
 * `compact` (product cards): the heart alone in a square.
 */
export function WishlistButton({ productId, productName, compact = false }: { productId: number | string; productName: string; compact?: boolean }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const { state, signedIn } = useWishlist();
  const [outcome, setOutcome] = useState<WishlistOutcome | null>(null);
  const saved = typeof productId === "number" && state.ids.has(productId);

  async function toggle() {
    setOutcome(null);
    const result = saved ? await wishlistStore.remove(productId, signedIn) : await wishlistStore.add(productId, signedIn);
    setOutcome(result.ok ? null : result);
  }

  const problem = outcome && !outcome.ok ? outcome : null;
  return (
    <>
      <button
        type="button"
        disabled={!hydrated}
        aria-pressed={saved}
        aria-label={`Save ${productName} to your wishlist`}
        onClick={() => void toggle()}
        className={`btn-secondary min-h-11 text-sm disabled:opacity-75 ${compact ? "size-11 px-0" : "px-3"} ${saved ? "border-red-700 text-red-700" : ""}`}
        data-testid="wishlist-button"
      >
        <HeartIcon filled={saved} />
        {compact ? null : <span aria-hidden="true">{saved ? "Saved" : "Save"}</span>}
      </button>
      <div role="status" aria-live="polite" className="col-span-full text-sm">
        {problem ? (
          <p className="mt-1 font-semibold text-red-800">
            {problem.message}{" "}
            {problem.signIn ? (
              <Link className="link" to={loginUrlFor(new URL(`${location.pathname}${location.search}`, "http://shop"))}>
                Sign in
              </Link>
            ) : null}
          </p>
        ) : null}
      </div>
    </>
  );
}
