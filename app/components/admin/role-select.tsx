import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from "../../../server/modules/staff/permissions.ts";
import { Options } from "./options.tsx";

/** The text box look of the staff screens' controls (a red border on an error). */
export const STAFF_CONTROL = "min-h-11 rounded-md border bg-white px-3 py-2 text-base";

/**
 * A staff role's choice (a member's, a token's), described by its error
 * (`${id}-error`, a FieldError the caller puts before it); "Choose a role"
 * first where none is chosen yet. The label is the caller's too (a visible
 * one above it, or one for screen readers in a table row).
 */
export function RoleSelect({ id, value, errors, describedBy, choose = false, className = "" }: { id: string; value: StaffRole | string; errors: string[] | undefined; describedBy?: string; choose?: boolean; className?: string }) {
  return (
    <select
      id={id}
      name="role"
      required={choose || undefined}
      defaultValue={value}
      aria-invalid={errors ? true : undefined}
      aria-describedby={[describedBy ?? "", errors ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined}
      className={`${STAFF_CONTROL} ${className} ${errors ? "border-2 border-red-700" : "border-stone-400"}`}
    >
      {choose ? (
        <option value="" disabled>
          Choose a role
        </option>
      ) : null}
      <Options of={STAFF_ROLES} value={(r) => r} label={(r) => ROLE_LABELS[r]} />
    </select>
  );
}

/**
 * A staff screen's form button (invite a member, make a token), on a row of
 * its own: disabled while any of the screen's forms is sent, and saying what
 * it does ("Inviting…") while its own `intent` is.
 */
export function IntentSubmit({ intent, busyLabel, children }: { intent: string; busyLabel: string; children: ReactNode }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className="sm:col-span-2">
      <button type="submit" className="btn-primary disabled:opacity-75" disabled={busy}>
        {busy && navigation.formData?.get("intent") === intent ? busyLabel : children}
      </button>
    </div>
  );
}
