import { Form } from "react-router";
import type { StaffJson } from "../../../server/modules/staff/service.ts";
import { formatDateTime } from "../../lib/admin/format.ts";
import { ButtonForm, ConfirmDisclosure } from "./confirm-with-reason.tsx";
import { FieldError } from "./field-error.tsx";
import { RoleSelect, STAFF_CONTROL } from "./role-select.tsx";
import { STACKED } from "./stacked-table.ts";

const control = STAFF_CONTROL;


type Member = StaffJson;

/** What the staff screen's last post answered, as far as a member's row reads it. */
export type MemberRowResult = { outcome: "done" | "failed" | "password"; memberId: number | null; errors?: Record<string, string[]>; values?: Record<string, string> };

/** The branches a member works at, and whether they see only those branches' orders (owners and managers always see all). */
function BranchesOf({ member, branches, errors, busy }: { member: Member; branches: { id: number; name: string }[]; errors: string[] | undefined; busy: boolean }) {
  const names = branches.filter((b) => member.branch_ids.includes(b.id)).map((b) => b.name);
  const seesAll = member.role === "owner" || member.role === "manager";
  return (
    <ConfirmDisclosure summary={names.length ? `Branches: ${names.join(", ")}` : "Branches"} open={Boolean(errors)}>
      <Form method="post" className="grid gap-2">
        <input type="hidden" name="intent" value="branches" />
        <input type="hidden" name="id" value={member.id} />
        <FieldError messages={errors} className="block max-w-64" />
        <fieldset className="grid gap-1">
          <legend className="font-semibold">Works at</legend>
          {branches.map((b) => (
            <label key={b.id} className="flex min-h-9 items-center gap-2">
              <input type="checkbox" name="branch_ids" value={b.id} defaultChecked={member.branch_ids.includes(b.id)} className="size-4" />
              {b.name}
            </label>
          ))}
        </fieldset>
        {seesAll ? (
          <p className="text-stone-600">Owners and managers see every branch's orders; their branches come first.</p>
        ) : (
          <label className="flex items-start gap-2">
            <input type="checkbox" name="branches_only" defaultChecked={member.branches_only} className="mt-1 size-4" />
            <span>Only these branches' orders</span>
          </label>
        )}
        <button type="submit" className="btn-primary w-full disabled:opacity-75" disabled={busy}>
          Save<span className="sr-only"> {member.name}'s branches</span>
        </button>
      </Form>
    </ConfirmDisclosure>
  );
}

