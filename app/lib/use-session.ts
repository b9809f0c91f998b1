import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useRevalidator, useRouteLoaderData } from "react-router";
import type { RootData } from "./root-data.ts";
import { apiClient } from "./api-client.ts";
import { fetchCurrentUser, pageIsStale, session, type SessionUser } from "./session.ts";

/**
 * Section 4 of the specification, in the page: on start ask the API once who is
 * signed in; if the page was rendered for someone else, load its data again;
 * then hold the user the server renders, so `onSignedIn` listeners run when a
 * user comes back and sign-out clears the user everywhere.
 *
 * A shared page (ADR 0043: a catalogue page kept for everyone with the same price
 * view) is rendered for no one in particular: its user is the API's answer, asked
 * on start and again whenever the root's data is loaded again (sign-in, sign-out,
 * a changed name); sign-in and registration also hold the user they got at once.
 */
export function useSessionSync(root: Pick<RootData, "user" | "shared">, apiBaseUrl: string): void {
  const { user: pageUser, shared } = root;
  const revalidator = useRevalidator();
  const [started, setStarted] = useState(false);
  const latest = useRef({ pageUser, shared, revalidate: revalidator.revalidate });

  useEffect(() => {
    latest.current = { pageUser, shared, revalidate: revalidator.revalidate };
  });

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const apiUser = await fetchCurrentUser(apiClient(apiBaseUrl));
        if (cancelled) return;
        if (latest.current.shared) session.hold(apiUser);
        else if (pageIsStale(apiUser, latest.current.pageUser)) await latest.current.revalidate();
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
    if (started && !shared) session.hold(pageUser);
    // The user changes only when its id does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [started, userId, shared]);

  // The root's data loaded again on a shared page: whoever is signed in now, the API says.
  useEffect(() => {
    if (!started || !shared) return;
    let cancelled = false;
    fetchCurrentUser(apiClient(apiBaseUrl)).then(
      (apiUser) => {
        if (!cancelled) session.hold(apiUser);
      },
      () => {
        // Unreachable: the user held stands until the next load.
      },
    );
    return () => {
      cancelled = true;
    };
    // Each new root data object is one load of the root; `started` gates the first, which the start above covers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [root]);
}

/**
 * The signed-in user, for the header, greetings and forms: the one the server
 * rendered, or on a shared page the one the browser asked the API for (null in
 * the server's HTML and until the answer comes).
 */
export function usePageUser(): SessionUser | null {
  const root = useRouteLoaderData<RootData>("root");
  const held = useSyncExternalStore(session.subscribe, () => session.user, noUser);
  return root?.user ?? (root?.shared ? held : null);
}

const noUser = () => null;

/**
 * Whether a customer is signed in, named or not: on a personal page's frame
 * (ADR 0061) the server knows someone is, not who, so the page can lay out what
 * a signed-in customer sees (no shift when the name arrives).
 */
export function useSignedIn(): boolean {
  const root = useRouteLoaderData<RootData>("root");
  return usePageUser() !== null || Boolean(root?.signedIn);
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
