import { useRef } from "react";
import { Form, data, useNavigation } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { DateCell } from "../../../components/admin/cells.tsx";
import { ButtonForm, ConfirmDisclosure } from "../../../components/admin/confirm-with-reason.tsx";
import { EmptyState } from "../../../components/admin/empty-state.tsx";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { useFocusFirstInvalid } from "../../../components/admin/form-field.tsx";
import { OneTimePanel } from "../../../components/admin/one-time-value.tsx";
import { GuardedResult, type PendingAction } from "../../../components/admin/reauth.tsx";
import { IntentSubmit, RoleSelect } from "../../../components/admin/role-select.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { Field } from "../../../components/form.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { withRecentPassword } from "../../../lib/admin/reauth.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { parseInput } from "../../../../server/http-errors.ts";
import { apiTokenBody } from "../../../../server/modules/staff/contract.ts";
import { ROLE_LABELS } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/tokens";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "API tokens");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "tokens.manage");
  return { tokens: await app.services.staff.tokens(actor) };
}

type Intent = "create" | "revoke";

type ActionResult =
  | { outcome: "done"; intent: Intent; tokenId: number | null; message: string; created?: { name: string; value: string } }
  | { outcome: "failed"; intent: Intent; tokenId: number | null; message: string; errors: Record<string, string[]>; values: Record<string, string> }
  | { outcome: "password"; intent: Intent; tokenId: number | null; pending: PendingAction; values: Record<string, string> };

