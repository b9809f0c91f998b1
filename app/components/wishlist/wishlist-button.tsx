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
 */
export function WishlistButton({ productId, productName, className = "" }: { productId: number | string; productName: string; className?: string }) {
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
    <div className={`grid justify-items-start gap-1 ${className}`}>
      <button
        type="button"
        disabled={!hydrated}
        aria-pressed={saved}
        aria-label={`Save ${productName} to your wishlist`}
        onClick={() => void toggle()}
        className={`btn-secondary min-h-11 px-3 text-sm disabled:opacity-60 ${saved ? "border-red-700 text-red-700" : ""}`}
        data-testid="wishlist-button"
      >
        <HeartIcon filled={saved} />
        <span aria-hidden="true">{saved ? "Saved" : "Save"}</span>
      </button>
      <div role="status" aria-live="polite" className="text-sm">
        {problem ? (
          <p className="font-semibold text-red-800">
            {problem.message}{" "}
            {problem.signIn ? (
              <Link className="link" to={loginUrlFor(new URL(`${location.pathname}${location.search}`, "http://shop"))}>
                Sign in
              </Link>
            ) : null}
          </p>
        ) : null}
      </div>
    </div>
  );
}
