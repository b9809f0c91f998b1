import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import { REAUTH_REQUIRED, type StaffService } from "../../../server/modules/staff/service.ts";
import { type PendingAction, REAUTH_PASSWORD_FIELD } from "../../components/admin/reauth.tsx";
import { serviceError } from "./access.ts";

export type Guarded<T> = { done: T } | { needsPassword: PendingAction; status: 403 | 422 };

/** A post's fields, without the password, bounded: what the prompt sends again. */
function pendingFields(form: FormData): [string, string][] {
  const fields: [string, string][] = [];
  for (const [name, value] of form) {
    if (name === REAUTH_PASSWORD_FIELD || typeof value !== "string") continue;
    fields.push([name.slice(0, 60), value.slice(0, 2000)]);
    if (fields.length === 20) break;
  }
  return fields;
}

/**
 * Runs a sensitive service call from a screen's action. When the post carries
 * the password (the prompt's form), it is checked first; when the service
 * answers that the password is needed (403 REAUTH_REQUIRED, older than 5
 * minutes), the screen gets what to ask instead of an error, with the post's
 * own fields to send again, so the member never loses what they typed. Any
 * other failure is thrown as it was, for the screen to show.
 */
export async function withRecentPassword<T>(
  /** The staff sign-in (`services.staffSignIn`): the password check counts against the account's limit. */
  staff: Pick<StaffService, "reauthenticate">,
  actor: StaffActor,
  form: FormData,
  /** What the member is about to do, for the prompt: "Change Sita Sales's role to Manager". */
  action: string,
  run: () => Promise<T>,
): Promise<Guarded<T>> {
  const ask = (status: 403 | 422, error?: string): Guarded<T> => ({ needsPassword: { action, fields: pendingFields(form), ...(error ? { error } : {}) }, status });
  const password = form.get(REAUTH_PASSWORD_FIELD);
  if (typeof password === "string") {
    if (!password) return ask(422, "Enter your password.");
    try {
      await staff.reauthenticate(actor, password.slice(0, 200));
    } catch (error) {
      const known = serviceError(error);
      // A wrong password (422), or too many of them (429): asked again, with why.
      if (known?.status !== 422 && known?.status !== 429) throw error;
      return ask(422, known.errors?.password?.join(" ") ?? known.message);
    }
  }
  try {
    return { done: await run() };
  } catch (error) {
    const known = serviceError(error);
    if (known?.status === 403 && known.message === REAUTH_REQUIRED) return ask(403);
    throw error;
  }
}
