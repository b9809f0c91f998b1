import { useSyncExternalStore } from "react";
import { COMPARE_COOKIE, compareCookieString, createCompareStore, parseCompareCookie, type CompareNotice } from "../../lib/compare.ts";

function readCookie(): number[] {
  if (typeof document === "undefined") return [];
  for (const part of document.cookie.split("; ")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq) === COMPARE_COOKIE) return parseCompareCookie(part.slice(eq + 1));
  }
  return [];
}

/** The page's one compare list, backed by the `compare` cookie. */
export const compareStore = createCompareStore({
  read: readCookie,
  write: (list) => {
    document.cookie = compareCookieString(list, location.protocol === "https:");
  },
});

let started = false;
function subscribe(listener: () => void) {
  if (!started && typeof window !== "undefined") {
    started = true;
    compareStore.sync();
    // Another tab may have changed the list meanwhile.
    window.addEventListener("focus", () => compareStore.sync());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") compareStore.sync();
    });
  }
  return compareStore.subscribe(listener);
}

const EMPTY: number[] = [];
const noNotice = () => null;

/**
 * The compare list. The server's HTML (and hydration) uses `serverList`: empty
 * unless the page rendered from the cookie (/compare), so cached pages carry no
 * per-visitor data; the browser's list follows at once.
 */
export function useCompareList(serverList: number[] = EMPTY): number[] {
  return useSyncExternalStore(
    subscribe,
    () => (started ? compareStore.getList() : serverList),
    () => serverList,
  );
}

export function useCompareNotice(): CompareNotice | null {
  return useSyncExternalStore(subscribe, compareStore.getNotice, noNotice);
}
