import { describe, expect, it } from "vitest";
import { loginUrlFor, requireGuest, requireSignedIn } from "./access.ts";
import { safeRedirect } from "./safe-redirect.ts";

describe("safeRedirect", () => {
  it.each(["/", "/account", "/account/orders/7?tab=items#x"])("keeps the site path %j", (target) => {
    expect(safeRedirect(target)).toBe(target);
  });

  it.each([null, undefined, "", "account", "//evil.example", "/\\evil.example", "https://evil.example", "/\tevil", "javascript:alert(1)"])(
    "falls back to / for %j",
    (target) => {
      expect(safeRedirect(target)).toBe("/");
    },
  );
});

function redirectOf(fn: () => void): { status: number; location: string | null } {
  try {
    fn();
  } catch (thrown) {
    const response = thrown as Response;
    return { status: response.status, location: response.headers.get("Location") };
  }
  throw new Error("expected a redirect");
}

describe("access rules", () => {
  it("sends a guest to /auth/login with the path they wanted", () => {
    const request = new Request("http://shop.test/account/orders/history?page=2");
    expect(redirectOf(() => requireSignedIn(null, request))).toEqual({
      status: 302,
      location: "/auth/login?redirect=%2Faccount%2Forders%2Fhistory%3Fpage%3D2",
    });
    expect(() => requireSignedIn({ id: 1 }, request)).not.toThrow();
  });

  it("sends a signed-in user from a guest page to ?redirect or /", () => {
    const user = { id: 1 };
    expect(redirectOf(() => requireGuest(user, new Request("http://shop.test/auth/login?redirect=%2Faccount")))).toEqual({
      status: 302,
      location: "/account",
    });
    expect(redirectOf(() => requireGuest(user, new Request("http://shop.test/auth/login")))).toEqual({ status: 302, location: "/" });
    expect(redirectOf(() => requireGuest(user, new Request("http://shop.test/auth/login?redirect=//evil.example")))).toEqual({
      status: 302,
      location: "/",
    });
    expect(() => requireGuest(null, new Request("http://shop.test/auth/login"))).not.toThrow();
  });

  it("builds the login URL from path and query", () => {
    expect(loginUrlFor(new URL("http://shop.test/trade/dashboard"))).toBe("/auth/login?redirect=%2Ftrade%2Fdashboard");
  });

  it("names the page, not the data request, when a guest follows a link in the browser", () => {
    const request = new Request("http://shop.test/account/orders/history.data?_routes=routes%2Faccount%2Forders-history");
    expect(redirectOf(() => requireSignedIn(null, request)).location).toBe("/auth/login?redirect=%2Faccount%2Forders%2Fhistory");
    expect(loginUrlFor(new URL("http://shop.test/account/orders/history.data?page=2&_routes=x"))).toBe("/auth/login?redirect=%2Faccount%2Forders%2Fhistory%3Fpage%3D2");
    expect(loginUrlFor(new URL("http://shop.test/_root.data"))).toBe("/auth/login?redirect=%2F");
    // React Router 8 asks for a path ending in / as `…/_.data`.
    expect(loginUrlFor(new URL("http://shop.test/_.data"))).toBe("/auth/login?redirect=%2F");
    expect(loginUrlFor(new URL("http://shop.test/account/_.data?_routes=x"))).toBe("/auth/login?redirect=%2Faccount%2F");
  });
});
