import { useRef } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { useFocusFirstInvalid } from "../../../components/admin/form-field.tsx";
import { OneTimePanel } from "../../../components/admin/one-time-value.tsx";
import { GuardedResult, type PendingAction } from "../../../components/admin/reauth.tsx";
import { IntentSubmit, RoleSelect } from "../../../components/admin/role-select.tsx";
import { MemberRow } from "../../../components/admin/staff-member-row.tsx";
import { TableOrCards } from "../../../components/admin/table-or-cards.tsx";
import { Field } from "../../../components/form.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { withRecentPassword } from "../../../lib/admin/reauth.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { staffUpdateBody } from "../../../../server/modules/staff/contract.ts";
import { parseInput } from "../../../../server/http-errors.ts";
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from "../../../../server/modules/staff/permissions.ts";
import { staffInviteBody } from "../../../../server/modules/staff/service.ts";
import type { Route } from "./+types/index";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Staff");

/** "Sita Sales is now a manager", "… in the warehouse": a role as a sentence says it. */
const ROLE_PHRASES: Record<StaffRole, string> = {
  owner: "an owner",
  manager: "a manager",
  sales: "in sales",
  warehouse: "in the warehouse",
  hire: "on the hire desk",
  accounts: "in accounts",
};

/** What each role may do, in brief, beside the invitation's role (the whole table is server/modules/staff/permissions.ts). */
const ROLE_SUMMARIES: Record<StaffRole, string> = {
  owner: "everything, including staff, API tokens and settings",
  manager: "everything except staff, API tokens and settings",
  sales: "orders, customers, refunds up to their own limit, and the catalogue to read",
  warehouse: "picking, dispatch, receiving and counting stock",
  hire: "the hire desk",
  accounts: "orders, refunds, trade accounts and invoices",
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "staff.manage");
  // The branches a member can work at (issue 30): none to choose in a one-branch shop.
  const branchChoices = (await app.services.branches.list()).data.map((b) => ({ id: b.id, name: b.name }));
  return { members: await app.services.staff.list(actor), me: actor.staffId, branches: branchChoices.length > 1 ? branchChoices : [] };
}

const INTENTS = ["invite", "role", "refund_limit", "branches", "setup_link", "remove"] as const;
type Intent = (typeof INTENTS)[number];

interface SetupLink {
  name: string;
  url: string;
  expires_at: string;
}

type ActionResult =
  | { outcome: "done"; intent: Intent; memberId: number | null; message: string; link?: SetupLink }
  | { outcome: "failed"; intent: Intent; memberId: number | null; message: string; errors: Record<string, string[]>; values: Record<string, string> }
  | { outcome: "password"; intent: Intent; memberId: number | null; pending: PendingAction; values: Record<string, string> };

/** What one intent does: its words for the password prompt, and the service call. */
interface Plan {
  label: string;
  run: () => Promise<{ message: string; link?: SetupLink; signedOut?: boolean }>;
}

/** Where a failure without fields of its own (409 the last owner, someone already removed) is shown: beside the control it is about. */
const FAILURE_FIELD: Record<Intent, string> = { invite: "request", role: "role", refund_limit: "refund_limit", branches: "branch_ids", setup_link: "setup_link", remove: "remove" };

/** Pounds as typed ("£1,250.50", "300"): a number, or NaN for the schema to refuse. */
function pounds(typed: string): number {
  const cleaned = typed.replace(/[£,\s]/g, "");
  return cleaned === "" ? Number.NaN : Number(cleaned);
}

