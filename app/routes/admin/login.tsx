import { useRef } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { Field, FormAlert } from "../../components/form.tsx";
import { adminRedirect, requireSameOrigin, serviceError } from "../../lib/admin/access.ts";
import { cookieValue } from "../../lib/cookie-header.ts";
import { pageMeta } from "../../lib/meta.ts";
import { STAFF_DEVICE_COOKIE, staffDeviceCookies, staffSignInCookies } from "../../../server/modules/staff/cookies.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Back office sign-in");

/** Already signed in: straight on. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const target = adminRedirect(new URL(request.url).searchParams.get("redirect"));
  if (app.staff) throw redirect(target);
  return { appName: app.config.appName, production: app.secureCookies };
}

interface SignInFailure {
  message?: string;
  errors: Record<string, string[]>;
  email: string;
}

/** A plain form post (it works before the page's scripts load): on success the session cookies ride on the redirect. */
export async function action({ context, request }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "");
  const email = field("email").trim().slice(0, 254);
  const errors: Record<string, string[]> = {};
  if (!email) errors.email = ["Enter your email address."];
  if (!field("password")) errors.password = ["Enter your password."];
  if (Object.keys(errors).length) return data<SignInFailure>({ errors, email }, { status: 422 });
  try {
    const device = cookieValue(request.headers.get("cookie"), STAFF_DEVICE_COOKIE);
    const signedIn = await app.services.staffSignIn.signIn({ email, password: field("password").slice(0, 200), totp: field("totp").slice(0, 20) || undefined }, app.clientIp, device);
    const headers = new Headers();
    for (const cookie of [...staffSignInCookies(signedIn.token, app.secureCookies), ...staffDeviceCookies(signedIn.device, app.secureCookies)]) headers.append("set-cookie", cookie);
    return redirect(adminRedirect(new URL(request.url).searchParams.get("redirect")), { headers });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<SignInFailure>({ errors: known.errors ?? {}, message: known.errors ? undefined : known.message, email }, { status: known.status });
  }
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const alert = useRef<HTMLDivElement>(null);
  const failed = actionData as SignInFailure | undefined;
  const errorOf = (name: string) => failed?.errors[name]?.join(" ");
  const summary = failed?.message ?? (failed && Object.keys(failed.errors).length ? "Check the details below." : undefined);
  return (
    <main id="main" tabIndex={-1} className="grid min-h-dvh place-items-center px-4 py-10">
      <div className="w-full max-w-md rounded-lg border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <p className="font-bold text-brand-800">{loaderData.appName}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight">Back office sign-in</h1>
        <p className="mt-2 text-stone-700">For the shop's staff. Customers sign in on the shop.</p>
        <Form method="post" className="mt-6 grid gap-4" noValidate>
          <FormAlert message={summary} ref={alert} />
          <Field label="Email address" name="email" type="email" autoComplete="username" required defaultValue={failed?.email ?? ""} error={errorOf("email")} />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errorOf("password")} />
          <Field
            label="Authentication code"
            name="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            optional={!loaderData.production}
            hint="The 6-digit code from your authenticator app, or one of your recovery codes."
            error={errorOf("totp")}
            inputClassName="max-w-48"
            autoFocus={Boolean(errorOf("totp"))}
          />
          <button type="submit" className="btn-primary disabled:opacity-75" disabled={sending}>
            {sending ? "Signing in…" : "Sign in"}
          </button>
        </Form>
      </div>
    </main>
  );
}
