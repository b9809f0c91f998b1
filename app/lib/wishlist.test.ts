import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-client.ts";
import { createWishlistStore, toProductId } from "./wishlist.ts";

function fakeApi(overrides: Partial<Record<"get" | "post" | "delete", (...args: unknown[]) => Promise<unknown>>> = {}) {
  return {
    get: vi.fn(overrides.get ?? (async () => ({ data: [{ product_id: 1 }, { product_id: 2 }] }))),
    post: vi.fn(overrides.post ?? (async () => ({ success: true }))),
    delete: vi.fn(overrides.delete ?? (async () => ({ success: true }))),
  };
}

function storeWith(api: ReturnType<typeof fakeApi>) {
  // The store only calls get, post and delete.
  return createWishlistStore(() => api as never);
}

describe("product ids", () => {
  it("are whole positive numbers", () => {
    expect(toProductId(5)).toBe(5);
    expect(toProductId("12")).toBe(12);
    expect(toProductId("abc")).toBeNull();
    expect(toProductId(1.5)).toBeNull();
    expect(toProductId(0)).toBeNull();
    expect(toProductId(undefined)).toBeNull();
  });
});

describe("wishlist store", () => {
  it("loads the user's saved ids", async () => {
    const api = fakeApi();
    const store = storeWith(api);
    await store.load(7);
    expect(store.getState()).toMatchObject({ userId: 7, status: "loaded", error: null });
    expect([...store.getState().ids]).toEqual([1, 2]);
  });

  it("says so when the list cannot be fetched", async () => {
    const store = storeWith(fakeApi({ get: async () => Promise.reject(new ApiError(500, "Server Error")) }));
    await store.load(7);
    expect(store.getState()).toMatchObject({ status: "failed", error: "Failed to fetch wishlist." });
  });

  it("tells guests to sign in, without calling the API", async () => {
    const api = fakeApi();
    const store = storeWith(api);
    expect(await store.add(3, false)).toEqual({ ok: false, message: "Authentication required to add to wishlist.", signIn: true });
    expect(await store.remove(3, false)).toEqual({ ok: false, message: "Authentication required to remove from wishlist.", signIn: true });
    expect(api.post).not.toHaveBeenCalled();
    expect(api.delete).not.toHaveBeenCalled();
  });

  it("refuses an id that is not a number", async () => {
    const api = fakeApi();
    const store = storeWith(api);
    expect(await store.add("x1", true)).toEqual({ ok: false, message: "Invalid product ID." });
    expect(api.post).not.toHaveBeenCalled();
  });

  it("adds at once and keeps it when the server agrees", async () => {
    const api = fakeApi();
    const store = storeWith(api);
    await store.load(7);
    const pending = store.add(3, true);
    expect(store.getState().ids.has(3)).toBe(true);
    expect(await pending).toEqual({ ok: true });
    expect(api.post).toHaveBeenCalledWith("/api/account/wishlist", { product_id: 3 });
    expect(store.getState().ids.has(3)).toBe(true);
  });

  it("restores the heart when adding fails", async () => {
    const store = storeWith(fakeApi({ post: async () => Promise.reject(new TypeError("network")) }));
    await store.load(7);
    const pending = store.add(3, true);
    expect(store.getState().ids.has(3)).toBe(true);
    expect(await pending).toEqual({ ok: false, message: "Failed to add product to wishlist." });
    expect(store.getState().ids.has(3)).toBe(false);
  });

  it("restores the product when removing fails", async () => {
    const api = fakeApi({ delete: async () => Promise.reject(new ApiError(500, "Server Error")) });
    const store = storeWith(api);
    await store.load(7);
    const pending = store.remove(2, true);
    expect(store.getState().ids.has(2)).toBe(false);
    expect(await pending).toEqual({ ok: false, message: "Failed to remove product from wishlist." });
    expect(store.getState().ids.has(2)).toBe(true);
    expect(api.delete).toHaveBeenCalledWith("/api/account/wishlist/2");
  });

  it("a session that ended meanwhile asks to sign in", async () => {
    const store = storeWith(fakeApi({ post: async () => Promise.reject(new ApiError(401, "Unauthenticated.")) }));
    expect(await store.add(3, true)).toMatchObject({ message: "Authentication required to add to wishlist.", signIn: true });
  });

  it("forgets the list on sign-out and ignores a load that finishes late", async () => {
    let finish: (v: unknown) => void = () => {};
    const store = storeWith(fakeApi({ get: () => new Promise((resolve) => (finish = resolve)) }));
    const loading = store.load(7);
    store.forget();
    finish({ data: [{ product_id: 9 }] });
    await loading;
    expect(store.getState()).toMatchObject({ userId: null, status: "idle" });
    expect(store.getState().ids.size).toBe(0);
  });
});
