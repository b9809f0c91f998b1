import { useRef } from "react";
import { Form, Link, redirect } from "react-router";
import { FormAlert, SubmitButton, useFocusOnFailure } from "../../components/form.tsx";
import { PageHeading } from "../../components/page.tsx";
import { browserApi } from "../../lib/browser-api.ts";
import { ApiError } from "../../lib/api-client.ts";
import { failure, failureFrom, type FormResult, redirectIfSignedOut, text } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/invitation";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Join a trade account");

/** Signed in (guests sign in or register first and come back here with the token). */
export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  try {
    await browserApi().post("/api/trade/invitations/accept", { token: text(form, "token") });
  } catch (error) {
    redirectIfSignedOut(error, request);
    if (error instanceof ApiError && [403, 404, 409, 410].includes(error.status)) return failure(error.message);
    return failureFrom(error, { fallback: "The invitation could not be accepted. Please try again.", fields: [] });
  }
  throw redirect("/trade/dashboard");
}

export default function AcceptInvitation(props: Route.ComponentProps) {
  const { token } = props.loaderData;
  const result = props.actionData;
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  useFocusOnFailure(result, formRef, alertRef);
  return (
    <>
      <PageHeading title="Join a trade account" />
      <Form method="post" ref={formRef} className="grid max-w-xl gap-5 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
        <FormAlert ref={alertRef} message={result && !result.ok ? result.message : token ? undefined : "This invitation link is not valid."} />
        <p>You have been invited to join a company&rsquo;s trade account. Accept to see its trade prices and use the role you were given.</p>
        <input type="hidden" name="token" value={token} />
        <div className="flex flex-wrap items-center gap-4">
          <SubmitButton busyLabel="Joining…">Accept the invitation</SubmitButton>
          <Link to="/" className="underline">
            Not now
          </Link>
        </div>
      </Form>
    </>
  );
}
