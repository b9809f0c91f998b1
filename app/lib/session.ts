/**
 * The browser's session (specification, section 4).
 *
 * The sign-in token lives in an HttpOnly cookie that the page never reads, so
 * "holding a token" means the server has recognised the cookie and named a
 * user. The page is anonymous until then. On start the page asks the API once
 * who is signed in (`GET /api/user`); from then on it follows the user the
 * server renders (sign-in, registration and sign-out all revalidate the page).
 *
 * When a user comes back (start with a stored sign-in, sign-in, registration)
 * every `onSignedIn` listener runs: the purchase basket, the hire basket and the
 * wishlist register here to fetch themselves.
 */
import type { ApiClient } from "./api-client.ts";
import { createListeners } from "./listeners.ts";

/** What the page keeps about the signed-in user: enough for the header and greetings. */
export interface SessionUser {
  id: number;
  firstname: string;
  lastname: string;
  name: string;
  email: string;
}

export type SignedInListener = (user: SessionUser) => void | Promise<void>;

export interface Session {
  /** The user the page holds, or null while anonymous. */
  readonly user: SessionUser | null;
  /** Records the user the page now holds; listeners run when a user arrives. */
  hold(user: SessionUser | null): void;
  /**
   * Runs `listener` each time a user comes back, and at once when one is already held.
   * Returns a function that removes it.
   */
  onSignedIn(listener: SignedInListener): () => void;
  /** For `useSyncExternalStore`: runs `change` whenever the held user changes. */
  subscribe(change: () => void): () => void;
}

export function createSession(report: (error: unknown) => void = (error) => console.warn("A sign-in listener failed:", error)): Session {
  let held: SessionUser | null = null;
  const listeners = new Set<SignedInListener>();
  const watchers = createListeners();

  function run(listener: SignedInListener, user: SessionUser): void {
    // One failing listener (say, the wishlist) must not stop the others (the basket).
    try {
      void Promise.resolve(listener(user)).catch(report);
    } catch (error) {
      report(error);
    }
  }

  return {
    get user() {
      return held;
    },
    hold(user) {
      const before = held;
      held = user;
      if (user && user.id !== before?.id) for (const listener of [...listeners]) run(listener, user);
      if (user?.id !== before?.id || user?.name !== before?.name) watchers.emit();
    },
    onSignedIn(listener) {
      listeners.add(listener);
      if (held) run(listener, held);
      return () => {
        listeners.delete(listener);
      };
    },
    subscribe: watchers.subscribe,
  };
}

/** The page's one session. */
export const session = createSession();

/** Register work to do when a user comes back (fetch the basket, the hire basket, the wishlist). */
export const onSignedIn = (listener: SignedInListener) => session.onSignedIn(listener);

/** Keeps only the fields the page needs from a user answer of the API. */
export function toSessionUser(value: unknown): SessionUser | null {
  if (!value || typeof value !== "object") return null;
  const u = value as Record<string, unknown>;
  if (typeof u.id !== "number" || typeof u.email !== "string") return null;
  const firstname = typeof u.firstname === "string" ? u.firstname : "";
  const lastname = typeof u.lastname === "string" ? u.lastname : "";
  const name = typeof u.name === "string" ? u.name : `${firstname} ${lastname}`.trim();
  return { id: u.id, firstname, lastname, name, email: u.email };
}

/** `GET /api/user`: the signed-in user, or null when the answer is empty (signed out). */
export async function fetchCurrentUser(api: Pick<ApiClient, "get">): Promise<SessionUser | null> {
  return toSessionUser(await api.get<unknown>("/api/user"));
}

/**
 * Whether the page was rendered for someone other than the API now names
 * (a page restored from the back-forward cache, or a sign-in from another tab):
 * then the page's data must be loaded again.
 */
export function pageIsStale(apiUser: SessionUser | null, pageUser: Pick<SessionUser, "id"> | null): boolean {
  return (apiUser?.id ?? null) !== (pageUser?.id ?? null);
}
