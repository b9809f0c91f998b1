import { redirect } from "react-router";
import { ApiError, type FieldErrors, fieldMessage } from "./api-client.ts";
import { loginUrlFor } from "./access.ts";

/**
 * What a form's client action hands back to its screen: either success (with a
 * message to show) or failure, with each field's server messages and a
 * form-level message for everything that belongs to no field.
 */
export type FormResult = { ok: true; message?: string } | FormFailure;

export interface FormFailure {
  ok: false;
  /** Messages by field name, as the server sent them. */
  errors: FieldErrors;
  /** For the form-level alert. */
  message?: string;
}

export interface FailureOptions {
  /** The message for failures that are not the user's to fix (network, 5xx, a refused request). */
  fallback: string;
  /** The fields this form shows: their errors appear beside them; any other field's go in the alert. */
  fields: readonly string[];
  /** Statuses whose own message the user should read, e.g. 429 "Too many sign-in attempts…". */
  showServerMessageFor?: readonly number[];
}

export function failure(message: string, errors: FieldErrors = {}): FormFailure {
  return { ok: false, errors, message };
}

/** Turns whatever a call threw into what the form shows. */
export function failureFrom(error: unknown, options: FailureOptions): FormFailure {
  if (!(error instanceof ApiError)) return failure(options.fallback);
  if (error.status === 422) {
    const errors: FieldErrors = {};
    const other: string[] = [];
    for (const [field, messages] of Object.entries(error.errors)) {
      if (!Array.isArray(messages) || messages.length === 0) continue;
      if (options.fields.includes(field)) errors[field] = messages;
      else other.push(messages.join(" "));
    }
    if (other.length > 0) return { ok: false, errors, message: other.join(" ") };
    if (Object.keys(errors).length > 0) return { ok: false, errors };
    return failure(error.message || options.fallback);
  }
  if (options.showServerMessageFor?.includes(error.status) && error.message) return failure(error.message);
  return failure(options.fallback);
}

/** A signed-in screen whose session ended meanwhile: back to sign-in, then back here. */
export function redirectIfSignedOut(error: unknown, request: Request): void {
  if (error instanceof ApiError && error.status === 401) throw redirect(loginUrlFor(new URL(request.url)));
}

/** The message for one field of a failed form, joined with spaces. */
export function errorFor(result: FormResult | undefined, field: string): string | undefined {
  return result && !result.ok ? fieldMessage(result.errors, field) : undefined;
}

/** A form value as a trimmed string (empty when absent). */
export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** A form value exactly as typed (passwords keep their spaces). */
export function raw(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export function checked(form: FormData, name: string): boolean {
  const value = form.get(name);
  return value === "on" || value === "true" || value === "1";
}
