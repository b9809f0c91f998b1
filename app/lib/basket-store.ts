// A browser-held cart store: one shared value that the header's count and a
// basket screen both read. It is filled from the API in the browser only (a
// cached guest page carries no per-visitor data) and fetched again when a user
// signs in (the guest basket merges into theirs) or signs out.
// The purchase basket (basket.ts) and the hire basket (hire-basket.ts) are both built on it.
import { useEffect, useRef, useSyncExternalStore } from "react";
import { ApiError } from "./api-client.ts";
import { browserApi } from "./browser-api.ts";
import { onSignedIn } from "./session.ts";
import { createListeners } from "./listeners.ts";

export interface CartStoreState<C> {
  /** Null until the first answer arrives. */
  cart: C | null;
  loading: boolean;
  /** The section 8 fetch message when the last fetch failed. */
  error: string | null;
}

export interface CartStore<C> {
  /** Stores the cart the server answered with. */
  set(cart: C): void;
  /** Fetches the cart again (one request at a time). */
  refresh(): Promise<void>;
  /** The cart, loaded in the browser when `enabled`; pass the page's user id where it is known. */
  use(enabled: boolean, userId?: number | null): CartStoreState<C>;
  /** The cart a refused write carried in its body, if any. */
  cartFromError(error: unknown): C | null;
  /** The state as it stands (what `use` gives a screen). */
  current(): CartStoreState<C>;
}

export function createCartStore<C extends { items: unknown[] }>(options: { url: string; fetchMessage: string }): CartStore<C> {
  let state: CartStoreState<C> = { cart: null, loading: false, error: null };
  const serverState: CartStoreState<C> = { cart: null, loading: false, error: null };
  const { subscribe, emit } = createListeners();
  let started = false;
  let inFlight: Promise<void> | null = null;
  // Counts the carts a write answered with: a fetch sent before one of them
  // answers with an older cart, which must not undo the write's on screen.
  let written = 0;

  function update(next: Partial<CartStoreState<C>>): void {
    state = { ...state, ...next };
    emit();
  }

  function refresh(): Promise<void> {
    if (inFlight) return inFlight;
    update({ loading: true });
    const writtenBefore = written;
    inFlight = (async () => {
      try {
        const answer = await browserApi().get<{ cart: C }>(options.url);
        update(written === writtenBefore ? { cart: answer.cart, loading: false, error: null } : { loading: false });
      } catch {
        update({ loading: false, error: options.fetchMessage });
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  }

  function start(): void {
    if (started) return;
    started = true;
    void refresh();
    onSignedIn(() => refresh());
  }

  function use(enabled: boolean, userId?: number | null): CartStoreState<C> {
    const current = useSyncExternalStore(
      subscribe,
      () => state,
      () => serverState,
    );
    useEffect(() => {
      if (enabled) start();
    }, [enabled]);
    const lastUser = useRef(userId);
    useEffect(() => {
      if (userId === undefined || lastUser.current === userId) return;
      const signedOut = lastUser.current != null && userId === null;
      lastUser.current = userId;
      if (enabled && started && signedOut) void refresh();
    }, [enabled, userId]);
    return current;
  }

  function cartFromError(error: unknown): C | null {
    if (error instanceof ApiError) {
      const body = error.body as { cart?: C } | undefined;
      if (body && typeof body === "object" && body.cart && Array.isArray(body.cart.items)) return body.cart;
    }
    return null;
  }

  function set(cart: C): void {
    written += 1;
    update({ cart, error: null });
  }

  return { set, refresh, use, cartFromError, current: () => state };
}

/**
 * The message for a line whose change the server refused: a validation answer's
 * field messages joined with spaces, a client error's own message, else `fallback`.
 */
export function lineMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const fields = Object.values(error.errors ?? {})
      .filter(Array.isArray)
      .map((m) => m.join(" "))
      .filter(Boolean);
    if (error.status === 422 && fields.length) return fields.join(" ");
    if (error.status >= 400 && error.status < 500 && error.status !== 419 && error.message) return error.message;
  }
  return fallback;
}
