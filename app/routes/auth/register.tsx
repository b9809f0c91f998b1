import { redirect } from "react-router";
import { AuthSwitch, useKeepRedirect } from "../../components/auth-switch.tsx";
import { Checkbox, EmailField, Field, SubmitButton } from "../../components/form.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { NewPasswordFields } from "../../components/new-password-fields.tsx";
import { PageHeading } from "../../components/page.tsx";
import { browserApi } from "../../lib/browser-api.ts";
import { checked, errorFor, failure, failureFrom, type FormResult, raw, text } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import { safeRedirect } from "../../lib/safe-redirect.ts";
import { session, toSessionUser } from "../../lib/session.ts";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Create an account");

const FIELDS = ["firstname", "lastname", "email", "password", "password_confirmation", "newsletter"] as const;

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult | Response> {
  const form = await request.formData();
  try {
    const answer = await browserApi().post<{ user?: unknown } | undefined>("/api/auth/register", {
      firstname: text(form, "firstname"),
      lastname: text(form, "lastname"),
      email: text(form, "email"),
      password: raw(form, "password"),
      password_confirmation: raw(form, "password_confirmation"),
      newsletter: checked(form, "newsletter"),
    });
    if (!answer?.user) return failure("Registration response missing user data.");
    // A shared page (ADR 0043) does not name its user: the page holds the one it signed in.
    session.hold(toSessionUser(answer.user));
  } catch (error) {
    return failureFrom(error, { fallback: "An error occurred during registration", fields: FIELDS, showServerMessageFor: [422, 429] });
  }
  return redirect(safeRedirect(new URL(request.url).searchParams.get("redirect"), "/account"));
}

export default function Register({ actionData: result }: Route.ComponentProps) {
  const loginTo = useKeepRedirect("/auth/login");

  return (
    <div className="mx-auto max-w-lg">
      <PageHeading title="Create an account" intro="Keep your addresses, follow your orders and save a wishlist." />
      <FormCard result={result}>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="First name" name="firstname" autoComplete="given-name" required maxLength={100} error={errorFor(result, "firstname")} />
          <Field label="Last name" name="lastname" autoComplete="family-name" required maxLength={100} error={errorFor(result, "lastname")} />
        </div>
        <EmailField error={errorFor(result, "email")} />
        <NewPasswordFields label="Password" result={result} />
        <Checkbox label="Email me offers and news" name="newsletter" hint="You can change this at any time in your account." error={errorFor(result, "newsletter")} />
        <SubmitButton busyLabel="Creating your account…">Create account</SubmitButton>
      </FormCard>
      <AuthSwitch question="Already have an account?" to={loginTo}>
        Sign in
      </AuthSwitch>
    </div>
  );
}
