import { useEffect, useSyncExternalStore } from "react";
import { browserApi } from "../../lib/browser-api.ts";
import { onSignedIn } from "../../lib/session.ts";
import { createWishlistStore, type WishlistState } from "../../lib/wishlist.ts";
import { usePageUser } from "../../lib/use-session.ts";

/** The page's one wishlist store. */
export const wishlistStore = createWishlistStore(browserApi);

// Section 4: when a user comes back, their wishlist is fetched.
if (typeof window !== "undefined") {
  onSignedIn((user) => wishlistStore.load(user.id));
}

const serverState: WishlistState = { userId: null, ids: new Set(), status: "idle", error: null };

/** The wishlist as the page holds it, and whether a user is signed in. */
export function useWishlist(): { state: WishlistState; signedIn: boolean } {
  const user = usePageUser();
  const state = useSyncExternalStore(wishlistStore.subscribe, wishlistStore.getState, () => serverState);
  const userId = user?.id ?? null;
  useEffect(() => {
    // Signed out: the previous user's hearts must not stay lit.
    if (userId === null && wishlistStore.getState().userId !== null) wishlistStore.forget();
  }, [userId]);
  return { state: state.userId === userId ? state : serverState, signedIn: userId !== null };
}
