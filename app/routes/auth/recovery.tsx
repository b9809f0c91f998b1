import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { AuthSwitch } from "../../components/auth-switch.tsx";
import { EmailField, FormSuccess, SubmitButton } from "../../components/form.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { NewPasswordFields } from "../../components/new-password-fields.tsx";
import { PageHeading } from "../../components/page.tsx";
import { ApiError } from "../../lib/api-client.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { errorFor, failureFrom, type FormResult, raw, text } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/recovery";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Reset your password");

type Intent = "request" | "reset";
type RecoveryResult = FormResult & { intent: Intent };

const DEFAULT_SENT = "If that address has an account, we have emailed a link to reset the password.";

export async function clientAction({ request }: Route.ClientActionArgs): Promise<RecoveryResult> {
  const form = await request.formData();
  const api = browserApi();
  if (form.get("intent") === "reset") {
    const url = new URL(request.url);
    try {
      await api.post("/api/auth/reset-password", {
        email: url.searchParams.get("email") ?? "",
        token: url.searchParams.get("token") ?? "",
        password: raw(form, "password"),
        password_confirmation: raw(form, "password_confirmation"),
      });
      return { ok: true, intent: "reset" };
    } catch (error) {
      return { ...failureFrom(error, { fallback: "Password reset failed.", fields: ["password", "password_confirmation"], showServerMessageFor: [429] }), intent: "reset" };
    }
  }
  try {
    const answer = await api.post<{ message?: string } | undefined>("/api/auth/recovery", { email: text(form, "email") });
    return { ok: true, message: answer?.message || DEFAULT_SENT, intent: "request" };
  } catch (error) {
    return { ...failureFrom(error, { fallback: "Password reset request failed.", fields: ["email"], showServerMessageFor: [429] }), intent: "request" };
  }
}

type TokenCheck = { state: "checking" } | { state: "valid" } | { state: "invalid"; message: string };

/** The link in the email carries a token: ask the API whether it still holds before asking for a new password. */
function useTokenCheck(email: string, token: string): TokenCheck | null {
  const [check, setCheck] = useState<TokenCheck>({ state: "checking" });
  useEffect(() => {
    if (!email || !token) return;
    let cancelled = false;
    browserApi()
      .post("/api/auth/recovery/token", { email, token })
      .then(
        () => !cancelled && setCheck({ state: "valid" }),
        (error: unknown) => {
          if (cancelled) return;
          const message =
            error instanceof ApiError && error.status === 422
              ? Object.values(error.errors).flat().join(" ") || error.message || "Token validation failed."
              : "Token validation failed.";
          setCheck({ state: "invalid", message });
        },
      );
    return () => {
      cancelled = true;
    };
  }, [email, token]);
  return email && token ? check : null;
}

export default function Recovery({ actionData: result }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const email = params.get("email") ?? "";
  const token = params.get("token") ?? "";
  const check = useTokenCheck(email, token);
  const requestResult = result?.intent === "request" ? result : undefined;
  const resetResult = result?.intent === "reset" ? result : undefined;

  if (resetResult?.ok) {
    return (
      <div className="mx-auto max-w-md">
        <PageHeading title="Reset your password" />
        <FormSuccess>Your password has been changed. You can now sign in with your new password.</FormSuccess>
        <Link to="/auth/login" className="btn-primary mt-6 w-full">
          Sign in
        </Link>
      </div>
    );
  }

  if (check?.state === "checking") {
    return (
      <div className="mx-auto max-w-md">
        <PageHeading title="Reset your password" />
        <p role="status" className="rounded-lg border border-stone-200 bg-white p-5 text-stone-700">
          Checking your reset link…
        </p>
      </div>
    );
  }

  if (check?.state === "valid") {
    return (
      <div className="mx-auto max-w-md">
        <PageHeading title="Reset your password" intro={<>Choose a new password for {email}.</>} />
        <FormCard result={resetResult}>
          <NewPasswordFields result={resetResult} />
          <input type="hidden" name="intent" value="reset" />
          <SubmitButton busyLabel="Saving…">
            Save new password
          </SubmitButton>
        </FormCard>
      </div>
    );
  }

  // No token, or one that no longer holds: ask for a new link.
  return (
    <div className="mx-auto max-w-md">
      <PageHeading title="Reset your password" intro="Enter the email address of your account and we will send you a link to choose a new password." />
      {check?.state === "invalid" ? (
        <div role="alert" className="mb-6 rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 text-red-800">
          <p className="font-semibold">{check.message}</p>
          <p className="mt-1">Ask for a new link below.</p>
        </div>
      ) : null}
      <FormCard result={requestResult} showSuccess action="/auth/recovery">
        <EmailField defaultValue={email} error={errorFor(requestResult, "email")} />
        <input type="hidden" name="intent" value="request" />
        <SubmitButton busyLabel="Sending…">
          Send reset link
        </SubmitButton>
      </FormCard>
      <AuthSwitch question="Remembered it?" to="/auth/login">
        Sign in
      </AuthSwitch>
    </div>
  );
}
