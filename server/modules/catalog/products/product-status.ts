// Plain values the back office's screens share with the server (no database
// code, so a screen's bundle can import them).

/** Draft: being written, never on the storefront. Published: on sale. Archived: withdrawn, kept for orders and history. */
export const PRODUCT_STATUSES = ["draft", "published", "archived"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const PRODUCT_STATUS_LABELS: Record<ProductStatus, string> = { draft: "Draft", published: "Published", archived: "Archived" };

/** A new product's reorder level until staff set their own. */
export const DEFAULT_REORDER_LEVEL = 5;

/** A bulk price change is at most this many per cent cheaper (and at most 1000% dearer). */
export const PRICE_PERCENT_LIMIT = 90;
