import { Form, data, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { RecoveryCodes, TotpEnrolment } from "../../components/admin/recovery-codes.tsx";
import { Field } from "../../components/form.tsx";
import { requireSameOrigin, requireStaff, serviceError } from "../../lib/admin/access.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your account");

/** Every member may see their own account and turn on two-factor sign-in. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requireStaff(app.staff, request);
  const me = await app.services.staff.me(actor);
  const enrolment = me.totp_enabled ? null : await app.services.staff.startTotp(actor);
  return { me, enrolment };
}

export async function action({ context, request }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const actor = requireStaff(app.staff, request);
  const form = await request.formData();
  try {
    const { recovery_codes } = await app.services.staff.confirmTotp(actor, String(form.get("code") ?? "").slice(0, 20));
    return { recoveryCodes: recovery_codes };
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data({ error: known.errors?.code?.join(" ") ?? known.message }, { status: known.status });
  }
}

export default function AdminAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { me, enrolment } = loaderData;
  const navigation = useNavigation();
  const codes = actionData && "recoveryCodes" in actionData ? actionData.recoveryCodes : null;
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  return (
    <>
      <PageHeader title="Your account" />
      <dl className="mb-6 grid max-w-xl gap-x-6 gap-y-2 rounded-lg border border-stone-200 bg-white p-5 sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold">Name</dt>
        <dd>{me.name}</dd>
        <dt className="font-semibold">Email</dt>
        <dd>{me.email}</dd>
        <dt className="font-semibold">Role</dt>
        <dd>{me.role_label}</dd>
        <dt className="font-semibold">Two-factor sign-in</dt>
        <dd data-testid="totp-state">{me.totp_enabled || codes ? "On" : "Off"}</dd>
      </dl>
      {codes ? (
        <RecoveryCodes codes={codes} />
      ) : enrolment ? (
        <section aria-labelledby="totp-heading" className="grid max-w-2xl gap-4 rounded-lg border border-stone-200 bg-white p-5">
          <h2 id="totp-heading" className="text-lg font-bold">
            Turn on two-factor sign-in
          </h2>
          <TotpEnrolment qrSvg={enrolment.qr_svg} secret={enrolment.secret} />
          <Form method="post" className="grid gap-3" noValidate>
            <Field label="The code your app shows" name="code" inputMode="numeric" autoComplete="one-time-code" required error={error} inputClassName="max-w-48" />
            <button type="submit" className="btn-primary justify-self-start disabled:opacity-75" disabled={navigation.state === "submitting"}>
              {navigation.state === "submitting" ? "Checking…" : "Turn on two-factor sign-in"}
            </button>
          </Form>
        </section>
      ) : null}
    </>
  );
}
