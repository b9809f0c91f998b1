// The hire basket as the browser holds it: one store shared by the header's
// count, the item page's "Add to hire request" and the /hire-basket screen.
// It is filled from GET /api/hire-basket in the browser only, so a cached guest
// page carries no per-visitor data, and fetched again when a user comes back.
import { useEffect, useRef, useSyncExternalStore } from "react";
import { ApiError } from "./api-client.ts";
import { browserApi } from "./browser-api.ts";
import { type HireBasketAnswer, type HireCart, HIRE_MESSAGES } from "./hire.ts";
import { onSignedIn } from "./session.ts";

export interface HireBasketState {
  /** Null until the first answer arrives. */
  cart: HireCart | null;
  loading: boolean;
  /** "Failed to fetch hire request cart data." when the last fetch failed. */
  error: string | null;
}

let state: HireBasketState = { cart: null, loading: false, error: null };
const listeners = new Set<() => void>();
let started = false;
let inFlight: Promise<void> | null = null;

function set(next: Partial<HireBasketState>): void {
  state = { ...state, ...next };
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const SERVER_STATE: HireBasketState = { cart: null, loading: false, error: null };

/** The cart a write answered with (success or refusal: every answer carries it). */
export function cartFromAnswer(error: unknown): HireCart | null {
  if (error instanceof ApiError) {
    const body = error.body as Partial<HireBasketAnswer> | undefined;
    if (body && typeof body === "object" && body.cart && Array.isArray(body.cart.items)) return body.cart;
  }
  return null;
}

/** Stores the cart the server answered with. */
export function setHireCart(cart: HireCart): void {
  set({ cart, error: null });
}

/** Fetches the hire basket again. */
export function refreshHireBasket(): Promise<void> {
  if (inFlight) return inFlight;
  set({ loading: true });
  inFlight = (async () => {
    try {
      const answer = await browserApi().get<HireBasketAnswer>("/api/hire-basket");
      set({ cart: answer.cart, loading: false, error: null });
    } catch {
      set({ loading: false, error: HIRE_MESSAGES.fetch });
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}

/** Loads the basket once per page, and again whenever a user comes back. */
function start(): void {
  if (started) return;
  started = true;
  void refreshHireBasket();
  // A user who comes back (sign-in, registration) has a merged basket: fetch it again.
  onSignedIn(() => refreshHireBasket());
}

/**
 * The hire basket, loaded in the browser when `enabled`. Pass the page's user
 * id where the page knows it (the header): after sign-out the basket is the guest's again.
 */
export function useHireBasket(enabled: boolean, userId?: number | null): HireBasketState {
  const current = useSyncExternalStore(
    subscribe,
    () => state,
    () => SERVER_STATE,
  );
  useEffect(() => {
    if (enabled) start();
  }, [enabled]);
  const lastUser = useRef(userId);
  useEffect(() => {
    if (userId === undefined || lastUser.current === userId) return;
    const signedOut = lastUser.current != null && userId === null;
    lastUser.current = userId;
    if (enabled && started && signedOut) void refreshHireBasket();
  }, [enabled, userId]);
  return current;
}
