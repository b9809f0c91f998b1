import { useState } from "react";
import { type CartStore, lineMessage } from "../../lib/basket-store.ts";
import { browserApi } from "../../lib/browser-api.ts";

export interface BasketLinesMessages {
  /** The section 8 message for a refused change. */
  update: string;
  /** The section 8 message for a refused removal. */
  remove: string;
  /** The section 8 message for a refused clear. */
  clear: string;
}

export interface BasketLines {
  /** Lines removed optimistically whose answer has not come yet: leave them out. */
  hidden: ReadonlySet<number>;
  lineErrors: Readonly<Record<number, string>>;
  /** The line whose change is on its way. */
  busyLine: number | null;
  /** A refused clear. */
  pageError: string | undefined;
  clearing: boolean;
  change(id: number, body: object): Promise<void>;
  remove(id: number): Promise<void>;
  clear(): Promise<void>;
}

/**
 * Changes, removal and clearing on a basket screen (the purchase basket and the
 * hire basket behave alike, section 4): a refused change shows its message on
 * the line and the basket is fetched again; removal is optimistic, and a refused
 * one brings the line back in its place with "Remove failed: {message}".
 * `url` is the basket's collection (`/api/basket`); lines are `{url}/{id}`.
 */
export function useBasketLines<C extends { items: unknown[] }>(store: CartStore<C>, url: string, messages: BasketLinesMessages): BasketLines {
  const [hidden, setHidden] = useState<ReadonlySet<number>>(() => new Set());
  const [lineErrors, setLineErrors] = useState<Readonly<Record<number, string>>>({});
  const [busyLine, setBusyLine] = useState<number | null>(null);
  const [pageError, setPageError] = useState<string | undefined>();
  const [clearing, setClearing] = useState(false);

  function lineError(id: number, message: string | null) {
    setLineErrors((errors) => {
      const next = { ...errors };
      if (message) next[id] = message;
      else delete next[id];
      return next;
    });
  }

  async function change(id: number, body: object) {
    setBusyLine(id);
    lineError(id, null);
    try {
      const answer = await browserApi().put<{ cart: C }>(`${url}/${id}`, body);
      store.set(answer.cart);
    } catch (error) {
      lineError(id, lineMessage(error, messages.update));
      void store.refresh();
    } finally {
      setBusyLine(null);
    }
  }

  async function remove(id: number) {
    // Optimistic: the line goes at once, and comes back in its place if the server refuses.
    setHidden((h) => new Set(h).add(id));
    lineError(id, null);
    try {
      const answer = await browserApi().delete<{ cart: C }>(`${url}/${id}`);
      store.set(answer.cart);
    } catch (error) {
      const cartNow = store.cartFromError(error);
      if (cartNow) store.set(cartNow);
      lineError(id, `Remove failed: ${lineMessage(error, messages.remove)}`);
      void store.refresh();
    } finally {
      setHidden((h) => {
        const next = new Set(h);
        next.delete(id);
        return next;
      });
    }
  }

  async function clear() {
    setClearing(true);
    setPageError(undefined);
    try {
      const answer = await browserApi().delete<{ cart: C }>(url);
      store.set(answer.cart);
      setLineErrors({});
    } catch {
      setPageError(messages.clear);
      void store.refresh();
    } finally {
      setClearing(false);
    }
  }

  return { hidden, lineErrors, busyLine, pageError, clearing, change, remove, clear };
}
