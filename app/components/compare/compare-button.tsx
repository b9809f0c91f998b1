import { useHydrated } from "../../lib/use-session.ts";
import { compareStore, useCompareList } from "./use-compare.ts";

export function CompareIcon({ className = "size-5" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
      <path d="M8 3v18M16 3v18M3 8h5M16 16h5M3 16h5M16 8h5" />
    </svg>
  );
}

function CheckIcon({ className = "size-5" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </svg>
  );
}

/**
 * Adds a product to the compare list, or takes it off again. Its name says
 * which product. It works once the page's scripts run (the list is a cookie the
 * browser writes). `compact` fits a product card: the button fills its cell
 * with less padding, so it stays one line on a phone's two-column grid.
 */
export function CompareButton({ productId, productName, compact = false }: { productId: number; productName: string; compact?: boolean }) {
  const hydrated = useHydrated();
  const list = useCompareList();
  const listed = list.includes(productId);
  return (
    <button
      type="button"
      disabled={!hydrated}
      onClick={() => (listed ? compareStore.remove(productId) : compareStore.add(productId))}
      aria-label={listed ? `Remove ${productName} from compare` : `Add ${productName} to compare`}
      className={`btn-secondary min-h-11 text-sm disabled:opacity-75 ${compact ? "w-full gap-1.5 px-2" : "px-3"} ${listed ? "border-brand-700 bg-brand-50 text-brand-900" : ""}`}
      data-testid="compare-button"
      data-product-id={productId}
    >
      {/* On a card, the icon shows only where the label still fits beside it (an @container parent, see ProductActions). */}
      {listed ? (
        <CheckIcon className={compact ? "hidden size-5 shrink-0 @[11rem]:block" : undefined} />
      ) : (
        <CompareIcon className={compact ? "hidden size-5 shrink-0 @[11rem]:block" : undefined} />
      )}
      {/* The same word in both states (a tick and the colour tell them apart), so what is seen is always part of the name. */}
      <span aria-hidden="true">Compare</span>
    </button>
  );
}
