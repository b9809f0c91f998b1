/**
 * The compare list (specification, sections 3, 5 and 9): up to 4 product ids,
 * kept in the `compare` cookie as a comma-separated list so the server can
 * render /compare from it. The list operations are pure; the store below keeps
 * the browser's copy and its short-lived message.
 */

import { cookieValue } from "./cookie-header.ts";
import { createListeners } from "./listeners.ts";

export const COMPARE_COOKIE = "compare";
export const COMPARE_LIMIT = 4;
/** Compare messages disappear after 3 seconds. */
export const COMPARE_MESSAGE_MS = 3000;
/** The cookie lives a year: the list is worth keeping between visits. */
export const COMPARE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export const MESSAGES = {
  added: "Added to compare.",
  removed: "Removed from compare.",
  cleared: "Comparison list cleared.",
  duplicate: "Product is already in the comparison list.",
  limit: `You can only compare up to ${COMPARE_LIMIT} products.`,
  fetchFailed: "Failed to fetch compared products.",
  fetchError: "An error occurred while fetching product details for comparison.",
} as const;

export type CompareLevel = "success" | "info" | "warning";

export interface CompareResult {
  list: number[];
  message: string;
  level: CompareLevel;
}

export function add(list: readonly number[], id: number): CompareResult {
  if (list.includes(id)) return { list: [...list], message: MESSAGES.duplicate, level: "info" };
  if (list.length >= COMPARE_LIMIT) return { list: [...list], message: MESSAGES.limit, level: "warning" };
  return { list: [...list, id], message: MESSAGES.added, level: "success" };
}

export function remove(list: readonly number[], id: number): CompareResult {
  return { list: list.filter((x) => x !== id), message: MESSAGES.removed, level: "success" };
}

export function clear(): CompareResult {
  return { list: [], message: MESSAGES.cleared, level: "success" };
}

/**
 * The cookie's value as a list: whole positive ids only, no repeats, at most 4
 * (anything else was not written by the shop and is dropped).
 */
export function parseCompareCookie(value: string | null | undefined): number[] {
  if (!value) return [];
  const ids: number[] = [];
  for (const part of decodeURIComponent(value).split(",")) {
    const p = part.trim();
    if (!/^\d{1,9}$/.test(p)) continue;
    const id = Number(p);
    if (id > 0 && !ids.includes(id)) ids.push(id);
  }
  return ids.slice(0, COMPARE_LIMIT);
}

/** The `compare` cookie from a Cookie request header. */
export function compareListFromCookieHeader(header: string | null | undefined): number[] {
  const value = cookieValue(header, COMPARE_COOKIE);
  return value === undefined ? [] : parseCompareCookie(value);
}

/** A Set-Cookie / document.cookie string: readable by the page and the server, not HttpOnly. */
export function compareCookieString(list: readonly number[], secure: boolean): string {
  const value = list.join(",");
  const age = list.length ? COMPARE_COOKIE_MAX_AGE : 0;
  return `${COMPARE_COOKIE}=${value}; Path=/; Max-Age=${age}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export interface CompareNotice {
  id: number;
  message: string;
  level: CompareLevel;
}

export interface CompareStoreOptions {
  read: () => number[];
  write: (list: readonly number[]) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * The browser's compare list. The cookie is the truth: every change reads it
 * first, so a list changed in another tab is respected (and its duplicate or
 * limit message shown).
 */
export function createCompareStore(options: CompareStoreOptions) {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  let list: number[] = [];
  let notice: CompareNotice | null = null;
  let timer: unknown;
  let counter = 0;
  const { subscribe, emit } = createListeners();

  function apply(result: CompareResult): CompareResult {
    if (result.list.join(",") !== list.join(",")) {
      options.write(result.list);
      list = result.list;
    }
    if (timer !== undefined) clearTimer(timer);
    counter += 1;
    notice = { id: counter, message: result.message, level: result.level };
    timer = setTimer(() => {
      notice = null;
      timer = undefined;
      emit();
    }, COMPARE_MESSAGE_MS);
    emit();
    return result;
  }

  /** Reads the cookie again; returns whether the list changed. */
  function sync(): boolean {
    const fresh = options.read();
    if (fresh.join(",") === list.join(",")) return false;
    list = fresh;
    emit();
    return true;
  }

  return {
    getList: () => list,
    getNotice: () => notice,
    subscribe,
    sync,
    add(id: number) {
      sync();
      return apply(add(list, id));
    },
    remove(id: number) {
      sync();
      return apply(remove(list, id));
    },
    clear() {
      sync();
      return apply(clear());
    },
  };
}

export type CompareStore = ReturnType<typeof createCompareStore>;
