import { useState } from "react";
import { appContext } from "#app-context";
import { AccountPage } from "../../components/account-page.tsx";
import { Field, SubmitButton } from "../../components/form.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { browserApi } from "../../lib/browser-api.ts";
import { errorFor, failureFrom, type FormResult, raw, redirectIfSignedOut, text } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/manage";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your details");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const profile = await app.services.account.profile(app.user!.id);
  return { profile: { firstname: profile.firstname, lastname: profile.lastname, email: profile.email, phone: profile.phone ?? "" } };
}

const FIELDS = ["firstname", "lastname", "email", "phone", "current_password"] as const;

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  const body: Record<string, string> = {
    firstname: text(form, "firstname"),
    lastname: text(form, "lastname"),
    phone: text(form, "phone"),
  };
  // The email and the current password are sent only when the email changes.
  if (form.has("current_password")) {
    body.email = text(form, "email");
    body.current_password = raw(form, "current_password");
  }
  try {
    await browserApi().put("/api/account", body);
    return { ok: true, message: "Your details have been saved." };
  } catch (error) {
    redirectIfSignedOut(error, request);
    return failureFrom(error, { fallback: "Your details could not be saved. Please try again.", fields: FIELDS });
  }
}

export default function ManageAccount({ loaderData, actionData: result }: Route.ComponentProps) {
  const { profile } = loaderData;
  const [email, setEmail] = useState(profile.email);
  const emailChanged = email.trim().toLowerCase() !== profile.email.toLowerCase();

  return (
    <AccountPage title="Your details">
      <FormCard result={result} showSuccess>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="First name" name="firstname" autoComplete="given-name" required maxLength={100} defaultValue={profile.firstname} error={errorFor(result, "firstname")} />
          <Field label="Last name" name="lastname" autoComplete="family-name" required maxLength={100} defaultValue={profile.lastname} error={errorFor(result, "lastname")} />
        </div>
        <Field
          label="Email address"
          name="email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          hint="To change it we will ask for your current password."
          error={errorFor(result, "email")}
        />
        {emailChanged ? (
          <Field
            label="Current password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            required
            hint="Needed to change your email address."
            error={errorFor(result, "current_password")}
          />
        ) : null}
        <Field label="Phone number" name="phone" type="tel" autoComplete="tel" optional maxLength={30} defaultValue={profile.phone} error={errorFor(result, "phone")} />
        <div>
          <SubmitButton busyLabel="Saving…">Save details</SubmitButton>
        </div>
      </FormCard>
    </AccountPage>
  );
}
