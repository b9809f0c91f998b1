import { useRef } from "react";
import { Form, Link, data, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { Field, FormAlert } from "../../components/form.tsx";
import { RecoveryCodes, TotpEnrolment } from "../../components/admin/recovery-codes.tsx";
import { requireSameOrigin, serviceError } from "../../lib/admin/access.ts";
import { pageMeta } from "../../lib/meta.ts";
import { staffSignInCookies } from "../../../server/modules/staff/cookies.ts";
import type { Route } from "./+types/setup";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Set up your back office account");

export async function loader({ context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  try {
    return { ok: true as const, appName: app.config.appName, ...(await app.services.staff.setupDetails(params.token)) };
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return { ok: false as const, appName: app.config.appName, message: known.message };
  }
}

/** The password (and the authenticator's first code); on success the recovery codes, shown once, and the member is signed in. */
export async function action({ context, request, params }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "").slice(0, 200);
  try {
    const done = await app.services.staff.completeSetup(params.token, { password: field("password"), password_confirmation: field("password_confirmation"), totp_code: field("totp_code") || undefined });
    const headers = new Headers();
    for (const cookie of staffSignInCookies(done.token, app.secureCookies)) headers.append("set-cookie", cookie);
    return data({ done: true as const, recoveryCodes: done.recovery_codes, name: done.staff.name }, { headers });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data({ done: false as const, errors: known.errors ?? {}, message: known.errors ? "Check the details below." : known.message }, { status: known.status });
  }
}

export default function AdminSetup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const alert = useRef<HTMLDivElement>(null);
  const failed = actionData && !actionData.done ? actionData : undefined;
  const errorOf = (name: string) => failed?.errors[name]?.join(" ");
  return (
    <main id="main" tabIndex={-1} className="mx-auto grid max-w-2xl gap-6 px-4 py-10">
      <div>
        <p className="font-bold text-brand-800">{loaderData.appName}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight">Set up your back office account</h1>
      </div>
      {/* Done first: the link is spent now, so the page's data read again after the post says it is invalid. */}
      {actionData?.done ? (
        <div className="grid gap-4">
          {actionData.recoveryCodes.length ? (
            <RecoveryCodes codes={actionData.recoveryCodes} />
          ) : (
            <p role="status" className="rounded-md border-l-4 border-green-700 bg-green-50 px-4 py-3 font-semibold text-green-900">
              Your password is set, {actionData.name}. You can turn on two-factor sign-in from your account page.
            </p>
          )}
          <Link to="/admin" className="btn-primary justify-self-start">
            Continue to the back office
          </Link>
        </div>
      ) : !loaderData.ok ? (
        <div role="alert" className="rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-800">
          {loaderData.message}
        </div>
      ) : (
        <Form method="post" className="grid gap-5 rounded-lg border border-stone-200 bg-white p-6" noValidate>
          <p>
            Welcome, {loaderData.staff.name}. You are joining as <strong>{loaderData.staff.role_label.toLowerCase()}</strong> with the email {loaderData.staff.email}.
          </p>
          <FormAlert message={failed?.message} ref={alert} />
          <Field label="Choose a password" name="password" type="password" autoComplete="new-password" hint="At least 8 characters; a phrase of a few words is easy to remember and hard to guess." error={errorOf("password")} />
          <Field label="The password again" name="password_confirmation" type="password" autoComplete="new-password" error={errorOf("password_confirmation")} />
          <fieldset className="grid gap-3 rounded-md border border-stone-200 p-4">
            <legend className="px-1 font-semibold">Two-factor sign-in{loaderData.totp_required ? "" : " (optional here, required in production)"}</legend>
            <TotpEnrolment qrSvg={loaderData.totp.qr_svg} secret={loaderData.totp.secret} />
            <Field
              label="The code your app shows"
              name="totp_code"
              inputMode="numeric"
              autoComplete="one-time-code"
              optional={!loaderData.totp_required}
              error={errorOf("totp_code")}
              inputClassName="max-w-48"
            />
          </fieldset>
          <button type="submit" className="btn-primary justify-self-start disabled:opacity-75" disabled={navigation.state === "submitting"}>
            {navigation.state === "submitting" ? "Setting up…" : "Set up my account"}
          </button>
        </Form>
      )}
    </main>
  );
}