/**
 * Creates and revokes staff API tokens. The service checks the permission and
 * the recent password again; a post that needs the password answers the
 * prompt, which posts the same fields back with it.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "tokens.manage");
  const service = app.services.staff;
  const text = (name: string, max: number) => String(form.get(name) ?? "").slice(0, max);
  const intent = text("intent", 20);
  const values = { name: text("name", 200), role: text("role", 20) };
  const failed = (status: number, tokenId: number | null, message: string, errors: Record<string, string[]> = {}) =>
    data<ActionResult>({ outcome: "failed", intent: intent === "revoke" ? "revoke" : "create", tokenId, message, errors, values }, { status });
  try {
    if (intent === "create") {
      // Checked before the password is asked: the prompt then names the token.
      const input = parseInput(apiTokenBody, values);
      const guarded = await withRecentPassword(app.services.staffSignIn, actor, form, `Create the API token “${input.name}” with the ${ROLE_LABELS[input.role]} role`, () => service.createToken(actor, input));
      if ("needsPassword" in guarded) return data<ActionResult>({ outcome: "password", intent, tokenId: null, pending: guarded.needsPassword, values }, { status: guarded.status });
      const made = guarded.done;
      return data<ActionResult>({
        outcome: "done",
        intent,
        tokenId: made.id,
        message: `API token “${made.name}” created, with the ${ROLE_LABELS[made.role]} role. Copy it now: it will not be shown again.`,
        created: { name: made.name, value: made.token },
      });
    }
    if (intent === "revoke") {
      const id = Number(text("id", 12));
      const token = Number.isSafeInteger(id) ? (await service.tokens(actor)).find((t) => t.id === id && !t.revoked) : undefined;
      if (!token) return failed(404, null, "No such token, or it is already revoked. Reload the page to see the tokens now.");
      const guarded = await withRecentPassword(app.services.staffSignIn, actor, form, `Revoke the API token “${token.name}”`, () => service.revokeToken(actor, token.id));
      if ("needsPassword" in guarded) return data<ActionResult>({ outcome: "password", intent, tokenId: token.id, pending: guarded.needsPassword, values }, { status: guarded.status });
      return data<ActionResult>({ outcome: "done", intent, tokenId: token.id, message: `API token “${token.name}” is revoked: anything still using it is refused from now on.` });
    }
    return failed(400, null, "Choose what to do.");
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (intent === "create" && known.errors) return failed(known.status, null, "No token was created: check the details below.", known.errors);
    return failed(known.status, null, `${intent === "revoke" ? "The token was not revoked." : "No token was created."} ${known.message}`);
  }
}

export default function AdminTokens({ loaderData, actionData }: Route.ComponentProps) {
  const { tokens } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = actionData as ActionResult | undefined;
  const createErrors = result?.outcome === "failed" && result.intent === "create" ? result.errors : {};
  const typed = result && result.outcome !== "done" && result.intent === "create" ? result.values : undefined;
  const fieldErrors = Boolean(createErrors.name || createErrors.role);
  const createForm = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(createForm, fieldErrors, result);
  const errorOf = (name: string) => createErrors[name]?.join(" ");
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Staff", to: "/admin/staff" }, { label: "API tokens" }]}
        title="API tokens"
        intro="For programs that use the back office's API (a stock sync, an accounts export). A token acts with its own role, in the name of the owner who made it, and every change it makes is in the audit log."
      />
      <GuardedResult result={result} cancelTo="/admin/staff/tokens" busy={busy} focus={!fieldErrors} />
      {result?.outcome === "done" && result.created ? (
        <OneTimePanel name="New token" testId="new-token" label={`The token “${result.created.name}”`} value={result.created.value} valueTestId="new-token-value">
          <p>
            <strong>This is the only time it is shown.</strong> The shop keeps only a fingerprint of it, so it cannot be shown again: copy it now into the program that will use it,
            which sends it as <code className="rounded bg-stone-100 px-1 font-mono">Authorization: Bearer …</code>. If it is lost, revoke it and create another.
          </p>
        </OneTimePanel>
      ) : null}

      <section aria-labelledby="tokens-heading" className="mb-8">
        <h2 id="tokens-heading" className="sr-only">
          Tokens
        </h2>
        <DataTable
          empty={<EmptyState title="No API tokens yet">Create one below for each program that needs the API, with the least role it needs.</EmptyState>}
          caption="API tokens, newest first; revoked tokens last"
          rows={tokens}
          rowKey={(t) => t.id}
          rowProps={(t) => ({ className: t.revoked ? "bg-stone-100 text-stone-500" : "max-lg:bg-white", "data-testid": "token-row" })}
          columns={[
            { label: "Name", head: true, className: "whitespace-nowrap", cellClassName: "font-semibold", cell: (t) => <span className="break-words">{t.name}</span> },
            { label: "Role", className: "whitespace-nowrap", cell: (t) => t.role_label },
            { label: "Created by", className: "whitespace-nowrap", cell: (t) => t.created_by },
            { label: "Created", className: "whitespace-nowrap", cell: (t) => <DateCell value={t.created_at} /> },
            { label: "Last used", className: "whitespace-nowrap", cell: (t) => (t.last_used_at ? <DateCell value={t.last_used_at} /> : "Never") },
            {
              label: "Status",
              className: "whitespace-nowrap",
              cell: (t) =>
                t.revoked ? (
                  "Revoked"
                ) : (
                  <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
                    <span className="py-2">Active</span>
                    <ConfirmDisclosure summary="Revoke" danger open={result?.outcome === "failed" && result.intent === "revoke" && result.tokenId === t.id}>
                      <p>Anything using “{t.name}” is refused at once. This cannot be undone.</p>
                      <ButtonForm fields={{ intent: "revoke", id: t.id }} look="danger" busy={busy}>
                        Revoke “{t.name}”
                      </ButtonForm>
                    </ConfirmDisclosure>
                  </div>
                ),
            },
          ]}
        />
      </section>

      <section aria-labelledby="create-heading" className="max-w-3xl rounded-lg border border-stone-200 bg-white p-5">
        <h2 id="create-heading" className="text-lg font-bold">
          Create a token
        </h2>
        <p className="mt-1 text-stone-700">Name it after what will use it (“Stock sync”, “Accounts export”). Give it the least role that program needs: a token never manages staff or tokens, whatever its role.</p>
        <Form ref={createForm} method="post" className="mt-4 grid gap-4 sm:grid-cols-2" noValidate key={result?.outcome === "done" && result.created ? `made-${result.tokenId}` : "create"}>
          <input type="hidden" name="intent" value="create" />
          <Field label="Name" name="name" autoComplete="off" required maxLength={80} defaultValue={typed?.name ?? ""} error={errorOf("name")} />
          <div className="grid content-start gap-1.5">
            <label htmlFor="token-role" className="font-semibold text-stone-900">
              Role
            </label>
            <FieldError id="token-role-error" messages={createErrors.role} />
            <RoleSelect id="token-role" value={typed?.role ?? ""} errors={createErrors.role} choose />
          </div>
          <IntentSubmit intent="create" busyLabel="Creating…">
            Create token
          </IntentSubmit>
        </Form>
      </section>
    </>
  );
}
