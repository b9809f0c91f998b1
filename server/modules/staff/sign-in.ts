import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { signNonce, signedNonce } from "../../lib/signed-nonce.ts";
import type { MailService } from "../mail/service.ts";
import { renderEmail } from "../mail/templates.ts";
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

/** Wrong passwords (or codes) per account, per browser, before that browser waits. */
export const SIGN_IN_FAILURES_MAX = 5;
const WINDOW_MS = 15 * 60_000;

export interface StaffSignInOptions {
  /** Signs device cookies (the shop's cookie secret). */
  secret: string;
  /** Tells a member when sign-in to their account is paused for unknown browsers. */
  mail?: { service: MailService; db: Db; appName: string; publicUrl: string };
}

/**
 * A browser a member has signed in from before: a nonce, signed for their
 * account (OWASP's "device cookie"), kept a year whatever sign-out does.
 */
const devicePurpose = (account: string) => `staff-device:${account}`;

/**
 * Staff sign-in with its limits (shared through Redis when REDIS_URL is set, as
 * the storefront's are; ASVS 2.2.1). Guessing is slowed without locking the
 * member out (issue 33):
 * - a browser the member has signed in from (its device cookie) has 5 tries
 *   of its own in 15 minutes, so guesses from elsewhere never keep them out;
 * - every other browser shares 5 tries per account in 15 minutes, and when
 *   they run out the member is emailed: someone is guessing;
 * - any one address has 20 failures in 15 minutes across all accounts.
 * The screen and the API both sign in through this.
 */
export function createStaffSignIn(staff: StaffService, limits: LimiterStore, options: StaffSignInOptions) {
  const byAddress = limits.limiter({ name: "admin-login-address", max: 20, windowMs: WINDOW_MS });
  const byUnknownBrowsers = limits.limiter({ name: "admin-login-account", max: SIGN_IN_FAILURES_MAX, windowMs: WINDOW_MS });
  const byKnownBrowser = limits.limiter({ name: "admin-login-device", max: SIGN_IN_FAILURES_MAX, windowMs: WINDOW_MS });
  const byReauthentication = limits.limiter({ name: "admin-reauth", max: SIGN_IN_FAILURES_MAX, windowMs: WINDOW_MS });

  /** The member learns that unknown browsers are paused for their account, once per pause. */
  async function tellMember(account: string, address: string): Promise<void> {
    const mail = options.mail;
    const member = mail && (await staff.contactOf(account));
    if (!mail || !member) return;
    const subject = "Someone is trying to sign in to your back office account";
    const rendered = renderEmail({
      appName: mail.appName,
      publicUrl: mail.publicUrl,
      title: subject,
      paragraphs: [
        `Hello ${member.name},`,
        `There have been ${SIGN_IN_FAILURES_MAX} wrong passwords or codes for your back office account in the last 15 minutes, the last from the address ${address}.`,
        "For the next 15 minutes your account can only be signed in to from a browser you have signed in from before, so you can still work as usual.",
        "If this was you, there is nothing to do. If it was not, change your password, make sure two-factor sign-in is on, and tell the shop's owner.",
      ],
      action: { label: "Go to the back office", url: `${mail.publicUrl.replace(/\/+$/, "")}/admin` },
      footer: "We send this email to keep your account safe whenever someone guesses at its password.",
    });
    await mail.service.enqueue(mail.db, { to: member.email, subject, ...rendered });
    mail.service.kick?.();
  }

  return {
    /** `device`: the browser's device cookie, if any; a sign-in answers the one to keep (`staffDeviceCookie`). */
    async signIn(input: { email: string; password: string; totp?: string | undefined }, address: string, device?: string) {
      const account = input.email.trim().toLowerCase();
      const waitAddress = await byAddress.retryAfter(address);
      if (waitAddress > 0) throw new TooManyAttempts(waitAddress);
      const nonce = device ? signedNonce(device, options.secret, devicePurpose(account)) : null;
      const [limiter, key] = nonce ? [byKnownBrowser, `${account}:${nonce}`] : [byUnknownBrowsers, account];
      // Checked and counted in one step (ADR 0026): a burst of guesses, from any number of processes, cannot all pass the check first.
      const wait = await limiter.attempt(key);
      if (wait > 0) throw new TooManyAttempts(wait);
      try {
        const signedIn = await staff.login(input);
        await limiter.reset(key);
        return { ...signedIn, device: signNonce(options.secret, devicePurpose(account), nonce ?? undefined) };
      } catch (error) {
        // A wrong password or code counts against the address too; "a code is needed" does not.
        const needsCode = error instanceof ValidationError && error.errors.totp?.length && !input.totp?.trim();
        const failed = (error instanceof HttpError && error.statusCode === 401) || (error instanceof ValidationError && !needsCode);
        if (failed) {
          await byAddress.hit(address);
          // This failure used unknown browsers' last try: the pause starts now, and the member hears of it once.
          if (!nonce && (await byUnknownBrowsers.retryAfter(account)) > 0) await tellMember(account, address);
        }
        throw error;
      }
    },

    /**
     * The password asked again before a sensitive action: limited per member
     * too, so a session left open is no place to guess the password from.
     */
    async reauthenticate(actor: StaffActor, password: string) {
      // A token is refused before it counts: it must not use up its owner's tries.
      requireSession(actor);
      const account = actor.email.trim().toLowerCase();
      const wait = await byReauthentication.attempt(account);
      if (wait > 0) throw new TooManyAttempts(wait);
      await staff.reauthenticate(actor, password);
      await byReauthentication.reset(account);
    },
  };
}

export type StaffSignIn = ReturnType<typeof createStaffSignIn>;