export function MemberRow({ member, me, result, busy, branches }: { member: Member; me: number; result: MemberRowResult | undefined; busy: boolean; branches: { id: number; name: string }[] }) {
  const mine = result && result.memberId === member.id ? result : undefined;
  const errors = (mine?.outcome === "failed" ? mine.errors : undefined) ?? {};
  const typed = mine && mine.outcome !== "done" ? mine.values : undefined;
  const rowId = `member-${member.id}`;
  const cell = STACKED.cell;
  const self = member.id === me;
  return (
    <tr id={rowId} className={`${STACKED.row} ${member.removed ? "bg-stone-100 text-stone-500" : "max-lg:bg-white"}`} data-testid="staff-row">
      <th scope="row" className={`${cell} text-left font-normal`} data-label="Name">
        <span>
          <span className="block font-semibold text-inherit">
            {member.name}
            {self ? <span className="font-normal text-stone-600"> (you)</span> : null}
          </span>
          <span className="block max-lg:[overflow-wrap:anywhere]">{member.email}</span>
        </span>
      </th>
      <td className={cell} data-label="Role">
        {member.removed ? (
          member.role_label
        ) : (
          <Form method="post" className="grid gap-1" noValidate>
            <input type="hidden" name="intent" value="role" />
            <input type="hidden" name="id" value={member.id} />
            <label htmlFor={`${rowId}-role`} className="sr-only">
              Role for {member.name}
            </label>
            <FieldError id={`${rowId}-role-error`} messages={errors.role} className="block max-w-64" />
            <div className="flex flex-wrap gap-2 lg:flex-nowrap">
              <RoleSelect id={`${rowId}-role`} value={typed?.role || member.role} errors={errors.role} />
              <button type="submit" className="btn-secondary min-h-11 px-3 disabled:opacity-75" disabled={busy}>
                Save<span className="sr-only"> {member.name}'s role</span>
              </button>
            </div>
          </Form>
        )}
      </td>
      <td className={cell} data-label="Two-factor">
        {member.totp_enabled ? "On" : "Off"}
      </td>
      <td className={cell} data-label="Account">
        <span>
          {member.removed ? "Removed" : member.set_up ? "Set up" : "Invited"}
          {!member.removed && !member.set_up ? <span className="block text-xs text-stone-600">on {formatDateTime(member.created_at)}</span> : null}
        </span>
      </td>
      <td className={cell} data-label="Refund limit">
        {member.role !== "sales" || member.removed ? (
          <span>
            <span aria-hidden="true">—</span>
            <span className="sr-only">{member.removed ? "None" : "Not limited by the role's own rules"}</span>
          </span>
        ) : (
          <Form method="post" className="grid gap-1" noValidate>
            <input type="hidden" name="intent" value="refund_limit" />
            <input type="hidden" name="id" value={member.id} />
            <label htmlFor={`${rowId}-limit`} className="sr-only">
              Refund limit for {member.name}, in pounds
            </label>
            <FieldError id={`${rowId}-limit-error`} messages={errors.refund_limit} className="block max-w-64" />
            <div className="flex flex-wrap items-center gap-2 lg:flex-nowrap">
              <span className="flex items-center">
                <span aria-hidden="true" className="pr-1">
                  £
                </span>
                <input
                  id={`${rowId}-limit`}
                  name="refund_limit"
                  inputMode="decimal"
                  defaultValue={typed?.refund_limit || member.refund_limit.toFixed(2)}
                  aria-invalid={errors.refund_limit ? true : undefined}
                  aria-describedby={errors.refund_limit ? `${rowId}-limit-error` : undefined}
                  className={`${control} w-24 ${errors.refund_limit ? "border-2 border-red-700" : "border-stone-400"}`}
                />
              </span>
              <button type="submit" className="btn-secondary min-h-11 px-3 disabled:opacity-75" disabled={busy}>
                Save<span className="sr-only"> {member.name}'s refund limit</span>
              </button>
            </div>
          </Form>
        )}
      </td>
      <td className={cell} data-label="Actions">
        {member.removed ? (
          <span>No actions: kept for the audit log</span>
        ) : (
          <div className="flex flex-wrap items-start gap-2 lg:flex-col">
            {branches.length ? <BranchesOf member={member} branches={branches} errors={errors.branch_ids} busy={busy} /> : null}
            <ConfirmDisclosure summary="New set-up link" open={Boolean(errors.setup_link)}>
              <FieldError id={`${rowId}-setup-error`} messages={errors.setup_link} className="block max-w-64" />
              <p>
                For someone who lost their link or their phone. It <strong>resets {self ? "your" : "their"} authenticator app</strong> and signs {self ? "you" : "them"} out; the link is valid 24 hours.
              </p>
              <ButtonForm fields={{ intent: "setup_link", id: member.id }} busy={busy}>
                Reset and make a link
              </ButtonForm>
            </ConfirmDisclosure>
            <ConfirmDisclosure summary="Remove" danger open={Boolean(errors.remove)}>
              <FieldError id={`${rowId}-remove-error`} messages={errors.remove} />
              <p>
                {self ? "You are" : `${member.name} is`} signed out at once and cannot sign in again; API tokens {self ? "you" : "they"} made stop working. They stay in the audit log.
              </p>
              <ButtonForm fields={{ intent: "remove", id: member.id }} look="danger" busy={busy}>
                Remove {member.name}
              </ButtonForm>
            </ConfirmDisclosure>
          </div>
        )}
      </td>
    </tr>
  );
}
