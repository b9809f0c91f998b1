import { Form, Link } from "react-router";
import { appContext } from "#app-context";
import { FormAlert, FormSuccess, SubmitButton } from "../../components/form.tsx";
import { EmptyState, PageHeading } from "../../components/page.tsx";
import { ApiError } from "../../lib/api-client.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { failure, failureFrom, type FormResult, redirectIfSignedOut, text } from "../../lib/form-result.ts";
import { formatOrderDate } from "../../lib/basket-checkout.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/manage";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Company users");

/** Owners and admins see the company's users; anyone else gets the same 404 as the API. */
export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  try {
    return await app.services.tradeUsers.list(app.user!.id);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) notFound();
    throw err;
  }
}

/** Resend or revoke an open invitation. */
export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  const id = Number(text(form, "invitation"));
  const revoke = text(form, "intent") === "revoke";
  try {
    if (revoke) await browserApi().delete(`/api/trade/invitations/${id}`);
    else await browserApi().post(`/api/trade/invitations/${id}/resend`);
  } catch (error) {
    redirectIfSignedOut(error, request);
    if (error instanceof ApiError && [403, 404, 409].includes(error.status)) return failure(error.message);
    return failureFrom(error, { fallback: "That could not be done. Please try again.", fields: [] });
  }
  return { ok: true, message: revoke ? "The invitation is revoked." : "The invitation is sent again, with a new link valid 7 days." };
}

const ROLE = { owner: "Owner", admin: "Admin", buyer: "Buyer", accounts: "Accounts" } as const;
const INVITATION = { pending: "Invited", expired: "Invitation expired", accepted: "Accepted", revoked: "Revoked" } as const;

export default function CompanyUsers(props: Route.ComponentProps) {
  const { users, invitations } = props.loaderData;
  const result = props.actionData;
  return (
    <>
      <PageHeading title="Company users" />
      <div className="grid gap-6">
        {result?.ok ? <FormSuccess>{result.message}</FormSuccess> : <FormAlert message={result && !result.ok ? result.message : undefined} />}
        <p>
          <Link to="/trade/manage/invite" className="btn-primary inline-flex">
            Invite a user
          </Link>
        </p>
        <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm">
          <table className="w-full border-collapse text-left" data-testid="trade-users">
            <caption className="sr-only">The users of your company&rsquo;s trade account</caption>
            <thead className="bg-stone-100 text-sm text-stone-700">
              <tr>
                <th scope="col" className="px-4 py-3">Name</th>
                <th scope="col" className="px-4 py-3">Email</th>
                <th scope="col" className="px-4 py-3">Role</th>
                <th scope="col" className="px-4 py-3">Status</th>
                <th scope="col" className="px-4 py-3">Last active</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={`user-${user.id}`} className="border-t border-stone-200">
                  <th scope="row" className="px-4 py-3 font-semibold">
                    <Link to={`/trade/manage/user/${user.id}`} className="underline">
                      {user.name}
                    </Link>
                  </th>
                  <td className="break-all px-4 py-3">{user.email}</td>
                  <td className="px-4 py-3">{ROLE[user.role]}</td>
                  <td className="px-4 py-3">Active</td>
                  <td className="px-4 py-3">{user.last_active_at ? formatOrderDate(user.last_active_at) : "Not yet"}</td>
                </tr>
              ))}
              {invitations.map((invitation) => (
                <tr key={`invitation-${invitation.id}`} className="border-t border-stone-200 text-stone-700">
                  <th scope="row" className="px-4 py-3 font-normal italic">
                    Not yet joined
                  </th>
                  <td className="break-all px-4 py-3">{invitation.email}</td>
                  <td className="px-4 py-3">{ROLE[invitation.role]}</td>
                  <td className="px-4 py-3">{INVITATION[invitation.status]}</td>
                  <td className="px-4 py-3">
                    {invitation.status === "pending" ? `Link valid until ${formatOrderDate(invitation.expires_at)}` : "Link expired"}
                    <Form method="post" className="mt-2 flex flex-wrap gap-2">
                      <input type="hidden" name="invitation" value={invitation.id} />
                      <SubmitButton busyLabel="Sending…" name="intent" value="resend" className="btn-secondary">
                        Resend<span className="sr-only"> the invitation to {invitation.email}</span>
                      </SubmitButton>
                      <SubmitButton busyLabel="Revoking…" name="intent" value="revoke" className="btn-secondary">
                        Revoke<span className="sr-only"> the invitation to {invitation.email}</span>
                      </SubmitButton>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {users.length === 1 && invitations.length === 0 ? <EmptyState title="No other users belong to your company yet." action={{ to: "/trade/manage/invite", label: "Invite a user" }} /> : null}
      </div>
    </>
  );
}
