// A signed-in customer's plain form posts on the storefront (quotes, sites),
// on the server: who may post, and a service's refusal as the form shows it.
import { redirect } from "react-router";
import type { AppContext } from "#app-context";
import type { FieldErrors } from "../../server/http-errors.ts";
import { loginUrlFor, requireOwnOrigin } from "./access.ts";
import { serviceError } from "./admin/access.ts";
import { notFound } from "./not-found.ts";

export const CHECK_BELOW = "Check the fields marked below.";

/** What a refused write hands back to its form: the message, each field's errors, and the form as sent so nothing typed is lost. */
export interface CustomerFormFailure {
  message: string;
  errors: FieldErrors;
  values: Record<string, string>;
}

/** A storefront form post from this site by a signed-in customer: anyone else is refused or sent to sign in. */
export function signedInPoster(app: AppContext, request: Request): number {
  requireOwnOrigin(request, app.config.apiBaseUrl);
  if (!app.user) throw redirect(loginUrlFor(new URL(request.url)));
  return app.user.id;
}

/**
 * What a service refused, as the form shows it: errors of the form's own
 * `fields` beside them, any other in the message. A 404 is the page's own;
 * anything unforeseen is thrown on.
 */
export function customerRefusal(error: unknown, values: Record<string, string>, fields: readonly string[]): CustomerFormFailure {
  if (error instanceof Response) throw error;
  const known = serviceError(error);
  if (!known) throw error;
  if (known.status === 404) notFound();
  const errors: FieldErrors = {};
  const other: string[] = [];
  for (const [field, messages] of Object.entries(known.errors ?? {})) {
    if (fields.includes(field) || field.startsWith("delivery_address.")) errors[field] = messages;
    else other.push(messages.join(" "));
  }
  const message = other.length ? other.join(" ") : known.errors ? CHECK_BELOW : known.message;
  return { message, errors, values };
}
