// The hire basket as the browser holds it: one store shared by the header's
// count, the item page's "Add to hire request" and the /hire-basket screen.
// It is the generic cart store (basket-store.ts): filled from GET
// /api/hire-basket in the browser only, so a cached guest page carries no
// per-visitor data, and fetched again when a user signs in or out.
import { type CartStoreState, createCartStore } from "./basket-store.ts";
import { type HireCart, HIRE_MESSAGES } from "./hire.ts";

export type HireBasketState = CartStoreState<HireCart>;

export const hireBasketStore = createCartStore<HireCart>({ url: "/api/hire-basket", fetchMessage: HIRE_MESSAGES.fetch });

/**
 * The hire basket, loaded in the browser when `enabled`. Pass the page's user
 * id where the page knows it (the header): after sign-out the basket is the guest's again.
 */
export const useHireBasket = hireBasketStore.use;
/** Fetches the hire basket again. */
export const refreshHireBasket = hireBasketStore.refresh;
/** Stores the cart the server answered with. */
export const setHireCart = hireBasketStore.set;
/** The cart a refused write carried (every hire basket answer carries it). */
export const cartFromAnswer = hireBasketStore.cartFromError;
