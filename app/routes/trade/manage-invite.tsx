import { useId, useRef } from "react";
import { Form, Link, redirect } from "react-router";
import { appContext } from "#app-context";
import { Field, FormAlert, SubmitButton, useFocusOnFailure } from "../../components/form.tsx";
import { PageHeading } from "../../components/page.tsx";
import { browserApi } from "../../lib/browser-api.ts";
import { ApiError } from "../../lib/api-client.ts";
import { errorFor, failure, failureFrom, type FormResult, redirectIfSignedOut, text } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/manage-invite";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Invite a user");

/** Owners and admins only, like the API; an admin cannot invite an owner. */
export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  try {
    await app.services.tradeUsers.list(app.user!.id);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) notFound();
    throw err;
  }
  const account = await app.services.trade.accountOf(app.user!.id);
  return { canInviteOwner: account?.role === "owner" };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  try {
    await browserApi().post("/api/trade/users/invite", { email: text(form, "email"), role: text(form, "role") || undefined });
  } catch (error) {
    redirectIfSignedOut(error, request);
    if (error instanceof ApiError && (error.status === 403 || error.status === 409)) return failure(error.message);
    return failureFrom(error, { fallback: "The invitation could not be sent. Please try again.", fields: ["email", "role"] });
  }
  throw redirect("/trade/manage");
}

const ROLES = [
  { value: "buyer", label: "Buyer", hint: "places orders on account and sees their own orders" },
  { value: "accounts", label: "Accounts", hint: "invoices and payments" },
  { value: "admin", label: "Admin", hint: "users, invoices and buying" },
  { value: "owner", label: "Owner", hint: "everything" },
] as const;

export default function InviteUser(props: Route.ComponentProps) {
  const result = props.actionData;
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const roleId = useId();
  useFocusOnFailure(result, formRef, alertRef);
  const roleError = errorFor(result, "role");
  return (
    <>
      <PageHeading title="Invite a user" intro="We email them a link that works once and lasts 7 days. They accept by signing in or registering with that email address." />
      <Form method="post" ref={formRef} className="grid max-w-xl gap-6 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8" noValidate>
        <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />
        <Field label="Email address" name="email" type="email" autoComplete="off" spellCheck={false} required error={errorFor(result, "email")} />
        <div className="grid gap-1.5">
          <label htmlFor={roleId} className="font-semibold">
            Role
          </label>
          {roleError ? (
            <p id={`${roleId}-error`} className="text-sm font-semibold text-red-700">
              <span className="sr-only">Error: </span>
              {roleError}
            </p>
          ) : null}
          <select id={roleId} name="role" defaultValue="buyer" aria-invalid={roleError ? true : undefined} aria-describedby={roleError ? `${roleId}-error` : undefined} className="min-h-11 w-full rounded-md border border-stone-400 bg-white px-3">
            {ROLES.filter((r) => r.value !== "owner" || props.loaderData.canInviteOwner).map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}: {r.hint}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <SubmitButton busyLabel="Sending…">Send the invitation</SubmitButton>
          <Link to="/trade/manage" className="underline">
            Back to company users
          </Link>
        </div>
      </Form>
    </>
  );
}
