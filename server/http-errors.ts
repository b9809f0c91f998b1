/** Field name to its messages; the UI joins a field's messages with spaces. */
export type FieldErrors = Record<string, string[]>;

/**
 * A validation failure a service can raise; the error handler answers it as
 * 422 `{message, errors}`, the same shape as a schema failure at the door.
 */
export class ValidationError extends Error {
  readonly statusCode = 422;
  readonly errors: FieldErrors;
  constructor(errors: FieldErrors, message?: string) {
    super(message ?? summarise(errors));
    this.name = "ValidationError";
    this.errors = errors;
  }
}

/** An error whose message is safe to show to the client, with its HTTP status. */
export class HttpError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.name = "HttpError";
    this.statusCode = statusCode;
  }
}

/** "First message (and N more errors)", as Laravel-style clients expect. */
export function summarise(errors: FieldErrors): string {
  const all = Object.values(errors).flat();
  const first = all[0] ?? "The given data was invalid.";
  const more = all.length - 1;
  return more > 0 ? `${first} (and ${more} more error${more === 1 ? "" : "s"})` : first;
}

/** Parses input that reached a service by another door than a route's schema (a screen's form, the CLI): a failure is the same 422. */
export function parseInput<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = new Map<string, string[]>();
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join(".") || "request";
    errors.set(field, [...(errors.get(field) ?? []), issue.message]);
  }
  // From a map: a field named `__proto__` stays a field.
  throw new ValidationError(Object.fromEntries(errors));
}
