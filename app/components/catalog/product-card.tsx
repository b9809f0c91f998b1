import { Link } from "react-router";
import { Picture, type PictureImage } from "./picture.tsx";
import { Price, StockBadge } from "./price.tsx";
import { ProductActions } from "./product-actions.tsx";

/** The card fields of a product, as ProductCard in server/modules/catalog/products/products.ts. */
export interface CardProduct {
  id: number;
  sku: string;
  slug: string;
  name: string;
  manufacturer: { id: number; name: string; slug: string } | null;
  price: number;
  price_ex_vat: number;
  vat_rate: number;
  was_price: number | null;
  in_stock: boolean;
  image: PictureImage | null;
  /** Its variants' prices differ: the price shown is the cheapest. */
  price_varies?: boolean;
  /** The first option's values, shown as chips (four lengths). */
  option_chips?: { name: string; values: string[] } | null;
  /** A search for a variant's SKU or barcode: the card leads to that variant. */
  variant_sku?: string;
  /** The multi-buys it is in ("3 for 2 on gloves"). */
  offers?: string[];
}

/** A multi-buy the product is in: a badge on its card and its page, applied in the basket. */
export function OfferBadges({ offers, className = "" }: { offers: string[] | undefined; className?: string }) {
  if (!offers?.length) return null;
  return (
    <ul className={`flex flex-wrap gap-1 ${className}`} aria-label="Offers" data-testid="offer-badges">
      {offers.map((o) => (
        <li key={o} className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
          {o}
        </li>
      ))}
    </ul>
  );
}

/** At most this many chips on a card; the rest are counted. */
const CHIPS_MAX = 4;

export interface ProductCardProps {
  product: CardProduct;
  /** Cards in the first row load at once; the rest wait until scrolled near. */
  eager?: boolean;
  headingLevel?: 2 | 3;
  /** Action buttons (compare, wishlist, basket), under the price. */
  children?: React.ReactNode;
}

/** A card's picture: half the screen on phones, a third on tablets, a quarter of the page on desktops. */
const CARD_SIZES = "(min-width: 1024px) 300px, (min-width: 640px) 33vw, 50vw";

export function ProductCard({ product, eager = false, headingLevel = 3, children }: ProductCardProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const href = `/product/${product.slug}${product.variant_sku ? `?variant=${encodeURIComponent(product.variant_sku)}` : ""}`;
  const chips = product.option_chips;
  return (
    <article className="flex h-full flex-col rounded-lg border border-stone-200 bg-white p-3 shadow-sm sm:p-4" data-testid="product-card">
      {/* The picture repeats the name's link: one tab stop, one link read out per card. */}
      <Link to={href} tabIndex={-1} aria-hidden="true" className="block overflow-hidden rounded-md bg-stone-100">
        {product.image ? (
          <Picture
            image={product.image}
            alt=""
            sizes={CARD_SIZES}
            width={300}
            height={300}
            priority={eager ? "eager" : "lazy"}
            className="aspect-square w-full object-cover transition-transform hover:scale-[1.02]"
          />
        ) : (
          <span className="flex aspect-square w-full items-center justify-center text-sm text-stone-600">No picture yet</span>
        )}
      </Link>
      <p className="mt-3 min-h-4 text-xs font-semibold uppercase tracking-wide text-stone-600" data-testid="card-brand">{product.manufacturer?.name ?? ""}</p>
      <Heading className="mt-1 text-sm font-semibold leading-snug sm:text-base">
        <Link to={href} className="line-clamp-3 hover:text-brand-700 hover:underline">
          {product.name}
        </Link>
      </Heading>
      {chips ? (
        // One line of text, not a chip per value: the card is in every listing page's first load.
        <p className="mt-2 text-xs text-stone-700" data-testid="option-chips">
          <span className="sr-only">{chips.name}: </span>
          {chips.values.slice(0, CHIPS_MAX).join(" · ")}
          {chips.values.length > CHIPS_MAX ? ` +${chips.values.length - CHIPS_MAX} more` : ""}
        </p>
      ) : null}
      <OfferBadges offers={product.offers} className="mt-2" />
      <div className="mt-auto pt-3">
        {product.price_varies ? <p className="text-xs font-semibold text-stone-700">From</p> : null}
        <Price product={product} />
        <div className="mt-2">
          <StockBadge inStock={product.in_stock} />
        </div>
        {children ? <div className="mt-3 flex flex-wrap items-start gap-2">{children}</div> : null}
      </div>
    </article>
  );
}

export interface ProductGridProps {
  products: CardProduct[];
  /** How many cards load their picture at once (those above the fold). */
  eagerCount?: number;
  headingLevel?: 2 | 3;
  /** Action buttons for a card; compare and the wishlist heart unless given. */
  actions?: (product: CardProduct) => React.ReactNode;
  label?: string;
}

const defaultActions = (product: CardProduct) => <ProductActions product={product} />;

/** Two columns on phones, three on tablets, four on desktops. */
export function ProductGrid({ products, eagerCount = 0, headingLevel = 3, actions = defaultActions, label }: ProductGridProps) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4" aria-label={label} data-testid="product-grid">
      {products.map((p, i) => (
        <li key={p.id}>
          <ProductCard product={p} eager={i < eagerCount} headingLevel={headingLevel}>
            {actions(p)}
          </ProductCard>
        </li>
      ))}
    </ul>
  );
}
