// The purchase basket as the browser holds it (section 7): one store shared by
// the header's count, "Add to basket" buttons and the /basket screen.
import { ApiError } from "./api-client.ts";
import { browserApi } from "./browser-api.ts";
import { createCartStore } from "./basket-store.ts";

export interface BasketItem {
  cart_item_id: number;
  product_id: number;
  /** The variant bought, its option values ({} without options) and the unit it is sold in. */
  variant_id: number;
  options: Record<string, string>;
  unit: string;
  quantity: number;
  name: string;
  slug: string;
  sku: string;
  image: { src: string; alt: string; width?: number; height?: number; sources?: { type: string; srcset: string }[] } | null;
  unit_price: number;
  unit_price_ex_vat: number;
  /** Before promotions. */
  line_total: number;
  line_total_ex_vat: number;
  /** Taken off by promotions (ex VAT), and their names. */
  discount_ex_vat: number;
  promotions: string[];
  stock: number;
  in_stock: boolean;
  exceeds_stock: boolean;
}

/** A promotion that took something off: a code, or a multi-buy (code null). Pounds ex VAT. */
export interface CartDiscount {
  code: string | null;
  description: string;
  amount: number;
}

export interface Cart {
  items: BasketItem[];
  /** Ex VAT, before promotions. */
  subtotal: number;
  /** Ex VAT, what promotions took off. */
  discount: number;
  discounts: CartDiscount[];
  /** The codes held that take nothing off now, and why. */
  discount_notices: { code: string; message: string }[];
  free_delivery_code: string | null;
  /** The VAT. */
  taxes: number;
  /** What is paid. */
  total: number;
  itemCount: number;
}

export interface BasketAnswer {
  success: boolean;
  message: string;
  errors: Record<string, string[]>;
  cart: Cart;
}

/** The section 8 basket messages. */
export const BASKET_MESSAGES = {
  fetch: "Failed to fetch cart data.",
  add: "Failed to add item to cart.",
  addValidation: "Failed validation.",
  update: "Failed to update item quantity.",
  updateValidation: "Validation failed.",
  remove: "Failed to remove item from cart.",
  clear: "Failed to clear cart.",
} as const;

export const basketStore = createCartStore<Cart>({ url: "/api/basket", fetchMessage: BASKET_MESSAGES.fetch });
export const useBasket = basketStore.use;
export const refreshBasket = basketStore.refresh;
export const setCart = basketStore.set;

/**
 * Adds a product, keeping the shared store up to date. Resolves to null when it
 * worked, else to the section 8 message: a validation refusal's field messages
 * (or "Failed validation."), otherwise "Failed to add item to cart.".
 */
export async function addToBasket(productId: number, quantity = 1, variantId?: number): Promise<string | null> {
  try {
    const answer = await browserApi().post<BasketAnswer>("/api/basket", { product_id: productId, quantity, ...(variantId === undefined ? {} : { variant_id: variantId }) });
    setCart(answer.cart);
    return null;
  } catch (error) {
    const cart = basketStore.cartFromError(error);
    if (cart) setCart(cart);
    if (error instanceof ApiError && error.status === 422) {
      const fields = Object.values(error.errors ?? {}).map((m) => m.join(" ")).filter(Boolean);
      return fields.length ? fields.join(" ") : BASKET_MESSAGES.addValidation;
    }
    return BASKET_MESSAGES.add;
  }
}

/** What "Buy again" did, line by line (beside the basket envelope). */
export interface ReorderReport {
  added: { product_id: number; name: string; quantity: number }[];
  capped: { product_id: number; name: string; quantity: number; requested: number; stock: number }[];
  skipped: { product_id: number | null; name: string; requested: number; reason: string }[];
}

/**
 * Buy again: the order's lines go into the basket at today's prices. Resolves
 * to the server's message saying what was added, capped and skipped.
 */
export async function reorderIntoBasket(orderId: number): Promise<{ ok: boolean; message: string; report: ReorderReport | null }> {
  try {
    const answer = await browserApi().post<BasketAnswer & { reorder?: ReorderReport }>(`/api/account/orders/${orderId}/reorder`);
    setCart(answer.cart);
    const report = answer.reorder ?? null;
    return { ok: Boolean(report && (report.added.length || report.capped.length)), message: answer.message, report };
  } catch (error) {
    const cart = basketStore.cartFromError(error);
    if (cart) setCart(cart);
    const message = error instanceof ApiError && error.status < 500 && error.status !== 419 && error.message ? error.message : BASKET_MESSAGES.add;
    return { ok: false, message, report: null };
  }
}

/** A basket line's own address: its product's page, on its variant where it has options. */
export function lineHref(item: Pick<BasketItem, "slug" | "sku" | "options">): string {
  return `/product/${item.slug}${Object.keys(item.options).length ? `?variant=${encodeURIComponent(item.sku)}` : ""}`;
}
