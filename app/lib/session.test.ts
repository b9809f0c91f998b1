import { describe, expect, it, vi } from "vitest";
import { createSession, fetchCurrentUser, pageIsStale, type SessionUser, toSessionUser } from "./session.ts";

const ada: SessionUser = { id: 1, firstname: "Ada", lastname: "Builder", name: "Ada Builder", email: "ada@example.com" };
const bob: SessionUser = { id: 2, firstname: "Bob", lastname: "Mason", name: "Bob Mason", email: "bob@example.com" };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("session", () => {
  it("is anonymous until a user is held", () => {
    const session = createSession();
    expect(session.user).toBeNull();
    session.hold(ada);
    expect(session.user).toEqual(ada);
    session.hold(null);
    expect(session.user).toBeNull();
  });

  it("runs onSignedIn listeners when a user comes back, not again for the same user", () => {
    const session = createSession();
    const basket = vi.fn();
    const wishlist = vi.fn();
    session.onSignedIn(basket);
    session.onSignedIn(wishlist);
    session.hold(null);
    expect(basket).not.toHaveBeenCalled();

    session.hold(ada);
    expect(basket).toHaveBeenCalledExactlyOnceWith(ada);
    expect(wishlist).toHaveBeenCalledExactlyOnceWith(ada);

    // A revalidation that names the same user is no new arrival.
    session.hold({ ...ada, firstname: "Adelaide" });
    expect(basket).toHaveBeenCalledTimes(1);

    // Sign-out, then someone signs in again: they come back.
    session.hold(null);
    session.hold(bob);
    expect(basket).toHaveBeenCalledTimes(2);
    expect(basket).toHaveBeenLastCalledWith(bob);
  });

  it("a user switching without a sign-out in between counts as coming back", () => {
    const session = createSession();
    const listener = vi.fn();
    session.onSignedIn(listener);
    session.hold(ada);
    session.hold(bob);
    expect(listener.mock.calls.map(([u]) => u.id)).toEqual([1, 2]);
  });

  it("a listener registered while a user is held runs at once", () => {
    const session = createSession();
    session.hold(ada);
    const listener = vi.fn();
    session.onSignedIn(listener);
    expect(listener).toHaveBeenCalledExactlyOnceWith(ada);
  });

  it("a removed listener no longer runs", () => {
    const session = createSession();
    const listener = vi.fn();
    const off = session.onSignedIn(listener);
    off();
    session.hold(ada);
    expect(listener).not.toHaveBeenCalled();
  });

  it("one failing listener, thrown or rejected, does not stop the others", async () => {
    const report = vi.fn();
    const session = createSession(report);
    const after = vi.fn();
    session.onSignedIn(() => {
      throw new Error("wishlist down");
    });
    session.onSignedIn(() => Promise.reject(new Error("hire basket down")));
    session.onSignedIn(after);
    session.hold(ada);
    expect(after).toHaveBeenCalledOnce();
    await flush();
    expect(report.mock.calls.map(([e]) => (e as Error).message).sort()).toEqual(["hire basket down", "wishlist down"]);
  });
});

describe("the user from the API", () => {
  it("keeps only what the page needs", () => {
    expect(toSessionUser({ ...ada, phone: "0113", is_trade: false, trade_account_id: null })).toEqual(ada);
    expect(toSessionUser({ id: 3, email: "c@example.com", firstname: "Cy", lastname: "Roe" })).toEqual({
      id: 3,
      email: "c@example.com",
      firstname: "Cy",
      lastname: "Roe",
      name: "Cy Roe",
    });
  });

  it("an empty answer (204) means signed out", async () => {
    expect(await fetchCurrentUser({ get: async () => undefined as never })).toBeNull();
    expect(toSessionUser("")).toBeNull();
    expect(toSessionUser({ message: "nope" })).toBeNull();
  });

  it("asks GET /api/user", async () => {
    const get = vi.fn(async () => ada as never);
    expect(await fetchCurrentUser({ get })).toEqual(ada);
    expect(get).toHaveBeenCalledWith("/api/user");
  });

  it("the page is stale when the API names someone else", () => {
    expect(pageIsStale(null, null)).toBe(false);
    expect(pageIsStale(ada, { id: 1 })).toBe(false);
    expect(pageIsStale(ada, null)).toBe(true);
    expect(pageIsStale(null, { id: 1 })).toBe(true);
    expect(pageIsStale(bob, { id: 1 })).toBe(true);
  });
});
