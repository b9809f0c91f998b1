import { HttpError, ValidationError } from "../../http-errors.ts";
import type { LimiterStore } from "../../plugins/rate-limit.ts";
import type { StaffService } from "./service.ts";

/** Refused for too many attempts; the API answers 429 with Retry-After. */
export class TooManyAttempts extends HttpError {
  readonly retryAfter: number;
  constructor(seconds: number) {
    super(429, `Too many attempts. Please try again in ${seconds} seconds.`);
    this.retryAfter = seconds;
  }
}

/**
 * Staff sign-in with its limits (shared through Redis when REDIS_URL is set, as
 * the storefront's are): 20 attempts per client address and 5 failures per
 * account in 15 minutes. The screen and the API both sign in through this.
 */
export function createStaffSignIn(staff: StaffService, limits: LimiterStore) {
  const byAddress = limits.limiter({ name: "admin-login-address", max: 20, windowMs: 15 * 60_000 });
  const byAccount = limits.limiter({ name: "admin-login-account", max: 5, windowMs: 15 * 60_000 });
  return {
    async signIn(input: { email: string; password: string; totp?: string | undefined }, address: string) {
      const account = input.email.trim().toLowerCase();
      const waitAccount = await byAccount.retryAfter(account);
      if (waitAccount > 0) throw new TooManyAttempts(waitAccount);
      const waitAddress = await byAddress.attempt(address);
      if (waitAddress > 0) throw new TooManyAttempts(waitAddress);
      try {
        const signedIn = await staff.login(input);
        await byAccount.reset(account);
        return signedIn;
      } catch (error) {
        // A wrong password or code counts against the account; "a code is needed" does not.
        const needsCode = error instanceof ValidationError && error.errors.totp?.length && !input.totp?.trim();
        if ((error instanceof HttpError && error.statusCode === 401) || (error instanceof ValidationError && !needsCode)) await byAccount.hit(account);
        throw error;
      }
    },
  };
}

export type StaffSignIn = ReturnType<typeof createStaffSignIn>;
