import { HttpError, ValidationError } from "../../http-errors.ts";
import type { LimiterStore } from "../../plugins/rate-limit.ts";
import { type StaffActor, requireSession } from "./actor.ts";
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
 * the storefront's are): 5 attempts per account (cleared by a sign-in) and 20
 * failures per client address in 15 minutes; while either is locked even the
 * right password is refused. The screen and
 * the API both sign in through this.
 */
export function createStaffSignIn(staff: StaffService, limits: LimiterStore) {
  const byAddress = limits.limiter({ name: "admin-login-address", max: 20, windowMs: 15 * 60_000 });
  const byAccount = limits.limiter({ name: "admin-login-account", max: 5, windowMs: 15 * 60_000 });
  return {
    async signIn(input: { email: string; password: string; totp?: string | undefined }, address: string) {
      const account = input.email.trim().toLowerCase();
      const waitAddress = await byAddress.retryAfter(address);
      if (waitAddress > 0) throw new TooManyAttempts(waitAddress);
      // Checked and counted in one step (ADR 0026): a burst of guesses at one
      // account, from any number of processes, cannot all pass the check first.
      const waitAccount = await byAccount.attempt(account);
      if (waitAccount > 0) throw new TooManyAttempts(waitAccount);
      try {
        const signedIn = await staff.login(input);
        await byAccount.reset(account);
        return signedIn;
      } catch (error) {
        // A wrong password or code counts against the address too; "a code is needed" does not.
        const needsCode = error instanceof ValidationError && error.errors.totp?.length && !input.totp?.trim();
        if ((error instanceof HttpError && error.statusCode === 401) || (error instanceof ValidationError && !needsCode)) await byAddress.hit(address);
        throw error;
      }
    },

    /**
     * The password asked again before a sensitive action: it counts against
     * the same account limit as sign-in, so a session left open is no place
     * to guess the password from.
     */
    async reauthenticate(actor: StaffActor, password: string) {
      // A token is refused before it counts: it must not lock its owner out.
      requireSession(actor);
      const account = actor.email.trim().toLowerCase();
      const wait = await byAccount.attempt(account);
      if (wait > 0) throw new TooManyAttempts(wait);
      await staff.reauthenticate(actor, password);
      await byAccount.reset(account);
    },
  };
}

export type StaffSignIn = ReturnType<typeof createStaffSignIn>;
