import { Link, redirect } from "react-router";
import { AuthSwitch, useKeepRedirect } from "../../components/auth-switch.tsx";
import { Checkbox, EmailField, Field, SubmitButton } from "../../components/form.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { PageHeading } from "../../components/page.tsx";
import { browserApi } from "../../lib/browser-api.ts";
import { errorFor, failure, failureFrom, type FormResult, checked, raw, text } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import { safeRedirect } from "../../lib/safe-redirect.ts";
import { session, toSessionUser } from "../../lib/session.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Sign in");

interface AuthResponse {
  user?: unknown;
  token?: unknown;
  max_age?: number;
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult | Response> {
  const form = await request.formData();
  try {
    const answer = await browserApi().post<AuthResponse | undefined>("/api/auth/login", {
      email: text(form, "email"),
      password: raw(form, "password"),
      remember: checked(form, "remember"),
    });
    if (!answer?.user || !answer.token) return failure("Login response missing user or token data.");
    // A shared page (ADR 0043) does not name its user: the page holds the one it signed in.
    session.hold(toSessionUser(answer.user));
  } catch (error) {
    return failureFrom(error, { fallback: "An error occurred during login", fields: ["email", "password"], showServerMessageFor: [403, 422, 429] });
  }
  // The server has set the sign-in cookie; the redirect reloads every loader, so the header shows the user.
  return redirect(safeRedirect(new URL(request.url).searchParams.get("redirect")));
}

export default function Login({ actionData }: Route.ComponentProps) {
  const result = actionData;
  const registerTo = useKeepRedirect("/auth/register");

  return (
    <div className="mx-auto max-w-md">
      <PageHeading title="Sign in" intro="Sign in to see your orders, addresses and wishlist." />
      <FormCard result={result}>
        <EmailField error={errorFor(result, "email")} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errorFor(result, "password")} />
        <Checkbox label="Remember me" name="remember" hint="Stay signed in on this device for 30 days." />
        <SubmitButton busyLabel="Signing in…">Sign in</SubmitButton>
        <p>
          <Link className="link" to="/auth/recovery">
            Forgotten your password?
          </Link>
        </p>
      </FormCard>
      <AuthSwitch question="New here?" to={registerTo}>
        Create an account
      </AuthSwitch>
    </div>
  );
}
