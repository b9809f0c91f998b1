import { useEffect, useRef } from "react";
import { ResultBanner } from "./result-banner.tsx";
import { Form, Link } from "react-router";

/**
 * The password box's name. Its presence in a post means the member has just
 * confirmed their password (app/lib/admin/reauth.ts reads it); it is never
 * carried back into the pending fields.
 */
export const REAUTH_PASSWORD_FIELD = "reauth_password";

/** What a screen's action answers when a sensitive action needs the password again. */
export interface PendingAction {
  /** What the member was about to do, in words: "Change Sita Sales's role to Manager". */
  action: string;
  /** The first post's own fields, sent again with the password so nothing typed is lost. */
  fields: [string, string][];
  /** "That password is not right." after a wrong one. */
  error?: string;
}

/**
 * Asks for the password again before a sensitive action (staff, roles, API
 * tokens), then performs it in the same post: the pending action's fields
 * ride along as hidden inputs. Works without the page's scripts.
 */
export function PasswordPrompt({ pending, cancelTo, busy }: { pending: PendingAction; cancelTo: string; busy: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  // The prompt is the one thing to do now: the keyboard lands in its box, also after a wrong password.
  useEffect(() => {
    input.current?.focus();
  }, [pending]);
  const errorId = pending.error ? "reauth-error" : undefined;
  return (
    <section aria-labelledby="reauth-heading" className="mb-5 max-w-2xl rounded-lg border-l-4 border-amber-500 bg-amber-50 p-5" data-testid="reauth-prompt">
      <h2 id="reauth-heading" className="text-lg font-bold text-stone-900">
        Confirm your password to continue
      </h2>
      <p id="reauth-intro" className="mt-1 text-stone-800">
        Changes to staff and API tokens need your password again every 5 minutes. After it, this is done at once:{" "}
        <strong className="font-semibold">{pending.action}</strong>.
      </p>
      <Form method="post" className="mt-4 grid gap-3" noValidate>
        {pending.fields.map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <div className="grid gap-1.5">
          <label htmlFor="reauth-password" className="font-semibold text-stone-900">
            Your password
          </label>
          {pending.error ? (
            <p id={errorId} className="text-sm font-semibold text-red-700">
              <span className="sr-only">Error: </span>
              {pending.error}
            </p>
          ) : null}
          <input
            ref={input}
            id="reauth-password"
            name={REAUTH_PASSWORD_FIELD}
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={pending.error ? true : undefined}
            aria-describedby={["reauth-intro", errorId].filter(Boolean).join(" ")}
            className={`min-h-11 w-full max-w-sm rounded-md border bg-white px-3 py-2 text-base ${pending.error ? "border-2 border-red-700" : "border-stone-400"}`}
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-primary disabled:opacity-75" disabled={busy}>
            {busy ? "Checking…" : "Confirm and continue"}
          </button>
          <Link to={cancelTo} className="link">
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}

/**
 * What a post on a screen of password-guarded actions answered: the password
 * prompt when it needs the password again, else its message as a banner
 * (which does not take the focus when a field in error does).
 */
export function GuardedResult({ result, cancelTo, busy, focus }: { result: { outcome: "done" | "failed"; message: string } | { outcome: "password"; pending: PendingAction } | undefined; cancelTo: string; busy: boolean; focus: boolean }) {
  if (!result) return null;
  if (result.outcome === "password") return <PasswordPrompt pending={result.pending} cancelTo={cancelTo} busy={busy} />;
  return (
    <ResultBanner ok={result.outcome === "done"} result={result} focus={focus}>
      {result.message}
    </ResultBanner>
  );
}
