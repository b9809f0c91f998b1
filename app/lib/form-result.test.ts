import { describe, expect, it } from "vitest";
import { ApiError } from "./api-client.ts";
import { checked, errorFor, failureFrom, raw, redirectIfSignedOut, text } from "./form-result.ts";

const login = { fallback: "An error occurred during login", fields: ["email", "password"], showServerMessageFor: [422, 429] } as const;

describe("failureFrom", () => {
  it("puts a 422's field messages beside the fields, with no form-level message", () => {
    const error = new ApiError(422, "These credentials do not match our records.", { email: ["These credentials do not match our records."] });
    expect(failureFrom(error, login)).toEqual({ ok: false, errors: { email: ["These credentials do not match our records."] } });
  });

  it("joins a field's messages with spaces", () => {
    const result = failureFrom(new ApiError(422, "Invalid", { password: ["Too short.", "Too common."] }), login);
    expect(errorFor(result, "password")).toBe("Too short. Too common.");
    expect(errorFor(result, "email")).toBeUndefined();
  });

  it("messages for fields the form does not show go to the alert", () => {
    const result = failureFrom(new ApiError(422, "Invalid", { token: ["This link has expired."], password: ["Too short."] }), {
      fallback: "Password reset failed.",
      fields: ["password"],
    });
    expect(result).toEqual({ ok: false, errors: { password: ["Too short."] }, message: "This link has expired." });
  });

  it("a 422 with no field errors shows its message", () => {
    expect(failureFrom(new ApiError(422, "The given data was invalid."), login).message).toBe("The given data was invalid.");
  });

  it("shows the server's message for throttling", () => {
    const result = failureFrom(new ApiError(429, "Too many sign-in attempts. Please try again in 42 seconds."), login);
    expect(result).toEqual({ ok: false, errors: {}, message: "Too many sign-in attempts. Please try again in 42 seconds." });
  });

  it("anything else gets the catalogue's message, never the server's internals", () => {
    expect(failureFrom(new ApiError(500, "Internal Server Error"), login).message).toBe("An error occurred during login");
    expect(failureFrom(new ApiError(419, "CSRF token mismatch."), login).message).toBe("An error occurred during login");
    expect(failureFrom(new TypeError("Failed to fetch"), login).message).toBe("An error occurred during login");
    expect(failureFrom(new ApiError(429, "Slow down"), { fallback: "Password reset request failed.", fields: ["email"] }).message).toBe(
      "Password reset request failed.",
    );
  });
});

describe("redirectIfSignedOut", () => {
  it("sends a 401 back to sign-in with the page to return to", () => {
    const request = new Request("http://shop.test/account/manage?tab=1");
    let thrown: unknown;
    try {
      redirectIfSignedOut(new ApiError(401, "Unauthenticated."), request);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Faccount%2Fmanage%3Ftab%3D1");
    expect(() => redirectIfSignedOut(new ApiError(422, "x"), request)).not.toThrow();
  });
});

describe("form values", () => {
  it("trims text, keeps passwords as typed, reads checkboxes", () => {
    const form = new FormData();
    form.set("email", "  ada@example.com ");
    form.set("password", " spaced out ");
    form.set("remember", "on");
    expect(text(form, "email")).toBe("ada@example.com");
    expect(raw(form, "password")).toBe(" spaced out ");
    expect(checked(form, "remember")).toBe(true);
    expect(checked(form, "newsletter")).toBe(false);
    expect(text(form, "missing")).toBe("");
  });
});
