import { useEffect, useRef } from "react";
import { createPath, useLocation, useNavigation } from "react-router";

/** How often the browser asks whether a newer build is live (one hour). */
export const BUILD_CHECK_INTERVAL_MS = 3_600_000;
/** A reload after a failed chunk load is not repeated within this window. */
export const RELOAD_GUARD_MS = 10_000;
const RELOAD_GUARD_KEY = "tradecounter:chunk-reload-at";

export interface ReloadDeps {
  storage: Pick<Storage, "getItem" | "setItem">;
  now: () => number;
  reload: () => void;
}

/**
 * Reloads the page once after a lazy chunk failed to load (usually a deploy
 * replaced it). A second failure within 10 s is left to the error page, so a
 * truly broken chunk can never cause a reload loop.
 */
export function reloadOnce(deps: ReloadDeps): boolean {
  const last = Number(deps.storage.getItem(RELOAD_GUARD_KEY));
  const now = deps.now();
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS) return false;
  deps.storage.setItem(RELOAD_GUARD_KEY, String(now));
  deps.reload();
  return true;
}

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    error.message,
  );
}

export function browserReloadDeps(): ReloadDeps {
  return { storage: window.sessionStorage, now: Date.now, reload: () => window.location.reload() };
}

/** Asks the server for its build id; null when it cannot be told. */
export async function fetchLiveBuildId(baseUrl: string, fetchImpl: typeof fetch = fetch): Promise<string | null> {
  try {
    const response = await fetchImpl(`${baseUrl}/api/build`, { cache: "no-store", credentials: "include" });
    if (!response.ok) return null;
    const body = (await response.json()) as { buildId?: unknown };
    return typeof body.buildId === "string" ? body.buildId : null;
  } catch {
    return null;
  }
}

/**
 * Checks every hour for a newer build; once one is live, the next navigation
 * is a full page load, so the visitor gets the new code without losing their place.
 */
export function useNewBuildReload(buildId: string, apiBaseUrl: string, intervalMs = BUILD_CHECK_INTERVAL_MS): void {
  const stale = useRef(false);
  const navigation = useNavigation();
  const location = useLocation();
  const firstLocation = useRef(location.key);

  useEffect(() => {
    if (buildId === "dev") return;
    const timer = window.setInterval(async () => {
      const live = await fetchLiveBuildId(apiBaseUrl);
      if (live && live !== buildId) stale.current = true;
    }, intervalMs);
    const onPreloadError = (event: Event) => {
      event.preventDefault();
      reloadOnce(browserReloadDeps());
    };
    window.addEventListener("vite:preloadError", onPreloadError);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("vite:preloadError", onPreloadError);
    };
  }, [buildId, apiBaseUrl, intervalMs]);

  // A navigation that starts loading data becomes a full load of its target.
  useEffect(() => {
    if (stale.current && navigation.state === "loading") window.location.assign(createPath(navigation.location));
  }, [navigation.state, navigation.location]);

  // A navigation that needed no data: load the page it arrived at afresh.
  useEffect(() => {
    if (stale.current && location.key !== firstLocation.current) window.location.reload();
  }, [location.key]);
}
