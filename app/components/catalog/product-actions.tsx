import { CompareButton } from "../compare/compare-button.tsx";
import { WishlistButton } from "../wishlist/wishlist-button.tsx";

const layouts = {
  // Compare fills the row and the heart is a square beside it.
  card: "@container grid w-full grid-cols-[minmax(0,1fr)_auto] items-start gap-x-2",
  // The last column takes the rest, so the message under the buttons never widens them.
  page: "grid grid-cols-[auto_auto_1fr] items-start gap-x-3",
} as const;

/**
 * Compare and the wishlist heart for a product, on a card or a product page.
 * The heart's message (sign in, a refusal) takes the whole width under both
 * buttons, so a long message never pushes the heart onto a line of its own.
 * Both buttons name the product for screen readers.
 */
export function ProductActions({ product, variant = "card" }: { product: { id: number; name: string }; variant?: keyof typeof layouts }) {
  const compact = variant === "card";
  return (
    <div className={layouts[variant]} data-testid="product-actions">
      <CompareButton productId={product.id} productName={product.name} compact={compact} />
      <WishlistButton productId={product.id} productName={product.name} compact={compact} />
    </div>
  );
}
