import { useId, useRef } from "react";
import { Form, Link, redirect } from "react-router";
import { appContext } from "#app-context";
import { FormAlert, FormSuccess, SubmitButton, useFocusOnFailure } from "../../components/form.tsx";
import { PageHeading } from "../../components/page.tsx";
import { formatOrderDate } from "../../lib/basket-checkout.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { ApiError } from "../../lib/api-client.ts";
import { failure, failureFrom, type FormResult, redirectIfSignedOut, text } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/manage-user";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Company user");

/** One of the company's users, for owners and admins; anyone else, or another company's user, gets 404. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const id = Number(params.id);
  let list;
  try {
    list = await app.services.tradeUsers.list(app.user!.id);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) notFound();
    throw err;
  }
  const user = list.users.find((u) => u.id === id);
  if (!user) notFound();
  const me = list.users.find((u) => u.id === app.user!.id);
  return { user, actorRole: me?.role ?? "admin", owners: list.users.filter((u) => u.role === "owner").length };
}

export async function clientAction({ request, params }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  const api = browserApi();
  const remove = text(form, "intent") === "remove";
  try {
    if (remove) await api.delete(`/api/trade/users/${params.id}`);
    else await api.put(`/api/trade/users/${params.id}`, { role: text(form, "role") });
  } catch (error) {
    redirectIfSignedOut(error, request);
    if (error instanceof ApiError && [403, 404, 409].includes(error.status)) return failure(error.message);
    return failureFrom(error, { fallback: "That could not be saved. Please try again.", fields: [] });
  }
  if (remove) throw redirect("/trade/manage");
  return { ok: true, message: "The role is changed." };
}

const ROLES = { owner: "Owner", admin: "Admin", buyer: "Buyer", accounts: "Accounts" } as const;

export default function CompanyUser(props: Route.ComponentProps) {
  const { user, actorRole, owners } = props.loaderData;
  const result = props.actionData;
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const roleId = useId();
  useFocusOnFailure(result, formRef, alertRef);
  const locked = actorRole !== "owner" && user.role === "owner";
  const lastOwner = user.role === "owner" && owners <= 1;
  return (
    <>
      <PageHeading title={user.name} />
      <div className="grid max-w-xl gap-6">
        <dl className="grid gap-3 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
          <div>
            <dt className="text-sm font-semibold text-stone-600">Email</dt>
            <dd className="break-all">{user.email}</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-stone-600">Role</dt>
            <dd data-testid="trade-user-role">{ROLES[user.role]}</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-stone-600">Last active</dt>
            <dd>{user.last_active_at ? formatOrderDate(user.last_active_at) : "Not yet"}</dd>
          </div>
        </dl>
        {result?.ok ? <FormSuccess>{result.message}</FormSuccess> : null}
        {locked ? (
          <p className="rounded-md border-l-4 border-amber-600 bg-amber-50 px-4 py-3">Only an owner can change or remove an owner.</p>
        ) : (
          <Form method="post" ref={formRef} className="grid gap-5 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
            <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />
            {lastOwner ? <p className="text-stone-700">This is the account&rsquo;s only owner. Make someone else an owner before changing this role or removing them.</p> : null}
            <div className="grid gap-1.5">
              <label htmlFor={roleId} className="font-semibold">
                Role
              </label>
              <select id={roleId} name="role" defaultValue={user.role} className="min-h-11 w-full rounded-md border border-stone-400 bg-white px-3">
                {Object.entries(ROLES)
                  .filter(([value]) => value !== "owner" || actorRole === "owner")
                  .map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
              </select>
            </div>
            <div className="flex flex-wrap items-center gap-4">
              <SubmitButton busyLabel="Saving…" name="intent" value="role">
                Change the role
              </SubmitButton>
              <SubmitButton busyLabel="Removing…" name="intent" value="remove" className="btn-secondary">
                Remove from the company
              </SubmitButton>
            </div>
          </Form>
        )}
        <p>
          <Link to="/trade/manage" className="underline">
            Back to company users
          </Link>
        </p>
      </div>
    </>
  );
}
