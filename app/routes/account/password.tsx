import { useEffect, useRef } from "react";
import { AccountPage } from "../../components/account-page.tsx";
import { Field, SubmitButton } from "../../components/form.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { NewPasswordFields } from "../../components/new-password-fields.tsx";
import { browserApi } from "../../lib/browser-api.ts";
import { errorFor, failureFrom, type FormResult, raw, redirectIfSignedOut } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/password";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Change your password");

const FIELDS = ["current_password", "password", "password_confirmation"] as const;

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  try {
    await browserApi().put("/api/account/password", {
      current_password: raw(form, "current_password"),
      password: raw(form, "password"),
      password_confirmation: raw(form, "password_confirmation"),
    });
    return { ok: true, message: "Your password has been changed. You stay signed in here; other devices are signed out." };
  } catch (error) {
    redirectIfSignedOut(error, request);
    return failureFrom(error, { fallback: "Your password could not be changed. Please try again.", fields: FIELDS, showServerMessageFor: [429] });
  }
}

export default function ChangePassword({ actionData: result }: Route.ComponentProps) {
  const formRef = useRef<HTMLFormElement>(null);
  // After a change the passwords leave the page.
  useEffect(() => {
    if (result?.ok) formRef.current?.reset();
  }, [result]);

  return (
    <AccountPage title="Change your password">
      <FormCard result={result} showSuccess formRef={formRef}>
        <Field label="Current password" name="current_password" type="password" autoComplete="current-password" required error={errorFor(result, "current_password")} />
        <NewPasswordFields result={result} />
        <div>
          <SubmitButton busyLabel="Saving…">Change password</SubmitButton>
        </div>
      </FormCard>
    </AccountPage>
  );
}
