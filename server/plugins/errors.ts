import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { type FieldErrors, ValidationError, summarise } from "../http-errors.ts";

function fieldName(instancePath: string, context: string | undefined): string {
  const field = instancePath.replace(/^\//, "").replaceAll("/", ".");
  return field || context || "request";
}

/**
 * One error handler for the API: validation answers 422 `{message, errors}`,
 * client errors keep their own message, and anything unexpected answers
 * 500 `{message: "Server Error"}` and is logged with its stack, never sent.
 */
/** The field messages of a failed request schema, or null for any other error. */
export function schemaErrors(error: unknown): FieldErrors | null {
  if (!hasZodFastifySchemaValidationErrors(error)) return null;
  const errors = new Map<string, string[]>();
  for (const issue of error.validation) {
    const field = fieldName(issue.instancePath, error.validationContext);
    errors.set(field, [...(errors.get(field) ?? []), issue.message ?? "is invalid"]);
  }
  // Built from a map: a field named `__proto__` (a key of a record) must stay a field, not become a prototype.
  return Object.fromEntries(errors);
}

/** Seconds a client is asked to wait when the database is briefly out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
export const DATABASE_UNAVAILABLE = "The shop is briefly unavailable. Please try again in a moment.";

// Node's socket errors for a server that is gone or unreachable.
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// PostgreSQL: connection exceptions (class 08), the server shutting down or starting, no free connection.
const sqlStates = /^(08...|57P0[1-3]|53300)$/;
// node-postgres says these in words only.
const pgMessages = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed)/;

/**
 * The database could not be reached (refused, dropped, shutting down, no
 * connection in time): the same request may well succeed in a moment.
 * Looks through the causes, as Drizzle wraps the driver's error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === "string" && (socketCodes.has(code) || sqlStates.test(code))) return true;
    if (typeof message === "string" && pgMessages.test(message)) return true;
    // A connection to a host with several addresses fails with each one's error.
    if (Array.isArray(errors) && errors.some((x) => isDatabaseUnavailable(x))) return true;
  }
  return false;
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ValidationError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      // Not the client's fault and not a bug: ask for a retry, and let the load balancer see /readyz.
      request.log.warn({ err: error }, "database unavailable");
      return reply.code(503).header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS)).send({ message: DATABASE_UNAVAILABLE });
    }
    if (error instanceof ValidationError) {
      return reply.code(422).send({ message: error.message, errors: error.errors });
    }
    const errors = schemaErrors(error);
    if (errors) return reply.code(422).send({ message: summarise(errors), errors });
    const status = typeof error.statusCode === "number" ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: { message: error.message, code: error.code } }, "client error");
      return reply.code(status).send({ message: error.message });
    }
    request.log.error({ err: error }, "unexpected error");
    return reply.code(500).send({ message: "Server Error" });
  });
}
