/**
 * The saved product ids of the signed-in user (specification, sections 3, 4, 5
 * and 8): fetched when a user comes back, changed optimistically, restored when
 * the server refuses. Hearts on cards and product pages read it.
 */
import { ApiError, type ApiClient, fieldMessage } from "./api-client.ts";
import { createListeners } from "./listeners.ts";

export const WISHLIST_MESSAGES = {
  invalidId: "Invalid product ID.",
  authAdd: "Authentication required to add to wishlist.",
  authRemove: "Authentication required to remove from wishlist.",
  fetchFailed: "Failed to fetch wishlist.",
  addFailed: "Failed to add product to wishlist.",
  removeFailed: "Failed to remove product from wishlist.",
} as const;

export type WishlistOutcome =
  | { ok: true }
  | { ok: false; message: string; /** True when signing in would help. */ signIn?: boolean };

/** A product id is a whole positive number (or its digits). */
export function toProductId(value: unknown): number | null {
  const n = typeof value === "string" && /^\d{1,9}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

export interface WishlistState {
  /** Whose list this is; null while nobody is signed in. */
  userId: number | null;
  ids: ReadonlySet<number>;
  status: "idle" | "loading" | "loaded" | "failed";
  /** "Failed to fetch wishlist." when the last load failed. */
  error: string | null;
}

export function createWishlistStore(api: () => Pick<ApiClient, "get" | "post" | "delete">) {
  let state: WishlistState = { userId: null, ids: new Set(), status: "idle", error: null };
  const { subscribe, emit } = createListeners();
  let generation = 0;

  function set(next: Partial<WishlistState>) {
    state = { ...state, ...next };
    emit();
  }

  async function load(userId: number): Promise<void> {
    generation += 1;
    const mine = generation;
    set({ userId, ids: userId === state.userId ? state.ids : new Set(), status: "loading", error: null });
    try {
      const answer = await api().get<{ data?: { product_id: number }[] }>("/api/account/wishlist");
      if (mine !== generation) return;
      set({ ids: new Set((answer?.data ?? []).map((e) => e.product_id)), status: "loaded" });
    } catch {
      if (mine !== generation) return;
      set({ status: "failed", error: WISHLIST_MESSAGES.fetchFailed });
    }
  }

  function forget(): void {
    generation += 1;
    set({ userId: null, ids: new Set(), status: "idle", error: null });
  }

  async function change(kind: "add" | "remove", rawId: unknown, signedIn: boolean): Promise<WishlistOutcome> {
    if (!signedIn) return { ok: false, message: kind === "add" ? WISHLIST_MESSAGES.authAdd : WISHLIST_MESSAGES.authRemove, signIn: true };
    const id = toProductId(rawId);
    if (id === null) return { ok: false, message: WISHLIST_MESSAGES.invalidId };
    const before = state.ids;
    const optimistic = new Set(before);
    if (kind === "add") optimistic.add(id);
    else optimistic.delete(id);
    set({ ids: optimistic });
    try {
      if (kind === "add") await api().post("/api/account/wishlist", { product_id: id });
      else await api().delete(`/api/account/wishlist/${id}`);
      return { ok: true };
    } catch (error) {
      // Put back this product only: other changes made meanwhile stand.
      const restored = new Set(state.ids);
      if (before.has(id)) restored.add(id);
      else restored.delete(id);
      set({ ids: restored });
      if (error instanceof ApiError && error.status === 401) {
        return { ok: false, message: kind === "add" ? WISHLIST_MESSAGES.authAdd : WISHLIST_MESSAGES.authRemove, signIn: true };
      }
      if (error instanceof ApiError && error.status === 422 && fieldMessage(error.errors, "product_id") === WISHLIST_MESSAGES.invalidId) {
        return { ok: false, message: WISHLIST_MESSAGES.invalidId };
      }
      return { ok: false, message: kind === "add" ? WISHLIST_MESSAGES.addFailed : WISHLIST_MESSAGES.removeFailed };
    }
  }

  return {
    getState: () => state,
    subscribe,
    load,
    forget,
    /** `signedIn`: whether the page holds a user; guests are told to sign in. */
    add: (id: unknown, signedIn: boolean) => change("add", id, signedIn),
    remove: (id: unknown, signedIn: boolean) => change("remove", id, signedIn),
  };
}

export type WishlistStore = ReturnType<typeof createWishlistStore>;
