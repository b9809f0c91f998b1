import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useRevalidator } from "react-router";
import { apiClient } from "./api-client.ts";
import { fetchCurrentUser, pageIsStale, session, type SessionUser } from "./session.ts";

/**
 * Section 4 of the specification, in the page: on start ask the API once who is
 * signed in; if the page was rendered for someone else, load its data again;
 * then hold the user the server renders, so `onSignedIn` listeners run when a
 * user comes back and sign-out clears the user everywhere.
 */
export function useSessionSync(pageUser: SessionUser | null, apiBaseUrl: string): void {
  const revalidator = useRevalidator();
  const [started, setStarted] = useState(false);
  const latest = useRef({ pageUser, revalidate: revalidator.revalidate });

  useEffect(() => {
    latest.current = { pageUser, revalidate: revalidator.revalidate };
  });

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const apiUser = await fetchCurrentUser(apiClient(apiBaseUrl));
        if (!cancelled && pageIsStale(apiUser, latest.current.pageUser)) await latest.current.revalidate();
      } catch {
        // The API could not be asked; the user the server rendered stands.
      }
      if (!cancelled) setStarted(true);
    })();
    return () => {
      cancelled = true;
    };
    // Once, on start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const userId = pageUser?.id ?? null;
  useEffect(() => {
    if (started) session.hold(pageUser);
    // The user changes only when its id does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [started, userId]);
}

const noSubscription = () => () => {};

/** False in the server's HTML and during hydration, true once the page's scripts run. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