/**
 * Every change an owner makes here: the service checks the permission and the
 * recent password again, and keeps the last owner; a post that needs the
 * password answers the prompt, which posts the same fields back with it.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "staff.manage");
  const service = app.services.staff;
  const text = (name: string, max: number) => String(form.get(name) ?? "").slice(0, max);
  const rawIntent = text("intent", 20);
  const intent: Intent = (INTENTS as readonly string[]).includes(rawIntent) ? (rawIntent as Intent) : "invite";
  const values: Record<string, string> = {
    name: text("name", 200),
    email: text("email", 300),
    role: text("role", 20),
    refund_limit: text("refund_limit", 20),
    // Ticked boxes, kept as one field so the password prompt can post them back.
    branch_ids: form
      .getAll("branch_ids")
      .map((v) => String(v))
      .join(",")
      .slice(0, 400),
    branches_only: text("branches_only", 3),
  };
  const failed = (status: number, memberId: number | null, message: string, errors: Record<string, string[]> = {}) =>
    data<ActionResult>({ outcome: "failed", intent, memberId, message, errors, values }, { status });
  if (rawIntent !== intent) return failed(400, null, "Choose what to do.");

  let memberId: number | null = null;
  let notDone = intent === "invite" ? "No one was invited." : "That was not saved.";
  let plan: Plan;
  try {
    if (intent === "invite") {
      // Checked before the password is asked: the prompt then names who is being invited.
      const input = parseInput(staffInviteBody, { name: values.name, email: values.email, role: values.role });
      plan = {
        label: `Invite ${input.name} (${input.email}) as ${ROLE_LABELS[input.role]}`,
        run: async () => {
          const invited = await service.invite(actor, input);
          return {
            message: `${invited.staff.name} is invited, ${ROLE_PHRASES[invited.staff.role]}. Copy their set-up link below and send it to them.`,
            link: { name: invited.staff.name, url: invited.setup_url, expires_at: invited.expires_at },
          };
        },
      };
    } else {
      const id = Number(text("id", 12));
      const member = Number.isSafeInteger(id) ? (await service.list(actor)).find((m) => m.id === id) : undefined;
      if (!member) return failed(404, null, "No such member of staff. Reload the page to see who is on the staff now.");
      memberId = member.id;
      notDone = {
        role: `${member.name}'s role was not changed.`,
        refund_limit: `${member.name}'s refund limit was not changed.`,
        branches: `${member.name}'s branches were not changed.`,
        setup_link: `No new set-up link for ${member.name}.`,
        remove: `${member.name} was not removed.`,
      }[intent];
      const self = member.id === actor.staffId;
      if (intent === "role") {
        const change = parseInput(staffUpdateBody, { role: values.role || undefined });
        const role = change.role ?? member.role;
        plan = {
          label: `Change ${member.name}'s role to ${ROLE_LABELS[role]}`,
          run: async () => {
            const updated = await service.update(actor, member.id, change);
            // A new role ends the member's sessions: their own too.
            return { message: `${updated.name} is now ${ROLE_PHRASES[updated.role]}.`, signedOut: self && updated.role !== member.role };
          },
        };
      } else if (intent === "refund_limit") {
        const change = parseInput(staffUpdateBody, { refund_limit: pounds(values.refund_limit ?? "") });
        const limit = formatPounds(change.refund_limit ?? 0);
        plan = {
          label: `Set ${member.name}'s refund limit to ${limit}`,
          run: async () => {
            const updated = await service.update(actor, member.id, change);
            return { message: `${updated.name} can now refund up to ${formatPounds(updated.refund_limit)}.` };
          },
        };
      } else if (intent === "branches") {
        const ids = (values.branch_ids ?? "").split(",").filter(Boolean).map(Number);
        const change = parseInput(staffUpdateBody, { branch_ids: ids, branches_only: values.branches_only === "on" });
        plan = {
          label: `Change the branches ${member.name} works at`,
          run: async () => {
            const updated = await service.update(actor, member.id, change);
            const at = updated.branch_ids.length ? `works at ${updated.branch_ids.length === 1 ? "one branch" : `${updated.branch_ids.length} branches`}` : "works at no branch in particular";
            return { message: `${updated.name} ${at}${updated.branches_only ? ", and sees only their orders" : ""}.` };
          },
        };
      } else if (intent === "setup_link") {
        plan = {
          label: `Send ${member.name} a new set-up link, resetting their authenticator app`,
          run: async () => {
            const reset = await service.resendSetup(actor, member.id);
            // Their own: signed out too, but the link is shown first (a redirect would lose it).
            return {
              message: self
                ? "New set-up link for you: your authenticator app was reset and you were signed out. Copy the link below and open it to set up again."
                : `New set-up link for ${reset.staff.name}: their authenticator app was reset and they were signed out. Copy the link below and send it to them.`,
              link: { name: reset.staff.name, url: reset.setup_url, expires_at: reset.expires_at },
            };
          },
        };
      } else {
        plan = {
          label: `Remove ${member.name}`,
          run: async () => {
            const removed = await service.remove(actor, member.id);
            return { message: `${removed.name} has been removed: signed out at once, and any API tokens they made are revoked.`, signedOut: self };
          },
        };
      }
    }
    const guarded = await withRecentPassword(app.services.staffSignIn, actor, form, plan.label, plan.run);
    if ("needsPassword" in guarded) return data<ActionResult>({ outcome: "password", intent, memberId, pending: guarded.needsPassword, values }, { status: guarded.status });
    // The member changed their own access: their session has ended, so on to sign in again.
    if (guarded.done.signedOut) return redirect("/admin/login?redirect=/admin");
    return data<ActionResult>({ outcome: "done", intent, memberId, message: guarded.done.message, ...(guarded.done.link ? { link: guarded.done.link } : {}) });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (intent === "invite" && known.errors) return failed(known.status, null, "No one was invited: check the details below.", known.errors);
    // In the banner, and beside the control it is about.
    const said = known.errors ? Object.values(known.errors).flat().join(" ") : known.message;
    const field = FAILURE_FIELD[intent];
    return failed(known.status, memberId, `${notDone} ${said}`, { ...known.errors, [field]: known.errors?.[field] ?? [said] });
  }
}

export default function AdminStaff({ loaderData, actionData }: Route.ComponentProps) {
  const { members, me } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = actionData as ActionResult | undefined;
  const invite = result?.intent === "invite" ? result : undefined;
  const inviteErrors = invite?.outcome === "failed" ? invite.errors : {};
  const inviteTyped = invite && invite.outcome !== "done" ? invite.values : undefined;
  const inviteForm = useRef<HTMLFormElement>(null);
  const fieldErrors = invite?.outcome === "failed" && ["name", "email", "role"].some((f) => inviteErrors[f]);
  useFocusFirstInvalid(inviteForm, fieldErrors, result);
  const errorOf = (name: string) => inviteErrors[name]?.join(" ");
  return (
    <>
      <PageHeader
        title="Staff"
        intro="Who works behind the counter, and what their role lets them do. Changes here need your password again every 5 minutes."
        actions={
          <a href="#invite" className="btn-primary">
            Invite a member of staff
          </a>
        }
      />
      <GuardedResult result={result} cancelTo="/admin/staff" busy={busy} focus={!fieldErrors} />
      {result?.outcome === "done" && result.link ? (
        <OneTimePanel name="Set-up link" testId="setup-link" label={`Set-up link for ${result.link.name}`} value={result.link.url} valueTestId="setup-link-value">
          <p>
            Shown only now: copy it and send it to {result.link.name} yourself. It is valid 24 hours (until {formatDateTime(result.link.expires_at)}) and works once; they choose a password and
            set up their authenticator app with it.
          </p>
        </OneTimePanel>
      ) : null}

      <section aria-labelledby="staff-heading" className="mb-8">
        <h2 id="staff-heading" className="sr-only">
          Members of staff
        </h2>
        <TableOrCards
          caption="Members of staff; removed members last"
          columns={["Name", "Role", "Two-factor", "Account", "Refund limit (sales)", "Actions"].map((label) => ({ label, className: "whitespace-nowrap" }))}
        >
          {members.map((m) => (
            <MemberRow key={m.id} member={m} me={me} result={result} busy={busy} branches={loaderData.branches} />
          ))}
        </TableOrCards>
        <p className="mt-2 text-sm text-stone-600">A new role signs the member out: they sign in again under it. The shop always keeps at least one owner.</p>
      </section>

      <section id="invite" aria-labelledby="invite-heading" tabIndex={-1} className="max-w-3xl rounded-lg border border-stone-200 bg-white p-5">
        <h2 id="invite-heading" className="text-lg font-bold">
          Invite a member of staff
        </h2>
        <p className="mt-1 text-stone-700">You get a set-up link to send them: with it they choose a password and set up an authenticator app.</p>
        <Form ref={inviteForm} method="post" className="mt-4 grid gap-4 sm:grid-cols-2" noValidate key={invite?.outcome === "done" ? invite.message : "invite"}>
          <input type="hidden" name="intent" value="invite" />
          <Field label="Name" name="name" autoComplete="off" required maxLength={120} defaultValue={inviteTyped?.name ?? ""} error={errorOf("name")} />
          <Field label="Email address" name="email" type="email" autoComplete="off" required maxLength={254} defaultValue={inviteTyped?.email ?? ""} error={errorOf("email")} />
          <div className="grid content-start gap-1.5 sm:col-span-2">
            <label htmlFor="invite-role" className="font-semibold text-stone-900">
              Role
            </label>
            <FieldError id="invite-role-error" messages={inviteErrors.role} />
            <RoleSelect id="invite-role" value={inviteTyped?.role ?? ""} errors={inviteErrors.role} describedBy="invite-role-hint" className="sm:max-w-xs" choose />
            <dl id="invite-role-hint" className="mt-1 grid gap-x-3 gap-y-0.5 text-sm text-stone-700 sm:grid-cols-[max-content_1fr]">
              {STAFF_ROLES.map((r) => (
                <div key={r} className="contents">
                  <dt className="font-semibold">{ROLE_LABELS[r]}</dt>
                  <dd>{ROLE_SUMMARIES[r]}</dd>
                </div>
              ))}
            </dl>
          </div>
          <IntentSubmit intent="invite" busyLabel="Inviting…">
            Invite and make a set-up link
          </IntentSubmit>
        </Form>
      </section>
    </>
  );
}
